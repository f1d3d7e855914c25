//! An arm guarded on a view (tests/specs/guarded_view.isa, AGX's texture operand): the text
//! of every word assembles back to it, and a mistake is reported where it is.

use isa_runtime::target::{assemble_program, disassemble_word};

mod spec {
    isa_derive::target!("tests/specs/guarded_view.isa");
}

use spec::GuardedView;

#[test]
fn every_word_assembles_back() {
    for n in 0..128u64 {
        for low in 0..64u64 {
            // op, h, n's low 5 bits, reg, bindless, round, u 3 when bindless; n's top 2 bits at 31:30.
            let word = 0xf1 | (low << 8) | ((n >> 5) << 30);
            for flags in 0..8u64 {
                let w = word | ((flags & 3) << 14) | ((flags >> 2) << 20) | ((((flags >> 1) & 1) * 3) << 16);
                if flags & 3 == 3 && low & 1 == 1 {
                    continue; // a bindless register is whole: its half bit does not print
                }
                let text = disassemble_word::<GuardedView>(w as u128, 0, 0).unwrap();
                let back = assemble_program::<GuardedView>(&text, 0)
                    .unwrap_or_else(|e| panic!("{w:#x} {text}: {e:?}"));
                assert_eq!(back, [w as u128], "{text}");
            }
        }
    }
}

/// Mistakes are reported at the operand that is wrong; a register the printer would spell
/// otherwise (`r0l` of a bindless texture prints `0`) is refused with the reason.
#[test]
fn errors_name_the_operand_at_fault() {
    let message = |text: &str| match assemble_program::<GuardedView>(text, 0) {
        Ok(w) => panic!("{text} assembled to {w:x?}"),
        Err(e) => (e[0].column, e[0].message.clone()),
    };
    assert_eq!(
        message("w u3, r0h, rtx"),
        (12, "operand 3 of `w`: expected `rte` or `rtz`, found `rtx`".into())
    );
    assert_eq!(
        message("w None, ts5, rtx"),
        (14, "operand 3 of `w`: expected `rte` or `rtz`, found `rtx`".into())
    );
    assert_eq!(message("w u3, ts5, rte"), (7, "operand 2 of `w`: expected `0` or `r`, found `ts5`".into()));
    assert_eq!(assemble_program::<GuardedView>("w u3, 0, rtz", 0).unwrap(), [0x1380f1]);
    let (_, refused) = message("w u3, r0l, rte");
    assert!(refused.contains("consistent"), "{refused}");
}

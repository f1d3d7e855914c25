//! A field settled by an `in` guard (data/specs/in_guard.isa): the assembler tries the values
//! the set lists, after the text, so the text settles the field where it shows it (`r3.b2`)
//! and the set's first value fits where it does not (`.u16` with no part is half 0, `.wide`
//! alone is 2). The words are worked by hand from the spec's bit positions.

mod set_guards {
    isa_derive::target!("data/specs/in_guard.isa");
}

mod wide_set_guards {
    isa_derive::target!("data/specs/in_guard_wide.isa");
}

use isa_runtime::target::assemble_program;
use set_guards::InGuard;

fn word(line: &str) -> u128 {
    match assemble_program::<InGuard>(line, 0) {
        Ok(words) if words.len() == 1 => words[0],
        other => panic!("{line:?}: {other:?}"),
    }
}

#[test]
fn a_set_guard_settles_its_field() {
    // op 0xa at 15:12, sign 11, sel 10:8, w 7:6, rd 3:0.
    assert_eq!(word("vadd.u16.narrow r3"), 0xa403); // sel 4: the half the empty part leaves
    assert_eq!(word("vadd.u8.wide r3.b2"), 0xa283); // sel 2 from the part, w 2 from the set
    assert_eq!(word("vadd.s8.narrow r1"), 0xa801); // sign, sel 0
    assert_eq!(word("vadd.s16.wide r15.h1"), 0xad8f); // sign, sel 5, w 2
    assert_eq!(word("vadd.u32.narrow r0"), 0xa600); // sel 6: an `==` arm after two set arms
}

#[test]
fn a_value_outside_the_set_is_refused() {
    // `.h1` is sel 5, which `.u8`'s set {0..=3} does not hold; `.b1` is no half.
    for line in ["vadd.u8.narrow r3.h1", "vadd.u16.wide r3.b1", "vadd.s32.narrow r2.b3"] {
        assert!(assemble_program::<InGuard>(line, 0).is_err(), "{line:?} assembles");
    }
}

/// A set guard on an enum field settles it to a value the enum defines: `st.wide` is size 4
/// (`.64`), the set {2..=7}'s first defined value, and prints back; before, the assembler chose
/// 2, a hole of the enum, and the word did not decode.
#[test]
fn a_set_guard_on_an_enum_field_chooses_a_defined_value() {
    use isa_runtime::target::disassemble_word;
    // op 0xb at 15:12, size 10:8, rd 3:0.
    assert_eq!(word("st.wide r1"), 0xb401);
    assert_eq!(word("st.narrow r2"), 0xb002);
    assert_eq!(disassemble_word::<InGuard>(0xb401, 0, 0).as_deref(), Ok("st.wide r1"));
    // Size 2 is no size: that word decodes to nothing (what the assembler gave before).
    assert!(<InGuard as isa_runtime::target::Isa>::decode(0xb201).is_err());
}

/// A set of a 64-bit field's top values (data/specs/in_guard_wide.isa, which the guard reads
/// as -16..=-2): the word printing `mark.top` assembles back, its field the set's first value.
/// Before, the assembler offered no value from a range below zero, so `mark.top` did not
/// assemble although 0x2fff_ffff_ffff_ffff_5... printed so.
#[test]
fn a_set_of_a_64_bit_fields_top_values_settles_it() {
    use isa_runtime::target::disassemble_word;
    use wide_set_guards::InGuardWide;
    let word = |line: &str| match assemble_program::<InGuardWide>(line, 0) {
        Ok(words) if words.len() == 1 => words[0],
        other => panic!("{line:?}: {other:?}"),
    };
    // op 2 at 127:124, x at 123:60 (hex digits 30..15), unused below.
    assert_eq!(
        disassemble_word::<InGuardWide>(0x2fff_ffff_ffff_ffff_5000_0000_0000_0000, 0, 0).as_deref(),
        Ok("mark.top")
    );
    assert_eq!(word("mark.top"), 0x2fff_ffff_ffff_ffff_0000_0000_0000_0000);
    assert_eq!(word("mark.all"), 0x2fff_ffff_ffff_ffff_f000_0000_0000_0000);
    assert_eq!(word("mark 5"), 0x2000_0000_0000_0000_5000_0000_0000_0000);
    // 0x7ffffffffffffffe..=0x8000000000000001 holds values on both sides of 2^63: the first
    // settles `mark.mid`, the last prints so (before, the range was "empty").
    assert_eq!(word("mark.mid"), 0x27ff_ffff_ffff_ffff_e000_0000_0000_0000);
    assert_eq!(
        disassemble_word::<InGuardWide>(0x2800_0000_0000_0000_1000_0000_0000_0000, 0, 0).as_deref(),
        Ok("mark.mid")
    );
}

//! Guards over a signed field read its value (tests/specs/signed_guard.isa): `x == -1`,
//! `x in {6..=9}` (6 and 7: 8 and 9 are no values of an `s4`), `x < -4` and `-3 > x - 3`
//! choose the arm the field's two's-complement value says, in the printer and the assembler
//! alike (before, guards read the raw bits: `x == -1` was an error, `x < -4` never held and
//! the bits of -8 and -7 were in `{6..=9}`).

use isa_runtime::target::{assemble_program, disassemble_word};

mod spec {
    isa_derive::target!("tests/specs/signed_guard.isa");
}

use spec::SignedGuard;

#[test]
fn guards_read_the_signed_value_both_ways() {
    for raw in 0..16u64 {
        let value = (raw as i64) - if raw >= 8 { 16 } else { 0 };
        let expected = match value {
            -1 => "m1".to_string(),
            6 | 7 => format!("hi {value}"),
            v if v < -4 => format!("lo {v}"),
            v if v < 0 => format!("neg {v}"),
            v => format!("f {v}"),
        };
        let word = 0xa000 | raw;
        let text = disassemble_word::<SignedGuard>(word as u128, 0, 0).unwrap();
        assert_eq!(text, expected, "{word:#x}");
        let back = assemble_program::<SignedGuard>(&text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(back, [word as u128], "{text}");
    }
    // `x == -1` settles the field's bits: 0xf.
    assert_eq!(assemble_program::<SignedGuard>("m1", 0).unwrap(), [0xa00f]);
    // A fixed signed field: the checker folded `y < 0 && y == -2` to true with y = -2.
    assert_eq!(disassemble_word::<SignedGuard>(0xb00e, 0, 0).unwrap(), "g");
    assert_eq!(assemble_program::<SignedGuard>("g", 0).unwrap(), [0xb00e]);
}

//! Guards over a signed field read its value (tests/specs/signed_guard.isa): `x == -1`,
//! `x in {6..=9}` (6 and 7: 8 and 9 are no values of an `s4`), `x < -4` and `-3 > x - 3`
//! choose the arm the field's two's-complement value says, in the printer and the assembler
//! alike (before, guards read the raw bits: `x == -1` was an error, `x < -4` never held and
//! the bits of -8 and -7 were in `{6..=9}`). Sets hold negative members (`x in {-4..=-2, 5}`,
//! `z: s4 @ 7:4 in {-3..=1}`): before, a syntax error.

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

/// Format `h`: `z` decodes only for its values -3..=1 (bits 0xd..=0xf, 0 and 1), and the guard
/// `x in {-4..=-2, 5}` holds for x's values -4, -3, -2 and 5, printing and assembling alike.
#[test]
fn negative_set_members_are_signed_values() {
    let value = |raw: u64| (raw as i64) - if raw >= 8 { 16 } else { 0 };
    for z in 0..16u64 {
        for x in 0..16u64 {
            let word = 0xc000 | z << 4 | x;
            let text = disassemble_word::<SignedGuard>(word as u128, 0, 0);
            if !(-3..=1).contains(&value(z)) {
                assert!(text.as_ref().map_or(true, |t| !t.starts_with('h')), "{word:#x}: {text:?}");
                continue;
            }
            let text = text.unwrap();
            let mnemonic = if matches!(value(x), -4..=-2 | 5) { "hn" } else { "h" };
            assert_eq!(text, format!("{mnemonic} {}, {}", value(z), value(x)), "{word:#x}");
            let back = assemble_program::<SignedGuard>(&text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(back, [word as u128], "{text}");
        }
    }
    assert!(assemble_program::<SignedGuard>("h 2, 0", 0).is_err());
    assert!(assemble_program::<SignedGuard>("hn 0, 0", 0).is_err());
    // The constraint `!(z in {-3} && x in {-4..=-2})`: broken by z = -3 (0xd) with x = -4,
    // -3, -2 (0xc, 0xd, 0xe) only.
    for x in 0..16u16 {
        for z in [0xdu16, 0xf, 0x0] {
            let insn = spec::Instruction::decode(0xc000 | z << 4 | x).unwrap();
            let broken: Vec<&str> = insn.broken_constraints().iter().map(|c| c.0).collect();
            let expected: &[&str] = if z == 0xd && (0xc..=0xe).contains(&x) { &["low"] } else { &[] };
            assert_eq!(broken, expected, "z {z:#x}, x {x:#x}");
        }
    }
}

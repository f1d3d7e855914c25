//! Enums written with the spelling pattern and variants without values
//! (data/specs/enum_shorthands.isa): the spec checked, but an operation value named `_y` or
//! `a__b` made `Semantics` methods (`op__y`, `op_a__b`) that rustc's `non_snake_case` lint
//! rejects, so the generated Rust did not compile. Words worked by hand from the spec's bit
//! positions: op 31:29, rnd 28:27, cc 26:24, rd 7:0.

mod shorthands {
    isa_derive::target!("data/specs/enum_shorthands.isa");
}

use isa_runtime::target::{assemble_program, disassemble_word};
use shorthands::{EnumShorthands, Round};

#[test]
fn values_follow_and_patterns_spell_in_both_directions() {
    // op _y (1), rnd rp (2), cc t (3), rd 5.
    let word = (1 << 29) | (2 << 27) | (3 << 24) | 5;
    assert_eq!(disassemble_word::<EnumShorthands>(word, 0, 0).as_deref(), Ok("_y.op.RP r5"));
    assert_eq!(assemble_program::<EnumShorthands>("_y.op.RP r5", 0), Ok(vec![word]));
    // op a__b (2), rnd rn (0, not printed), cc eq (2), rd 9.
    let word = (2 << 29) | (2 << 24) | 9;
    assert_eq!(disassemble_word::<EnumShorthands>(word, 0, 0).as_deref(), Ok("a__b.op CC.EQ, r9"));
    assert_eq!(assemble_program::<EnumShorthands>("a__b.op CC.EQ, r9", 0), Ok(vec![word]));
    // nv: sub (3) is SUBTRACT, rz (3) .RZ, cc 6 (the catch-all) CC6; `last` follows r(4..=6): 7.
    let word = (3 << 29) | (3 << 27) | (6 << 24) | 1;
    assert_eq!(disassemble_word::<EnumShorthands>(word, 1, 0).as_deref(), Ok("SUBTRACT.RZ CC6, r1"));
    let word = (7 << 29) | (1 << 27) | 2;
    assert_eq!(disassemble_word::<EnumShorthands>(word, 0, 0).as_deref(), Ok("last.op.RM CC.F, r2"));
    assert_eq!(Round::Rz as u8, 3);
}

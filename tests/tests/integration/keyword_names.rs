//! Names Rust keeps (data/specs/keyword_names.isa): `self`, `super` and `crate` cannot be raw
//! identifiers, nor `Self` (an enum value `self` in CamelCase), so the generated code did not
//! compile although the spec checked. Words worked by hand from the spec's bit positions.

mod keywords {
    isa_derive::target!("data/specs/keyword_names.isa");
}

use isa_runtime::target::{assemble_program, disassemble_word};
use keywords::KeywordNames;

#[test]
fn fields_and_values_named_as_keywords_compile_and_assemble() {
    // type 31:28, crate 27:24, self 23, super 22, unused 21, kind 20:19, unused 18:16, op 3:0 = 1.
    let word = 0x34d0_0001; // type 3, crate 4, self, super, kind crate (2)
    assert_eq!(assemble_program::<KeywordNames>("k 3 4 c.s.u", 0), Ok(vec![word]));
    assert_eq!(disassemble_word::<KeywordNames>(word, 0, 0).as_deref(), Ok("k 3 4 c.s.u"));
    let k = match keywords::Instruction::decode(word as u32) {
        Ok(keywords::Instruction::K(k)) => k,
        other => panic!("{other:?}"),
    };
    assert_eq!((k.r#type, k.crate_, k.self_, k.super_), (3, 4, true, true));
    assert_eq!(k.kind, keywords::Kind::Crate);
    assert_eq!(keywords::Kind::Self_ as u8, 0);
}

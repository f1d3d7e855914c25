//! The generated API as Rust users expect it: dialects are an enum, not strings.

use isa_generated::{maxwell, vc4};

/// Each target's `Dialect` enum lists its dialects in spec order, the first the default.
#[test]
fn dialects_are_an_enum_in_spec_order() {
    assert_eq!(vc4::Dialect::ALL, &[vc4::Dialect::Vc4asm, vc4::Dialect::Mesa]);
    assert_eq!(vc4::Dialect::default(), vc4::Dialect::Vc4asm);
    assert_eq!(maxwell::Dialect::ALL, &[maxwell::Dialect::Nvdisasm]);
    for d in vc4::Dialect::ALL {
        assert_eq!(d.name(), vc4::DIALECTS[d.index()].name);
        assert_eq!(d.spelling().name, d.to_string());
    }
    assert_eq!(vc4::Dialect::Mesa.index(), 1);
}

/// A name reads as its dialect whatever its ASCII case; an unknown one is an error listing the
/// dialects, the default marked (the message `isa --dialect` prints).
#[test]
fn dialect_names_parse_and_unknown_ones_list_the_dialects() {
    assert_eq!("mesa".parse(), Ok(vc4::Dialect::Mesa));
    assert_eq!("VC4ASM".parse(), Ok(vc4::Dialect::Vc4asm));
    assert_eq!("nvdisasm".parse(), Ok(maxwell::Dialect::Nvdisasm));
    let err = "mesa3d".parse::<vc4::Dialect>().expect_err("no such dialect");
    assert_eq!(
        err.to_string(),
        "unknown dialect `mesa3d` for target vc4; known dialects: vc4asm (default), mesa"
    );
    let err: &dyn core::error::Error = &err;
    assert!(err.source().is_none());
}

/// The same word in each dialect: the nop of both pipes (`tests/data/vc4/mesa_golden.tsv` has
/// Mesa's text, vc4asm's golden file its `nop`).
#[test]
fn one_word_in_each_dialect() {
    let nop = 0x1000_09e7_009e_7000;
    assert_eq!(vc4::disassemble(nop, vc4::Dialect::Vc4asm).as_deref(), Ok("nop"));
    assert_eq!(vc4::disassemble(nop, vc4::Dialect::Mesa).as_deref(), Ok("nop nop, r0, r0 ; nop nop, r0, r0"));
    let insn = vc4::Instruction::decode(nop).expect("decodes");
    let mut text = String::new();
    insn.write_text(vc4::Dialect::Mesa, 0, &mut text).expect("prints");
    assert_eq!(text, "nop nop, r0, r0 ; nop nop, r0, r0");
    let back = vc4::assemble("nop nop, r0, r0 ; nop nop, r0, r0", vc4::Dialect::Mesa).expect("assembles");
    assert_eq!(back[0].encode(), Ok(nop));
}

//! The generated API as Rust users expect it: dialects are an enum, not strings.

use isa_generated::{agx, maxwell, vc4};
use isa_runtime::DecodeError;

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

/// `TryFrom` a word is `decode`; from bytes it reads the instruction they start with in the
/// target's byte order (VC4 little-endian, AGX's mixed lengths from applegpu's facts in
/// `agx_instructions`), and too few bytes are `Truncated`.
#[test]
fn instructions_convert_from_words_and_bytes() {
    let nop = 0x1000_09e7_009e_7000u64;
    let insn = vc4::Instruction::try_from(nop).expect("decodes");
    assert_eq!(insn.to_string(), "nop");
    assert_eq!(vc4::Instruction::try_from(&nop.to_le_bytes()[..]), Ok(insn));
    let mut longer = nop.to_le_bytes().to_vec();
    longer.extend([0xff; 3]);
    assert_eq!(vc4::Instruction::try_from(&longer[..]), Ok(insn));
    assert_eq!(
        vc4::Instruction::try_from(&nop.to_le_bytes()[..7]),
        Err(DecodeError::Truncated { needed: 8, available: 7 })
    );
    let fadd = maxwell::Instruction::try_from(0x3858_003f_0007_0005u64).expect("decodes");
    assert_eq!(fadd.to_string(), "FADD R5, R0, 0.5 ;");
    // AGX: `stop` is 2 bytes, 32-bit `mov_imm r0.cache, 305419896` 6 (applegpu).
    let stop = agx::Instruction::try_from(&[0x88, 0x00, 0xe2, 0x01][..]).expect("decodes");
    assert_eq!(stop.to_string().trim_end(), "stop");
    let mov = [0xe2, 0x01, 0x78, 0x56, 0x34, 0x12];
    let insn = agx::Instruction::try_from(&mov[..]).expect("decodes");
    assert_eq!(
        insn.to_string().split_whitespace().collect::<Vec<_>>(),
        ["mov_imm", "r0.cache,", "305419896,", "0b0"]
    );
    assert_eq!(
        agx::Instruction::try_from(&mov[..4]),
        Err(DecodeError::Truncated { needed: 6, available: 4 })
    );
    // No bytes read as zeros: applegpu's `jmp_incomplete` (bits 15:0 zero), 4 bytes long.
    assert_eq!(agx::Instruction::try_from(&[][..]), Err(DecodeError::Truncated { needed: 4, available: 0 }));
}

/// An instruction whose fields do not encode (an address that does not fit its 11 signed bits)
/// has no text: its `Display` shows its fields, never an error message in place of an
/// instruction.
#[test]
fn display_never_shows_an_error_as_text() {
    // `AST a[0x78], R0` (maxwell_facts: encode_errors_for_out_of_range_values).
    let Ok(maxwell::Instruction::Ast(ast)) = maxwell::Instruction::decode(0xEFF0_7F80_0787_FF00) else {
        panic!("decodes as AST")
    };
    let bad = maxwell::Instruction::Ast(maxwell::Ast { offset: 1024, ..ast });
    assert!(bad.encode().is_err());
    assert_eq!(bad.to_string(), format!("{bad:?}"));
}

/// Every error type of the runtime and of generated code is a `core::error::Error`.
#[test]
fn error_types_implement_error() {
    fn is_error<E: core::error::Error>() {}
    is_error::<DecodeError>();
    is_error::<isa_runtime::EncodeError>();
    is_error::<isa_runtime::AsmError>();
    is_error::<isa_runtime::target::StatementError>();
    is_error::<isa_runtime::target::UnknownDialect>();
    is_error::<isa_runtime::expr::ExprError>();
    is_error::<isa_runtime::print::Stop>();
    is_error::<isa_runtime::program::Violation>();
    is_error::<isa_runtime::interp::Trap>();
    is_error::<isa_runtime::abi::ParamError>();
    is_error::<isa_runtime::bundle::StreamError>();
    is_error::<isa_runtime::value::JsonError>();
    is_error::<<vc4::Instruction as core::str::FromStr>::Err>();
    is_error::<<vc4::Dialect as core::str::FromStr>::Err>();
    is_error::<<vc4::Instruction as TryFrom<u64>>::Error>();
}

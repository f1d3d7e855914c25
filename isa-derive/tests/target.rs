//! `target!`: a whole target from a spec file of this crate (tests/specs/toy.isa).

use isa_runtime::target::{Isa, Target};
use isa_runtime::DecodeError;

/// The toy target, from a path relative to this crate's Cargo.toml.
pub mod toy {
    isa_derive::target!("tests/specs/toy.isa");
}

/// The same spec again, by `concat!` and `env!`.
mod toy_again {
    isa_derive::target!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/specs/toy.isa"));
}

use toy::{Alu, Instruction, Li, Op, Reg};

#[test]
fn describes_the_target() {
    assert_eq!(<toy::Toy as Isa>::NAME, "toy");
    assert_eq!(<toy::Toy as Isa>::TITLE, "Toy 16");
    assert_eq!(<toy::Toy as Isa>::WORD_BITS, 16);
    let dialects = <toy::Toy as Isa>::dialects();
    assert_eq!(dialects.len(), 1);
    assert_eq!(dialects[0].name, "asm");
    assert_eq!(dialects[0].raw, Some(".word"));
    let names: Vec<&str> = <toy::Toy as Isa>::formats().iter().map(|f| f.name).collect();
    assert_eq!(names, ["alu", "li"]);
}

#[test]
fn decodes() {
    // class 0, op sub (1), rd r3, rs r4.
    let sub = Instruction::decode(0x0b80).unwrap();
    assert_eq!(sub, Instruction::Alu(Alu { op: Op::Sub, rd: Reg::R(3), rs: Reg::R(4) }));
    // class 1, rd r1, imm 0xfe: sign-extended.
    let li = Instruction::decode(0x41fe).unwrap();
    assert_eq!(li, Instruction::Li(Li { rd: Reg::R(1), imm: -2 }));
    // Class 2 and 3 are no encoding.
    assert_eq!(Instruction::decode(0x8000), Err(DecodeError::NoMatch { word: 0x8000 }));
    assert_eq!(Instruction::decode(0xc123), Err(DecodeError::NoMatch { word: 0xc123 }));
}

#[test]
fn encodes() {
    let add = Instruction::Alu(Alu { op: Op::Add, rd: Reg::R(2), rs: Reg::R(1) });
    assert_eq!(add.encode(), Ok(0x0220));
    let li = Instruction::Li(Li { rd: Reg::R(7), imm: -128 });
    assert_eq!(li.encode(), Ok(0x4780));
    // A register number outside r0..r7 is an error, not truncated.
    let bad = Instruction::Alu(Alu { op: Op::Mov, rd: Reg::R(8), rs: Reg::R(0) });
    assert!(matches!(bad.encode(), Err(isa_runtime::EncodeError::OutOfRange { field: "rd", .. })));
}

#[test]
fn disassembles() {
    assert_eq!(toy::disassemble(0x0b80, None).unwrap(), "sub r3, r4");
    assert_eq!(toy::disassemble(0x3f20, None).unwrap(), "mov r7, r1");
    assert_eq!(toy::disassemble(0x41fe, Some("asm")).unwrap(), "li r1, -2");
    assert_eq!(toy::Toy.disassemble(0x4105, 0, 0).unwrap(), "li r1, 5");
    assert!(toy::disassemble(0xc000, None).is_err());
}

#[test]
fn assembles() {
    let program = toy::assemble("start: li r1, -2 ; load\n  sub r3, r4\n\nmov r7, r1\n", None).unwrap();
    let words: Vec<u16> = program.iter().map(|i| i.encode().unwrap()).collect();
    assert_eq!(words, [0x41fe, 0x0b80, 0x3f20]);
    assert_eq!(toy::Toy.assemble("li r0, 127\n.word 0x0220", 0).unwrap(), [0x407f, 0x0220]);
    // Errors carry line and column.
    let errors = toy::assemble("add r1, r2\nli r9, 1\n", None).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 2);
    assert!(errors[0].column > 1, "{:?}", errors[0]);
}

/// Every word: decoding never panics, encode(decode(w)) is w without its unused bits, and
/// assembling the disassembly gives the same instruction.
#[test]
fn every_word_round_trips() {
    let mut decoded = 0;
    for word in 0..=u16::MAX {
        let Ok(insn) = Instruction::decode(word) else { continue };
        decoded += 1;
        let unused = match insn {
            Instruction::Alu(_) => 0x001f,
            Instruction::Li(_) => 0x3800,
        };
        assert_eq!(insn.encode(), Ok(word & !unused), "{word:#06x}");
        let text = toy::disassemble(word, None).unwrap();
        let again = toy::assemble(&text, None).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(again, [insn], "{word:#06x}: {text}");
    }
    assert_eq!(decoded, 2 * (1 << 14));
}

#[test]
fn both_paths_give_the_same_target() {
    for word in [0x0b80u16, 0x41fe, 0x3f20, 0x8000] {
        assert_eq!(
            toy::Toy.disassemble(word.into(), 0, 0).ok(),
            toy_again::Toy.disassemble(word.into(), 0, 0).ok()
        );
    }
}

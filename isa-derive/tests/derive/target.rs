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

use toy::{Alu, Instruction, Li, Op, Reg, RegR};

/// Register `n` of the toy (r0 to r7).
fn r(n: u8) -> Reg {
    Reg::R(RegR::new(n).expect("r0 to r7"))
}

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
    assert_eq!(sub, Instruction::Alu(Alu { op: Op::Sub, rd: r(3), rs: r(4) }));
    // class 1, rd r1, imm 0xfe: sign-extended.
    let li = Instruction::decode(0x41fe).unwrap();
    assert_eq!(li, Instruction::Li(Li { rd: r(1), imm: -2 }));
    // Class 2 and 3 are no encoding.
    assert_eq!(Instruction::decode(0x8000), Err(DecodeError::NoMatch { word: 0x8000 }));
    assert_eq!(Instruction::decode(0xc123), Err(DecodeError::NoMatch { word: 0xc123 }));
}

#[test]
fn encodes() {
    let add = Instruction::Alu(Alu { op: Op::Add, rd: r(2), rs: r(1) });
    assert_eq!(add.encode(), Ok(0x0220));
    let li = Instruction::Li(Li { rd: r(7), imm: -128 });
    assert_eq!(li.encode(), Ok(0x4780));
    // A register number outside r0..r7 is no register: it cannot be made, so every `Reg`
    // encodes (`Reg::R(8)` does not compile: isa-derive/ui's `mistakes.rs`).
    assert_eq!(RegR::new(8), None);
    assert_eq!((RegR::MIN.get(), RegR::MAX.get()), (0, 7));
    assert_eq!(Reg::from_bits(7), Some(Reg::R(RegR::MAX)));
}

#[test]
fn disassembles() {
    assert_eq!(toy::disassemble(0x0b80, toy::Dialect::default()).unwrap(), "sub r3, r4");
    assert_eq!(toy::disassemble(0x3f20, toy::Dialect::default()).unwrap(), "mov r7, r1");
    assert_eq!(toy::disassemble(0x41fe, toy::Dialect::Asm).unwrap(), "li r1, -2");
    assert_eq!(toy::Toy.disassemble(0x4105, 0, 0).unwrap(), "li r1, 5");
    assert!(toy::disassemble(0xc000, toy::Dialect::default()).is_err());
}

#[test]
fn assembles() {
    let program =
        toy::assemble("start: li r1, -2 ; load\n  sub r3, r4\n\nmov r7, r1\n", toy::Dialect::default())
            .unwrap();
    let words: Vec<u16> = program.iter().map(|i| i.encode().unwrap()).collect();
    assert_eq!(words, [0x41fe, 0x0b80, 0x3f20]);
    assert_eq!(toy::Toy.assemble("li r0, 127\n.word 0x0220", 0).unwrap(), [0x407f, 0x0220]);
    // Errors carry line and column.
    let errors = toy::assemble("add r1, r2\nli r9, 1\n", toy::Dialect::default()).unwrap_err();
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
        let text = toy::disassemble(word, toy::Dialect::default()).unwrap();
        let again = toy::assemble(&text, toy::Dialect::default()).unwrap_or_else(|e| panic!("{text}: {e:?}"));
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

/// A target written with families (groups, forms, lets, `zero`, `execute when`): tests/specs/family.isa.
pub mod fam {
    isa_derive::target!("tests/specs/family.isa");
}

/// Each form of a family is an encoding named `format_form`, with the form's opcode bits; the
/// group's fields sit where the `use` stands.
#[test]
fn families_yield_one_encoding_per_form() {
    let names: Vec<&str> = <fam::Fam as Isa>::formats().iter().map(|f| f.name).collect();
    assert_eq!(names, ["add_r", "add_i", "sub_r", "sub_i", "nop_plain", "nop_wide"]);
    // 0x5c10 is the register form's 16-bit opcode: bits 63:51 = 0x5c10 >> 3.
    assert_eq!(fam::AddR::FIXED_BITS, 0x5c10_0000_0000_0000);
    // The immediate form: bits 63:57 = 0x3810 >> 9 and 55:51 = (0x3810 >> 3) & 0x1f.
    assert_eq!(fam::AddI::FIXED_BITS, 0x3810_0000_0000_0000);
    assert_eq!(fam::SubR::FIXED_BITS, 0x5c20_0000_0000_0000);
    let add_r: Vec<&str> = <fam::Fam as Isa>::formats()[0].fields.iter().map(|f| f.name).collect();
    assert_eq!(add_r, ["opcode", "zero_38_28", "rb", "zero_50_43", "pred_neg", "pred", "ra", "rd"]);
}

#[test]
fn families_decode_print_and_assemble() {
    use fam::{AddI, AddR, Instruction, Pred, PredP, Reg, RegR};
    let r = |n| Reg::R(RegR::new(n).expect("a register"));
    let cases: [(u64, &str); 6] = [
        // rb = R3 at 27:20, PT at 18:16, ra = R2 at 15:8, rd = R1 at 7:0.
        (0x5c10_0000_0037_0201, "ADD R1, R2, R3 ;"),
        // Guard @!P0: pred 0, pred_neg (bit 19).
        (0x5c10_0000_0038_0201, "@!P0 ADD R1, R2, R3 ;"),
        // -1: sign bit 56 and ones in 38:20.
        (0x3910_007f_fff7_0201, "ADD R1, R2, -0x1 ;"),
        (0x5c20_0000_0057_ff04, "SUB R4, RZ, R5 ;"),
        (0x50b0_0000_0007_0000, "NOP ;"),
        (0x50b1_0000_0007_0003, "NOP 3 ;"),
    ];
    for (word, text) in cases {
        assert_eq!(fam::disassemble(word, fam::Dialect::default()).as_deref(), Ok(text), "{word:#018x}");
        let insn = Instruction::decode(word).unwrap();
        assert_eq!(fam::assemble(text, fam::Dialect::default()).unwrap(), [insn], "{text}");
        assert_eq!(insn.encode(), Ok(word), "{text}");
    }
    assert_eq!(
        Instruction::decode(0x3910_007f_fff7_0201),
        Ok(Instruction::AddI(AddI { imm: -1, pred_neg: false, pred: Pred::Pt, ra: r(2), rd: r(1) }))
    );
    assert_eq!(
        Instruction::decode(0x5c10_0000_0038_0201),
        Ok(Instruction::AddR(AddR {
            rb: r(3),
            pred_neg: true,
            pred: Pred::P(PredP::MIN),
            ra: r(2),
            rd: r(1)
        }))
    );
    // `zero @ 50:43` and `zero @ 38:28` are fixed: a word with one of those bits set is no encoding.
    for bit in [43, 50, 28, 38] {
        let word = 0x5c10_0000_0037_0201u64 | (1 << bit);
        assert_eq!(Instruction::decode(word), Err(DecodeError::NoMatch { word: word.into() }), "bit {bit}");
    }
}

/// `execute when guard_holds(pred, pred_neg)` in the group wraps every format's execute block.
#[test]
fn families_execute_under_their_guard() {
    struct Plain;
    impl fam::Semantics for Plain {}
    let mut m = fam::Machine::new(Plain);
    m.state.r[2] = 5;
    let run = |m: &mut fam::Machine<Plain>, word: u64| {
        let insn = fam::Instruction::decode(word).unwrap();
        m.execute(&insn).unwrap();
    };
    run(&mut m, 0x3910_007f_fff7_0201); // ADD R1, R2, -0x1
    assert_eq!(m.state.r[1], 4);
    m.state.r[3] = 7;
    run(&mut m, 0x5c20_0000_0037_0201); // SUB R1, R2, R3
    assert_eq!(m.state.r[1], 5u32.wrapping_sub(7));
    // @!P0 with P0 true: the guard fails and R1 keeps its value.
    m.state.preds[0] = true;
    run(&mut m, 0x5c10_0000_0038_0201); // @!P0 ADD R1, R2, R3
    assert_eq!(m.state.r[1], 5u32.wrapping_sub(7));
    m.state.preds[0] = false;
    run(&mut m, 0x5c10_0000_0038_0201);
    assert_eq!(m.state.r[1], 12);
}

/// Spec names that the generated interpreter also binds (`x`, `index`, `value`, `arg1`) keep
/// their meaning.
mod hygiene {
    isa_derive::target!("tests/specs/hygiene.isa");
}

#[test]
fn spec_names_do_not_collide_with_generated_ones() {
    struct Plain;
    impl hygiene::Semantics for Plain {}
    let mut m = hygiene::Machine::new(Plain);
    m.state.r[1] = 2;
    let insn = hygiene::Instruction::decode(0x1000_0003).unwrap();
    m.execute(&insn).unwrap();
    // Field x = 3, so local x = 4: r[0] = 4, then r[1] = pick(r[1], 4) = 2 * 16 + 4.
    assert_eq!(m.state.r[0], 4);
    assert_eq!(m.state.r[1], 36);
    assert_eq!(m.state.r[2..], [0, 0]);
}

/// An `if` and a `match` whose conditions call functions with machine-calling arguments, and
/// an `if` statement of the same kind: r[1] = 2, so pick(r[1], 1) = 33 > 16 (1), pick(r[1], 0)
/// = 32 is past 15 (20), and 1 > r[0] = 0 writes r[2] = 7.
#[test]
fn conditions_that_call_the_machine() {
    struct Plain;
    impl hygiene::Semantics for Plain {}
    let mut m = hygiene::Machine::new(Plain);
    m.state.r[1] = 2;
    let insn = hygiene::Instruction::decode(0x2000_0001).unwrap();
    m.execute(&insn).unwrap();
    assert_eq!(m.state.r, [0, 2, 7, 21]);
}

//! Labels in the assembler: pc-relative branch displacements computed from label addresses,
//! and multi-line programs with located errors.

use isa_generated::vc4::{self, Instruction};

fn words(source: &str) -> Vec<u64> {
    match vc4::assemble(source, vc4::Dialect::Vc4asm) {
        Ok(program) => program.iter().map(|i| i.encode().expect("assembled instructions encode")).collect(),
        Err(errors) => panic!("{errors:?}"),
    }
}

#[test]
fn relative_branch_to_a_label_after_the_delay_slots() {
    // brr's target is the branch address + 32 (4 instructions) + the displacement, so a label
    // 6 instructions after the branch at 0 is 48 - 32 = 16 bytes away.
    let w = words("brr -, target\nnop\nnop\nnop\nnop\nnop\ntarget: nop\n");
    let Ok(Instruction::Branch(b)) = Instruction::decode(w[0]) else { panic!("not a branch") };
    assert!(b.rel);
    assert_eq!(b.imm, 16);
    assert_eq!(w.len(), 7);
}

#[test]
fn backward_branch_and_absolute_branch() {
    let w = words("top: nop\nnop\nbrr.allz -, top\nbra -, top\n");
    let Ok(Instruction::Branch(b)) = Instruction::decode(w[2]) else { panic!("not a branch") };
    // Branch at 16: 0 - (16 + 32) = -48.
    assert_eq!(b.imm, -48);
    assert_eq!(b.cond_br.name(), "all_zs");
    let Ok(Instruction::Branch(b)) = Instruction::decode(w[3]) else { panic!("not a branch") };
    assert!(!b.rel);
    assert_eq!(b.imm, 0);
}

#[test]
fn errors_carry_line_and_column_and_every_line_is_checked() {
    let errors =
        vc4::assemble("nop\nfadd r0, r1, bogus\nbrr -, nowhere\n  nop;  thrend\n", vc4::Dialect::Vc4asm)
            .expect_err("two bad lines");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!((errors[0].line, errors[0].column), (2, 14));
    assert_eq!(errors[1].line, 3);
    let dup = vc4::assemble("a: nop\na: nop\n", vc4::Dialect::Vc4asm).expect_err("duplicate label");
    assert!(dup[0].message.contains("defined twice"), "{dup:?}");
}

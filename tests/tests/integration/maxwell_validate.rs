//! Seed 003's AST rules as validators, on ALD as well (same address forms): a passing and a
//! failing program for each, through `check_program`.
//!
//! - ".PHYS is encoded as .P=0 and Ra!=RZ and imm=0": with Ra not RZ and no .P the immediate
//!   must be zero (a word breaking it decodes but has no text, so it is built from fields);
//! - alignment: ".32 forces (Ra+#ImmS11) 2 lsb to 00", ".64 forces Rd register address[0:0] to
//!   0 and (Ra+#ImmS11) 3 lsb to 000", ".96/.128 forces Rd register address[1:0] to 00 and
//!   (Ra+#ImmS11) 4 lsb to 0000";
//! - "Writing attribute addresses above 1024 (256*4) or below 0 will result in the write being
//!   silently discarded."

use isa_generated::maxwell::{check_program, Ald, Ast, AttrSize, Instruction, Maxwell, Pred, Reg, RegR};
use isa_runtime::target::assemble;

fn program(source: &str) -> Vec<Instruction> {
    assemble::<Maxwell>(source, 0).unwrap_or_else(|e| panic!("{source}: {e:?}"))
}

fn broken(p: &[Instruction]) -> Vec<(&'static str, usize)> {
    check_program(p).iter().map(|v| (v.rule, v.index)).collect()
}

const AST: Ast = Ast {
    size: AttrSize::B32,
    vertex: Reg::Rz,
    patch: false,
    offset: 0,
    pred_neg: false,
    pred: Pred::Pt,
    ra: Reg::Rz,
    rb: r(0),
};

const ALD: Ald = Ald {
    size: AttrSize::B32,
    vertex: Reg::Rz,
    output: false,
    patch: false,
    offset: 0,
    pred_neg: false,
    pred: Pred::Pt,
    ra: Reg::Rz,
    rd: r(0),
};

#[test]
fn a_well_formed_shader_passes() {
    let p = program(
        "ALD R0, a[0x70]\n\
         ALD.64 R2, a[0x78]\n\
         ALD.128 R4, a[0x80]\n\
         ALD.PHYS R8, a[R1]\n\
         FMUL R0, R0, R2\n\
         AST a[0x70], R0\n\
         AST.64 a[0x78], R2\n\
         AST.128 a[0x3f0], R4\n\
         AST.P a[R1+0x20], R3\n\
         AST.PHYS a[R1], R8\n\
         EXIT",
    );
    assert_eq!(broken(&p), vec![]);
}

#[test]
fn phys_needs_a_zero_immediate() {
    let good = [Instruction::Ast(Ast { ra: r(2), ..AST }), Instruction::Ald(Ald { ra: r(2), ..ALD })];
    assert_eq!(broken(&good), vec![]);
    let bad = [
        Instruction::Ast(Ast { ra: r(2), offset: 0x20, ..AST }),
        Instruction::Ald(Ald { ra: r(2), offset: 0x20, ..ALD }),
    ];
    assert_eq!(broken(&bad), vec![("phys_offset", 0), ("phys_offset", 1)]);
    // With .P the offset is allowed.
    let patch = [Instruction::Ast(Ast { ra: r(2), offset: 0x20, patch: true, ..AST })];
    assert_eq!(broken(&patch), vec![]);
}

#[test]
fn sixty_four_bit_accesses_are_aligned() {
    assert_eq!(broken(&program("AST.64 a[0x78], R2\nALD.64 R4, a[0x80]")), vec![]);
    assert_eq!(broken(&program("AST.64 a[0x78], R3")), vec![("aligned_64", 0)]);
    assert_eq!(broken(&program("AST.64 a[0x74], R2")), vec![("aligned_64", 0)]);
    assert_eq!(broken(&program("ALD.64 R5, a[0x80]")), vec![("aligned_64", 0)]);
}

#[test]
fn vector_accesses_are_aligned() {
    assert_eq!(broken(&program("AST.128 a[0x70], R4\nALD.96 R8, a[0x80]")), vec![]);
    assert_eq!(broken(&program("AST.128 a[0x70], R2")), vec![("aligned_128", 0)]);
    assert_eq!(broken(&program("AST.96 a[0x78], R4")), vec![("aligned_128", 0)]);
    assert_eq!(broken(&program("ALD.128 R6, a[0x80]")), vec![("aligned_128", 0)]);
}

#[test]
fn thirty_two_bit_accesses_are_word_aligned() {
    assert_eq!(broken(&program("AST a[0x7c], R1")), vec![]);
    assert_eq!(
        broken(&program("AST a[0x7a], R1\nALD R1, a[0x81]")),
        vec![("aligned_32", 0), ("aligned_32", 1)]
    );
}

/// Immediate addresses below 0 cannot be written in the immediate form (its field is unsigned
/// 10 bits), but the 11-bit field can hold them: such a word decodes and is reported. It prints
/// as nvdisasm 11.8 prints it, which reads only the low 10 bits with RZ: -4 is `a[0x3fc]`.
#[test]
fn addresses_outside_attribute_memory_are_discarded() {
    assert_eq!(broken(&program("AST a[0x3fc], R1")), vec![]);
    let bad = [Instruction::Ast(Ast { offset: -4, ..AST }), Instruction::Ald(Ald { offset: -16, ..ALD })];
    assert_eq!(broken(&bad), vec![("address_range", 0), ("address_range", 1)]);
    let w = Instruction::Ast(Ast { offset: -4, ..AST }).encode().expect("encodes");
    assert_eq!(
        isa_generated::maxwell::disassemble(w, isa_generated::maxwell::Dialect::Nvdisasm).expect("prints"),
        "AST a[0x3fc], R0 ;"
    );
}

/// The seed calls out-of-range attribute accesses silently discarded, not an error: the rule is a
/// `warning`, so `isa validate` reports it without failing; alignment rules are errors.
#[test]
fn the_address_range_rule_is_a_warning() {
    let bad = [Instruction::Ast(Ast { offset: -4, ..AST }), Instruction::Ast(Ast { offset: 2, ..AST })];
    let found: Vec<(&str, bool)> =
        isa_generated::maxwell::check_program(&bad).iter().map(|v| (v.rule, v.warning)).collect();
    assert_eq!(found, [("address_range", true), ("aligned_32", false)]);
}

/// R`n` (a register number the test knows to be one).
const fn r(n: u8) -> Reg {
    match RegR::new(n) {
        Some(n) => Reg::R(n),
        None => panic!("not an R register"),
    }
}

//! The generated Maxwell interpreter running a vertex shader: ALD reads input attributes, the
//! float ALU computes, AST writes output attributes through the output map (seed 003: writes the
//! BMAP does not enable, or outside 0..1024, are silently discarded), EXIT ends the run.
//! Constant buffers and patch/geometry-shader attributes go through the embedder's hooks.
//! Comparisons (ISETP, FSETP, FSET), FMNMX, integer adds and control flow (BRA, SSY/SYNC, KIL)
//! run small branching programs.

use isa_generated::maxwell::{self, Instruction, Machine, Semantics};

/// A vertex shader's surroundings: constant bank 0, and a log of the hook calls.
#[derive(Debug, Default)]
struct Vertex {
    /// Bank 0 by byte offset / 4.
    cbuf0: Vec<u32>,
    /// (patch, vertex, address, value) of every store the embedder handles.
    stores: Vec<(bool, u32, u32, u32)>,
    /// (kind, handle, stream) of every OUT.
    outputs: Vec<(u32, u32, u32)>,
}

impl Semantics for Vertex {
    fn constant(&mut self, bank: u32, offset: u32) -> u32 {
        assert_eq!(bank, 0, "only bank 0 is bound");
        self.cbuf0[offset as usize / 4]
    }
    fn attribute_load(&mut self, patch: bool, output: bool, vertex: u32, address: u32) -> u32 {
        panic!("unexpected ISBE load: patch {patch} output {output} vertex {vertex} address {address:#x}")
    }
    fn attribute_store(&mut self, patch: bool, vertex: u32, address: u32, value: u32) {
        self.stores.push((patch, vertex, address, value));
    }
    /// The state machine counts emitted vertices here.
    fn geometry_output(&mut self, kind: u32, handle: u32, stream: u32) -> u32 {
        self.outputs.push((kind, handle, stream));
        handle + u32::from(kind & 1 == 1)
    }
}

fn assemble(source: &str) -> Vec<Instruction> {
    maxwell::assemble(source, None).unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A vertex machine whose output map enables a[0x70..0x80) (position) and generic 0
/// (a[0x80..0x90)), with generic input 0 = (1.5, 2, -3, 0.25).
fn machine() -> Machine<Vertex> {
    let mut m = Machine::new(Vertex { cbuf0: vec![f(10.0), f(0.5), 0, 0], ..Vertex::default() });
    for word in 0x70 / 4..0x90 / 4 {
        m.state.attr_out_map[word] = true;
    }
    let input = [1.5f32, 2.0, -3.0, 0.25];
    for (i, x) in input.iter().enumerate() {
        m.state.attr_in[0x80 / 4 + i] = f(*x);
    }
    m
}

#[test]
fn ald_fmul_ast_exit() {
    let program = assemble(
        "ALD R0, a[0x80]\n\
         FMUL R1, R0, 2.5\n\
         AST a[0x70], R1\n\
         EXIT",
    );
    // The real words of facts B.6 have this shape: ALD R13, a[0x80] is 0xEFD87F800807FF0D.
    assert_eq!(program[0].encode(), Ok(0xEFD87F800807FF00));
    let mut m = machine();
    assert_eq!(m.run(&program, 100), Ok(4));
    assert!(m.state.done);
    assert_eq!(m.state.r[0], f(1.5));
    assert_eq!(m.state.attr_out[0x70 / 4], f(3.75));
}

#[test]
fn vector_attributes_and_the_float_alu() {
    // position = (x * c[0][0] + y, y - 0.5 (from c[0][4]), |z|, w), stored with one AST.128.
    let program = assemble(
        "ALD.128 R4, a[0x80]\n\
         FFMA R0, R4, c[0x0][0x0], R5\n\
         FADD R1, R5, -c[0x0][0x4]\n\
         FADD R2, |R6|, RZ\n\
         MOV R3, R7\n\
         AST.128 a[0x70], R0\n\
         EXIT",
    );
    assert_eq!(maxwell::check_program(&program), []);
    let mut m = machine();
    assert_eq!(m.run(&program, 100), Ok(7));
    let out: Vec<f32> = (0..4).map(|i| f32::from_bits(m.state.attr_out[0x70 / 4 + i])).collect();
    assert_eq!(out, [1.5 * 10.0 + 2.0, 1.5, 3.0, 0.25]);
}

#[test]
fn stores_the_output_map_does_not_enable_are_discarded() {
    let program = assemble(
        "MOV32I R0, 0x3f800000\n\
         AST a[0x90], R0\n\
         MOV32I R1, 0x500\n\
         AST.PHYS a[R1], R0\n\
         AST a[0x7c], R0\n\
         EXIT",
    );
    let mut m = machine();
    assert_eq!(m.run(&program, 100), Ok(6));
    // a[0x90] (generic 1) is not in the map; 0x500 is beyond 1024: both dropped.
    assert_eq!(m.state.attr_out[0x90 / 4], 0);
    assert!(m.state.attr_out.iter().enumerate().all(|(i, v)| (*v == 0) == (i != 0x7c / 4)));
    assert_eq!(m.state.attr_out[0x7c / 4], f(1.0));
    assert!(m.semantics.stores.is_empty());
}

#[test]
fn guards_and_patch_stores() {
    let program = assemble(
        "MOV32I R0, 0x1\n\
         @P0 MOV32I R0, 0x2\n\
         @!P1 MOV32I R2, 0x3\n\
         MOV32I R4, 0x40\n\
         AST.P a[R4+0x8], R0\n\
         @P1 EXIT\n\
         MOV32I R3, 0x7\n\
         EXIT\n\
         MOV32I R3, 0x8",
    );
    let mut m = machine();
    m.state.preds[0] = false;
    m.state.preds[1] = false;
    assert_eq!(m.run(&program, 100), Ok(8));
    assert_eq!((m.state.r[0], m.state.r[2], m.state.r[3]), (1, 3, 7));
    // Patch attributes go to the embedder, at Ra + offset; the vertex register is RZ (0).
    assert_eq!(m.semantics.stores, [(true, 0, 0x48, 1)]);
}

/// A geometry shader: stores address the vertex through the state machine register (R0, which
/// starts at 0) and go to the embedder; OUT advances it (facts B.6's OUT words).
#[test]
fn geometry_shader_stores_and_emits() {
    let program = assemble(
        "MOV32I R0, 0x0\n\
         MOV32I R1, 0x3f800000\n\
         AST a[0x70], R1, R0\n\
         OUT.EMIT R0, R0, RZ\n\
         AST a[0x70], R1, R0\n\
         OUT.EMIT_THEN_CUT R0, R0, 0x1\n\
         EXIT",
    );
    assert_eq!(program[3].encode(), Ok(0xfbe000800ff70000));
    let mut m = machine();
    assert_eq!(m.run(&program, 100), Ok(7));
    assert_eq!(m.semantics.stores, [(false, 0, 0x70, f(1.0)), (false, 1, 0x70, f(1.0))]);
    assert_eq!(m.semantics.outputs, [(1, 0, 0), (3, 1, 1)]);
    assert_eq!(m.state.r[0], 2);
    // Nothing reached the vertex-shader outputs.
    assert!(m.state.attr_out.iter().all(|v| *v == 0));
}

/// A counted loop: ISETP sets P0 from the comparison, `@P0 BRA` jumps back to the label.
#[test]
fn loops_with_isetp_and_bra() {
    let program = assemble(
        "MOV32I R0, 0x0\n\
         MOV32I R1, 0x5\n\
         loop:\n\
         ISCADD R0, R1, R0, 0x1\n\
         IADD32I R1, R1, -0x1\n\
         ISETP.NE.AND P0, PT, R1, RZ, PT\n\
         @P0 BRA loop\n\
         EXIT",
    );
    // Addresses count the control word before every three instructions: `loop` (instruction
    // 2) is at 0x18 and the branch (instruction 5) at 0x38. The offset is relative to the next
    // word: 0x18 - 0x40 = -0x28.
    let bra = program[5].encode().expect("encodes");
    assert_eq!(
        isa_runtime::target::disassemble_word::<maxwell::Maxwell>(bra as u128, 0, 0x38),
        Ok("@P0 BRA 0x18 ;".into())
    );
    assert_eq!((bra >> 20) & 0xff_ffff, 0xff_ffd8);
    let mut m = machine();
    assert_eq!(m.run(&program, 100), Ok(2 + 5 * 4 + 1));
    // 2*5 + 2*4 + 2*3 + 2*2 + 2*1 = 30.
    assert_eq!(m.state.r[0], 30);
    assert!(!m.state.preds[0]);
}

/// A fragment discard: FSETP with an immediate compares, `@P0 KIL` ends the thread.
#[test]
fn fsetp_and_kil() {
    let program = assemble(
        "FSETP.LT.AND P0, PT, R0, 0.5, PT\n\
         @P0 KIL\n\
         MOV32I R1, 0x1\n\
         EXIT",
    );
    let mut m = machine();
    m.state.r[0] = f(0.25);
    assert_eq!(m.run(&program, 100), Ok(2));
    assert!(m.state.killed);
    assert_eq!(m.state.r[1], 0);
    let mut m = machine();
    m.state.r[0] = f(0.75);
    assert_eq!(m.run(&program, 100), Ok(4));
    assert!(!m.state.killed);
    assert_eq!(m.state.r[1], 1);
    // NaN: LT is false, LTU (unordered) true.
    let program = assemble("FSETP.LTU.AND P0, P1, R0, 0.5, PT\nEXIT");
    let mut m = machine();
    m.state.r[0] = f(f32::NAN);
    assert_eq!(m.run(&program, 100), Ok(2));
    assert_eq!((m.state.preds[0], m.state.preds[1]), (true, false));
}

/// SSY sets the reconvergence point, SYNC goes there; FMNMX picks by its predicate operand,
/// FSET.BF writes 1.0 for true.
#[test]
fn ssy_sync_fmnmx_fset() {
    let program = assemble(
        "SSY end\n\
         ISETP.EQ.AND P0, PT, R0, RZ, PT\n\
         @P0 BRA zero\n\
         FMNMX R1, R2, R3, PT\n\
         SYNC\n\
         zero:\n\
         FMNMX R1, R2, R3, !PT\n\
         SYNC\n\
         end:\n\
         FSET.BF.GT.AND R4, R1, R2, PT\n\
         EXIT",
    );
    for (r0, min) in [(1u32, true), (0, false)] {
        let mut m = machine();
        m.state.r[0] = r0;
        m.state.r[2] = f(2.0);
        m.state.r[3] = f(-1.0);
        m.run(&program, 100).expect("runs");
        assert_eq!(m.state.r[1], if min { f(-1.0) } else { f(2.0) }, "r0 = {r0}");
        // R1 > R2 never holds (R1 is R2 or less): 0.
        assert_eq!(m.state.r[4], 0);
        assert!(m.state.done);
    }
}

/// IADD's carry chain (`.CC` then `.X`) adds and subtracts 64-bit numbers; SHR, LOP, SEL and
/// IADD.PO compute what Rust computes on the same values.
#[test]
fn integer_carry_chain_shifts_logic_and_select() {
    let (a, b): (u64, u64) = (0x0000_0001_ffff_fff0, 0x0000_0002_0000_0020);
    let words = vec![a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32];
    let program = assemble(
        "MOV R0, c[0x0][0x0]\n\
         MOV R1, c[0x0][0x4]\n\
         IADD R2.CC, R0, c[0x0][0x8]\n\
         IADD.X R3, R1, c[0x0][0xc]\n\
         IADD R4.CC, R0, -c[0x0][0x8]\n\
         IADD.X R5, R1, -c[0x0][0xc]\n\
         SHR R6, R5, 0x4\n\
         SHR.U32 R7, R5, 0x4\n\
         SHR.U32 R8, R0, 0x21\n\
         SHR.U32.W R9, R0, 0x24\n\
         LOP.XOR R10, R0, ~R1\n\
         LOP.AND.NZ P0, R11, R0, 0xf\n\
         LOP.OR.NZ P1, R12, R0, 0xf\n\
         SEL R13, R0, R1, P0\n\
         SEL R14, R0, R1, P1\n\
         IADD.PO R15, R0, R1\n\
         LOP32I.AND R16, ~R0, 0xff\n\
         IADD R17, -R1, 0x10\n\
         EXIT",
    );
    let mut m = Machine::new(Vertex { cbuf0: words, ..Vertex::default() });
    assert_eq!(m.run(&program, 100), Ok(19));
    let r = &m.state.r;
    let (lo, hi) = (a as u32, (a >> 32) as u32);
    let sum = a.wrapping_add(b);
    let diff = a.wrapping_sub(b);
    assert_eq!((r[2], r[3]), (sum as u32, (sum >> 32) as u32), "a + b");
    assert_eq!((r[4], r[5]), (diff as u32, (diff >> 32) as u32), "a - b");
    assert_eq!(r[6], ((diff >> 32) as i32 >> 4) as u32, "signed shift");
    assert_eq!(r[7], (diff >> 32) as u32 >> 4, "unsigned shift");
    assert_eq!(r[8], 0, "a count above 31 saturates");
    assert_eq!(r[9], lo >> (0x24 & 31), ".W wraps the count");
    assert_eq!(r[10], lo ^ !hi);
    assert_eq!((r[11], m.state.preds[0]), (lo & 0xf, lo & 0xf != 0));
    assert_eq!((r[12], m.state.preds[1]), (lo | 0xf, true));
    assert_eq!(r[13], hi, "P0 is false: B");
    assert_eq!(r[14], lo, "P1 is true: A");
    assert_eq!(r[15], lo.wrapping_add(hi).wrapping_add(1), ".PO adds one");
    assert_eq!(r[16], !lo & 0xff);
    assert_eq!(r[17], 0x10u32.wrapping_sub(hi));
}

/// IMNMX (signed and unsigned, minimum and maximum) and ICMP against Rust's comparisons.
#[test]
fn integer_minimum_maximum_and_compare_select() {
    let (x, y) = (-5i32, 3i32);
    let program = assemble(
        "MOV32I R0, 0xfffffffb\n\
         MOV32I R1, 0x3\n\
         IMNMX R2, R0, R1, PT\n\
         IMNMX R3, R0, R1, !PT\n\
         IMNMX.U32 R4, R0, R1, PT\n\
         IMNMX.U32 R5, R0, R1, !PT\n\
         ICMP.LT R6, R0, R1, R0\n\
         ICMP.LT.U32 R7, R0, R1, R0\n\
         ICMP.GT R8, R0, 0x7, R1\n\
         EXIT",
    );
    let mut m = machine();
    assert_eq!(m.run(&program, 100), Ok(10));
    let r = &m.state.r;
    assert_eq!(r[2], x.min(y) as u32);
    assert_eq!(r[3], x.max(y) as u32);
    assert_eq!(r[4], (x as u32).min(y as u32));
    assert_eq!(r[5], (x as u32).max(y as u32));
    // C (R0 = -5) compared with 0 picks A or B.
    assert_eq!(r[6], if x < 0 { x as u32 } else { y as u32 }, "signed: -5 < 0 picks A");
    assert_eq!(r[7], y as u32, "unsigned: nothing is below 0, so B");
    assert_eq!(r[8], if y > 0 { x as u32 } else { 7 }, "C = R1 = 3 > 0 picks A");
}

/// LEA, IADD3 (negations, `.RS`, halves), SHF (funnel shifts, clamped and wrapped counts) and
/// LOP3.LUT (truth tables) against the same arithmetic in Rust.
#[test]
fn scaled_addresses_three_input_adds_funnel_shifts_and_truth_tables() {
    let (a, b, c, k): (u32, u32, u32, u32) = (0x9abc_def1, 0x1234_5678, 0x0f0f_1111, 0x0000_0100);
    let program = assemble(
        "MOV32I R0, 0x9abcdef1\n\
         MOV32I R1, 0x12345678\n\
         MOV32I R2, 0xf0f1111\n\
         LEA R3, R0, R1, 0x2\n\
         LEA R4, -R0, c[0x0][0x8], 0x3\n\
         IADD3 R5, R0, -R1, R2\n\
         IADD3 R6, R0, 0x10.NEG, R1\n\
         IADD3.RS R7, R0, R1, R2\n\
         IADD3 R8, R0.H1, R1.H0, -R2\n\
         SHF.L.W R9, R0, 0x24, R1\n\
         SHF.R R10, R0, 0x8, R1\n\
         SHF.R R11, R0, 0x28, R1\n\
         SHF.L R12, R0, R2, R1\n\
         LOP3.LUT R13, R0, R1, R2, 0x96\n\
         LOP3.LUT R14, R0, c[0x0][0x8], R2, 0xe8\n\
         LOP3.LUT R15, R0, 0xff, R1, 0x80\n\
         EXIT",
    );
    let mut m = Machine::new(Vertex { cbuf0: vec![0, 0, k, 0], ..Vertex::default() });
    assert_eq!(m.run(&program, 100), Ok(17));
    let r = &m.state.r;
    assert_eq!(r[3], (a << 2).wrapping_add(b), "LEA: (A << 2) + B");
    assert_eq!(r[4], (a.wrapping_neg() << 3).wrapping_add(k), "LEA: (-A << 3) + c[0][8]");
    assert_eq!(r[5], a.wrapping_sub(b).wrapping_add(c));
    assert_eq!(r[6], a.wrapping_sub(0x10).wrapping_add(b));
    assert_eq!(r[7], (a.wrapping_add(b) >> 16).wrapping_add(c), ".RS: (A + B) >> 16, plus C");
    assert_eq!(r[8], (a >> 16).wrapping_add(b & 0xffff).wrapping_sub(c), "halves");
    let pair = (u64::from(b) << 32) | u64::from(a);
    assert_eq!(r[9], ((pair << 4) >> 32) as u32, ".W wraps 0x24 to 4");
    assert_eq!(r[10], (pair >> 8) as u32);
    assert_eq!(r[11], b, "a count of 40 clamps at 32");
    // c = 0x0f0f1111 as a count clamps at 32 too: the high word is A.
    assert_eq!(r[12], a);
    assert_eq!(r[13], a ^ b ^ c);
    assert_eq!(r[14], (a & k) | (a & c) | (k & c), "0xe8 is the majority");
    assert_eq!(r[15], a & 0xff & b);
}

/// FLO (the position of the highest set bit; signed, of the highest bit unlike the sign; `.SH`,
/// the shift that brings it to bit 31; none: 0xffffffff) and PSETP (Pd = (Pc bop0 Pb) bop Pa,
/// nPd with the first result inverted) against the same computed in Rust.
#[test]
fn find_leading_one_and_predicate_logic() {
    let (x, y): (u32, u32) = (0x0001_2345, 0xfff0_0000);
    let highest = |v: u32| if v == 0 { u32::MAX } else { 31 - v.leading_zeros() };
    let program = assemble(
        "MOV32I R0, 0x12345\n\
         MOV32I R1, 0xfff00000\n\
         FLO.U32 R2, R0\n\
         FLO.U32.SH R3, R0\n\
         FLO R4, R1\n\
         FLO.U32 R5, R1\n\
         FLO.U32 R6, RZ\n\
         FLO R7, ~R0\n\
         FLO R8, c[0x0][0x4]\n\
         ISETP.NE.AND P0, PT, R0, RZ, PT\n\
         ISETP.EQ.AND P1, PT, R0, RZ, PT\n\
         PSETP.AND.OR P2, P3, P0, !P1, P1\n\
         PSETP.XOR.AND P4, P5, P0, P1, !P1\n\
         PSETP.OR.XOR P6, PT, P1, P1, P0\n\
         EXIT",
    );
    let mut m = Machine::new(Vertex { cbuf0: vec![0, u32::MAX, 0, 0], ..Vertex::default() });
    assert_eq!(m.run(&program, 100), Ok(15));
    let r = &m.state.r;
    assert_eq!(r[2], highest(x), "bit 16");
    assert_eq!(r[3], x.leading_zeros(), ".SH: 15");
    assert_eq!(r[4], highest(!y), "signed and negative: the highest 0, bit 19");
    assert_eq!(r[5], highest(y), "unsigned: bit 31");
    assert_eq!(r[6], u32::MAX, "no bit set");
    assert_eq!(r[7], highest(x), "~A is negative: its highest 0 is A's highest 1");
    assert_eq!(r[8], u32::MAX, "signed -1 has no bit unlike the sign");
    // Each instruction's two operations, written out: (Pc bop0 Pb) bop Pa.
    let and = |a: bool, b: bool| a && b;
    let or = |a: bool, b: bool| a || b;
    let xor = |a: bool, b: bool| a != b;
    let (p0, p1) = (x != 0, x == 0);
    let p = &m.state.preds;
    assert_eq!((p[0], p[1]), (true, false));
    assert_eq!(p[2], or(and(p0, !p1), p1), "PSETP.AND.OR P2, P3, P0, !P1, P1");
    assert_eq!(p[3], or(!and(p0, !p1), p1));
    assert_eq!(p[4], and(xor(p0, p1), !p1), "PSETP.XOR.AND P4, P5, P0, P1, !P1");
    assert_eq!(p[5], and(!xor(p0, p1), !p1));
    assert_eq!(p[6], xor(or(p1, p1), p0), "PSETP.OR.XOR P6, PT, P1, P1, P0");
}

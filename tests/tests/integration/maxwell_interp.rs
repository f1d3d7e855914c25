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
    /// Local memory by word address (LDL/STL).
    local: std::collections::BTreeMap<u32, u32>,
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
    fn local_load(&mut self, address: u32) -> u32 {
        assert_eq!(address % 4, 0, "word-aligned");
        self.local.get(&address).copied().unwrap_or(0)
    }
    fn local_store(&mut self, address: u32, value: u32) {
        assert_eq!(address % 4, 0, "word-aligned");
        self.local.insert(address, value);
    }
    /// The state machine counts emitted vertices here.
    fn geometry_output(&mut self, kind: u32, handle: u32, stream: u32) -> u32 {
        self.outputs.push((kind, handle, stream));
        handle + u32::from(kind & 1 == 1)
    }
}

fn assemble(source: &str) -> Vec<Instruction> {
    maxwell::assemble(source, maxwell::Dialect::Nvdisasm)
        .unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"))
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

// ---- Rounding, FTZ, special functions, conversions, XMAD and memory ------------------------

/// Runs `source` with R0.. set to `regs`; returns the machine.
fn run_with(source: &str, regs: &[u32]) -> Machine<Vertex> {
    let program = assemble(source);
    let mut m = machine();
    m.state.r[..regs.len()].copy_from_slice(regs);
    let steps = m.run(&program, 100).unwrap_or_else(|t| panic!("{t}\n{source}"));
    assert_eq!(steps as usize, program.len());
    m
}

#[test]
fn ffma_rounds_once() {
    // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 exactly representable; FMUL then FADD lose the 2^-46.
    let a = 1.0f32 + f32::EPSILON;
    let m = run_with("FFMA R4, R0, R1, R2\nFMUL R5, R0, R1\nFADD R5, R5, R2\nEXIT", &[f(a), f(a), f(-1.0)]);
    assert_eq!(m.state.r[4], f(a.mul_add(a, -1.0)), "IEEE fused multiply-add");
    assert_eq!(m.state.r[4], f(2.0f32.powi(-22) + 2.0f32.powi(-46)));
    assert_eq!(m.state.r[5], f(2.0f32.powi(-22)));
}

#[test]
fn rounding_modes_bracket_the_exact_result() {
    // 1 + 2^-30 lies strictly between 1 and the next float 1 + 2^-23.
    let next = f32::from_bits(0x3f80_0001);
    let tiny = f32::from_bits(0x3080_0000);
    let m = run_with(
        "FADD R4, R0, R1\nFADD.RM R5, R0, R1\nFADD.RP R6, R0, R1\nFADD.RZ R7, R0, -R1\nFADD.RP R8, R0, -R1\nEXIT",
        &[f(1.0), f(tiny)],
    );
    assert_eq!(&m.state.r[4..9], &[f(1.0), f(1.0), f(next), f(0.99999994), f(1.0)]);
    // A product: 3 * (1 + 2^-23) = 3 + 1.5 ulp (an ulp of 3 is 2^-22): RN ties to even (3 + 2
    // ulps), RZ truncates (3 + 1 ulp), RP rounds up (3 + 2 ulps).
    let m = run_with("FMUL R4, R0, R1\nFMUL.RZ R5, R0, R1\nFMUL.RP R6, R0, R1\nEXIT", &[f(3.0), f(next)]);
    let three = 0x4040_0000;
    assert_eq!(&m.state.r[4..7], &[three + 2, three + 1, three + 2]);
    // FFMA.RM of 1 * 1 - 2^-30: just below 1.
    let m = run_with("FFMA.RM R4, R0, R0, R1\nFFMA R5, R0, R0, R1\nEXIT", &[f(1.0), f(-tiny)]);
    assert_eq!((m.state.r[4], m.state.r[5]), (f(0.99999994), f(1.0)));
}

#[test]
fn ftz_and_fmz() {
    let sub = f32::from_bits(0x0000_1000); // a subnormal
    let m = run_with("FADD R4, R0, RZ\nFADD.FTZ R5, R0, RZ\nFMUL R6, R1, R2\nFMUL.FMZ R7, R1, R2\nFMUL.FTZ R8, R0, R3\nEXIT",
        &[f(sub), f(0.0), f(f32::INFINITY), f(2.0)]);
    assert_eq!(m.state.r[4], f(sub));
    assert_eq!(m.state.r[5], 0, "flushed");
    assert!(f32::from_bits(m.state.r[6]).is_nan(), "0 * inf is NaN");
    assert_eq!(m.state.r[7], 0, ".FMZ: 0 * anything is 0");
    assert_eq!(m.state.r[8], 0, "subnormal operand flushed before the multiply");
}

#[test]
fn mufu_and_rro_against_f32_functions() {
    let x = 0.7f32;
    let m = run_with(
        "RRO.SINCOS R1, R0\nMUFU.SIN R2, R1\nMUFU.COS R3, R1\nMUFU.EX2 R4, R0\nMUFU.LG2 R5, R0\n\
         MUFU.RCP R6, R0\nMUFU.RSQ R7, R0\nMUFU.SQRT R8, R0\nEXIT",
        &[f(x)],
    );
    let got = |i: usize| f32::from_bits(m.state.r[i]);
    let close = |a: f32, b: f32| (a - b).abs() <= 2.0 * f32::EPSILON * b.abs().max(1.0);
    assert!(close(got(2), x.sin()), "sin {} vs {}", got(2), x.sin());
    assert!(close(got(3), x.cos()), "cos");
    assert!(close(got(4), x.exp2()), "ex2");
    assert!(close(got(5), x.log2()), "lg2");
    assert!(close(got(6), 1.0 / x), "rcp");
    assert!(close(got(7), 1.0 / x.sqrt()), "rsq");
    assert_eq!(got(8), x.sqrt(), "sqrt is correctly rounded");
}

#[test]
fn conversions_round_and_saturate() {
    // float32 -> float16 -> float32: 0.1 becomes the nearest half, 0x2e66 = 0.0999755859375.
    let m = run_with("F2F.F16.F32 R1, R0\nF2F.F32.F16 R2, R1\nEXIT", &[f(0.1)]);
    assert_eq!(m.state.r[1], 0x2e66);
    assert_eq!(m.state.r[2], f(1638.0 / 16384.0), "(1 + 614/1024) / 16");
    // Integral rounding between floats of one size, against f32's own.
    let x = -2.5f32;
    let m = run_with(
        "F2F.F32.F32.ROUND R1, R0\nF2F.F32.F32.FLOOR R2, R0\nF2F.F32.F32.CEIL R3, R0\nF2F.F32.F32.TRUNC R4, R0\nEXIT",
        &[f(x)],
    );
    assert_eq!(&m.state.r[1..5], &[f(x.round_ties_even()), f(x.floor()), f(x.ceil()), f(x.trunc())]);
    // F2I: rounding, then saturation to the type; NaN is 0. (F2I has no 8-bit result: nvdisasm
    // 11.8 spells type 0 `.INVALID0`.)
    let m = run_with(
        "F2I.S32.F32.TRUNC R4, R0\nF2I.S32.F32.FLOOR R5, R0\nF2I.U16.F32 R6, R2\nF2I.S16.F32 R7, R2\n\
         F2I.S32.F32 R8, R3\nF2I.S32.F32 R9, R1\nEXIT",
        &[f(-2.7), f(300.0), f(-40000.0), f(f32::NAN)],
    );
    assert_eq!(&m.state.r[4..10], &[-2i32 as u32, -3i32 as u32, 0, -32768i32 as u32, 0, 300]);
    // I2F: 2^24 + 1 is not a float; the byte select reads B1 sign-extended.
    let big = (1 << 24) + 1;
    let m = run_with(
        "I2F.F32.S32 R4, R0\nI2F.F32.S32.RM R5, R0\nI2F.F32.S32.RP R6, R0\nI2F.F32.S8 R7, R1.B1\n\
         I2F.F32.U32 R8, R2\nEXIT",
        &[big, 0x0000_fe00, 0xffff_ffff],
    );
    assert_eq!(&m.state.r[4..9], &[f(16777216.0), f(16777216.0), f(16777218.0), f(-2.0), f(4294967296.0)]);
}

#[test]
fn xmad_sequence_multiplies_32_bits() {
    // ptxas's 32-bit multiply: three XMADs give the low 32 bits of a * b.
    let program = "XMAD R4, R0, R1, RZ\nXMAD.MRG R5, R0, R1.H1, RZ\nXMAD.PSL.CBCC R6, R0.H1, R5.H1, R4\nEXIT";
    let mut rng = isa_tests::Rng(0x5eed);
    for _ in 0..64 {
        let (a, b) = (rng.next() as u32, rng.next() as u32);
        let m = run_with(program, &[a, b]);
        assert_eq!(m.state.r[6], a.wrapping_mul(b), "{a:#x} * {b:#x}");
    }
    // Hand-worked modes: 3 * 4 + 10; the high half of A; CHI takes C's high half.
    let m = run_with(
        "XMAD R4, R0, R1, R2\nXMAD R5, R0.H1, R1, R2\nXMAD.CHI R6, R0, R1, R3\nXMAD.PSL R7, R0, R1, R2\nEXIT",
        &[0x0005_0003, 0x0007_0004, 10, 0x0009_0000],
    );
    assert_eq!(&m.state.r[4..8], &[22, 30, 21, 0x000c_000a]);
}

#[test]
fn constant_and_local_memory() {
    let mut m = machine();
    m.semantics.cbuf0 = vec![0x1122_3344, 0x5566_7788, f(10.0), 0];
    let program = assemble(
        "LDC R4, c[0x0][R0+0x4]\nLDC.U8 R5, c[0x0][0x6]\nLDC.S16 R6, c[0x0][0x2]\n\
         STL [R1+0x8], R4\nSTL.U8 [R1+0x9], R0\nLDL R7, [R1+0x8]\nAL2P R8, R1, 0x10\nEXIT",
    );
    m.state.r[0] = 4;
    m.state.r[1] = 0x100;
    assert_eq!(m.run(&program, 100), Ok(8));
    assert_eq!(m.state.r[4], f(10.0), "c[0][4 + 4]");
    assert_eq!(m.state.r[5], 0x66, "byte 6");
    assert_eq!(m.state.r[6], 0x1122, "half at 2, positive");
    // The byte store kept the other three bytes of the word.
    assert_eq!(m.state.r[7], (f(10.0) & 0xffff_00ff) | 0x0400);
    assert_eq!(m.semantics.local.get(&0x108), Some(&m.state.r[7]));
    assert_eq!(m.state.r[8], 0x110);
}

/// STL.128 writes four consecutive registers to four consecutive words of local memory, STL.64
/// two, and LDL.64 / LDL.128 read them back into consecutive registers (the `.64`/`.128` sizes
/// move register pairs and quads: NV's LDL/STL `.64`/`.128`).
#[test]
fn wide_local_loads_and_stores_move_consecutive_registers() {
    let mut m = machine();
    let program =
        assemble("STL.128 [R1], R4\nSTL.64 [R1+0x20], R8\nLDL.64 R12, [R1+0x20]\nLDL.128 R16, [R1]\nEXIT");
    m.state.r[1] = 0x200;
    m.state.r[4..8].copy_from_slice(&[0xa, 0xb, 0xc, 0xd]);
    m.state.r[8..10].copy_from_slice(&[0xe, 0xf]);
    assert_eq!(m.run(&program, 100), Ok(5));
    let local = |a: u32| m.semantics.local.get(&a).copied();
    assert_eq!(
        [0x200, 0x204, 0x208, 0x20c, 0x220, 0x224].map(local),
        [0xa, 0xb, 0xc, 0xd, 0xe, 0xf].map(Some)
    );
    assert_eq!(local(0x210), None, "nothing stored past the quad");
    assert_eq!(&m.state.r[12..14], &[0xe, 0xf]);
    assert_eq!(&m.state.r[16..20], &[0xa, 0xb, 0xc, 0xd]);
}

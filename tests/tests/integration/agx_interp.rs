//! The generated AGX interpreter (one thread): 16- and 32-bit float and integer ALU operations
//! on register halves, registers and pairs, run on the byte/text pairs of the facts file
//! (docs/research/facts-tegra-agx.md B.4: applegpu's assembler, README and hwtest.py) and a few
//! more of applegpu's words (agx_instructions.rs). Expected values are computed here with Rust's
//! own arithmetic, and binary16 results from the exact values by hand.

use isa_generated::agx::{self, Agx, Machine};
use isa_runtime::target::{split_stream, Isa};

struct Thread;
impl agx::Semantics for Thread {}

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}

/// Decodes one instruction from its bytes and executes it.
fn run(m: &mut Machine<Thread>, hex: &str) {
    let word = split_stream::<Agx>(&bytes(hex))[0];
    let insn = <Agx as Isa>::decode(word).unwrap_or_else(|e| panic!("{hex}: {e:?}"));
    m.execute(&insn).unwrap_or_else(|e| panic!("{hex}: {e:?}"));
}

/// Assembles one line of applegpu's text and executes it.
fn run_text(m: &mut Machine<Thread>, text: &str) {
    let insn = agx::assemble(text, agx::Dialect::Applegpu).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    m.execute(&insn[0]).unwrap_or_else(|e| panic!("{text}: {e:?}"));
}

/// IEEE binary16 bits of a value it holds exactly (normal numbers only).
fn f16_bits(x: f32) -> u32 {
    let b = x.to_bits();
    let sign = (b >> 31) << 15;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&exp) && b & 0x1fff == 0, "{x} is not an exact normal binary16");
    sign | (exp as u32) << 10 | (b >> 13) & 0x3ff
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn integer_operations_on_halves_registers_and_pairs() {
    let mut m = Machine::new(Thread);
    m.state.r[0] = 0xabcd_0000;
    m.state.r[2] = 0x1111_1111;
    m.state.r[40] = 0xffff_ffff;
    run(&mut m, "62000500"); // mov_imm r0l, 5: the high half stays
    assert_eq!(m.state.r[0], 0xabcd_0005);
    run(&mut m, "62a007000010"); // mov_imm r40l, 7 (the long form)
    assert_eq!(m.state.r[40], 0xffff_0007);
    run(&mut m, "620578563412"); // mov_imm r1, 0x12345678
    assert_eq!(m.state.r[1], 0x1234_5678);
    run(&mut m, "0e01424224000000"); // iadd r0, r1, r2
    assert_eq!(m.state.r[0], 0x1234_5678u32.wrapping_add(0x1111_1111));
    run(&mut m, "0e01425200000000"); // iadd r0, r1, 5
    assert_eq!(m.state.r[0], 0x1234_5678 + 5);
    // iadd r4_r5, r6_r7, r8.sx, lsl 2: a 64-bit pair plus a sign-extended register, shifted.
    (m.state.r[6], m.state.r[7], m.state.r[8]) = (0xffff_fff0, 1, 0xffff_ffff);
    run(&mut m, "0e134c0365001000");
    let sum = 0x1_ffff_fff0u64.wrapping_add((-1i64 << 2) as u64);
    assert_eq!((m.state.r[4], m.state.r[5]), (sum as u32, (sum >> 32) as u32));
    // imadd r1, r2.sx, u3, r4_r5.discard: the low 32 bits of r2 * u3 + r4_r5.
    m.state.u[3] = 3;
    run(&mut m, "1e05446618c80300");
    assert_eq!(m.state.r[1], (0x1111_1111u64 * 3).wrapping_add(sum) as u32);
    // 16-bit halves: isub of a half and a sign-extended half into a half; imsub.
    (m.state.r[10], m.state.r[11]) = (0x0003_0010, 0xfffe_0000);
    run_text(&mut m, "isub r12h, r10l, r11h.sx");
    assert_eq!(m.state.r[12] >> 16, (0x10i32 - -2) as u32);
    run_text(&mut m, "imsub r13, r10h, r10l, 100");
    assert_eq!(m.state.r[13], (3u32 * 0x10).wrapping_sub(100));
    run_text(&mut m, "iadd r14l, r10l, 255");
    assert_eq!(m.state.r[14] & 0xffff, 0x10 + 255);
}

/// `.sat` as applegpu's pseudocode says (IAddInstructionDesc, IMAddInstructionDesc and
/// ISaturatableInstructionDesc.saturate in applegpu.py): the exact result clamped to the
/// destination's range, signed when a source is `.sx`; a shift of 5 or more shifts to 0.
/// Expected values are clamped here with Rust's i64.
#[test]
fn saturating_integer_operations_clamp_to_the_destination() {
    let clamp = |v: i64, bits: u32, signed: bool| -> u32 {
        let (lo, hi) =
            if signed { (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1) } else { (0, (1i64 << bits) - 1) };
        (v.clamp(lo, hi) as u64 & ((1u64 << bits) - 1)) as u32
    };
    let mut m = Machine::new(Thread);
    (m.state.r[1], m.state.r[2], m.state.r[3]) = (0x8000_fff0, 0x7fff_0020, 0x0001_0000);
    // Unsigned halves: 0xfff0 + 0x20 clamps to 0xffff; 0x20 - 0xfff0 to 0.
    run_text(&mut m, "iadd.sat r0l, r1l, r2l");
    assert_eq!(m.state.r[0] & 0xffff, clamp(0xfff0 + 0x20, 16, false));
    run_text(&mut m, "isub.sat r0h, r2l, r1l");
    assert_eq!(m.state.r[0] >> 16, clamp(0x20 - 0xfff0, 16, false));
    // Signed halves: 0x8000 is -32768; -32768 - 0x7fff clamps to -32768; 32767 + 32767 to 32767.
    run_text(&mut m, "isub.sat r4l, r1h.sx, r2h.sx");
    assert_eq!(m.state.r[4] & 0xffff, clamp(-32768 - 0x7fff, 16, true));
    run_text(&mut m, "iadd.sat r4h, r2h.sx, r2h");
    assert_eq!(m.state.r[4] >> 16, clamp(0x7fff + 0x7fff, 16, true));
    // 32 bits: 0x8000fff0 + 0x7fff0020 overflows u32 (clamped), and as signed
    // (-0x7fff0010 + 0x7fff0020 = 16) does not.
    run_text(&mut m, "iadd.sat r5, r1, r2");
    assert_eq!(m.state.r[5], clamp(0x8000_fff0 + 0x7fff_0020, 32, false));
    run_text(&mut m, "iadd.sat r5, r1.sx, r2");
    assert_eq!(m.state.r[5], clamp(0x8000_fff0u32 as i32 as i64 + 0x7fff_0020, 32, true));
    // imadd: 0x10000 * 0x10000 = 2^32 clamps to 0xffffffff; imsub signed below i32::MIN.
    run_text(&mut m, "imadd.sat r6, r3, r3, 0");
    assert_eq!(m.state.r[6], clamp(1 << 32, 32, false));
    run_text(&mut m, "imsub.sat r6, r3.sx, r3, r2");
    assert_eq!(m.state.r[6], clamp((1 << 32) - 0x7fff_0020, 32, true));
    run_text(&mut m, "imsub.sat r7, r1.sx, r3, r2");
    assert_eq!(m.state.r[7], clamp((0x8000_fff0u32 as i32 as i64) * 0x10000 - 0x7fff_0020, 32, true));
    // A shift of 5 or more gives 0 (applegpu: `b = 0`); the shift also turns saturation off.
    run_text(&mut m, "iadd r8, r2, r3, lsl 5");
    assert_eq!(m.state.r[8], 0x7fff_0020);
    run_text(&mut m, "iadd.sat r8, r1, r2, lsl 1");
    assert_eq!(m.state.r[8], 0x8000_fff0u32.wrapping_add(0x7fff_0020 << 1));
}

#[test]
fn float_operations_on_halves_and_registers() {
    let mut m = Machine::new(Thread);
    let (a, b, c) = (1.5f32, 2.5f32, -0.25f32);
    (m.state.r[1], m.state.r[2], m.state.r[3]) = (f(a), f(b), f(c));
    run(&mut m, "3a81424224460200"); // fmadd32 r0, r1, r2, r3
    assert_eq!(m.state.r[0], f(a.mul_add(b, c)));
    run(&mut m, "2a8142422400"); // fadd32 r0, r1, r2
    assert_eq!(m.state.r[0], f(a + b));
    // hwtest.py: fmadd32 r3l, r0, r1, r2 and fadd32 r3l, r0, r2 write binary16 halves.
    run(&mut m, "3a8c402224440200");
    assert_eq!(m.state.r[3], (f(c) & 0xffff_0000) | f16_bits((a + b) * a + b));
    run(&mut m, "2a8c40422400");
    assert_eq!(m.state.r[3] & 0xffff, f16_bits(a + b + b));
    // fadd16 r0l, r0h, r1l: the high half of 4.0f (0x4080, 2.25 as binary16) plus the low
    // half of 1.5f (0x0000).
    run(&mut m, "268041200400");
    assert_eq!(m.state.r[0], (f(a + b) & 0xffff_0000) | f16_bits(2.25));
    // Immediates, modifiers and saturation.
    run(&mut m, "2a054442"); // fadd32 r1, r2, 0.0625
    assert_eq!(m.state.r[1], f(b + 0.0625));
    run_text(&mut m, "fmul32 r5, r2.neg, 3.0");
    assert_eq!(m.state.r[5], f(-b * 3.0));
    run_text(&mut m, "fmul32.sat r6, r2, 3.0");
    assert_eq!(m.state.r[6], f(1.0));
    run_text(&mut m, "fmul16 r7h, r3l.abs, 0.5");
    assert_eq!(m.state.r[7] >> 16, f16_bits((a + b + b) * 0.5));
    // Uniforms: halves read as binary16, whole ones as binary32.
    m.state.u[9] = f16_bits(-8.0) << 16 | f16_bits(0.75);
    run_text(&mut m, "fmadd16 r8l, r7h, 2.0, u9h");
    assert_eq!(m.state.r[8] & 0xffff, f16_bits((a + b + b) * 0.5 * 2.0 - 8.0));
    run_text(&mut m, "fmadd16 r8h, r7h, 2.0, u9l");
    assert_eq!(m.state.r[8] >> 16, f16_bits((a + b + b) * 0.5 * 2.0 + 0.75));
    m.state.u[4] = f(-8.0);
    run_text(&mut m, "fadd32 r9, u4, 0.5");
    assert_eq!(m.state.r[9], f(-8.0 + 0.5));
}

#[test]
fn a_program_runs_to_stop() {
    // mov_imm r1, 0x12345678; mov_imm r0l, 5; iadd r0, r1, 5; stop; trap (facts B.4), as a
    // byte stream of instructions of 6, 4, 8 and 2 bytes, executed in order until `stop`.
    let code = bytes("620578563412620005000e0142520000000088000800");
    let program: Vec<agx::Instruction> =
        split_stream::<Agx>(&code).into_iter().map(|w| <Agx as Isa>::decode(w).unwrap()).collect();
    assert_eq!(program.len(), 5);
    let mut m = Machine::new(Thread);
    let mut executed = 0;
    for insn in &program {
        m.execute(insn).unwrap();
        executed += 1;
        if m.state.done {
            break;
        }
    }
    assert_eq!(executed, 4);
    assert_eq!(m.state.r[0], 0x1234_5678 + 5);
}

/// Assembles a program of applegpu's text (labels allowed) and decodes it to instructions.
fn program(source: &str) -> Vec<agx::Instruction> {
    let words = isa_runtime::target::assemble_program::<Agx>(source, 0).unwrap_or_else(|e| panic!("{e:?}"));
    words.iter().map(|w| <Agx as Isa>::decode(*w).unwrap()).collect()
}

/// A loop and an if/else run by `pc` over instructions of 2, 4, 6 and 8 bytes: the execution
/// mask counter `r0l` (applegpu's pseudocode for while_icmp, if_icmp, else_icmp, pop_exec,
/// jmp_exec_any/none) switches the one thread off and on, branches go to byte addresses.
/// Expected values are computed here in Rust: the sum of 1..=5, and which arm runs.
#[test]
fn a_loop_and_an_if_else_run_by_the_program_counter() {
    let source = |limit: u32| {
        format!(
            "mov_imm          r1, 0, 0b0
            mov_imm          r2, 1, 0b0
        loop:
            iadd             r1, r1, r2
            iadd             r2, r2, 1
            while_icmp       r0l, ult, r2, 6, 1
            jmp_exec_any     loop
            pop_exec         r0l, 1
            if_icmp          r0l, ugt, r1, {limit}, 1
            jmp_exec_none    otherwise
            mov_imm          r3l, 100
        otherwise:
            else_icmp        r0l, ueq, 0, 0, 1
            mov_imm          r3l, 200
            pop_exec         r0l, 1
            stop
        "
        )
    };
    let sum: u32 = (1..=5).sum();
    for limit in [10, 20] {
        let p = program(&source(limit));
        let lengths: Vec<u64> = p.iter().map(isa_runtime::interp::instruction_length::<Agx>).collect();
        // mov_imm 6, 6; iadd 8, 8; while 6; jmp 6; pop 6; if 6; jmp 6; mov_imm half 4; else 6;
        // mov_imm 4; pop 6; stop 2 (applegpu's sizes).
        assert_eq!(lengths, [6, 6, 8, 8, 6, 6, 6, 6, 6, 4, 6, 4, 6, 2]);
        let mut m = Machine::new(Thread);
        let steps = m.run(&p, 1000).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(m.state.done);
        assert_eq!((m.state.r[1], m.state.r[2]), (sum, 6));
        assert_eq!(m.state.r[3] & 0xffff, if sum > limit { 100 } else { 200 });
        assert_eq!(m.state.r[0] & 0xffff, 0, "every thread back on");
        // 2 moves, 5 passes of 4 loop instructions, then 8 instructions to `stop` (the
        // taken arm's jmp_exec_none not taken, the other arm's skipped by it).
        assert_eq!(steps, 2 + 5 * 4 + if sum > limit { 8 } else { 7 });
        // The addresses worked out once: each instruction's start from those lengths, and
        // stepping with them runs the same instructions to the same state.
        let addresses = isa_runtime::interp::Addresses::of::<Agx>(&p);
        let starts: Vec<u64> = (0..=p.len()).filter_map(|i| addresses.start(i)).collect();
        assert_eq!(starts, [0, 6, 12, 20, 28, 34, 40, 46, 52, 58, 62, 68, 72, 78, 80]);
        assert_eq!((addresses.end(), addresses.index(20), addresses.index(21)), (80, Some(3), None));
        let mut stepped = Machine::new(Thread);
        let mut count = 0;
        while stepped.step_program_at(&p, &addresses).unwrap_or_else(|e| panic!("{e:?}")) {
            count += 1;
        }
        assert_eq!((count + 1, stepped.state.r), (steps, m.state.r));
    }
}

/// `pc` inside an instruction is a trap, not a wrong decode.
#[test]
fn a_program_counter_inside_an_instruction_is_a_trap() {
    let p = program("mov_imm r1, 5, 0b0\nstop\n");
    let mut m = Machine::new(Thread);
    m.state.pc = 2;
    assert_eq!(m.step_program(&p), Err(isa_runtime::interp::Trap::PcOutOfRange(2)));
}

/// Bit `i` of `bitop`'s result from its table `tt` (applegpu's `tt0 tt1 tt2 tt3`, facts of
/// `BitopInstructionDesc`): entry `a_bit + 2 * b_bit`, bit by bit.
fn truth_table(tt: [bool; 4], a: u32, b: u32) -> u32 {
    (0..32).filter(|i| tt[((a >> i) & 1 | ((b >> i) & 1) << 1) as usize]).fold(0, |v, i| v | 1 << i)
}

#[test]
fn bitop_applies_its_truth_table_on_registers_halves_and_immediates() {
    let (a, b) = (0x1234_f0f0u32, 0x0ff0_cc33u32);
    for (text, tt) in [
        ("and              r0, r1, r2", [false, false, false, true]),
        ("or               r0, r1, r2", [false, true, true, true]),
        ("xor              r0, r1, r2", [false, true, true, false]),
        ("nand             r0, r1, r2", [true, true, true, false]),
        ("nor              r0, r1, r2", [true, false, false, false]),
        ("xnor             r0, r1, r2", [true, false, false, true]),
        ("bitop            1101, r0, r1, r2", [true, true, false, true]),
        ("bitop            0100, r0, r1, r2", [false, true, false, false]),
    ] {
        let mut m = Machine::new(Thread);
        (m.state.r[1], m.state.r[2]) = (a, b);
        run_text(&mut m, text);
        assert_eq!(m.state.r[0], truth_table(tt, a, b), "{text}");
    }
    // `not` and `mov` take B as the immediate 0; a half destination keeps the other half.
    let mut m = Machine::new(Thread);
    (m.state.r[1], m.state.r[3]) = (a, 0xdead_beef);
    run_text(&mut m, "not              r0, r1");
    assert_eq!(m.state.r[0], !a);
    run_text(&mut m, "mov              r4, r1");
    assert_eq!(m.state.r[4], a);
    run_text(&mut m, "xor              r3l, r1h, 255");
    assert_eq!(m.state.r[3], 0xdead_0000 | ((a >> 16) ^ 255));
    // A 16-bit source is zero-extended before the table: `not` into 32 bits sets the top half.
    run_text(&mut m, "not              r5, r1l");
    assert_eq!(m.state.r[5], !(a & 0xffff));
    // 0011 and 1100 are undefined; applegpu's model passes A through.
    (m.state.r[2]) = b;
    run_text(&mut m, "bitop_mov_a      0011, r6, r1, r2");
    assert_eq!(m.state.r[6], a);
}

#[test]
fn icmpsel_selects_by_unsigned_and_signed_comparisons() {
    // (cc, a, b, holds) with Rust's own comparisons; applegpu's conditions: ueq ult ugt and, with
    // bit 2, the same on sign-extended sources (IConditionDesc).
    let (a, b) = (0xffff_fffeu32, 3u32);
    for (cc, holds) in [
        ("ueq", a == b),
        ("ult", a < b),
        ("ugt", a > b),
        ("seq", a == b),
        ("slt", (a as i32) < (b as i32)),
        ("sgt", (a as i32) > (b as i32)),
    ] {
        let mut m = Machine::new(Thread);
        (m.state.r[1], m.state.r[2], m.state.r[3], m.state.r[4]) = (a, b, 0x1111_1111, 0x2222_2222);
        run_text(&mut m, &format!("icmpsel          {cc}, r0, r1, r2, r3, r4"));
        assert_eq!(m.state.r[0], if holds { 0x1111_1111 } else { 0x2222_2222 }, "{cc}");
    }
    // On halves: r1l = 0xfffe is -2 signed; X an immediate, Y a half, the other half kept.
    let mut m = Machine::new(Thread);
    (m.state.r[1], m.state.r[2], m.state.r[5]) = (0x0000_fffe, 0x0000_0003, 0xabcd_0000);
    m.state.r[4] = 0x7777_0042;
    run_text(&mut m, "icmpsel          slt, r5l, r1l, r2l, 9, r4l");
    assert_eq!(m.state.r[5], 0xabcd_0009, "-2 < 3 signed");
    run_text(&mut m, "icmpsel          ult, r5l, r1l, r2l, 9, r4l");
    assert_eq!(m.state.r[5], 0xabcd_0042, "0xfffe > 3 unsigned");
}

/// Runs one line of applegpu's text and returns the trap it raises.
fn trap_of(m: &mut Machine<Thread>, text: &str) -> isa_runtime::interp::Trap {
    let insn = agx::assemble(text, agx::Dialect::Applegpu).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    m.execute(&insn[0]).expect_err(text)
}

/// The README program of applegpu (facts B.4): `convert u32_to_f`, `fmul32` by 0.5, `rcp`, from
/// their bytes, with r0 = 8: 8.0, then 4.0, then 0.25 (IEEE values, exact).
#[test]
fn applegpus_readme_program_converts_halves_and_takes_the_reciprocal() {
    let mut m = Machine::new(Thread);
    m.state.r[0] = 8;
    run(&mut m, "be890a042c00"); // convert u32_to_f, r2.cache, r0.discard, rte
    assert_eq!(m.state.r[2], f(8.0));
    run(&mut m, "9a85c4020200"); // fmul32 r1.cache, r2.discard, 0.5
    assert_eq!(m.state.r[1], f(4.0));
    run(&mut m, "0a05c282"); // rcp r1, r1.discard
    assert_eq!(m.state.r[1], f(0.25));
}

/// applegpu's pseudocode for `asr` and `asrh` (`ArithmeticShiftRightInstructionDesc`,
/// `ArithmeticShiftRightHighInstructionDesc`): A sign-extended from its width, shifted by B's
/// low 7 bits; expected values from Rust's `i64` shifts.
#[test]
fn arithmetic_shifts_sign_extend_from_the_source_width() {
    let a = 0x8000_0010u32;
    let mut m = Machine::new(Thread);
    (m.state.r[1], m.state.r[2]) = (a, 4);
    run_text(&mut m, "asr r0, r1, r2");
    assert_eq!(m.state.r[0], ((a as i32) >> 4) as u32);
    assert_eq!(m.state.r[0], 0xf800_0001);
    // A shift past the width leaves the sign; only B's low 7 bits count (0x84 is 4).
    m.state.r[2] = 40;
    run_text(&mut m, "asr r0, r1, r2");
    assert_eq!(m.state.r[0], 0xffff_ffff);
    m.state.r[2] = 0x84;
    run_text(&mut m, "asr r0, r1, r2");
    assert_eq!(m.state.r[0], 0xf800_0001);
    // A half is sign-extended from 16 bits: 0x0010 of r1l is positive, 0x8000 of r1h is not.
    run_text(&mut m, "asr r3l, r1h, 3");
    assert_eq!(m.state.r[3] & 0xffff, ((0x8000u16 as i16) >> 3) as u16 as u32);
    run_text(&mut m, "asr r4, r1l, 1");
    assert_eq!(m.state.r[4], 8);
    // asrh: the low 32 bits of (A << 32) >> B, A sign-extended first.
    for s in [0u32, 8, 31, 32, 40, 100] {
        m.state.r[2] = s;
        run_text(&mut m, "asrh r5, r1, r2");
        let wide = ((a as i32 as i64) << 32) >> s.min(63);
        assert_eq!(m.state.r[5], wide as u32, "asrh by {s}");
    }
    m.state.r[2] = 8;
    run_text(&mut m, "asrh r5, r1, r2");
    assert_eq!(m.state.r[5], 0x1000_0000, "by 8, A's low byte 0x10 lands in the top byte");
}

/// applegpu's pseudocode for the bit-field operations (`BaseBitfieldInstructionDesc` and its
/// five subclasses), worked by hand on A = 0x12345678, B = 0x9abcdef0.
#[test]
fn bit_field_operations_insert_extract_and_funnel() {
    let (a, b) = (0x1234_5678u32, 0x9abc_def0u32);
    let mut m = Machine::new(Thread);
    let mut go = |text: &str| {
        (m.state.r[1], m.state.r[2]) = (a, b);
        run_text(&mut m, text);
        m.state.r[0]
    };
    // bfi: B's low byte 0xf0 into A at bit 8.
    assert_eq!(go("bfi r0, r1, r2, 8, mask 0xFF"), 0x1234_f078);
    // m = 0 is all 32 bits: B << 4 over A's bits above 4.
    assert_eq!(go("bfi r0, r1, r2, 4"), 0xabcd_ef08);
    // bfeil: A's bits above 4 over B's nibble at bit 12 (0xd).
    assert_eq!(go("bfeil r0, r1, r2, 12, mask 0xF"), 0x1234_567d);
    assert_eq!(go("bfeil r0, r1, r2, 16"), 0x0000_9abc);
    // extr: 32 bits of the pair B:A from bit 8, and 12 bits from bit 28.
    assert_eq!(go("extr r0, r1, r2, 8"), 0xf012_3456);
    assert_eq!(go("extr r0, r1, r2, 28, mask 0xFFF"), 0x0000_0f01);
    // shlhi, shift below 32: (B << 8) >> 32 is B's top byte 0x9a, under the mask 0xFF.
    assert_eq!(go("shlhi r0, r1, r2, 8, mask 0xFF"), 0x1234_569a);
    // shlhi, shift 36: B << 4 under the mask 0xFF << 4.
    assert_eq!(go("shlhi r0, r1, r2, 36, mask 0xFF"), 0x1234_5f08);
    // shrhi by 8: (B << 32) >> 8 is B << 24, under the mask 0xFF << 24: B's low byte at the top.
    assert_eq!(go("shrhi r0, r1, r2, 8, mask 0xFF"), 0xf034_5678);
    // shrhi by 4, all 32 bits: B << 28 under the mask 0xF << 28 (B's low nibble, 0), A's low
    // 28 bits kept.
    assert_eq!(go("shrhi r0, r1, r2, 4"), 0x0234_5678);
    // A half destination takes the low 16 bits and keeps the other half.
    m.state.r[3] = 0xaaaa_0000;
    (m.state.r[1], m.state.r[2]) = (a, b);
    run_text(&mut m, "bfi r3l, r1l, r2l, 4, mask 0xF");
    assert_eq!(m.state.r[3], 0xaaaa_5608);
}

/// `fcmpsel` compares as applegpu's `fcompare_thread` (IEEE comparisons: false with a NaN) and
/// selects X or Y as wide as the destination; ltn and gtn (Mesa's fmin and fmax) take the
/// number over a NaN.
#[test]
fn fcmpsel_compares_floats_and_prefers_numbers_to_nan() {
    let nan = f32::NAN;
    for (a, b) in [(1.5f32, 2.5f32), (2.5, 1.5), (2.0, 2.0), (nan, 1.0), (1.0, nan)] {
        for (cc, holds) in [
            ("eq", a == b),
            ("lt", a < b),
            ("gt", a > b),
            ("gte", a >= b),
            ("lte", a <= b),
            ("ltn", a < b || (b.is_nan() && !a.is_nan())),
            ("gtn", a > b || (b.is_nan() && !a.is_nan())),
        ] {
            let mut m = Machine::new(Thread);
            (m.state.r[1], m.state.r[2], m.state.r[3], m.state.r[4]) = (f(a), f(b), 0x1111_1111, 0x2222_2222);
            run_text(&mut m, &format!("fcmpsel {cc}, r0, r1, r2, r3, r4"));
            assert_eq!(m.state.r[0], if holds { 0x1111_1111 } else { 0x2222_2222 }, "{a} {cc} {b}");
        }
    }
    // fmin as Mesa writes it, on binary16 halves: fcmpsel ltn, d, a, b, a, b.
    let mut m = Machine::new(Thread);
    m.state.r[1] = f16_bits(-3.0) << 16 | f16_bits(0.5);
    m.state.r[0] = 0xabcd_0000;
    run_text(&mut m, "fcmpsel ltn, r0l, r1l, r1h, r1l, r1h");
    assert_eq!(m.state.r[0], 0xabcd_0000 | f16_bits(-3.0));
    // Modifiers apply before the comparison: |-3| > 0.5.
    run_text(&mut m, "fcmpsel gt, r0l, r1h.abs, r1l, 7, 9");
    assert_eq!(m.state.r[0] & 0xffff, 7);
}

/// `if_fcmp`, `else_fcmp` and `while_fcmp` switch the thread as their integer forms do: a loop
/// doubling r1 from 1.0 while it is below 10.0, then an if/else on it (16.0, Rust's values).
#[test]
fn float_conditions_drive_the_execution_mask() {
    let p = program(
        "mov_imm          r1, 0x3F800000, 0b0
    again:
        fadd32           r1, r1, r1
        while_fcmp       r0l, lt, r1, 10.0, 1
        jmp_exec_any     again
        pop_exec         r0l, 1
        if_fcmp          r0l, gt, r1, 12.0, 1
        mov_imm          r2l, 1
        else_fcmp        r0l, gt, r1, 12.0, 1
        mov_imm          r2l, 2
        pop_exec         r0l, 1
        stop
    ",
    );
    let mut m = Machine::new(Thread);
    m.run(&p, 1000).unwrap_or_else(|e| panic!("{e:?}"));
    let mut x = 1.0f32;
    while {
        x += x;
        x < 10.0
    } {}
    assert_eq!(m.state.r[1], f(x));
    assert_eq!(m.state.r[2] & 0xffff, if x > 12.0 { 1 } else { 2 });
    assert_eq!(m.state.r[0] & 0xffff, 0);
}

/// `convert` as Mesa uses it (agx_compile.c: f2i/f2u with rtz, i2f/u2f with rte) on worked
/// values: the rounding of the instruction, integers saturating (the model's choice), binary16
/// where the destination or the source is a half.
#[test]
fn convert_rounds_and_fills_the_destination() {
    let mut m = Machine::new(Thread);
    let mut go = |text: &str, src: u32| {
        m.state.r[1] = src;
        run_text(&mut m, text);
        m.state.r[0]
    };
    assert_eq!(go("convert f_to_s32, r0, r1, rtz", f(-2.75)), -2i32 as u32);
    assert_eq!(go("convert f_to_s32, r0, r1, rte", f(-2.75)), -3i32 as u32);
    assert_eq!(go("convert f_to_s32, r0, r1, rte", f(2.5)), 2, "a tie to even");
    assert_eq!(go("convert f_to_s32, r0, r1, rte", f(3.5)), 4);
    assert_eq!(go("convert f_to_s32, r0, r1, rtz", f(3.0e9)), i32::MAX as u32);
    assert_eq!(go("convert f_to_u32, r0, r1, rtz", f(3.0e9)), 3_000_000_000);
    assert_eq!(go("convert f_to_u32, r0, r1, rtz", f(-5.0)), 0);
    assert_eq!(go("convert f_to_u32, r0, r1, rtz", f(f32::NAN)), 0);
    assert_eq!(go("convert f_to_u16, r0l, r1, rtz", f(70000.0)) & 0xffff, 0xffff);
    assert_eq!(go("convert f_to_s16, r0l, r1, rtz", f(-40000.0)) & 0xffff, 0x8000);
    // A half source is binary16: -3.5 to nearest even is -4.
    assert_eq!(go("convert f_to_s16, r0l, r1l, rte", f16_bits(-3.5)) & 0xffff, 0xfffc);
    // Integers to floats: the source's low 8, 16 or 32 bits, zero- or sign-extended.
    assert_eq!(go("convert u8_to_f, r0, r1, rte", 0x1ff), f(255.0));
    assert_eq!(go("convert s8_to_f, r0, r1, rte", 0x80), f(-128.0));
    assert_eq!(go("convert s16_to_f, r0, r1l, rte", 0xfffe), f(-2.0));
    assert_eq!(go("convert s32_to_f, r0, r1, rte", -7i32 as u32), f(-7.0));
    // 2^32 - 1 is not a binary32: to nearest it is 2^32, toward zero 2^32 - 256.
    assert_eq!(go("convert u32_to_f, r0, r1, rte", u32::MAX), f(4_294_967_296.0));
    assert_eq!(go("convert u32_to_f, r0, r1, rtz", u32::MAX), f(4_294_967_040.0));
    // Into a half: 65535 is past binary16's 65504, ∞ to nearest, 65504 (0x7bff) toward zero;
    // 2049 lies between 2048 and 2050: to nearest even 2048, toward zero 2048.
    assert_eq!(go("convert u16_to_f, r0l, r1l, rte", 0xffff) & 0xffff, 0x7c00);
    assert_eq!(go("convert u16_to_f, r0l, r1l, rtz", 0xffff) & 0xffff, 0x7bff);
    assert_eq!(go("convert u32_to_f, r0l, r1, rte", 2049) & 0xffff, f16_bits(2048.0));
    assert_eq!(go("convert u32_to_f, r0l, r1, rte", 2051) & 0xffff, f16_bits(2052.0));
}

/// The float unary operations applegpu names (`FUnaryInstructionDesc` subclasses: floor, ceil,
/// trunc, rint, reciprocal, rsqrt, log2, exp2) on values whose IEEE results are exact, 32-bit and
/// binary16; `.sat` clamps as for the other float operations.
#[test]
fn float_unary_operations_on_registers_and_halves() {
    let mut m = Machine::new(Thread);
    let mut go = |text: &str, x: f32| {
        m.state.r[1] = f(x);
        run_text(&mut m, text);
        f32::from_bits(m.state.r[0])
    };
    assert_eq!(go("floor r0, r1", -1.5), -2.0);
    assert_eq!(go("ceil r0, r1", -1.5), -1.0);
    assert_eq!(go("trunc r0, r1", -1.5), -1.0);
    assert_eq!(go("rint r0, r1", 2.5), 2.0);
    assert_eq!(go("rint r0, r1", 3.5), 4.0);
    assert_eq!(go("rcp r0, r1", 4.0), 0.25);
    assert_eq!(go("rcp r0, r1", 0.0), f32::INFINITY);
    assert_eq!(go("rsqrt r0, r1", 16.0), 0.25);
    assert_eq!(go("rsqrt_special r0, r1", 16.0), 0.25);
    assert_eq!(go("log2 r0, r1", 8.0), 3.0);
    assert_eq!(go("exp2 r0, r1", -2.0), 0.25);
    assert_eq!(go("exp2.sat r0, r1", 3.0), 1.0);
    assert!(go("rsqrt r0, r1", -1.0).is_nan());
    // Halves in and out: floor(-2.5) = -3 into r2h, r2l kept.
    let mut m = Machine::new(Thread);
    (m.state.r[1], m.state.r[2]) = (f16_bits(-2.5) << 16, 0x0000_1234);
    run_text(&mut m, "floor r2h, r1h");
    assert_eq!(m.state.r[2], f16_bits(-3.0) << 16 | 0x1234);
    run_text(&mut m, "rcp r3l, r1h.neg");
    assert_eq!(
        m.state.r[3] & 0xffff,
        0x3666,
        "1/2.5 = 0.4: 1.6 · 2^-2, mantissa 0.6 · 1024 = 614.4 to nearest, 614"
    );
}

/// What the model leaves open traps `Unimplemented` instead of guessing: rsqrt_special of 0, ∞
/// or a negative number, the two steps of a sine, derivatives (other threads' registers) and
/// `fcmpsel` condition 4.
#[test]
fn undocumented_float_cases_trap() {
    let mut m = Machine::new(Thread);
    m.state.r[1] = f(0.0);
    for text in ["rsqrt_special r0, r1", "sin_pt_1 r0, r1", "sin_pt_2 r0, r1", "dfdx r0, r1", "dfdy r0, r1"] {
        assert!(matches!(trap_of(&mut m, text), isa_runtime::interp::Trap::Unimplemented(_)), "{text}");
    }
    assert!(matches!(
        trap_of(&mut m, "fcmpsel 4, r0, r1, r1, 1, 2"),
        isa_runtime::interp::Trap::Unimplemented(_)
    ));
}

//! The Maxwell interpreter on what Mesa's NAK compiler (`src/nouveau/compiler/nak/`) settles from
//! hardware: its `hw_tests.rs` runs each IR op on the GPU at hand and compares the result with
//! the op's CPU fold (`impl Foldable` in `ir.rs`), and `sm50.rs` says which bits encode each
//! op's flags on SM50-SM62. A fold that `hw_tests.rs` exercises with an SM50 model is a
//! hardware-tested fact for Maxwell (research §G.14). Expected values are computed here from
//! the fold's rule, written out with Rust's u64/i64 arithmetic; the forms no public source
//! settles still trap.

use crate::maxwell_integer::Bank;
use isa_generated::maxwell::{self, Instruction, Machine};
use isa_runtime::interp::Trap;

fn assemble(source: &str) -> Vec<Instruction> {
    maxwell::assemble(source, maxwell::Dialect::default())
        .unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"))
}

/// Runs `program` (which ends with EXIT) with R0.. set to `regs`; returns the registers.
fn run(program: &[Instruction], regs: &[u32]) -> Vec<u32> {
    let mut m = Machine::new(Bank::default());
    m.state.r[..regs.len()].copy_from_slice(regs);
    let steps = m.run(program, 100).unwrap_or_else(|t| panic!("{t}"));
    assert_eq!(steps as usize, program.len());
    m.state.r.to_vec()
}

/// NAK's fold of `OpShf` with `right` set, for a model below SM70: the count wrapped (`.W`) or
/// clamped at the type's width (32, or 64 for `.U64`/`.S64`); the pair high:low shifted right,
/// arithmetically only for `.S64` (below SM70 a 32-bit type with `dst_high` shifts logically, and
/// it encodes as the same type field, 0, signed or not); the high word with `dst_high`.
fn nak_shf_right(
    low: u32,
    high: u32,
    shift: u32,
    bits: u32,
    signed64: bool,
    wrap: bool,
    dst_high: bool,
) -> u32 {
    let shift = if wrap { shift & (bits - 1) } else { shift.min(bits) };
    let x = u64::from(low) | u64::from(high) << 32;
    let shifted = if signed64 {
        let x = x as i64;
        x.checked_shr(shift).unwrap_or(x >> 63) as u64
    } else {
        x.checked_shr(shift).unwrap_or(0)
    };
    if dst_high {
        (shifted >> 32) as u32
    } else {
        shifted as u32
    }
}

/// Values of every magnitude and sign for the pair's words: edges, then xorshift64* (fixed seed).
fn words(count: usize) -> Vec<u32> {
    let mut v = vec![0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x8000_0001, 0x0001_0000];
    let mut rng = isa_tests::Rng(0x2545_f491_4f6c_dd1d);
    while v.len() < count {
        let r = rng.next();
        v.push((r >> (r % 32)) as u32 ^ if r >> 63 == 1 { 0xffff_ffff } else { 0 });
    }
    v
}

/// `SHF.R…HI` (bit 48; NAK's `dst_high`, which `sm50.rs` encodes as bit 48 on right shifts
/// only) is the high word of the pair C:A shifted right: logically for the 32-bit type and
/// `.U64`, arithmetically for `.S64`, the count clamped at (or with `.W` wrapped to) the type's
/// width, as NAK's fold says and `hw_tests.rs` `test_op_shf` checks on the GPU for every type,
/// wrap and `dst_high` (counts 0-127). Register and immediate counts alike.
#[test]
fn right_funnel_shifts_with_hi_give_the_high_word_of_the_shifted_pair() {
    let program = assemble(
        "SHF.R.HI R4, R0, R2, R1\n\
         SHF.R.W.HI R5, R0, R2, R1\n\
         SHF.R.U64.HI R6, R0, R2, R1\n\
         SHF.R.W.U64.HI R7, R0, R2, R1\n\
         SHF.R.S64.HI R8, R0, R2, R1\n\
         SHF.R.W.S64.HI R9, R0, R2, R1\n\
         SHF.R.U64.HI R10, R0, 0x21, R1\n\
         SHF.R.S64.HI R11, R0, 0x3f, R1\n\
         SHF.R.HI R12, R0, 0x1f, R1\n\
         EXIT",
    );
    let values = words(16);
    for &lo in &values {
        for &hi in &values {
            for n in (0..=70).chain([95, 96, 127, 128, 0xffff_ffff]) {
                let r = run(&program, &[lo, hi, n]);
                let want = |bits, signed64, wrap, n| nak_shf_right(lo, hi, n, bits, signed64, wrap, true);
                let case = format!("{hi:#x}:{lo:#x} >> {n}");
                assert_eq!(r[4], want(32, false, false, n), "SHF.R.HI {case}");
                assert_eq!(r[5], want(32, false, true, n), "SHF.R.W.HI {case}");
                assert_eq!(r[6], want(64, false, false, n), "SHF.R.U64.HI {case}");
                assert_eq!(r[7], want(64, false, true, n), "SHF.R.W.U64.HI {case}");
                assert_eq!(r[8], want(64, true, false, n), "SHF.R.S64.HI {case}");
                assert_eq!(r[9], want(64, true, true, n), "SHF.R.W.S64.HI {case}");
                assert_eq!(r[10], want(64, false, false, 0x21), "SHF.R.U64.HI {hi:#x}:{lo:#x}, 0x21");
                assert_eq!(r[11], want(64, true, false, 0x3f), "SHF.R.S64.HI {hi:#x}:{lo:#x}, 0x3f");
                assert_eq!(r[12], want(32, false, false, 0x1f), "SHF.R.HI {hi:#x}:{lo:#x}, 0x1f");
            }
        }
    }
}

/// NAK's 64-bit right shifts below SM70 (`builder.rs` `shr64`): the low word is `SHF.R.W.U64`
/// (`.S64`) of the pair, the high word `SHF.R.W.U64.HI` (`.S64.HI`) of RZ and the high word;
/// `hw_tests.rs` `test_shr64` checks on the GPU that the pair is `x >> (n & 63)`.
#[test]
fn nak_s_64_bit_right_shifts_are_the_shifted_pair() {
    let program = assemble(
        "SHF.R.W.U64 R4, R0, R2, R1\n\
         SHF.R.W.U64.HI R5, RZ, R2, R1\n\
         SHF.R.W.S64 R6, R0, R2, R1\n\
         SHF.R.W.S64.HI R7, RZ, R2, R1\n\
         EXIT",
    );
    let values = words(12);
    for &lo in &values {
        for &hi in &values {
            let x = u64::from(lo) | u64::from(hi) << 32;
            for n in 0..128 {
                let r = run(&program, &[lo, hi, n]);
                let (u, s) = (x >> (n & 0x3f), ((x as i64) >> (n & 0x3f)) as u64);
                assert_eq!(u64::from(r[4]) | u64::from(r[5]) << 32, u, "{x:#x} >> {n}");
                assert_eq!(u64::from(r[6]) | u64::from(r[7]) << 32, s, "{x:#x} >> {n} (signed)");
            }
        }
    }
}

/// What no public source settles traps as unimplemented instead of guessing (research §G.14):
/// the `.X` modes of SHF, SHR, SHL, LOP, LOP32I and LOP3, IMNMX `.XMED`, `.CC` on IMUL and
/// IADD3, LEA with Pd, LEA.HI with −A, IMAD.HI and IMAD32I.HI with −A alone.
#[test]
fn forms_nothing_public_settles_trap() {
    for text in [
        "SHF.R.X R4, R0, R2, R1",
        "SHF.R.U64.XHI R4, R0, R2, R1",
        "SHR.X R4, R0, R1",
        "SHR.U32.XHI R4, R0, R1",
        "SHL.X R4, R0, R1",
        "LOP.AND.X R4, R0, R1",
        "LOP32I.AND.X R4, R0, 0xff",
        "LOP3.LUT.X R4, R0, R1, R2, 0xe8",
        "IMNMX.XMED R4, R0, R1, PT",
        "IMUL R4.CC, R0, R1",
        "IADD3 R4.CC, R0, R1, R2",
        "LEA P0, R4, R0, R1",
        "LEA.HI R4, -R0, R1, R2",
        "IMAD.HI R4, -R0, R1, R2",
        "IMAD32I.HI R4, -R0, 0x7, R4",
    ] {
        assert!(matches!(trap_of(text), Trap::Unimplemented(_)), "{text} must trap as unimplemented");
    }
}

/// What NVIDIA's own instruction table (redplait/denvdis `data/sm52_1.txt`, each class's
/// `CONDITIONS`) calls an illegal encoding stops with the illegal-instruction trap: `SHF.L` with
/// `.HI` (NAK's `sm50.rs`: the hardware faults on it), `.XHI` or `.S64`, `F2F.F16.F64` and
/// `F2F.F64.F16`, IADD3 with both A and B negated. ptxas builds a double to float16 through
/// float32 (research §G.12).
#[test]
fn encodings_nvidia_calls_illegal_trap_as_illegal() {
    for text in [
        "SHF.L.HI R4, R0, R2, R1",
        "SHF.L.W.U64.XHI R4, R0, R2, R1",
        "SHF.L.S64 R4, R0, R2, R1",
        "SHF.L.W.S64 R4, R0, 0x3, R1",
        "F2F.F16.F64 R4, R0",
        "F2F.F64.F16 R4, R0",
        "IADD3 R4, -R0, -R1, R2",
    ] {
        assert!(matches!(trap_of(text), Trap::Illegal(_)), "{text} must trap as illegal");
    }
    // Their legal neighbours run.
    let r = run(
        &assemble("SHF.R.S64.HI R4, R0, R2, R1\nIADD3 R5, -R0, R1, R2\nMOV32I R3, 0x3fc00000\nF2F.F64.F32 R6, R3\nEXIT"),
        &[5, 7, 11],
    );
    assert_eq!((r[4], r[5]), (7 >> 11, 7 - 5 + 11), "SHF.R.S64.HI, IADD3 -A");
    assert_eq!(u64::from(r[6]) | u64::from(r[7]) << 32, 1.5f64.to_bits(), "F2F.F64.F32 of 1.5");
}

/// Runs `text` then EXIT from R0..R2 = 5, 7, 11; the trap it stops with.
fn trap_of(text: &str) -> Trap {
    let program = assemble(&format!("{text}\nEXIT"));
    let mut m = Machine::new(Bank::default());
    m.state.r[..3].copy_from_slice(&[5, 7, 11]);
    m.run(&program, 10).expect_err(text)
}

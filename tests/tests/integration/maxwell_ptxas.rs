//! The Maxwell interpreter on the instruction sequences NVIDIA ptxas 11.8 emits for sm_50-53
//! (`data/maxwell/ptxas_sequences.txt`: the words and cuobjdump's text; research §G.11), against
//! the PTX ISA's meaning of each kernel's one line computed here with Rust's own u64/i64/f32
//! arithmetic. A sequence computes its PTX result only if its instructions mean what the spec
//! says: `IMNMX.XHI` + `IMNMX.U32.XLO` (64-bit `min`/`max`), `I2F.F32.S64`/`.U64` in the four
//! roundings, `F2I.S64`/`.U64.F32` with the four integral roundings, and the 64-bit division
//! subroutines, whose first guess is `I2F.F32.U64.RP` then `F2I.U64.F32.TRUNC`; the wide
//! multiplies hold `IADD3.RS` (the carry of A + B shifted in) and `XMAD.CSFU` to the same test.

use crate::maxwell_integer::Bank;
use isa_generated::maxwell::{self, Instruction, Machine, Maxwell, State};
use isa_runtime::target::disassemble_word;

/// One sequence of the file: its kernel, its words, and the register (pair) of the result.
pub(crate) struct Sequence {
    name: String,
    program: Vec<Instruction>,
    result: usize,
    wide: bool,
}

/// Reads the file; every word decodes and prints the text cuobjdump printed for it.
pub(crate) fn sequences() -> Vec<Sequence> {
    let path = format!("{}/data/maxwell/ptxas_sequences.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut all: Vec<Sequence> = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(head) = line.strip_prefix("sequence ") {
            let cols: Vec<&str> = head.split(' ').collect();
            let [name, _archs, reg, bits] = cols[..] else { panic!("bad head: {line}") };
            let result = reg.trim_start_matches('R').parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            all.push(Sequence { name: name.to_string(), program: Vec::new(), result, wide: bits == "64" });
            continue;
        }
        let (word, expected) = line.split_once(' ').unwrap_or_else(|| panic!("bad row: {line}"));
        let word =
            u64::from_str_radix(word.trim_start_matches("0x"), 16).unwrap_or_else(|e| panic!("{line}: {e}"));
        let printed =
            disassemble_word::<Maxwell>(u128::from(word), 0, 0).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(printed, format!("{expected} ;"), "{word:#018x}");
        let seq = all.last_mut().unwrap_or_else(|| panic!("a row before any sequence: {line}"));
        seq.program.push(Instruction::decode(word).unwrap_or_else(|e| panic!("{line}: {e}")));
    }
    all
}

pub(crate) fn sequence<'a>(all: &'a [Sequence], name: &str) -> &'a Sequence {
    all.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no sequence {name}"))
}

/// Runs the sequence with the parameter words `params` at byte 0x140 of constant bank 0 (the
/// kernel parameters); returns its result (the
/// pair's high word above the low one).
pub(crate) fn run(seq: &Sequence, params: &[u32]) -> u64 {
    let mut m = Machine::new(kernel_bank(params));
    let steps = m.run(&seq.program, 1000).unwrap_or_else(|t| panic!("{}: {t}", seq.name));
    assert_eq!(steps as usize, seq.program.len(), "{}: straight-line code", seq.name);
    result(&m.state, seq)
}

/// Constant bank 0 as ptxas lays it out for a kernel: driver words below 0x140, then the
/// parameters from 0x140; a parameter a test leaves out reads as zero.
fn kernel_bank(params: &[u32]) -> Bank {
    let mut bank = vec![0; 0x400 / 4];
    bank[0x140 / 4..][..params.len()].copy_from_slice(params);
    Bank(bank)
}

fn result(s: &State, seq: &Sequence) -> u64 {
    let lo = u64::from(s.r[seq.result]);
    if seq.wide {
        lo | u64::from(s.r[seq.result + 1]) << 32
    } else {
        lo
    }
}

pub(crate) fn words(x: u64) -> [u32; 2] {
    [x as u32, (x >> 32) as u32]
}

/// Edge values of 64-bit integers, then pseudo-random ones of every magnitude (xorshift64*).
pub(crate) fn operands(count: usize) -> Vec<u64> {
    let mut v = vec![
        0,
        1,
        2,
        3,
        u64::MAX,
        u64::MAX - 1,
        0xffff_ffff,
        0x1_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0x8000_0000_0000_0001,
        0x8000_0000,
        0xffff_ffff_0000_0000,
        0x00ff_ffff,
        0x0100_0001,
        // Around the midpoints of float32 neighbours: 2^63 + 2^39 (+1, -1), 2^25 + 1 (+2).
        (1 << 63) + (1 << 39),
        (1 << 63) + (1 << 39) + 1,
        (1 << 63) + (1 << 39) - 1,
        (1 << 25) + 2,
        (1 << 25) + 6,
        (1 << 25) + 1,
        (-(1i64 << 40) - (1 << 16)) as u64,
        (-(1i64 << 40) - (1 << 16) - 1) as u64,
    ];
    let mut rng = isa_tests::Rng(0x9e37_79b9_7f4a_7c15);
    while v.len() < count {
        let r = rng.next();
        // Every magnitude: shifted right by 0-63 bits; every fourth shares the high word of the one
        // before, so that equal high words are tried too.
        let r = r >> (r % 64);
        v.push(if v.len() % 4 == 3 { (v[v.len() - 1] & !0xffff_ffff) | (r & 0xffff_ffff) } else { r });
    }
    v
}

/// PTX `min`/`max` `.s64` and `.u64` (PTX ISA, Integer Arithmetic Instructions): ptxas's `IMNMX.XHI Rhi.CC` of
/// the high words then `IMNMX.U32.XLO` of the low words.
#[test]
fn minimum_and_maximum_of_64_bit_numbers() {
    let all = sequences();
    type Pick = fn(u64, u64) -> u64;
    let cases: [(&str, Pick); 4] = [
        ("min_s64", |a, b| (a as i64).min(b as i64) as u64),
        ("max_s64", |a, b| (a as i64).max(b as i64) as u64),
        ("min_u64", |a, b| a.min(b)),
        ("max_u64", |a, b| a.max(b)),
    ];
    let values = operands(40);
    for (name, pick) in cases {
        let seq = sequence(&all, name);
        for &a in &values {
            for &b in &values {
                let got = run(seq, &[words(a), words(b)].concat());
                assert_eq!(got, pick(a, b), "{name}({a:#x}, {b:#x})");
            }
        }
    }
}

/// The float32 an integer `x` rounds to in `mode` (0 nearest even, 1 down, 2 up, 3 toward zero),
/// from Rust's nearest conversion moved by one where it passed `x` the wrong way (compared as
/// exact integers).
fn rounded(x: i128, mode: u32) -> f32 {
    let nearest = x as f32;
    let exact = nearest as i128;
    let down = if exact > x { nearest.next_down() } else { nearest };
    let up = if exact < x { nearest.next_up() } else { nearest };
    match mode {
        0 => nearest,
        1 => down,
        2 => up,
        _ if x < 0 => up,
        _ => down,
    }
}

/// PTX `cvt.{rn,rz,rm,rp}.f32.s64` and `.u64` (PTX ISA, `cvt`): one `I2F.F32.S64`/`.U64` of
/// the register pair, rounded once in the instruction's mode.
#[test]
fn conversions_of_64_bit_integers_to_float32_round_once_in_every_mode() {
    let all = sequences();
    let values = operands(400);
    for (signed, ty) in [(true, "s64"), (false, "u64")] {
        for (mode, rnd) in ["rn", "rm", "rp", "rz"].into_iter().enumerate() {
            let seq = sequence(&all, &format!("cvt_f32_{ty}_{rnd}"));
            for &a in &values {
                let exact = if signed { i128::from(a as i64) } else { i128::from(a) };
                let want = rounded(exact, mode as u32);
                let got = run(seq, &words(a)) as u32;
                assert_eq!(f32::from_bits(got), want, "cvt.{rnd}.f32.{ty} {a:#x} ({exact})");
            }
        }
    }
}

/// Float32 operands: edge values (halves, the ends of the 64-bit ranges, infinities), then
/// pseudo-random bit patterns and pseudo-random values within ±2^65. NaN is left out: the PTX
/// ISA text does not say what an integer conversion gives for it.
fn floats() -> Vec<f32> {
    let p = |e: i32| 2.0f32.powi(e);
    let mut v = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        -1.0,
        0.49999997,
        p(23) + 0.5,
        p(52) + p(30),
        p(63),
        -p(63),
        p(63) - p(39),
        -p(63) - p(40),
        p(64),
        p(64) - p(40),
        -p(64),
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(1),
    ];
    let mut rng = isa_tests::Rng(0x2545_f491_4f6c_dd1d);
    while v.len() < 600 {
        let r = rng.next();
        let f = if v.len() % 2 == 0 {
            f32::from_bits((r >> 32) as u32)
        } else {
            // Within ±2^65 with a fraction: mantissa bits at an exponent of -10..65.
            let e = (r % 76) as i32 - 10;
            let m = ((r >> 8) as u32 & 0xff_ffff) as f32 / p(24);
            if r & 1 == 1 {
                -m * p(e)
            } else {
                m * p(e)
            }
        };
        if !f.is_nan() {
            v.push(f);
        }
    }
    v
}

/// PTX `cvt.{rni,rzi,rmi,rpi}.s64.f32` and `.u64` (PTX ISA, `cvt`: rounded to an integral value
/// in the mode, clamped to the destination's range): one `F2I.S64`/`.U64.F32` into a pair.
#[test]
fn conversions_of_float32_to_64_bit_integers_round_and_saturate() {
    let all = sequences();
    type Round = fn(f32) -> f32;
    let round: [(&str, Round); 4] =
        [("rni", f32::round_ties_even), ("rmi", f32::floor), ("rpi", f32::ceil), ("rzi", f32::trunc)];
    for (name, f) in round {
        let signed = sequence(&all, &format!("cvt_s64_f32_{name}"));
        let unsigned = sequence(&all, &format!("cvt_u64_f32_{name}"));
        for a in floats() {
            // Rust's float-to-integer `as` clamps to the type's range.
            let got = run(signed, &[a.to_bits()]);
            assert_eq!(got, f(a) as i64 as u64, "cvt.{name}.s64.f32 {a:e} ({:#x})", a.to_bits());
            let got = run(unsigned, &[a.to_bits()]);
            assert_eq!(got, f(a) as u64, "cvt.{name}.u64.f32 {a:e} ({:#x})", a.to_bits());
        }
    }
}

/// PTX `mul.wide.u32`/`.s32`, `mad.wide.u32`, `mul.lo.u64`, `mul.hi.u64` and `mad.hi.u64` (PTX ISA
/// `mul` and `mad`): ptxas builds them from 16-bit XMADs, `IADD3.RS` and carry chains.
#[test]
fn multiplies_of_32_and_64_bit_numbers() {
    let all = sequences();
    let values = operands(40);
    let wide = |a: u64, b: u64| u128::from(a) * u128::from(b);
    for &a in &values {
        for &b in &values {
            let (a32, b32) = (a as u32, b as u32);
            let got = run(sequence(&all, "mul_wide_u32"), &[a32, b32]);
            assert_eq!(got, u64::from(a32) * u64::from(b32), "mul.wide.u32 {a32:#x}, {b32:#x}");
            let got = run(sequence(&all, "mul_wide_s32"), &[a32, b32]);
            assert_eq!(
                got as i64,
                i64::from(a32 as i32) * i64::from(b32 as i32),
                "mul.wide.s32 {a32:#x}, {b32:#x}"
            );
            let got = run(sequence(&all, "mad_wide_u32"), &[[a32, b32], words(b)].concat());
            let want = (u64::from(a32) * u64::from(b32)).wrapping_add(b);
            assert_eq!(got, want, "mad.wide.u32 {a32:#x}, {b32:#x}, {b:#x}");
            let got = run(sequence(&all, "mul_lo_64"), &[words(a), words(b)].concat());
            assert_eq!(got, a.wrapping_mul(b), "mul.lo.u64 {a:#x}, {b:#x}");
            let got = run(sequence(&all, "mulhi_u64"), &[words(a), words(b)].concat());
            assert_eq!(got, (wide(a, b) >> 64) as u64, "mul.hi.u64 {a:#x}, {b:#x}");
            let got = run(sequence(&all, "madhi_u64"), &[words(a), words(b), words(a ^ b)].concat());
            let want = ((wide(a, b) >> 64) as u64).wrapping_add(a ^ b);
            assert_eq!(got, want, "mad.hi.u64 {a:#x}, {b:#x}, {:#x}", a ^ b);
        }
    }
}

/// PTX `div.u64` and `rem.s64` (PTX ISA, `div` and `rem`; a zero divisor's result is
/// unspecified and left out, as is the overflowing `rem` of -2^63 by -1): ptxas's subroutines
/// start from the reciprocal of the divisor converted by `I2F.F32.U64.RP`, scaled and converted
/// back by `F2I.U64.F32.TRUNC`, then refine it with 64-bit multiplies and carry chains.
#[test]
fn division_and_remainder_of_64_bit_numbers() {
    let all = sequences();
    let (div, rem) = (sequence(&all, "div_u64"), sequence(&all, "rem_s64"));
    let values = operands(40);
    for &a in &values {
        for &b in values.iter().filter(|&&b| b != 0) {
            let got = run(div, &[words(a), words(b)].concat());
            assert_eq!(got, a / b, "div.u64 {a:#x}, {b:#x}");
            if a as i64 == i64::MIN && b as i64 == -1 {
                continue;
            }
            let got = run(rem, &[words(a), words(b)].concat());
            assert_eq!(got as i64, (a as i64) % (b as i64), "rem.s64 {a:#x}, {b:#x}");
        }
    }
}

/// The neighbours of the forms above that ptxas never emits stay traps (research §G.11): a 64-bit
/// source in a constant or an immediate, a 64-bit source to float16, `IMNMX.XMED` and a signed
/// `.XLO`; the register forms beside them run. (A double to float16 is an illegal encoding:
/// `maxwell_nak::encodings_nvidia_calls_illegal_trap_as_illegal`.)
#[test]
fn forms_ptxas_never_emits_trap() {
    for text in [
        "I2F.F32.S64 R0, c[0x0][0x140]",
        "I2F.F32.U64 R0, 0x5",
        "I2F.F16.S64 R0, R2",
        "IMNMX.XMED R0, R2, R3, PT",
        "IMNMX.XLO R0, R2, R3, PT",
    ] {
        let program =
            maxwell::assemble(text, maxwell::Dialect::default()).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let mut m = Machine::new(kernel_bank(&[]));
        assert!(
            matches!(m.run(&program, 10), Err(isa_runtime::interp::Trap::Unimplemented(_))),
            "{text} must trap"
        );
    }
    let program =
        maxwell::assemble("I2F.F32.S64 R0, R2\nIMNMX.U32.XLO R1, R2, R3, PT", maxwell::Dialect::default())
            .unwrap_or_else(|e| panic!("{e:?}"));
    let mut m = Machine::new(kernel_bank(&[]));
    m.state.r[2..4].copy_from_slice(&[7, 0]);
    assert_eq!(m.run(&program, 10), Ok(2));
    assert_eq!(m.state.r[0], 7.0f32.to_bits());
}

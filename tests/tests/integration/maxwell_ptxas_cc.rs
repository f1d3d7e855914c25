//! The Maxwell interpreter's CC tests (`CSETP`, `CSET`, the CC test of `EXIT`): the sequences
//! NVIDIA ptxas 11.8 emits for sm_50-53 that read the CC register through `CSETP`
//! (`data/maxwell/ptxas_sequences.txt`, after `# CC tests`; research §G.13) against the PTX ISA's
//! meaning of each kernel's line computed here with Rust's i128 arithmetic, and every CC test on
//! every combination of the four flags against the formulas of the public tables (envytools'
//! `hw/graph/tesla/cuda/isa.rst` for 0-15, Mesa's Fermi emitter and yuzu for 16-23 and 30-31).

use crate::maxwell_integer::Bank;
use crate::maxwell_ptxas::{operands, run, sequence, sequences, words};
use isa_generated::maxwell::{self, Machine};
use isa_runtime::interp::Trap;

/// PTX `mul.hi.s64`, `mad.hi.s64` (PTX ISA, Integer Arithmetic Instructions: the high 64 bits of
/// the 128-bit product, plus `c` for `mad`), `abs.s64` (−2^63 stays −2^63), `neg.s64` of it and
/// `max.s64` of two: ptxas tests the operands' signs with `I2I.S32.S32 RZ.CC` of the high word
/// and `CSETP.SFT`/`.LT`/`.GEU`, and the product's sign with `LOP.XOR RZ.CC` and `CSETP.SFT`.
#[test]
fn signed_high_products_and_absolute_values() {
    let all = sequences();
    let values = operands(40);
    let product = |a: u64, b: u64| i128::from(a as i64) * i128::from(b as i64);
    let abs = |a: u64| (a as i64).wrapping_abs() as u64;
    for &a in &values {
        for &b in &values {
            let got = run(sequence(&all, "mulhi_s64"), &[words(a), words(b)].concat());
            assert_eq!(got, (product(a, b) >> 64) as u64, "mul.hi.s64 {a:#x}, {b:#x}");
            let c = a ^ b.rotate_left(17);
            let got = run(sequence(&all, "madhi_s64"), &[words(a), words(b), words(c)].concat());
            let want = ((product(a, b) >> 64) as u64).wrapping_add(c);
            assert_eq!(got, want, "mad.hi.s64 {a:#x}, {b:#x}, {c:#x}");
            let got = run(sequence(&all, "max_abs_s64"), &[words(a), words(b)].concat());
            assert_eq!(got as i64, (abs(a) as i64).max(abs(b) as i64), "max.s64 |{a:#x}|, |{b:#x}|");
        }
        let got = run(sequence(&all, "mulhi_s64_m7"), &words(a));
        assert_eq!(got, (product(a, -7i64 as u64) >> 64) as u64, "mul.hi.s64 {a:#x}, -7");
        assert_eq!(run(sequence(&all, "abs_s64"), &words(a)), abs(a), "abs.s64 {a:#x}");
        assert_eq!(run(sequence(&all, "neg_abs_s64"), &words(a)), abs(a).wrapping_neg(), "-abs.s64 {a:#x}");
    }
}

/// The CC tests in value order, as nvdisasm spells them, with the flags (zero, sign, carry,
/// overflow) they hold on, as the public tables write them: envytools' Tesla `$c` predicates for
/// 0-15 (`~` not, `&`, `|`, `^`), Mesa `nv50_ir_emit_nvc0.cpp`'s Fermi numbering of the flag tests
/// (NO, NC, NS, NA, A, S, C, O) for 16-23, yuzu `ir_emitter.cpp` for RLE and RGT. `None`: the
/// CSM tests, which no public source describes.
type Formula = Option<fn(bool, bool, bool, bool) -> bool>;
const TESTS: [(&str, Formula); 32] = [
    ("F", Some(|_, _, _, _| false)),
    ("LT", Some(|z, s, _, o| (s & !z) ^ o)),
    ("EQ", Some(|z, s, _, _| z & !s)),
    ("LE", Some(|z, s, _, o| s ^ (z | o))),
    ("GT", Some(|z, s, _, o| !z & !(s ^ o))),
    ("NE", Some(|z, _, _, _| !z)),
    ("GE", Some(|_, s, _, o| !(s ^ o))),
    ("NUM", Some(|z, s, _, _| !z | !s)),
    ("NAN", Some(|z, s, _, _| z & s)),
    ("LTU", Some(|_, s, _, o| s ^ o)),
    ("EQU", Some(|z, _, _, _| z)),
    ("LEU", Some(|z, s, _, o| z | (s ^ o))),
    ("GTU", Some(|z, s, _, o| !s ^ (z | o))),
    ("NEU", Some(|z, s, _, _| !z | s)),
    ("GEU", Some(|z, s, _, o| (!s | z) ^ o)),
    ("T", Some(|_, _, _, _| true)),
    ("OFF", Some(|_, _, _, o| !o)),
    ("LO", Some(|_, _, c, _| !c)),
    ("SFF", Some(|_, s, _, _| !s)),
    ("LS", Some(|z, _, c, _| z | !c)),
    ("HI", Some(|z, _, c, _| !z & c)),
    ("SFT", Some(|_, s, _, _| s)),
    ("HS", Some(|_, _, c, _| c)),
    ("OFT", Some(|_, _, _, o| o)),
    ("CSM_TA", None),
    ("CSM_TR", None),
    ("CSM_MX", None),
    ("FCSM_TA", None),
    ("FCSM_TR", None),
    ("FCSM_MX", None),
    ("RLE", Some(|z, s, _, _| s | z)),
    ("RGT", Some(|z, s, _, _| !s & !z)),
];

/// Every CC test on each of the 16 flag states `R2P CC` sets (Z, S, C, O in bits 0-3): `CSETP`
/// writes the test and its inverse combined with Pa, `CSET` all ones or 1.0 (`.BF`) and with
/// `.CC` the flags of that result (zero, its sign, no carry or overflow; yuzu
/// `condition_code_set.cpp`), `EXIT CC.<test>` ends the program only where the test holds; the CSM
/// tests trap.
#[test]
fn every_cc_test_is_its_flag_formula() {
    for (value, (name, formula)) in TESTS.iter().enumerate() {
        let source = format!(
            "R2P CC, R0, 0xf\n\
             CSETP.{name}.AND P0, P1, CC, PT\n\
             CSETP.{name}.OR P2, P3, CC, !PT\n\
             CSETP.{name}.XOR P4, P5, CC, P6\n\
             CSET.{name}.AND R1, CC, PT\n\
             CSET.BF.{name}.AND R2.CC, CC, PT\n\
             P2R R3, CC, RZ, 0xf\n\
             R2P CC, R0, 0xf\n\
             CSET.{name}.AND R4.CC, CC, PT\n\
             P2R R5, CC, RZ, 0xf\n\
             R2P CC, R0, 0xf\n\
             EXIT CC.{name}\n\
             MOV32I R6, 0x1\n\
             EXIT"
        );
        let program = maxwell::assemble(&source, maxwell::Dialect::default())
            .unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"));
        assert_eq!(program[1].to_string().split(' ').next(), Some(format!("CSETP.{name}.AND").as_str()));
        for flags in 0..16u32 {
            let mut m = Machine::new(Bank::default());
            m.state.r[0] = flags | 0xf0;
            m.state.preds[6] = true;
            let run = m.run(&program, 100);
            let Some(formula) = formula else {
                assert!(matches!(run, Err(Trap::Unimplemented(_))), "CC.{name} must trap");
                continue;
            };
            let [z, s, c, o] = [0, 1, 2, 3].map(|i| (flags >> i) & 1 == 1);
            let holds = formula(z, s, c, o);
            let at = format!("CC.{name} (value {value}) with Z={z} S={s} C={c} O={o}");
            run.unwrap_or_else(|t| panic!("{at}: {t}"));
            let p = m.state.preds;
            assert_eq!(p[..6], [holds, !holds, holds, !holds, !holds, holds], "CSETP {at}");
            let (r, bits) = (m.state.r, |v: bool| u32::from(v));
            assert_eq!(r[1], if holds { 0xffff_ffff } else { 0 }, "CSET {at}");
            assert_eq!(r[2], if holds { 0x3f80_0000 } else { 0 }, "CSET.BF {at}");
            assert_eq!(r[3], bits(!holds), "CSET.BF .CC {at}: Z = zero result, S clear, C and O cleared");
            assert_eq!(r[5], bits(!holds) | bits(holds) << 1, "CSET .CC {at}: Z and S of the result");
            assert_eq!(r[6], bits(!holds), "EXIT {at}: ends the program where the test holds");
        }
    }
}

/// PTX `set.<cmp>.u32.s64`/`.u64` and `set.gt.f32.u64` (PTX ISA, `set`: all ones or 1.0 where
/// the compare holds): ptxas subtracts the low words with `IADD RZ.CC` and compares the high
/// words with `ISET.X` (`.BF` for the float result), which reads the borrow and zero flag.
#[test]
fn sixty_four_bit_set_compares_the_pair() {
    use std::cmp::Ordering;
    let all = sequences();
    let values = operands(40);
    type Holds = fn(Ordering) -> bool;
    let cmps: [(&str, Holds); 6] = [
        ("lt", |o| o.is_lt()),
        ("le", |o| o.is_le()),
        ("gt", |o| o.is_gt()),
        ("ge", |o| o.is_ge()),
        ("eq", |o| o.is_eq()),
        ("ne", |o| o.is_ne()),
    ];
    for &a in &values {
        for &b in &values {
            let params = [words(a), words(b)].concat();
            for (cmp, holds) in cmps {
                let signed = holds((a as i64).cmp(&(b as i64)));
                let got = run(sequence(&all, &format!("set_{cmp}_s64")), &params);
                assert_eq!(got as u32, if signed { u32::MAX } else { 0 }, "set.{cmp}.s64 {a:#x}, {b:#x}");
                let unsigned = holds(a.cmp(&b));
                let got = run(sequence(&all, &format!("set_{cmp}_u64")), &params);
                assert_eq!(got as u32, if unsigned { u32::MAX } else { 0 }, "set.{cmp}.u64 {a:#x}, {b:#x}");
            }
            let got = run(sequence(&all, "setf_gt_u64"), &params) as u32;
            assert_eq!(f32::from_bits(got), if a > b { 1.0 } else { 0.0 }, "set.gt.f32.u64 {a:#x}, {b:#x}");
        }
    }
}

/// `.CC` on the compares into a register (ISET, FSET, DSET, PSET) writes the flags of the result
/// as yuzu's translations of them do (`integer_compare.cpp`, `floating_point_compare.cpp`,
/// `double_compare.cpp`, `predicate_set_register.cpp`): zero, its sign, carry and overflow
/// cleared; where no public source says what `.CC` writes (a float result, `ISET.X`), it traps.
#[test]
fn set_results_write_their_flags_and_unknown_flags_trap() {
    // R0:R1 is the double 1.0 (and R0, R1 the floats 0 and 1.875); R2:R3 the double 2.0.
    let regs = [0, 0x3ff0_0000, 0, 0x4000_0000];
    for (text, result) in [
        ("ISET.LT.AND R4.CC, R0, R1, PT", u32::MAX),
        ("ISET.BF.LT.AND R4.CC, R0, R1, PT", 0x3f80_0000),
        ("ISET.LT.AND R4.CC, R1, R0, PT", 0),
        ("FSET.LT.AND R4.CC, R0, R1, PT", u32::MAX),
        ("FSET.BF.GT.AND R4.CC, R0, R1, PT", 0),
        ("DSET.LT.AND R4.CC, R0, R2, PT", u32::MAX),
        ("DSET.BF.LT.AND R4.CC, R0, R2, PT", 0x3f80_0000),
        ("PSET.AND.AND R4.CC, PT, !PT, PT", 0),
        ("PSET.OR.AND R4.CC, PT, !PT, PT", u32::MAX),
    ] {
        let source = format!("R2P CC, R9, 0xf\n{text}\nP2R R5, CC, RZ, 0xf\nEXIT");
        let program = maxwell::assemble(&source, maxwell::Dialect::default())
            .unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"));
        let mut m = Machine::new(Bank::default());
        m.state.r[..4].copy_from_slice(&regs);
        m.state.r[9] = 0xf;
        m.run(&program, 10).unwrap_or_else(|t| panic!("{text}: {t}"));
        assert_eq!(m.state.r[4], result, "{text}");
        let flags = u32::from(result == 0) | (result >> 31) << 1;
        assert_eq!(m.state.r[5], flags, "{text}: Z and S of the result, C and O cleared");
    }
    for text in [
        "FADD R4.CC, R0, R1",
        "FMUL R4.CC, R0, R1",
        "FFMA R4.CC, R0, R1, R2",
        "FMNMX R4.CC, R0, R1, PT",
        "DADD R4.CC, R0, R2",
        "DMUL R4.CC, R0, R2",
        "ISET.LT.X.AND R4.CC, R0, R1, PT",
    ] {
        let program =
            maxwell::assemble(text, maxwell::Dialect::default()).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let mut m = Machine::new(Bank::default());
        assert!(matches!(m.run(&program, 10), Err(Trap::Unimplemented(_))), "{text} must trap");
        let plain = text.replace(".CC", "");
        let program = maxwell::assemble(&plain, maxwell::Dialect::default())
            .unwrap_or_else(|e| panic!("{plain}: {e:?}"));
        assert_eq!(Machine::new(Bank::default()).run(&program, 10), Ok(1), "{plain} runs");
    }
}

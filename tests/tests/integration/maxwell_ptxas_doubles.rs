//! The Maxwell interpreter on the double-precision sequences NVIDIA ptxas 11.8 emits for sm_50-53
//! (`data/maxwell/ptxas_sequences.txt`, after `# Doubles`; research §G.12): `I2F.F64`, `F2F` and
//! `F2I` with `.F64` in every rounding, `DADD`, `DMUL`, `DFMA` with theirs, `DMNMX`, `DSET` and
//! `DSETP`, against the PTX ISA's meaning of each kernel's line. To nearest, the reference is
//! Rust's own f64 arithmetic (`+`, `*`, `mul_add`, `as`); a directed rounding is the neighbour of
//! that result on the side where the exact value lies, the side found here with exact integer
//! arithmetic (i128) or Knuth's two-sum, never with the runtime's helpers.

use crate::maxwell_ptxas::{run, sequence, sequences, words, Sequence};
use std::cmp::Ordering::{self, Equal, Greater, Less};

const MODES: [&str; 4] = ["rn", "rm", "rp", "rz"];

/// Operands: IEEE 754 edge values (zeros, subnormals, the ends of the normal range, infinities,
/// NaN, neighbours of 1 and of powers of two, midpoints of integers), then pseudo-random values
/// near 1 (sums that cancel and carry), of every magnitude, and bit patterns.
fn doubles(count: usize) -> Vec<f64> {
    let d = f64::from_bits;
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.5,
        2.5,
        -2.5,
        0.5,
        -0.5,
        0.1,
        1.0 / 3.0,
        d(0x3ff0_0000_0000_0001),
        d(0x3fef_ffff_ffff_ffff),
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        d(1),
        d(0x8000_0000_0000_0003),
        d(0x000f_ffff_ffff_ffff),
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        9007199254740993.0, // 2^53 + 1 rounds to 2^53
        4503599627370495.5, // 2^52 - 0.5
        2147483647.5,
        -2147483648.5,
        4294967295.7,
        9.223372036854775e18,
        -9.223372036854776e18,
        1.8446744073709552e19,
        f64::from(f32::MAX) + 2f64.powi(103), // the float32 overflow threshold
        2f64.powi(-150),                      // half the smallest float32 subnormal
        3.0 * 2f64.powi(-150),
        1.0 + 2f64.powi(-24), // a float32 midpoint
    ];
    let mut rng = isa_tests::Rng(0x5851_f42d_4c95_7f2d);
    while v.len() < count {
        let r = rng.next();
        let sign = if r >> 63 == 1 { -1.0 } else { 1.0 };
        v.push(match v.len() % 4 {
            0 => sign * d(0x3ff0_0000_0000_0000 | (r & 0x000f_ffff_ffff_ffff)),
            // Exponents within ±16: sums, products and fused sums are checked in every mode.
            1 => sign * d(((1023 - 16 + (r >> 52) % 33) << 52) | (r & 0x000f_ffff_ffff_ffff)),
            _ => d(r),
        });
    }
    v
}

/// A finite double as (negative, significand, exponent): `±m · 2^e`.
fn parts(x: f64) -> (bool, u128, i32) {
    let b = x.to_bits();
    let (e, f) = ((b >> 52) & 0x7ff, u128::from(b & 0x000f_ffff_ffff_ffff));
    let neg = b >> 63 == 1;
    if e == 0 {
        (neg, f, -1074)
    } else {
        (neg, f | 1 << 52, e as i32 - 1075)
    }
}

/// The sign of `Σ terms − near` for a finite exact value, computed in i128 where every term fits
/// with its exponent aligned to the smallest (`None` otherwise); an infinite `near` is past it.
fn residual(terms: &[(bool, u128, i32)], near: f64) -> Option<Ordering> {
    if near.is_infinite() {
        return Some(if near > 0.0 { Less } else { Greater });
    }
    let (n, m, e) = parts(near);
    let all: Vec<(bool, u128, i32)> =
        terms.iter().copied().chain([(!n, m, e)]).filter(|t| t.1 != 0).collect();
    let Some(low) = all.iter().map(|t| t.2).min() else { return Some(Equal) };
    let mut sum = 0i128;
    for (neg, m, e) in all {
        let s = e - low;
        if s > 124 || 128 - m.leading_zeros() as i32 + s > 124 {
            return None;
        }
        let v = (m << s) as i128;
        sum += if neg { -v } else { v };
    }
    Some(sum.cmp(&0))
}

/// What [`directed`] needs of a float, for double results and float32 ones alike.
trait Float: Copy + PartialEq {
    const ZERO: Self;
    const NEG_ZERO: Self;
    fn down(self) -> Self;
    fn up(self) -> Self;
    fn negative(self) -> bool;
}

macro_rules! float {
    ($($t:ty),*) => {$(
        impl Float for $t {
            const ZERO: $t = 0.0;
            const NEG_ZERO: $t = -0.0;
            fn down(self) -> $t {
                self.next_down()
            }
            fn up(self) -> $t {
                self.next_up()
            }
            fn negative(self) -> bool {
                self.is_sign_negative()
            }
        }
    )*};
}
float!(f32, f64);

/// The result in `mode` of an exact value whose nearest float is `near`, `err` being the sign of
/// exact − near; an exact zero is +0, or −0 rounding down when it came from opposite signs
/// (IEEE 754 §6.3).
fn directed<F: Float>(near: F, err: Ordering, mode: &str, opposite: bool) -> F {
    if near == F::ZERO && err == Equal {
        return if mode == "rm" && opposite { F::NEG_ZERO } else { near };
    }
    let down = if err == Less { near.down() } else { near };
    let up = if err == Greater { near.up() } else { near };
    match mode {
        "rn" => near,
        "rm" => down,
        "rp" => up,
        _ if near.negative() => up,
        _ => down,
    }
}

/// `a + b` in `mode`: the host's two-sum gives the exact error of the nearest sum.
fn sum(a: f64, b: f64, mode: &str) -> f64 {
    let near = a + b;
    if !a.is_finite() || !b.is_finite() || near.is_nan() {
        near
    } else if near.is_infinite() {
        directed(near, if near > 0.0 { Less } else { Greater }, mode, false)
    } else {
        let bb = near - a;
        let err = (a - (near - bb)) + (b - bb);
        let opposite = a.is_sign_negative() != b.is_sign_negative();
        directed(near, err.partial_cmp(&0.0).unwrap_or(Equal), mode, opposite)
    }
}

fn run_f64(seq: &Sequence, params: &[f64]) -> f64 {
    let words: Vec<u32> = params.iter().flat_map(|x| words(x.to_bits())).collect();
    f64::from_bits(run(seq, &words))
}

/// Equal as IEEE values with the sign of zero, any NaN matching any NaN (PTX leaves its bits open).
fn same(got: f64, want: f64) -> bool {
    (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits()
}

/// PTX `add`, `sub`, `mul` and `fma` `.f64` in the four roundings: `DADD`, `DMUL`, `DFMA`, each
/// rounded once from the exact value (PTX ISA, Floating-Point Instructions; subnormals kept).
#[test]
fn double_arithmetic_rounds_once_in_every_mode() {
    let all = sequences();
    let xs = doubles(64);
    let (mut checked, mut fused) = (0, 0);
    for (i, &a) in xs.iter().enumerate() {
        for (j, &b) in xs.iter().enumerate() {
            let c = xs[(i * 7 + j * 3 + 5) % xs.len()];
            let finite = a.is_finite() && b.is_finite();
            for mode in MODES {
                let want = sum(a, b, mode);
                let got = run_f64(sequence(&all, &format!("add_f64_{mode}")), &[a, b]);
                assert!(same(got, want), "add.{mode}.f64 {a:e} {b:e}: {got:e}, want {want:e}");
                if mode == "rn" || mode == "rz" {
                    let got = run_f64(sequence(&all, &format!("sub_f64_{mode}")), &[a, -b]);
                    assert!(same(got, want), "sub.{mode}.f64 {a:e} {:e}: {got:e}, want {want:e}", -b);
                }
                // Products: the exact product compared with the nearest one in i128.
                let near = a * b;
                let (na, ma, ea) = parts(a);
                let (nb, mb, eb) = parts(b);
                let product = (na != nb, ma * mb, ea + eb);
                let want = match residual(&[product], near) {
                    Some(err) if finite && !near.is_nan() => Some(directed(near, err, mode, false)),
                    _ if !finite || near.is_nan() => Some(near),
                    _ => None,
                };
                if let Some(want) = want {
                    let got = run_f64(sequence(&all, &format!("mul_f64_{mode}")), &[a, b]);
                    assert!(same(got, want), "mul.{mode}.f64 {a:e} {b:e}: {got:e}, want {want:e}");
                    checked += 1;
                }
                // Fused: to nearest the host's `mul_add`; directed where the three terms align in
                // i128 (operands of near exponents), else only to nearest.
                let near = a.mul_add(b, c);
                let seq = sequence(&all, &format!("fma_f64_{mode}"));
                let want = if !finite || !c.is_finite() || near.is_nan() || mode == "rn" {
                    Some(near)
                } else {
                    let opposite = (na != nb) != c.is_sign_negative();
                    residual(&[product, parts(c)], near).map(|err| directed(near, err, mode, opposite))
                };
                if let Some(want) = want {
                    let got = run_f64(seq, &[a, b, c]);
                    assert!(same(got, want), "fma.{mode}.f64 {a:e} {b:e} {c:e}: {got:e}, want {want:e}");
                    fused += 1;
                }
            }
        }
    }
    // Most operand pairs are checked in every mode (the checks cannot all be skipped).
    assert!(checked > 64 * 64 * 4 * 9 / 10 && fused > 64 * 64 * 4 / 2, "{checked} {fused}");
}

/// The modifiers ptxas folds into the double instructions: `neg.f64` into DFMA's `-B` and `-C`,
/// `abs.f64` into DADD's and DMNMX's `|A|`, F2F's `|B|`.
#[test]
fn negations_and_absolute_values_fold_into_double_instructions() {
    let all = sequences();
    let xs = doubles(24);
    for &a in &xs {
        for &b in &xs {
            let c = 0.75;
            let got = run_f64(sequence(&all, "fma_neg_f64"), &[a, b, c]);
            assert!(same(got, (-a).mul_add(b, c)), "fma.rn(-{a:e}, {b:e}, {c}): {got:e}");
            let got = run_f64(sequence(&all, "min_abs_f64"), &[a, b]);
            let want = if b.is_nan() || -a.abs() < b { -a.abs() } else { b };
            assert!(same(got, want) || (got == 0.0 && want == 0.0), "min(-|{a:e}|, {b:e}): {got:e}");
            let got = run_f64(sequence(&all, "add_abs_f64"), &[a, b]);
            assert!(same(got, sum(a.abs(), b, "rm")), "add.rm(|{a:e}|, {b:e}): {got:e}");
        }
        let got = f32::from_bits(run(sequence(&all, "cvt_f32_abs_f64"), &words(a.to_bits())) as u32);
        let near = a.abs() as f32;
        let want = if near.is_nan() {
            near
        } else {
            directed(near, a.abs().partial_cmp(&f64::from(near)).unwrap_or(Equal), "rz", false)
        };
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "cvt.rz.f32(|{a:e}|): {got:e}"
        );
    }
    // -(1 + 2^-52)·(1 + 2^-52)... with C = -1 rounded up: fma.rp(a, b, -c).
    let x = f64::from_bits(0x3ff0_0000_0000_0001);
    let got = run_f64(sequence(&all, "fma_neg_c_f64"), &[x, x, 1.0]);
    assert_eq!(got.to_bits(), 0x3cc0_0000_0000_0001, "fma.rp(x, x, -1) = 2^-51 + 2^-104 rounded up");
}

/// PTX `cvt` between doubles and `.s32`/`.u32`/`.s64`/`.u64`/`.f32` (PTX ISA, `cvt`): an integer
/// or a float32 to a double rounded once in the mode (32-bit integers and float32 exactly); a
/// double to float32 rounded once; a double to an integer rounded to an integral value in the
/// mode and clamped to the destination's range; a double to an integral double.
#[test]
fn conversions_with_doubles_round_once_and_saturate() {
    let all = sequences();
    let ints = crate::maxwell_ptxas::operands(300);
    for &x in &ints {
        for (signed, ty) in [(true, "s64"), (false, "u64")] {
            let exact = if signed { i128::from(x as i64) } else { i128::from(x) };
            let near = exact as f64;
            for mode in MODES {
                let want = directed(near, exact.cmp(&(near as i128)), mode, false);
                let got = run_f64(sequence(&all, &format!("cvt_f64_{ty}_{mode}")), &[f64::from_bits(x)]);
                assert!(same(got, want), "cvt.{mode}.f64.{ty} {x:#x}: {got:e}, want {want:e}");
            }
        }
        let got = f64::from_bits(run(sequence(&all, "cvt_f64_s32_rn"), &[x as u32]));
        assert_eq!(got, f64::from(x as u32 as i32), "cvt.rn.f64.s32 {:#x}", x as u32);
        let got = f64::from_bits(run(sequence(&all, "cvt_f64_u32_rn"), &[x as u32]));
        assert_eq!(got, f64::from(x as u32), "cvt.rn.f64.u32 {:#x}", x as u32);
        let f = f32::from_bits(x as u32);
        let got = f64::from_bits(run(sequence(&all, "cvt_f64_f32"), &[x as u32]));
        assert!(same(got, f64::from(f)), "cvt.f64.f32 {f:e} ({:#x}): {got:e}", x as u32);
    }
    type Round = fn(f64) -> f64;
    let round: [(&str, Round); 4] =
        [("rni", f64::round_ties_even), ("rmi", f64::floor), ("rpi", f64::ceil), ("rzi", f64::trunc)];
    for a in doubles(400) {
        for (mode, (name, f)) in MODES.into_iter().zip(round) {
            let near = a as f32;
            let want = if near.is_nan() {
                near
            } else {
                directed(near, a.partial_cmp(&f64::from(near)).unwrap_or(Equal), mode, false)
            };
            let got = f32::from_bits(
                run(sequence(&all, &format!("cvt_f32_f64_{mode}")), &words(a.to_bits())) as u32,
            );
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "cvt.{mode}.f32.f64 {a:e}: {got:e}, want {want:e}"
            );
            let got = run_f64(sequence(&all, &format!("cvt_f64_f64_{name}")), &[a]);
            assert!(same(got, f(a)), "cvt.{name}.f64.f64 {a:e}: {got:e}");
            // NaN to an integer is left out: the PTX ISA text does not say what it gives.
            if a.is_nan() {
                continue;
            }
            // Rust's float-to-integer `as` clamps to the type's range.
            let p = &words(a.to_bits());
            let r = f(a);
            assert_eq!(
                run(sequence(&all, &format!("cvt_s32_f64_{name}")), p) as u32,
                r as i32 as u32,
                "cvt.{name}.s32.f64 {a:e}"
            );
            assert_eq!(
                run(sequence(&all, &format!("cvt_u32_f64_{name}")), p) as u32,
                r as u32,
                "cvt.{name}.u32.f64 {a:e}"
            );
            assert_eq!(
                run(sequence(&all, &format!("cvt_s64_f64_{name}")), p),
                r as i64 as u64,
                "cvt.{name}.s64.f64 {a:e}"
            );
            assert_eq!(
                run(sequence(&all, &format!("cvt_u64_f64_{name}")), p),
                r as u64,
                "cvt.{name}.u64.f64 {a:e}"
            );
        }
    }
}

/// PTX `min`/`max` `.f64` (a NaN operand gives the other; both NaN give NaN) and `setp` `.f64`
/// in its orders (the `u` ones also hold when either is NaN), through `selp`: ptxas's DMNMX,
/// DSET (`.AND` with PT, then `& 1`) and DSETP (with the operands swapped).
#[test]
fn double_minimum_maximum_and_comparisons() {
    let all = sequences();
    let xs = doubles(40);
    // Each order holds for these results of `a.partial_cmp(&b)` (`None`: unordered, a NaN).
    type Order = fn(Option<Ordering>) -> bool;
    let orders: [(&str, Order); 12] = [
        ("lt", |o| o == Some(Less)),
        ("le", |o| matches!(o, Some(Less | Equal))),
        ("gt", |o| o == Some(Greater)),
        ("ge", |o| matches!(o, Some(Greater | Equal))),
        ("eq", |o| o == Some(Equal)),
        ("ne", |o| matches!(o, Some(Less | Greater))),
        ("equ", |o| matches!(o, None | Some(Equal))),
        ("neu", |o| o != Some(Equal)),
        ("ltu", |o| matches!(o, None | Some(Less))),
        ("geu", |o| matches!(o, None | Some(Greater | Equal))),
        ("num", |o| o.is_some()),
        ("nan", |o| o.is_none()),
    ];
    let gtu: Order = |o| matches!(o, None | Some(Greater));
    for &a in &xs {
        for &b in &xs {
            // Zeros of both signs compare equal; which one min/max gives is not asserted.
            let pick = |m: fn(f64, f64) -> f64| {
                if a.is_nan() {
                    b
                } else if b.is_nan() {
                    a
                } else {
                    m(a, b)
                }
            };
            for (name, want) in [("min_f64", pick(f64::min)), ("max_f64", pick(f64::max))] {
                let got = run_f64(sequence(&all, name), &[a, b]);
                assert!(same(got, want) || (got == 0.0 && want == 0.0), "{name} {a:e} {b:e}: {got:e}");
            }
            for (name, holds) in orders {
                let got = run(
                    sequence(&all, &format!("setp_{name}_f64")),
                    &[words(a.to_bits()), words(b.to_bits())].concat(),
                );
                assert_eq!(got, u64::from(holds(a.partial_cmp(&b))), "setp.{name}.f64 {a:e} {b:e}");
            }
            for (name, holds) in
                orders.into_iter().filter(|o| ["lt", "ge", "neu", "nan"].contains(&o.0)).chain([("gtu", gtu)])
            {
                let c = 42.5;
                let got = run_f64(sequence(&all, &format!("setp_{name}_selp_f64")), &[a, b, c]);
                let want = if holds(a.partial_cmp(&b)) { c } else { b };
                assert!(same(got, want), "setp.{name}.f64 {a:e} {b:e} then selp: {got:e}");
            }
        }
    }
}

/// `fma.{rn,rm,rp,rz}.f64` where the exact value is known in i128 for every triple: A and B in
/// [1, 2), C from far below the product (only its sign and the sticky bits matter) to above it,
/// and C = −(A·B rounded) and its neighbours (the result is the product's rounding error).
#[test]
fn fused_multiply_adds_round_once_where_the_product_cancels() {
    let all = sequences();
    let mut rng = isa_tests::Rng(0x1405_7b7e_f767_814f);
    let mut unit = || f64::from_bits(0x3ff0_0000_0000_0000 | (rng.next() & 0x000f_ffff_ffff_ffff));
    let mut checked = 0;
    for i in 0..300 {
        let (a, b) = (unit(), if i % 2 == 0 { unit() } else { -unit() });
        let scale = f64::from_bits(((1023 - 50 + (i * 7) % 69) as u64) << 52); // 2^-50 .. 2^18
        let p = a * b;
        for c in [unit() * scale, -unit() * scale, -p, -p.next_up(), -p.next_down()] {
            for mode in MODES {
                let near = a.mul_add(b, c);
                let (na, ma, ea) = parts(a);
                let (nb, mb, eb) = parts(b);
                let terms = [(na != nb, ma * mb, ea + eb), parts(c)];
                let opposite = (na != nb) != c.is_sign_negative();
                let err =
                    residual(&terms, near).unwrap_or_else(|| panic!("{a:e} {b:e} {c:e}: no exact value"));
                let want = directed(near, err, mode, opposite);
                let got = run_f64(sequence(&all, &format!("fma_f64_{mode}")), &[a, b, c]);
                assert!(same(got, want), "fma.{mode}.f64 {a:e} {b:e} {c:e}: {got:e}, want {want:e}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 300 * 5 * 4);
}

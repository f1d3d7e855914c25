//! Elementary functions of `f64` for assembler expressions (vc4asm's `sin`, `exp`, `log`, ...),
//! written out because `no_std` has no floating-point library. Each reduces its argument to a
//! small interval exactly or nearly so (Cody–Waite constants split in two), then sums a series
//! there by Horner's rule; results are within four units in the last place of a C library's
//! (one for `exp`, `sin`, `cos`) for the arguments programs use (|x| < 10^5 for the trigonometric functions), so that a value
//! rounded to the f32 or f16 of a data directive is the one vc4asm stores (the integration
//! test `elementary` sweeps each against std).

/// ln 2 in two parts: the first has 32 significant bits, so `k * LN2_HI` is exact for |k| < 2^21.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
const LN2: f64 = core::f64::consts::LN_2;
/// π/2 in three parts of 33 bits each, for reducing trigonometric arguments.
const PIO2_1: f64 = 1.570_796_326_734_125_6;
const PIO2_2: f64 = 6.077_100_506_303_966e-11;
const PIO2_3: f64 = 2.022_266_248_711_166_5e-21;
const FRAC_PI_2: f64 = core::f64::consts::FRAC_PI_2;
const FRAC_PI_4: f64 = core::f64::consts::FRAC_PI_4;

/// 2^n for an integer n in the range of normal and subnormal doubles (0 or ∞ beyond).
fn pow2(n: i64) -> f64 {
    if n > 1023 {
        f64::INFINITY
    } else if n >= -1022 {
        f64::from_bits(((n + 1023) as u64) << 52)
    } else if n >= -1074 {
        f64::from_bits(1u64 << (n + 1074))
    } else {
        0.0
    }
}

/// `x` rounded to the nearest integer (ties away from zero), for |x| < 2^62.
fn round(x: f64) -> i64 {
    if x < 0.0 {
        -((-x + 0.5) as i64)
    } else {
        (x + 0.5) as i64
    }
}

/// `x · 2^n`, in two steps so that neither factor overflows or underflows early.
fn scale(x: f64, n: i64) -> f64 {
    let half = n / 2;
    x * pow2(half) * pow2(n - half)
}

/// Σ coefficient(k) · y^k for k in 0..n, by Horner's rule from the smallest term: each
/// step's rounding is then small against what it is added to.
fn horner(y: f64, n: u32, coefficient: impl Fn(u32) -> f64) -> f64 {
    (0..n).rev().fold(0.0, |acc, k| acc * y + coefficient(k))
}

/// 1/k!
fn inverse_factorial(k: u32) -> f64 {
    (1..=k).fold(1.0, |acc, i| acc / f64::from(i))
}

/// e^r − 1 for |r| ≤ 0.35 by its Taylor series r + r²·(1/2! + r/3! + ...) to r^19.
fn expm1_small(r: f64) -> f64 {
    r + r * r * horner(r, 18, |k| inverse_factorial(k + 2))
}

/// e^x.
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.8 {
        return f64::INFINITY;
    }
    if x < -745.2 {
        return 0.0;
    }
    // x = k ln 2 + r, |r| ≤ ln 2 / 2; k ln 2 is subtracted in two parts to keep r exact.
    let k = round(x / LN2);
    let r = (x - k as f64 * LN2_HI) - k as f64 * LN2_LO;
    scale(1.0 + expm1_small(r), k)
}

/// e^x − 1, exact near 0.
pub fn expm1(x: f64) -> f64 {
    if x.abs() <= 0.34 {
        return expm1_small(x);
    }
    if !(-40.0..=40.0).contains(&x) {
        return exp(x) - 1.0;
    }
    // 2^k·(1 + e) − 1 = 2^k·e + (2^k − 1): both exact but for one rounding of their sum.
    let k = round(x / LN2);
    let r = (x - k as f64 * LN2_HI) - k as f64 * LN2_LO;
    scale(expm1_small(r), k) + (pow2(k) - 1.0)
}

/// 2^x.
pub fn exp2(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 1024.0 {
        return f64::INFINITY;
    }
    if x < -1075.0 {
        return 0.0;
    }
    let k = round(x);
    // x − k is exact; its product with ln 2 is small, so its rounding error is too.
    scale(1.0 + expm1_small((x - k as f64) * LN2), k)
}

/// 10^x.
pub fn exp10(x: f64) -> f64 {
    // Whole powers exactly where the double holds them (10^22 is the last).
    if x == round(x) as f64 && (0.0..=22.0).contains(&x) {
        let mut r = 1.0;
        for _ in 0..round(x) {
            r *= 10.0;
        }
        return r;
    }
    if !x.is_finite() || x.abs() > 400.0 {
        return exp2(x * core::f64::consts::LOG2_10);
    }
    // x · log₂10 with the product's rounding error (Dekker) and the constant's own tail, so
    // that the power keeps every digit: 2^(p + err) = 2^p · (1 + err · ln 2).
    let p = x * core::f64::consts::LOG2_10;
    let err = two_product_error(x, core::f64::consts::LOG2_10, p) + x * LOG2_10_TAIL;
    let k = round(p);
    scale(1.0 + expm1_small((p - k as f64 + err) * LN2), k)
}

/// log₂10 minus its nearest double.
const LOG2_10_TAIL: f64 = 1.661_617_516_973_592e-16;

/// Halves of a double whose products are exact (Veltkamp's split by 2^27 + 1).
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

/// `a · b − p` exactly, where `p` is the double nearest `a · b` (Dekker).
fn two_product_error(a: f64, b: f64, p: f64) -> f64 {
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    ((ah * bh - p) + ah * bl + al * bh) + al * bl
}

/// atanh(s) by its series, for |s| ≤ 1/3: s + s·s²·(1/3 + s²/5 + ...) to s^47.
fn atanh_series(s: f64) -> f64 {
    let s2 = s * s;
    s + s * s2 * horner(s2, 23, |k| 1.0 / f64::from(2 * k + 3))
}

/// ln x as `e · ln 2 + ln m` with m in [√½, √2): the exponent and 2·atanh((m−1)/(m+1)).
fn log_parts(x: f64) -> (f64, f64) {
    let (mut bits, mut e) = (x.to_bits(), 0i64);
    if bits >> 52 == 0 {
        // Subnormal: normalise first.
        bits = (x * pow2(54)).to_bits();
        e = -54;
    }
    e += ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > core::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    // m − 1 is exact here (Sterbenz), so s carries only the division's rounding.
    let f = m - 1.0;
    (e as f64, 2.0 * atanh_series(f / (2.0 + f)))
}

/// ln x.
pub fn log(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    let (e, lm) = log_parts(x);
    e * LN2_HI + (e * LN2_LO + lm)
}

/// ln(1 + x), exact near 0.
pub fn log1p(x: f64) -> f64 {
    if x.abs() < 0.5 {
        2.0 * atanh_series(x / (2.0 + x))
    } else {
        log(1.0 + x)
    }
}

/// log₂ x.
pub fn log2(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return log(x);
    }
    let (e, lm) = log_parts(x);
    e + lm * core::f64::consts::LOG2_E
}

/// log₁₀ x.
pub fn log10(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return log(x);
    }
    let (e, lm) = log_parts(x);
    e * core::f64::consts::LOG10_2 + lm * core::f64::consts::LOG10_E
}

/// The square root, correctly rounded.
pub fn sqrt(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    // x = m · 2^e with an integer m of 53 bits (subnormals normalised); with e made even,
    // the integer root of m · 2^(52 or 53) has 53 bits, and whether it was exact decides ties.
    let b = x.to_bits();
    let (mut m, mut e) = if b >> 52 == 0 {
        let shift = (b.leading_zeros() - 11) as i64;
        ((b << shift) as u128, -1074 - shift)
    } else {
        (((b & 0x000f_ffff_ffff_ffff) | 1 << 52) as u128, ((b >> 52) as i64) - 1075)
    };
    if e % 2 != 0 {
        m <<= 1;
        e -= 1;
    }
    let n = m << 54;
    let q = n.isqrt();
    // q has 54 or 55 bits: round it to 53 with the remainder as the sticky bit.
    let extra = 128 - q.leading_zeros() as i64 - 53;
    let kept = q >> extra;
    let rest = q & ((1 << extra) - 1);
    let half = 1u128 << (extra - 1);
    let inexact = q * q != n;
    let up = rest > half || (rest == half && (inexact || kept & 1 == 1));
    (kept + u128::from(up)) as f64 * pow2(e / 2 - 27 + extra)
}

/// sin and cos of r for |r| ≤ π/4 (plus a little), by their Taylor series to r^25:
/// r + r·r²·(−1/3! + r²/5! − ...) and 1 − r²/2 + r⁴·(1/4! − r²/6! + ...).
fn sin_cos_small(r: f64) -> (f64, f64) {
    let r2 = r * r;
    let sign = |k: u32| if k.is_multiple_of(2) { 1.0 } else { -1.0 };
    let s = r + r * r2 * horner(r2, 12, |k| -sign(k) * inverse_factorial(2 * k + 3));
    let c = 1.0 + (-0.5 * r2 + r2 * r2 * horner(r2, 12, |k| sign(k) * inverse_factorial(2 * k + 4)));
    (s, c)
}

/// sin x and cos x: x = k·π/2 + r (π/2 in three parts), then the quadrant picks the series.
fn sin_cos(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    if x.abs() <= FRAC_PI_4 {
        return sin_cos_small(x);
    }
    let k = round(x / FRAC_PI_2);
    let kf = k as f64;
    // x − k·π/2 as r + r_lo: the first subtraction is exact (Sterbenz), the second's rounding
    // error is kept (Knuth's two-sum), then sin(r + r_lo) ≈ sin r + cos r · r_lo.
    let a = x - kf * PIO2_1;
    let b = kf * PIO2_2;
    let r = a - b;
    let v = r - a;
    let r_lo = ((a - (r - v)) - (b + v)) - kf * PIO2_3;
    let (s, c) = sin_cos_small(r);
    let (s, c) = (s + c * r_lo, c - s * r_lo);
    match k.rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// sin x.
pub fn sin(x: f64) -> f64 {
    sin_cos(x).0
}

/// cos x.
pub fn cos(x: f64) -> f64 {
    sin_cos(x).1
}

/// tan x.
pub fn tan(x: f64) -> f64 {
    let (s, c) = sin_cos(x);
    s / c
}

/// atan x: reduced to |t| ≤ tan(π/8) by atan x = π/2 − atan(1/x) and atan x = π/4 +
/// atan((x − 1)/(x + 1)), then its series.
pub fn atan(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let (sign, a) = if x < 0.0 { (-1.0, -x) } else { (1.0, x) };
    let (base, t) = if a > 2.414_213_562_373_095 {
        (FRAC_PI_2, -1.0 / a)
    } else if a > 0.414_213_562_373_095_03 {
        (FRAC_PI_4, (a - 1.0) / (a + 1.0))
    } else {
        (0.0, a)
    };
    // t − t³/3 + t⁵/5 − ... to t^61 (t² ≤ 0.18).
    let t2 = t * t;
    let series = t + t * t2 * horner(t2, 30, |k| if k % 2 == 0 { -1.0 } else { 1.0 } / f64::from(2 * k + 3));
    sign * (base + series)
}

/// asin x.
pub fn asin(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN;
    }
    if x.abs() == 1.0 {
        return x * FRAC_PI_2;
    }
    // (1 − x)(1 + x) keeps the digits that 1 − x² would cancel.
    atan(x / sqrt((1.0 - x) * (1.0 + x)))
}

/// acos x.
pub fn acos(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN;
    }
    if x == -1.0 {
        return core::f64::consts::PI;
    }
    2.0 * atan(sqrt((1.0 - x) / (1.0 + x)))
}

/// sinh x.
pub fn sinh(x: f64) -> f64 {
    let a = x.abs();
    let r = if a < 22.0 {
        let e = expm1(a);
        // (e^a − e^−a)/2 through e^a − 1, exact for small a.
        (e + e / (e + 1.0)) / 2.0
    } else {
        half_exp(a)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// cosh x.
pub fn cosh(x: f64) -> f64 {
    let a = x.abs();
    if a < 22.0 {
        let e = exp(a);
        (e + 1.0 / e) / 2.0
    } else {
        half_exp(a)
    }
}

/// e^a / 2 for large a, without overflowing before the result does: (e^(a/2) / 2) · e^(a/2).
fn half_exp(a: f64) -> f64 {
    let h = exp(a / 2.0);
    h / 2.0 * h
}

/// tanh x.
pub fn tanh(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a > 22.0 {
        1.0
    } else {
        let e = expm1(2.0 * a);
        e / (e + 2.0)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// asinh x.
pub fn asinh(x: f64) -> f64 {
    let a = x.abs();
    let r = if a > 1e8 {
        log(a) + LN2
    } else {
        // ln(a + √(a² + 1)) = ln(1 + a + a²/(1 + √(a² + 1))), exact near 0.
        log1p(a + a * a / (1.0 + sqrt(a * a + 1.0)))
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// acosh x.
pub fn acosh(x: f64) -> f64 {
    if x.is_nan() || x < 1.0 {
        return f64::NAN;
    }
    if x > 1e8 {
        return log(x) + LN2;
    }
    let t = x - 1.0;
    log1p(t + sqrt(2.0 * t + t * t))
}

/// atanh x.
pub fn atanh(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN;
    }
    let a = x.abs();
    let r = 0.5 * log1p(2.0 * a / (1.0 - a));
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// 2/√π.
const TWO_OVER_SQRT_PI: f64 = core::f64::consts::FRAC_2_SQRT_PI;

/// e^(−x²) with x² split into its double and the double's rounding error (Dekker), so that
/// large x lose nothing to the square's rounding.
fn exp_minus_square(x: f64) -> f64 {
    let sq = x * x;
    exp(-sq) * (1.0 - two_product_error(x, x, sq))
}

/// erf x: for |x| < 3, e^(−x²)·2/√π·Σ 2ⁿx²ⁿ⁺¹/(1·3·…·(2n+1)), a series of positive terms;
/// beyond, 1 − erfc x.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 3.0 {
        let x2 = a * a;
        let mut term = a;
        let mut sum = a;
        let mut k = 3.0;
        while term > 1e-19 * sum {
            term *= 2.0 * x2 / k;
            sum += term;
            k += 2.0;
        }
        TWO_OVER_SQRT_PI * exp_minus_square(a) * sum
    } else {
        1.0 - erfc_large(a)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// erfc x for x ≥ 3 by its continued fraction e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x +
/// (3/2)/(x + ...)))), evaluated from its 200th level up (each level shrinks the error below).
fn erfc_large(x: f64) -> f64 {
    if x > 27.3 {
        return 0.0;
    }
    let f = (1..=200).rev().fold(x, |below, k| x + f64::from(k) / 2.0 / below);
    exp_minus_square(x) / (f * SQRT_PI)
}

/// √π.
const SQRT_PI: f64 = 1.772_453_850_905_516;

/// erfc x = 1 − erf x, without the cancellation for large x.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x >= 3.0 {
        erfc_large(x)
    } else {
        1.0 - erf(x)
    }
}

/// `a ** b`: whole exponents by repeated squaring, others as e^(b·ln a) for a > 0.
pub fn pow(a: f64, b: f64) -> f64 {
    if b == round(b) as f64 && b.abs() < 1e15 {
        let mut n = round(b).unsigned_abs();
        let (mut base, mut r) = (a, 1.0);
        while n > 0 {
            if n & 1 == 1 {
                r *= base;
            }
            base *= base;
            n >>= 1;
        }
        return if b < 0.0 { 1.0 / r } else { r };
    }
    if a < 0.0 {
        return f64::NAN;
    }
    if b == 0.5 {
        return sqrt(a);
    }
    exp(b * log(a))
}

/// The function of vc4asm's expressions called `name`, if it is one of these.
pub fn by_name(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "exp" => exp,
        "exp2" => exp2,
        "exp10" => exp10,
        "log" => log,
        "log2" => log2,
        "log10" => log10,
        "sin" => sin,
        "cos" => cos,
        "tan" => tan,
        "asin" => asin,
        "acos" => acos,
        "atan" => atan,
        "sinh" => sinh,
        "cosh" => cosh,
        "tanh" => tanh,
        "asinh" => asinh,
        "acosh" => acosh,
        "atanh" => atanh,
        "erf" => erf,
        "erfc" => erfc,
        _ => return None,
    })
}

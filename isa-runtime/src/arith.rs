//! Arithmetic behind the semantics language's builtins that `core` lacks: IEEE single
//! precision in every rounding mode (sums, products and fused multiply-adds rounded once),
//! integral rounding, float16 conversions, the functions of special-function units,
//! saturating operations on four bytes of a word, and the integer bit operations every GPU ISA
//! has (bit fields, sign extension, clamped shifts, three-input truth tables, byte permutes,
//! adds with carry, overflow and saturation).
//!
//! Rounding modes are numbered as the language numbers them: [`NEAREST`] (to nearest, ties to
//! even), [`DOWN`] (toward −∞), [`UP`] (toward +∞), [`ZERO`] (toward zero); any other number
//! rounds to nearest.
//!
//! Exactness comes from f64: a product of two f32 is exact in f64, and a sum is kept exact as
//! a pair (rounded sum, error) by Knuth's two-sum, so every result is rounded once, from the
//! exact value.

use crate::number::FloatFormat;

/// Round to nearest, ties to even.
pub const NEAREST: u32 = 0;
/// Round toward −∞.
pub const DOWN: u32 = 1;
/// Round toward +∞.
pub const UP: u32 = 2;
/// Round toward zero.
pub const ZERO: u32 = 3;

/// The next float above `x` (`x` itself for NaN and +∞).
fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

/// The next float below `x`.
fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

/// `a + b` as an exact pair (sum rounded to nearest, its error).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Rounds the exact value `hi + lo` (with `|lo|` at most half an f64 ulp of `hi`) to f32.
fn round_exact(hi: f64, lo: f64, mode: u32) -> f32 {
    let r = hi as f32;
    if r.is_infinite() {
        // Overflow: directed modes stop at the largest finite float on their side.
        let max = f32::MAX.copysign(r);
        return match mode {
            ZERO => max,
            DOWN if r > 0.0 => max,
            UP if r < 0.0 => max,
            _ => r,
        };
    }
    // Exact: `r` is `hi` rounded to 24 bits, so their difference has few bits.
    let d = hi - r as f64;
    let diff = d + lo; // the sign of (exact value − r) is exact
    if diff == 0.0 {
        return r;
    }
    let toward = if diff > 0.0 { next_up(r) } else { next_down(r) };
    match mode {
        DOWN => {
            if diff < 0.0 {
                toward
            } else {
                r
            }
        }
        UP => {
            if diff > 0.0 {
                toward
            } else {
                r
            }
        }
        ZERO => {
            if (r > 0.0 && diff < 0.0) || (r < 0.0 && diff > 0.0) {
                toward
            } else {
                r
            }
        }
        _ => {
            // `hi as f32` rounded `hi`, not `hi + lo`: past the midpoint toward `lo`, the
            // neighbour is nearer; exactly on it, the even one wins.
            let half = (toward as f64 - r as f64) / 2.0;
            let past = (d - half) + lo;
            let beyond = if diff > 0.0 { past > 0.0 } else { past < 0.0 };
            if beyond || (past == 0.0 && toward.to_bits() & 1 == 0) {
                toward
            } else {
                r
            }
        }
    }
}

/// The zero an exact zero result takes: the operands' sign when they agree, else −0 when
/// rounding down and +0 otherwise (IEEE 754 §6.3).
fn exact_zero(a_negative: bool, b_negative: bool, mode: u32) -> f32 {
    if a_negative == b_negative {
        if a_negative {
            -0.0
        } else {
            0.0
        }
    } else if mode == DOWN {
        -0.0
    } else {
        0.0
    }
}

/// `a + b` rounded once in `mode`.
pub fn add(a: f32, b: f32, mode: u32) -> f32 {
    if !a.is_finite() || !b.is_finite() {
        return a + b;
    }
    let (s, e) = two_sum(a as f64, b as f64);
    if s == 0.0 && e == 0.0 {
        return exact_zero(a.is_sign_negative(), b.is_sign_negative(), mode);
    }
    round_exact(s, e, mode)
}

/// `a * b` rounded once in `mode`.
pub fn mul(a: f32, b: f32, mode: u32) -> f32 {
    let p = a as f64 * b as f64;
    if !p.is_finite() || p == 0.0 {
        return a * b;
    }
    round_exact(p, 0.0, mode)
}

/// `a * b + c` rounded once in `mode` (a fused multiply-add).
pub fn fma(a: f32, b: f32, c: f32, mode: u32) -> f32 {
    let p = a as f64 * b as f64;
    if !p.is_finite() || !c.is_finite() {
        return (p + c as f64) as f32;
    }
    let (s, e) = two_sum(p, c as f64);
    if s == 0.0 && e == 0.0 {
        let p_negative = a.is_sign_negative() != b.is_sign_negative();
        return exact_zero(p_negative, c.is_sign_negative(), mode);
    }
    round_exact(s, e, mode)
}

/// An integer (exact in f64) converted to f32 in `mode`.
pub fn from_int(x: i64, mode: u32) -> f32 {
    let hi = x as f64;
    // i64 values beyond 2^53 are not exact in f64; keep their remainder as the error.
    let lo = (x - hi as i64) as f64;
    round_exact(hi, lo, mode)
}

/// The 64-bit unsigned integer `x` as f32, rounded once in `mode` (`float(x, r)` of a `u64`).
pub fn from_u64(x: u64, mode: u32) -> f32 {
    let hi = x as f64;
    // `hi` is `x` to 53 bits; the remainder (below 2^11) is exact in f64 and in i128.
    let lo = (i128::from(x) - hi as i128) as f64;
    round_exact(hi, lo, mode)
}

/// `x` rounded to an integral value in `mode` (the sign of a zero result is `x`'s).
pub fn round_int(x: f32, mode: u32) -> f32 {
    if !x.is_finite() {
        return x; // NaN keeps its payload
    }
    // Every float32 and every integer its rounding gives is a double, exactly.
    round_int64(f64::from(x), mode) as f32
}

/// The float16 (IEEE binary16) in the low 16 bits of `bits`, as f32 (exact).
pub fn f16_to_f32(bits: u32) -> f32 {
    const HALF: FloatFormat =
        FloatFormat { sign: 1, exponent: 5, mantissa: 10, bias: 15, specials: true, truncate: false };
    HALF.decode((bits & 0xffff) as u64) as f32
}

/// `x` as float16 bits, rounded to nearest even; too large a value becomes ±∞, NaN a quiet
/// NaN.
pub fn f32_to_f16(x: f32) -> u32 {
    f32_to_f16_rounded(x, NEAREST)
}

/// `x` as float16 bits, rounded in `mode` (IEEE 754 §4.3): a value too large becomes ±∞ when
/// the mode rounds away from zero on its side, else the largest finite value of its sign
/// (±65504); NaN a quiet NaN.
pub fn f32_to_f16_rounded(x: f32, mode: u32) -> u32 {
    let b = x.to_bits();
    let sign = (b >> 16) & 0x8000;
    let a = b & 0x7fff_ffff;
    if a > 0x7f80_0000 {
        return sign | 0x7e00;
    }
    // Whether a magnitude that is not exact steps away from zero, apart from nearest-even ties.
    let away = match mode {
        UP => sign == 0,
        DOWN => sign != 0,
        _ => false,
    };
    let exp = (a >> 23) as i32 - 127 + 15;
    if exp >= 31 {
        let overflow = mode == NEAREST || away || a == 0x7f80_0000;
        return sign | if overflow { 0x7c00 } else { 0x7bff };
    }
    let (mant, shift) = if exp <= 0 {
        // Subnormal (or zero) in float16: the implicit bit joins the mantissa.
        if exp < -10 {
            // Below half the smallest subnormal: zero, or that subnormal rounding away.
            return sign | u32::from(a != 0 && away);
        }
        ((a & 0x7f_ffff) | 0x80_0000, (14 - exp) as u32)
    } else {
        (a & 0x7f_ffff, 13)
    };
    let kept = mant >> shift;
    let rest = mant & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    let round_up = match mode {
        NEAREST => rest > half || (rest == half && kept & 1 == 1),
        _ => rest != 0 && away,
    };
    let base = if exp <= 0 { kept } else { ((exp as u32) << 10) | kept };
    // A carry out of the mantissa steps the exponent, up to ∞: the encoding's order does it.
    sign | (base + round_up as u32)
}

/// `x` as float16 bits, rounded once to nearest even (not through f32, which could round
/// twice); too large a value becomes ±∞, NaN a quiet NaN.
pub fn f64_to_f16(x: f64) -> u32 {
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u32;
    let a = b & 0x7fff_ffff_ffff_ffff;
    if a > 0x7ff0_0000_0000_0000 {
        return sign | 0x7e00;
    }
    let exp = (a >> 52) as i64 - 1023 + 15;
    if exp >= 31 {
        return sign | 0x7c00;
    }
    let (mant, shift) = if exp <= 0 {
        if exp < -10 {
            return sign;
        }
        ((a & 0x000f_ffff_ffff_ffff) | 1 << 52, (43 - exp) as u32)
    } else {
        (a & 0x000f_ffff_ffff_ffff, 42)
    };
    let kept = mant >> shift;
    let rest = mant & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    let round_up = rest > half || (rest == half && kept & 1 == 1);
    let base = if exp <= 0 { kept } else { ((exp as u64) << 10) | kept };
    sign | (base + u64::from(round_up)) as u32
}

/// A float of either width, for the IEEE 754 helpers both share ([`min_number`],
/// [`max_number`], [`flush_subnormal`]).
pub trait Float: Copy + PartialOrd {
    /// `is_nan`.
    fn nan(self) -> bool;
    /// `is_sign_negative`.
    fn negative(self) -> bool;
    /// `is_subnormal`.
    fn subnormal(self) -> bool;
    /// A zero of this value's sign.
    fn signed_zero(self) -> Self;
}

impl Float for f32 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
    fn subnormal(self) -> bool {
        self.is_subnormal()
    }
    fn signed_zero(self) -> Self {
        0.0f32.copysign(self)
    }
}

impl Float for f64 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
    fn subnormal(self) -> bool {
        self.is_subnormal()
    }
    fn signed_zero(self) -> Self {
        0.0f64.copysign(self)
    }
}

/// The smaller of two floats as IEEE 754-2019 `minimumNumber` defines it: a NaN loses to a
/// number, and -0.0 is below +0.0. `f32::min` leaves the sign of a zero result open (LLVM may pick
/// either), so an interpreter built at another optimisation level could give another bit pattern.
pub fn min_number<F: Float>(a: F, b: F) -> F {
    if a.nan() || (b < a || (b == a && b.negative())) {
        b
    } else {
        a
    }
}

/// The larger of two floats as IEEE 754-2019 `maximumNumber` defines it: a NaN loses to a
/// number, and +0.0 is above -0.0 (see [`min_number`]).
pub fn max_number<F: Float>(a: F, b: F) -> F {
    if a.nan() || (b > a || (b == a && !b.negative())) {
        b
    } else {
        a
    }
}

/// A subnormal `x` flushed to a zero of its sign.
pub fn flush_subnormal<F: Float>(x: F) -> F {
    if x.subnormal() {
        x.signed_zero()
    } else {
        x
    }
}

/// The square root, correctly rounded (to nearest).
pub fn sqrt(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    // x = m · 2^e with an integer m; make e even, take the integer root of m · 2^30 and keep
    // whether it was exact, then scale back by 2^(e/2 − 15).
    let b = x.to_bits();
    let (mut m, mut e) = if b >> 23 == 0 {
        (b as u64, -149i32)
    } else {
        (((b & 0x7f_ffff) | 0x80_0000) as u64, (b >> 23) as i32 - 150)
    };
    if e % 2 != 0 {
        m <<= 1;
        e -= 1;
    }
    let n = m << 30;
    let q = n.isqrt();
    let sticky = if q * q == n { 0.0 } else { 0.25 };
    let root = (q as f64 + sticky) * pow2(e / 2 - 15);
    round_exact(root, 0.0, NEAREST)
}

/// 2^e for the exponents f64 holds as normal numbers.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `n` rounded toward −∞ to an integer, for moderate f64 values.
fn floor(x: f64) -> f64 {
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// 2^x, to within an ulp or so of the exact value (the hardware's EX2 is an approximation too).
pub fn exp2(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x >= 128.0 {
        return f32::INFINITY;
    }
    if x < -150.0 {
        return 0.0;
    }
    let x = x as f64;
    let k = floor(x);
    let f = (x - k) * core::f64::consts::LN_2; // in [0, ln 2)
                                               // e^f by its Taylor series: 20 terms leave an error far below f32's precision.
    let (mut term, mut sum) = (1.0f64, 1.0f64);
    for i in 1..20 {
        term *= f / i as f64;
        sum += term;
    }
    (sum * pow2(k as i32)) as f32
}

/// log2(x), to within an ulp or so.
pub fn log2(x: f32) -> f32 {
    if x.is_nan() || x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    // x = m · 2^e with m in [√½, √2); ln m = 2·atanh((m − 1)/(m + 1)).
    let b = (x as f64).to_bits();
    let mut e = ((b >> 52) & 0x7ff) as i32 - 1023;
    let mut m = f64::from_bits((b & 0x000f_ffff_ffff_ffff) | (1023u64 << 52));
    if m > core::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let (mut term, mut sum) = (s, 0.0f64);
    for k in 0..16 {
        sum += term / (2 * k + 1) as f64;
        term *= s2;
    }
    (e as f64 + 2.0 * sum / core::f64::consts::LN_2) as f32
}

/// sin and cos of `x` (radians) as f64, after reducing `x` by multiples of π/2.
fn sin_cos(x: f32) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    const PIO2_HI: f64 = 1.570_796_326_734_125_6; // π/2 to 33 bits, exact times small integers
    const PIO2_LO: f64 = 6.077_100_506_506_192e-11; // π/2 − PIO2_HI
    let x = x as f64;
    let k = floor(x * core::f64::consts::FRAC_2_PI + 0.5);
    let y = (x - k * PIO2_HI) - k * PIO2_LO; // in about [−π/4, π/4]
    let y2 = y * y;
    let (mut s, mut c, mut ts, mut tc) = (0.0f64, 0.0f64, y, 1.0f64);
    for i in 0..12 {
        s += ts;
        c += tc;
        let n = (2 * i + 2) as f64;
        ts *= -y2 / (n * (n + 1.0));
        tc *= -y2 / ((n - 1.0) * n);
    }
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// sin(x), to within an ulp or so for moderate arguments.
pub fn sin(x: f32) -> f32 {
    sin_cos(x).0 as f32
}

/// cos(x), to within an ulp or so for moderate arguments.
pub fn cos(x: f32) -> f32 {
    sin_cos(x).1 as f32
}

/// `f` applied to each of the four byte pairs of `a` and `b`.
fn bytewise(a: u32, b: u32, f: impl Fn(u8, u8) -> u8) -> u32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    u32::from_le_bytes([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])])
}

/// Four unsigned bytes added with saturation at 255.
pub fn bytes_add_sat(a: u32, b: u32) -> u32 {
    bytewise(a, b, u8::saturating_add)
}

/// Four unsigned bytes subtracted with saturation at 0.
pub fn bytes_sub_sat(a: u32, b: u32) -> u32 {
    bytewise(a, b, u8::saturating_sub)
}

/// The smaller of each byte pair.
pub fn bytes_min(a: u32, b: u32) -> u32 {
    bytewise(a, b, core::cmp::min)
}

/// The larger of each byte pair.
pub fn bytes_max(a: u32, b: u32) -> u32 {
    bytewise(a, b, core::cmp::max)
}

/// Each byte pair multiplied as unsigned normalised bytes: a·b/255 rounded to nearest.
pub fn bytes_mul(a: u32, b: u32) -> u32 {
    bytewise(a, b, |x, y| {
        // t/255 rounded, for t = x·y ≤ 255², as (t + 128 + ((t + 128) >> 8)) >> 8.
        let t = x as u32 * y as u32 + 128;
        ((t + (t >> 8)) >> 8) as u8
    })
}

// ---- Integer bit operations ----------------------------------------------------------------
//
// The integer builtins of the semantics language work on `u32` and `u64` values alike: each
// function takes the value's `width` (32 or 64 in the language, any of 1 to 64 here) and the
// value in a `u64` (a `u32` zero-extended), and returns the result in the low `width` bits.

/// The low `n` bits set (all 64 for `n` >= 64).
#[inline]
fn ones(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// `x` read as a signed `width`-bit value.
#[inline]
fn signed(x: u64, width: u32) -> i64 {
    let s = 64 - width.clamp(1, 64);
    ((x << s) as i64) >> s
}

/// The number of bits of a field at `pos` of `len` bits that lie inside a `width`-bit value.
#[inline]
fn inside(width: u32, pos: u32, len: u32) -> u32 {
    if pos >= width {
        0
    } else {
        len.min(width - pos)
    }
}

/// Bit-field extract as PTX's `bfe` defines it: bit `i` of the result is bit `pos + i` of `x`
/// for `i < len` and `pos + i < width`; the bits above are the field's sign, bit
/// `min(pos + len - 1, width - 1)` of `x`, when `signed` and `len != 0`, else 0.
#[inline]
pub fn bfe(x: u64, width: u32, pos: u32, len: u32, signed: bool) -> u64 {
    let n = inside(width, pos, len);
    let field = if n == 0 { 0 } else { (x >> pos) & ones(n) };
    let top = pos.saturating_add(len.saturating_sub(1)).min(width - 1);
    let fill = signed && len != 0 && (x >> top) & 1 == 1;
    if fill {
        (field | !ones(n)) & ones(width)
    } else {
        field
    }
}

/// Bit-field insert as PTX's `bfi` defines it: `base` with its bits `pos..pos + len` (those
/// inside the width) replaced by the low bits of `x`.
#[inline]
pub fn bfi(x: u64, base: u64, width: u32, pos: u32, len: u32) -> u64 {
    let n = inside(width, pos, len);
    let mask = if n == 0 { 0 } else { ones(n) << pos };
    ((base & !mask) | ((x << (pos % 64)) & mask)) & ones(width)
}

/// The low `bits` bits of `x` sign-extended to the width (`x` itself when `bits` >= width, 0
/// when `bits` is 0).
#[inline]
pub fn sext(x: u64, width: u32, bits: u32) -> u64 {
    if bits == 0 {
        0
    } else {
        (signed(x, bits.min(width)) as u64) & ones(width)
    }
}

/// `x << n`, with a count of the width or more shifting every bit out (PTX's `shl` clamps the
/// count to the width; Rust's and the language's `<<` wrap it).
#[inline]
pub fn shl(x: u64, width: u32, n: u32) -> u64 {
    if n >= width {
        0
    } else {
        (x << n) & ones(width)
    }
}

/// `x >> n`, logical, with a count of the width or more giving 0 (PTX's `shr.u`).
#[inline]
pub fn shr(x: u64, width: u32, n: u32) -> u64 {
    if n >= width {
        0
    } else {
        (x & ones(width)) >> n
    }
}

/// `x >> n`, arithmetic: the sign bit copied in, all of it from a count of the width or more
/// (PTX's `shr.s`).
#[inline]
pub fn asr(x: u64, width: u32, n: u32) -> u64 {
    ((signed(x, width) >> n.min(63)) as u64) & ones(width)
}

/// Any function of three inputs, bit by bit, by its truth table as PTX's `lop3` encodes it: bit
/// `a << 2 | b << 1 | c` of `lut` is the result for those input bits (so `a` is 0xf0, `b` 0xcc,
/// `c` 0xaa as tables).
#[inline]
pub fn lut3(a: u64, b: u64, c: u64, width: u32, lut: u32) -> u64 {
    let mut r = 0;
    for i in 0..8 {
        if lut >> i & 1 == 1 {
            let pick = |bit: u32, x: u64| if i >> bit & 1 == 1 { x } else { !x };
            r |= pick(2, a) & pick(1, b) & pick(0, c);
        }
    }
    r & ones(width)
}

/// Byte permute as PTX's `prmt` (default mode) defines it: the eight bytes of `b:a` are
/// numbered 0 to 7 from `a`'s low byte; byte `i` of the result is chosen by the nibble `i` of
/// `sel`: its low three bits pick a byte, its bit 3 makes the byte its own sign (0x00 or 0xff).
#[inline]
pub fn prmt(a: u32, b: u32, sel: u32) -> u32 {
    let pair = (b as u64) << 32 | a as u64;
    (0..4).fold(0, |r, i| {
        let pick = sel >> (4 * i) & 0xf;
        let byte = (pair >> ((pick & 7) * 8)) as u32 & 0xff;
        let byte = if pick & 8 == 0 {
            byte
        } else if byte & 0x80 != 0 {
            0xff
        } else {
            0
        };
        r | byte << (8 * i)
    })
}

/// The position of the highest set bit of `x` as PTX's `bfind` defines it, 0xffffffff when
/// there is none; `signed`: of the highest bit unlike the sign; `shift_amount`: as the left
/// shift that brings that bit to the top (`width - 1 - position`).
#[inline]
pub fn bfind(x: u64, width: u32, signed: bool, shift_amount: bool) -> u32 {
    let x = x & ones(width);
    let x = if signed && (x >> (width - 1)) & 1 == 1 { !x & ones(width) } else { x };
    match (x, shift_amount) {
        (0, _) => u32::MAX,
        (_, true) => x.leading_zeros() - (64 - width),
        (_, false) => 63 - x.leading_zeros(),
    }
}

/// Whether the unsigned `a + b + carry` overflows the width: the carry out of an add (LLVM's
/// `uadd.with.overflow`, an add-with-carry's carry flag).
#[inline]
pub fn uadd_overflows(a: u64, b: u64, width: u32, carry: bool) -> bool {
    let sum = (a & ones(width)) as u128 + (b & ones(width)) as u128 + carry as u128;
    sum >> width != 0
}

/// Whether the signed `a + b + carry` leaves the range of the width (LLVM's
/// `sadd.with.overflow`, the V flag of an add).
#[inline]
pub fn sadd_overflows(a: u64, b: u64, width: u32, carry: bool) -> bool {
    let sum = signed(a, width) as i128 + signed(b, width) as i128 + carry as i128;
    sum != signed(sum as u64, width) as i128
}

/// The signed `a + b + carry` clamped to the range of the width (LLVM's `sadd.sat`).
#[inline]
pub fn sadd_sat(a: u64, b: u64, width: u32, carry: bool) -> u64 {
    let sum = signed(a, width) as i128 + signed(b, width) as i128 + carry as i128;
    let max = (1i128 << (width - 1)) - 1;
    (sum.clamp(-max - 1, max) as u64) & ones(width)
}

/// The unsigned `a + b + carry` clamped to the largest value of the width (LLVM's `uadd.sat`).
#[inline]
pub fn uadd_sat(a: u64, b: u64, width: u32, carry: bool) -> u64 {
    let sum = (a & ones(width)) as u128 + (b & ones(width)) as u128 + carry as u128;
    sum.min(ones(width) as u128) as u64
}

// ---- Double precision ---------------------------------------------------------------------------
//
// Rust rounds f64 arithmetic to nearest only, and `core` has no `f64::mul_add`: every double
// result here is computed exactly in integers (a 53-bit significand's product has 106 bits, a sum
// is aligned in 128) and rounded once by [`round_bits`], which serves float32 results too.

/// A finite nonzero value computed exactly: `(−1)^neg · (m + t) · 2^e`, where `t` is 0 without
/// `sticky` and some value strictly between 0 and 1 with it (bits shifted out below `m`).
#[derive(Debug, Clone, Copy)]
struct Exact {
    neg: bool,
    m: u128,
    e: i32,
    sticky: bool,
}

/// The exponent of the least significant bit of the smallest subnormal of the binary format
/// with `p` significand bits and `w` exponent bits (−1074 for double, −149 for single).
fn min_lsb(p: u32, w: u32) -> i32 {
    2 - (1i32 << (w - 1)) - (p as i32 - 1)
}

/// The exact value of a finite float's bits (`p`, `w` as [`min_lsb`]).
fn exact_of(bits: u64, p: u32, w: u32) -> Exact {
    let fraction = bits & ((1u64 << (p - 1)) - 1);
    let biased = (bits >> (p - 1)) & ((1u64 << w) - 1);
    let (m, e) = match biased {
        0 => (fraction, min_lsb(p, w)),
        _ => (fraction | 1u64 << (p - 1), min_lsb(p, w) + biased as i32 - 1),
    };
    Exact { neg: (bits >> (p - 1 + w)) & 1 == 1, m: u128::from(m), e, sticky: false }
}

/// Rounds `x` once in `mode` to the binary format of `p` significand bits and `w` exponent bits,
/// with subnormals, and overflow to ∞ or the largest finite value as the mode says (IEEE 754
/// §7.4); returns the format's bits. A sticky `x` has at least `p + 2` bits in `m`.
fn round_bits(x: Exact, mode: u32, p: u32, w: u32) -> u64 {
    let floor = min_lsb(p, w);
    let width = 128 - x.m.leading_zeros() as i32;
    let lsb = (x.e + width - p as i32).max(floor);
    let (mut q, half, below) = if lsb <= x.e {
        debug_assert!(!x.sticky);
        ((x.m << (x.e - lsb)) as u64, false, false)
    } else {
        let s = (lsb - x.e) as u32;
        let (q, half, below) = match s {
            129.. => (0, false, true),
            128 => (0, x.m >> 127 == 1, x.m & (u128::MAX >> 1) != 0),
            _ => (x.m >> s, (x.m >> (s - 1)) & 1 == 1, x.m & ((1u128 << (s - 1)) - 1) != 0),
        };
        (q as u64, half, below || x.sticky)
    };
    let inexact = half || below;
    let up = match mode {
        DOWN => inexact && x.neg,
        UP => inexact && !x.neg,
        ZERO => false,
        _ => half && (below || q & 1 == 1),
    };
    q += u64::from(up);
    let sign = u64::from(x.neg) << (p - 1 + w);
    let infinity = ((1u64 << w) - 1) << (p - 1);
    let scale = i64::from(lsb) - i64::from(floor);
    let magnitude = if scale >= (1i64 << w) - 1 { infinity } else { ((scale as u64) << (p - 1)) + q };
    if magnitude < infinity {
        return sign | magnitude;
    }
    let largest = match mode {
        ZERO => true,
        DOWN => !x.neg,
        UP => x.neg,
        _ => false,
    };
    sign | if largest { infinity - 1 } else { infinity }
}

/// `x + y` exactly (both nonzero, with at most 106 significant bits and no sticky part): the
/// larger magnitude aligned to bit 125, the smaller shifted to it with the bits lost kept as
/// `sticky`. The smaller loses bits only when it lies 21 or more places lower, so a difference
/// then still has 124 bits: the sticky part stays below the rounding point. `m` is 0 for an
/// exact zero.
fn exact_sum(x: Exact, y: Exact) -> Exact {
    let top = |v: Exact| {
        let shift = v.m.leading_zeros() as i32 - 2;
        Exact { m: v.m << shift, e: v.e - shift, ..v }
    };
    let (x, y) = (top(x), top(y));
    let (big, small) = if (x.e, x.m) >= (y.e, y.m) { (x, y) } else { (y, x) };
    let d = (big.e - small.e) as u32;
    let (part, lost) = match d {
        128.. => (0, true),
        _ => (small.m >> d, small.m & ((1u128 << d) - 1) != 0),
    };
    match (big.neg == small.neg, lost) {
        (true, _) => Exact { m: big.m + part, sticky: lost, ..big },
        (false, true) => Exact { m: big.m - part - 1, sticky: true, ..big },
        (false, false) => Exact { m: big.m - part, ..big },
    }
}

fn double(x: Exact, mode: u32) -> f64 {
    f64::from_bits(round_bits(x, mode, 53, 11))
}

fn exact64(x: f64) -> Exact {
    exact_of(x.to_bits(), 53, 11)
}

/// The zero an exact zero sum takes (IEEE 754 §6.3), as [`exact_zero`] for doubles.
fn exact_zero64(a_negative: bool, b_negative: bool, mode: u32) -> f64 {
    f64::from(exact_zero(a_negative, b_negative, mode))
}

/// `a + b` of doubles rounded once in `mode`.
pub fn add64(a: f64, b: f64, mode: u32) -> f64 {
    if !a.is_finite() || !b.is_finite() {
        return a + b;
    }
    if a == 0.0 || b == 0.0 {
        return if a != 0.0 {
            a
        } else if b != 0.0 {
            b
        } else {
            exact_zero64(a.is_sign_negative(), b.is_sign_negative(), mode)
        };
    }
    let s = exact_sum(exact64(a), exact64(b));
    if s.m == 0 && !s.sticky {
        return exact_zero64(false, true, mode);
    }
    double(s, mode)
}

/// The exact product of two finite nonzero doubles.
fn exact_product(a: f64, b: f64) -> Exact {
    let (x, y) = (exact64(a), exact64(b));
    Exact { neg: x.neg != y.neg, m: x.m * y.m, e: x.e + y.e, sticky: false }
}

/// `a * b` of doubles rounded once in `mode`.
pub fn mul64(a: f64, b: f64, mode: u32) -> f64 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return a * b;
    }
    double(exact_product(a, b), mode)
}

/// `a * b + c` of doubles rounded once in `mode` (a fused multiply-add).
pub fn fma64(a: f64, b: f64, c: f64, mode: u32) -> f64 {
    if !a.is_finite() || !b.is_finite() {
        return a * b + c; // ∞ or NaN: an infinite product plus a finite or infinite c
    }
    if !c.is_finite() {
        return c;
    }
    let product_negative = a.is_sign_negative() != b.is_sign_negative();
    if a == 0.0 || b == 0.0 {
        return if c == 0.0 { exact_zero64(product_negative, c.is_sign_negative(), mode) } else { c };
    }
    let p = exact_product(a, b);
    if c == 0.0 {
        return double(p, mode);
    }
    let s = exact_sum(p, exact64(c));
    if s.m == 0 && !s.sticky {
        return exact_zero64(false, true, mode);
    }
    double(s, mode)
}

/// A double as a float rounded once in `mode` (NaN stays NaN, ∞ stays ∞).
pub fn f64_to_f32(x: f64, mode: u32) -> f32 {
    if !x.is_finite() || x == 0.0 {
        return x as f32;
    }
    f32::from_bits(round_bits(exact64(x), mode, 24, 8) as u32)
}

/// A 64-bit integer, signed (its two's complement in `x`) or not, as a double rounded once in
/// `mode`.
pub fn f64_from_u64(x: u64, mode: u32, signed: bool) -> f64 {
    let neg = signed && (x as i64) < 0;
    let m = if neg { (x as i64).unsigned_abs() } else { x };
    if m == 0 {
        return 0.0;
    }
    double(Exact { neg, m: u128::from(m), e: 0, sticky: false }, mode)
}

/// A 64-bit integer as a float32 rounded once in `mode` (the same route as [`f64_from_u64`]).
pub fn f32_from_u64(x: u64, mode: u32, signed: bool) -> f32 {
    let neg = signed && (x as i64) < 0;
    let m = if neg { (x as i64).unsigned_abs() } else { x };
    if m == 0 {
        return 0.0;
    }
    f32::from_bits(round_bits(Exact { neg, m: u128::from(m), e: 0, sticky: false }, mode, 24, 8) as u32)
}

/// A double rounded to an integral value in `mode` (the sign of a zero result is `x`'s).
pub fn round_int64(x: f64, mode: u32) -> f64 {
    if !x.is_finite() || x.abs() >= 4_503_599_627_370_496.0 {
        return x; // 2^52 and above are integral
    }
    let t = x as i64; // toward zero, exact below 2^52
    let frac = x - t as f64; // exact
    let r = match mode {
        ZERO => t,
        DOWN if frac < 0.0 => t - 1,
        UP if frac > 0.0 => t + 1,
        DOWN | UP => t,
        _ => {
            let half = frac.abs();
            let away = if x < 0.0 { t - 1 } else { t + 1 };
            if half > 0.5 || (half == 0.5 && t % 2 != 0) {
                away
            } else {
                t
            }
        }
    };
    (r as f64).copysign(x)
}

#[cfg(test)]
mod tests {

    #[test]
    fn min_and_max_order_signed_zeros_and_pass_over_nan() {
        // IEEE 754-2019 §9.6: minimumNumber(-0, +0) is -0, maximumNumber(-0, +0) is +0, in
        // either order; a quiet NaN operand gives the other operand; two NaNs give a NaN.
        let (n, p) = (-0.0f32, 0.0f32);
        for (a, b) in [(n, p), (p, n)] {
            assert_eq!(min_number(a, b).to_bits(), 0x8000_0000);
            assert_eq!(max_number(a, b).to_bits(), 0);
        }
        assert_eq!(min_number(f32::NAN, 2.0), 2.0);
        assert_eq!(min_number(2.0, f32::NAN), 2.0);
        assert_eq!(max_number(f32::NAN, -3.0), -3.0);
        assert_eq!(max_number(-3.0, f32::NAN), -3.0);
        assert!(max_number(f32::NAN, f32::NAN).is_nan());
        assert_eq!(min_number(1.5, -7.0), -7.0);
        assert_eq!(max_number(1.5, -7.0), 1.5);
        // A saturation to [0, 1] of -0.0 gives +0.0 (max first), of -5 gives +0.0.
        assert_eq!(min_number(max_number(-0.0f32, 0.0), 1.0).to_bits(), 0);
        assert_eq!(min_number(max_number(-5.0f32, 0.0), 1.0).to_bits(), 0);
    }
    extern crate std;
    use super::*;

    #[test]
    fn directed_rounding_of_a_sum_brackets_the_exact_value() {
        // 1 + 2^-30 is not a float: to nearest and down give 1, up gives the next float.
        let tiny = f32::from_bits(0x3080_0000); // 2^-30
        assert_eq!(add(1.0, tiny, NEAREST), 1.0);
        assert_eq!(add(1.0, tiny, DOWN), 1.0);
        assert_eq!(add(1.0, tiny, UP), f32::from_bits(0x3f80_0001));
        assert_eq!(add(1.0, -tiny, ZERO), f32::from_bits(0x3f7f_ffff));
        assert_eq!(add(1.0, -tiny, NEAREST), 1.0);
        // x − x is +0, except rounding down: −0.
        assert!(add(1.5, -1.5, NEAREST).is_sign_positive());
        assert!(add(1.5, -1.5, DOWN).is_sign_negative());
        // Overflow: to nearest ∞, toward zero the largest float.
        assert_eq!(add(f32::MAX, f32::MAX, NEAREST), f32::INFINITY);
        assert_eq!(add(f32::MAX, f32::MAX, ZERO), f32::MAX);
    }

    #[test]
    fn directed_rounding_keeps_a_residue_f64_alone_would_lose() {
        // 1 − 2^-80 is 1 in f64; rounded down in f32 it is the float below 1.
        let tiny = f32::from_bits(0x0780_0000); // 2^-112
        assert_eq!(add(1.0, -tiny, DOWN), f32::from_bits(0x3f7f_ffff));
        assert_eq!(add(1.0, tiny, UP), f32::from_bits(0x3f80_0001));
        assert_eq!(add(1.0, tiny, NEAREST), 1.0);
        // 1 + 2^-24 is halfway between 1 and its successor: the even one, 1.
        assert_eq!(add(1.0, f32::from_bits(0x3380_0000), NEAREST), 1.0);
        assert_eq!(add(1.0, f32::from_bits(0x3380_0000), UP), f32::from_bits(0x3f80_0001));
    }

    #[test]
    fn a_fused_multiply_add_rounds_once() {
        // (1 + 2^-23)² − 1 = 2^-22 + 2^-46: a separate multiply loses the 2^-46.
        let a = 1.0 + f32::EPSILON;
        assert_eq!(fma(a, a, -1.0, NEAREST), 2.0f32.powi(-22) + 2.0f32.powi(-46));
        assert_eq!(a * a - 1.0, 2.0f32.powi(-22));
        assert_eq!(fma(a, a, -1.0, NEAREST), a.mul_add(a, -1.0));
    }

    #[test]
    fn float16_conversions() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 2.0f32.powi(-24));
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00, "halfway to 2^16 rounds to even: ∞");
        assert_eq!(f32_to_f16(1.0 + 2.0f32.powi(-11)), 0x3c00, "a tie rounds to even");
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2.0f32.powi(-11)), 0x3c02);
        assert_eq!(f32_to_f16(2.0f32.powi(-24)), 0x0001);
        assert_eq!(f32_to_f16(2.0f32.powi(-25)), 0x0000, "half the smallest subnormal: even");
        assert_eq!(f32_to_f16(-0.0), 0x8000);
    }

    #[test]
    fn float16_conversions_in_every_rounding_mode() {
        // 1 + 2^-11 + 2^-12 lies between 0x3c00 (1) and 0x3c01 (1 + 2^-10), nearer the latter.
        let x = 1.0 + 2.0f32.powi(-11) + 2.0f32.powi(-12);
        assert_eq!(
            [NEAREST, DOWN, UP, ZERO].map(|m| f32_to_f16_rounded(x, m)),
            [0x3c01, 0x3c00, 0x3c01, 0x3c00]
        );
        assert_eq!(
            [NEAREST, DOWN, UP, ZERO].map(|m| f32_to_f16_rounded(-x, m)),
            [0xbc01, 0xbc01, 0xbc00, 0xbc00]
        );
        // 65535 is past the largest finite binary16 (65504): ∞ only where rounding goes away.
        assert_eq!(
            [NEAREST, DOWN, UP, ZERO].map(|m| f32_to_f16_rounded(65535.0, m)),
            [0x7c00, 0x7bff, 0x7c00, 0x7bff]
        );
        assert_eq!(
            [NEAREST, DOWN, UP, ZERO].map(|m| f32_to_f16_rounded(-1.0e9, m)),
            [0xfc00, 0xfc00, 0xfbff, 0xfbff]
        );
        // 2^-30 is far below the smallest subnormal 2^-24: zero, or that subnormal upward.
        let tiny = 2.0f32.powi(-30);
        assert_eq!([NEAREST, DOWN, UP, ZERO].map(|m| f32_to_f16_rounded(tiny, m)), [0, 0, 1, 0]);
        assert_eq!(f32_to_f16_rounded(f32::INFINITY, ZERO), 0x7c00, "∞ stays ∞");
        assert_eq!(f32_to_f16_rounded(0.0, UP), 0, "an exact zero does not round");
    }

    #[test]
    fn integral_rounding_and_conversions() {
        assert_eq!([NEAREST, DOWN, UP, ZERO].map(|m| round_int(2.5, m)), [2.0, 2.0, 3.0, 2.0]);
        assert_eq!([NEAREST, DOWN, UP, ZERO].map(|m| round_int(-1.5, m)), [-2.0, -2.0, -1.0, -1.0]);
        assert!(round_int(-0.25, NEAREST).is_sign_negative());
        // Against std's roundings, bit for bit (signed zeros included), over float32s of every
        // exponent and the ties and neighbours around 2^23, where float32s stop having fractions.
        let mut x = 0x2545_f491u32;
        let near = (8_388_600u32..8_388_616).flat_map(|i| [i as f32 - 0.5, i as f32, -(i as f32) + 0.5]);
        let sweep = (0..20_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            f32::from_bits(x)
        });
        for v in near.chain(sweep).filter(|v| !v.is_nan()) {
            let std = [v.round_ties_even(), v.floor(), v.ceil(), v.trunc()];
            for (m, want) in [NEAREST, DOWN, UP, ZERO].into_iter().zip(std) {
                assert_eq!(round_int(v, m).to_bits(), want.to_bits(), "{v:e} in mode {m}");
            }
        }
        assert_eq!(round_int(f32::from_bits(0x7fa0_0001), NEAREST).to_bits(), 0x7fa0_0001, "a NaN is kept");
        // 2^24 + 1 is not a float: down/zero give 2^24, up 2^24 + 2, nearest the even 2^24.
        let x = (1 << 24) + 1;
        assert_eq!(
            [NEAREST, DOWN, UP, ZERO].map(|m| from_int(x, m)),
            [16777216.0, 16777216.0, 16777218.0, 16777216.0]
        );
        // 2^63 + 2^39 + 1: just past the midpoint of 2^63 and its upper neighbour 2^63 + 2^40;
        // f64 loses the 1 and lands on the midpoint, the remainder says which side wins.
        let (two63, next) = (2.0f32.powi(63), 2.0f32.powi(63) + 2.0f32.powi(40));
        let x = (1u64 << 63) + (1 << 39) + 1;
        assert_eq!([NEAREST, DOWN, UP, ZERO].map(|m| from_u64(x, m)), [next, two63, next, two63]);
        assert_eq!(from_u64(x - 1, NEAREST), two63, "on the midpoint: the even one");
        let (top, below) = (2.0f32.powi(64), 2.0f32.powi(64) - 2.0f32.powi(40));
        assert_eq!([NEAREST, DOWN, UP, ZERO].map(|m| from_u64(u64::MAX, m)), [top, below, top, below]);
    }

    #[test]
    fn special_functions_are_close_to_std() {
        for x in [0.5f32, 1.0, 2.0, 3.0, 10.0, 1e-3, 123.456] {
            assert!((sqrt(x) - x.sqrt()).abs() <= f32::EPSILON * x.sqrt(), "sqrt {x}");
            assert_eq!(sqrt(x), x.sqrt(), "sqrt is correctly rounded");
            assert!((log2(x) - x.log2()).abs() <= 2.0 * f32::EPSILON * x.log2().abs().max(1.0), "log2 {x}");
        }
        for x in [-3.0f32, -0.5, 0.0, 0.7, 1.0, 5.5, 20.0] {
            assert!((exp2(x) - x.exp2()).abs() <= 2.0 * f32::EPSILON * x.exp2(), "exp2 {x}");
            assert!((sin(x) - x.sin()).abs() <= 2e-7, "sin {x}");
            assert!((cos(x) - x.cos()).abs() <= 2e-7, "cos {x}");
        }
    }

    #[test]
    fn byte_lanes() {
        assert_eq!(bytes_add_sat(0x80ff_0102, 0x8002_0304), 0xffff_0406);
        assert_eq!(bytes_sub_sat(0x0510_ff00, 0x0620_0101), 0x0000_fe00);
        assert_eq!(bytes_min(0x10f0_0102, 0x20e0_0201), 0x10e0_0101);
        assert_eq!(bytes_max(0x10f0_0102, 0x20e0_0201), 0x20f0_0202);
        // 255·255/255 = 255, 128·255/255 = 128, 128·128/255 = 64.25 → 64, 0 · x = 0.
        assert_eq!(bytes_mul(0xff80_8000, 0xffff_80ff), 0xff80_4000);
    }

    #[test]
    fn bit_fields_follow_ptx_bfe_and_bfi() {
        // PTX ISA, bfe: bits pos..pos+len of a, the rest the field's sign (bit
        // min(pos+len-1, msb)) when signed and len != 0, else zero.
        assert_eq!(bfe(0x1234_5678, 32, 8, 8, false), 0x56);
        assert_eq!(bfe(0x0000_f000, 32, 12, 4, true), 0xffff_ffff);
        assert_eq!(bfe(0x0000_7000, 32, 12, 4, true), 0x7);
        assert_eq!(bfe(0x8000_0000, 32, 28, 8, true), 0xffff_fff8);
        assert_eq!(bfe(0x8000_0000, 32, 28, 8, false), 0x8);
        assert_eq!(bfe(0x8000_0000, 32, 40, 4, true), 0xffff_ffff);
        assert_eq!(bfe(0xffff_ffff, 32, 40, 4, false), 0);
        assert_eq!(bfe(0xffff_ffff, 32, 4, 0, true), 0);
        assert_eq!(bfe(0xdead_beef, 32, 0, 255, false), 0xdead_beef);
        assert_eq!(bfe(u64::MAX, 64, 60, 255, true), u64::MAX);
        assert_eq!(bfe(0x0123_4567_89ab_cdef, 64, 32, 16, false), 0x4567);
        // PTX ISA, bfi: b with bits pos..pos+len (up to the msb) taken from a's low bits.
        assert_eq!(bfi(0xab, 0x1234_5678, 32, 8, 8), 0x1234_ab78);
        assert_eq!(bfi(0xffff_ffff, 0, 32, 28, 8), 0xf000_0000);
        assert_eq!(bfi(0xffff_ffff, 0x1234, 32, 32, 8), 0x1234);
        assert_eq!(bfi(0xffff_ffff, 0x1234, 32, 4, 0), 0x1234);
        assert_eq!(bfi(0x5, 0, 32, 0, 255), 0x5);
        assert_eq!(bfi(0xf, 0, 64, 62, 4), 0xc000_0000_0000_0000);
    }

    #[test]
    fn sign_extension_and_shifts_that_clamp_the_count() {
        // LLVM LangRef, sext: `sext i8 -1 to i16` is 65535 (0xffff); 0x7f stays 0x7f.
        assert_eq!(sext(0xff, 32, 8), 0xffff_ffff);
        assert_eq!(sext(0x7f, 32, 8), 0x7f);
        assert_eq!(sext(0x1_8000, 32, 16), 0xffff_8000);
        assert_eq!(sext(0x8000_0000, 64, 32), 0xffff_ffff_8000_0000);
        assert_eq!(sext(0x8000_0000, 32, 40), 0x8000_0000);
        assert_eq!(sext(0xffff_ffff, 32, 0), 0);
        // PTX ISA, shl/shr: shift amounts greater than the register width are clamped to it;
        // shr.s fills with the sign bit, shr.u with zeros.
        assert_eq!(shl(1, 32, 31), 0x8000_0000);
        assert_eq!(shl(1, 32, 32), 0);
        assert_eq!(shl(1, 64, 40), 1 << 40);
        assert_eq!(shr(0x8000_0000, 32, 31), 1);
        assert_eq!(shr(0x8000_0000, 32, 200), 0);
        assert_eq!(asr(0x8000_0000, 32, 4), 0xf800_0000);
        assert_eq!(asr(0x8000_0000, 32, 40), 0xffff_ffff);
        assert_eq!(asr(0x4000_0000, 32, 40), 0);
        assert_eq!(asr(1 << 63, 64, 127), u64::MAX);
        assert_eq!(asr(0xf0, 32, 0), 0xf0);
    }

    #[test]
    fn lut3_takes_ptx_lop3_truth_tables() {
        // PTX ISA, lop3: the tables of a, b and c are 0xF0, 0xCC and 0xAA, and an operation's
        // table is that operation applied to them (a & b & c is 0x80, a | b | c is 0xFE), so
        // the three tables as inputs give every table back.
        for lut in 0..256 {
            assert_eq!(lut3(0xf0, 0xcc, 0xaa, 8, lut), lut as u64);
        }
        let (a, b, c) = (0x1234_5678u64, 0x0ff0_f00fu64, 0xaaaa_5555u64);
        assert_eq!(lut3(a, b, c, 32, 0x80), a & b & c);
        assert_eq!(lut3(a, b, c, 32, 0xfe), a | b | c);
        assert_eq!(lut3(a, b, c, 32, 0x96), a ^ b ^ c);
        assert_eq!(lut3(a, b, c, 32, 0x0f), !a & 0xffff_ffff);
        assert_eq!(lut3(0, 0, 0, 64, 0x01), u64::MAX);
    }

    #[test]
    fn prmt_picks_bytes_of_the_pair_and_their_signs() {
        // PTX ISA, prmt (default mode): bytes 0-3 of {b, a} are a's, 4-7 b's; each selector
        // nibble's low three bits pick a byte, its bit 3 replicates the byte's sign. CUDA's
        // __byte_perm(x, 0, 0x0123) reverses the bytes of x.
        assert_eq!(prmt(0x1122_3344, 0, 0x0123), 0x4433_2211);
        assert_eq!(prmt(0x3322_1100, 0x7766_5544, 0x3210), 0x3322_1100);
        assert_eq!(prmt(0x3322_1100, 0x7766_5544, 0x7654), 0x7766_5544);
        assert_eq!(prmt(0x0000_7f80, 0, 0x0098), 0x8080_00ff);
    }

    #[test]
    fn bfind_finds_the_highest_bit_as_ptx_does() {
        // PTX ISA, bfind: the highest set bit (of ~a for a negative signed a), 0xffffffff when
        // none; .shiftamt gives msb - that position instead.
        assert_eq!(bfind(0x0001_0000, 32, false, false), 16);
        assert_eq!(bfind(0x0001_0000, 32, false, true), 15);
        assert_eq!(bfind(0x8000_0000, 32, false, true), 0);
        assert_eq!(bfind(0, 32, false, false), 0xffff_ffff);
        assert_eq!(bfind(0, 32, false, true), 0xffff_ffff);
        assert_eq!(bfind(0xffff_ffff, 32, true, false), 0xffff_ffff);
        assert_eq!(bfind(0xffff_fff0, 32, true, false), 3);
        assert_eq!(bfind(0x8000_0000, 32, true, false), 30);
        assert_eq!(bfind(0x7fff_ffff, 32, true, true), 1);
        assert_eq!(bfind(1 << 40, 64, false, false), 40);
        assert_eq!(bfind(1 << 40, 64, false, true), 23);
    }

    #[test]
    fn adds_with_carry_overflow_and_saturation() {
        // LLVM LangRef, uadd.with.overflow/sadd.with.overflow: the unsigned and signed
        // overflow of a + b (with a carry in: a + b + 1).
        assert!(uadd_overflows(0xffff_ffff, 1, 32, false));
        assert!(uadd_overflows(0xffff_ffff, 0, 32, true));
        assert!(!uadd_overflows(0x7fff_ffff, 1, 32, false));
        assert!(!uadd_overflows(0xffff_fffe, 0, 32, true));
        assert!(uadd_overflows(u64::MAX, 1, 64, false));
        assert!(sadd_overflows(0x7fff_ffff, 1, 32, false));
        assert!(sadd_overflows(0x7fff_ffff, 0, 32, true));
        assert!(sadd_overflows(0x8000_0000, 0xffff_ffff, 32, false));
        assert!(!sadd_overflows(0xffff_ffff, 1, 32, false));
        assert!(!sadd_overflows(0x8000_0000, 0xffff_ffff, 32, true));
        assert!(sadd_overflows(i64::MAX as u64, 1, 64, false));
        // LLVM LangRef's examples of sadd.sat.i4 and uadd.sat.i4.
        assert_eq!(sadd_sat(1, 2, 4, false), 3);
        assert_eq!(sadd_sat(5, 6, 4, false), 7);
        assert_eq!(sadd_sat(0xc, 2, 4, false), 0xe); // -4 + 2 = -2
        assert_eq!(sadd_sat(0xc, 0xb, 4, false), 0x8); // -4 + -5 saturates at -8
        assert_eq!(uadd_sat(1, 2, 4, false), 3);
        assert_eq!(uadd_sat(5, 6, 4, false), 11);
        assert_eq!(uadd_sat(8, 8, 4, false), 15);
        assert_eq!(sadd_sat(0x7fff_ffff, 0, 32, true), 0x7fff_ffff);
        assert_eq!(sadd_sat(0x8000_0000, 0xffff_ffff, 32, false), 0x8000_0000);
        assert_eq!(uadd_sat(0xffff_ffff, 0, 32, true), 0xffff_ffff);
    }
}

#[cfg(test)]
mod double_tests {
    //! Expected values are IEEE 754 facts derived by hand (bit patterns of powers of two and
    //! their neighbours, midpoints, overflow thresholds), in the manner of Berkeley TestFloat's
    //! corner cases: never the output of the code under test.
    use super::*;

    fn d(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    /// 2^e for the exponents of normal doubles.
    fn p2(e: i32) -> f64 {
        d(((1023 + e) as u64) << 52)
    }

    #[test]
    fn sums_round_once_in_every_mode() {
        // 1 + 2^-60 lies between 1 and 1 + 2^-52 (0x3ff0000000000001).
        assert_eq!(add64(1.0, p2(-60), NEAREST), 1.0);
        assert_eq!(add64(1.0, p2(-60), DOWN), 1.0);
        assert_eq!(add64(1.0, p2(-60), ZERO), 1.0);
        assert_eq!(add64(1.0, p2(-60), UP).to_bits(), 0x3ff0_0000_0000_0001);
        // 1 - 2^-60 lies between 1 - 2^-53 (0x3fefffffffffffff) and 1.
        assert_eq!(add64(1.0, -p2(-60), ZERO).to_bits(), 0x3fef_ffff_ffff_ffff);
        assert_eq!(add64(1.0, -p2(-60), DOWN).to_bits(), 0x3fef_ffff_ffff_ffff);
        assert_eq!(add64(1.0, -p2(-60), UP), 1.0);
        assert_eq!(add64(-1.0, -p2(-60), UP), -1.0);
        assert_eq!(add64(-1.0, -p2(-60), DOWN).to_bits(), 0xbff0_0000_0000_0001);
        // Midpoints: 1 + 2^-53 ties to the even 1; 1 + 3·2^-53 ties to 1 + 2^-51 (...02).
        assert_eq!(add64(1.0, p2(-53), NEAREST), 1.0);
        assert_eq!(add64(d(0x3ff0_0000_0000_0001), p2(-53), NEAREST).to_bits(), 0x3ff0_0000_0000_0002);
        // The far smaller operand only tips directed roundings: 1 − 2^-1074.
        assert_eq!(add64(1.0, -d(1), DOWN).to_bits(), 0x3fef_ffff_ffff_ffff);
        assert_eq!(add64(1.0, -d(1), NEAREST), 1.0);
        // Exact zeros: +0 but rounding down (−0); equal signs keep theirs.
        assert_eq!(add64(1.5, -1.5, NEAREST).to_bits(), 0);
        assert_eq!(add64(1.5, -1.5, DOWN).to_bits(), 1 << 63);
        assert_eq!(add64(0.0, -0.0, DOWN).to_bits(), 1 << 63);
        assert_eq!(add64(0.0, -0.0, UP).to_bits(), 0);
        assert_eq!(add64(-0.0, -0.0, UP).to_bits(), 1 << 63);
        // Overflow: MAX + MAX is ∞ to nearest and away from zero, MAX toward zero.
        assert_eq!(add64(f64::MAX, f64::MAX, NEAREST), f64::INFINITY);
        assert_eq!(add64(f64::MAX, f64::MAX, UP), f64::INFINITY);
        assert_eq!(add64(f64::MAX, f64::MAX, ZERO), f64::MAX);
        assert_eq!(add64(f64::MAX, f64::MAX, DOWN), f64::MAX);
        assert_eq!(add64(-f64::MAX, -f64::MAX, UP), -f64::MAX);
        assert_eq!(add64(-f64::MAX, -f64::MAX, DOWN), f64::NEG_INFINITY);
        // MAX + half its ulp (2^970) is the overflow threshold: ∞ to nearest; 2^969 is not.
        assert_eq!(add64(f64::MAX, p2(970), NEAREST), f64::INFINITY);
        assert_eq!(add64(f64::MAX, p2(969), NEAREST), f64::MAX);
        // Subnormals add exactly: 2^-1074 + 2^-1074 = 2^-1073.
        assert_eq!(add64(d(1), d(1), DOWN).to_bits(), 2);
        assert!(add64(f64::INFINITY, f64::NEG_INFINITY, NEAREST).is_nan());
    }

    #[test]
    fn products_round_once_with_subnormal_results() {
        // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104.
        let x = d(0x3ff0_0000_0000_0001);
        assert_eq!(mul64(x, x, NEAREST).to_bits(), 0x3ff0_0000_0000_0002);
        assert_eq!(mul64(x, x, DOWN).to_bits(), 0x3ff0_0000_0000_0002);
        assert_eq!(mul64(x, x, UP).to_bits(), 0x3ff0_0000_0000_0003);
        assert_eq!(mul64(-x, x, DOWN).to_bits(), 0xbff0_0000_0000_0003);
        assert_eq!(mul64(-x, x, ZERO).to_bits(), 0xbff0_0000_0000_0002);
        // 2^-1022 / 2 = 2^-1023, the subnormal 0x0008000000000000, exactly.
        assert_eq!(mul64(p2(-1022), 0.5, UP).to_bits(), 0x0008_0000_0000_0000);
        // Half the smallest subnormal ties to the even 0; 1.5 of it ties to 2 of it.
        assert_eq!(mul64(d(1), 0.5, NEAREST).to_bits(), 0);
        assert_eq!(mul64(d(1), 0.5, UP).to_bits(), 1);
        assert_eq!(mul64(d(3), 0.5, NEAREST).to_bits(), 2);
        assert_eq!(mul64(d(3), 0.5, ZERO).to_bits(), 1);
        // 2^-1200 underflows: 0, or the smallest subnormal away from zero.
        assert_eq!(mul64(p2(-600), p2(-600), NEAREST).to_bits(), 0);
        assert_eq!(mul64(p2(-600), p2(-600), UP).to_bits(), 1);
        assert_eq!(mul64(-p2(-600), p2(-600), DOWN).to_bits(), 0x8000_0000_0000_0001);
        assert_eq!(mul64(-p2(-600), p2(-600), UP).to_bits(), 1 << 63);
        // 2^1000 · 2^1000 overflows.
        assert_eq!(mul64(p2(1000), p2(1000), ZERO), f64::MAX);
        assert_eq!(mul64(p2(1000), -p2(1000), NEAREST), f64::NEG_INFINITY);
        // Largest subnormal · (1 + 2^-52) rounds up into the smallest normal only upward.
        assert_eq!(mul64(d(0x000f_ffff_ffff_ffff), x, UP).to_bits(), 0x0010_0000_0000_0000);
        assert_eq!(mul64(d(0x000f_ffff_ffff_ffff), x, DOWN).to_bits(), 0x000f_ffff_ffff_ffff);
    }

    #[test]
    fn fused_multiply_adds_round_once() {
        let x = d(0x3ff0_0000_0000_0001); // 1 + 2^-52
                                          // x·x − (1 + 2^-51) is the product's error, 2^-104 (biased exponent 919).
        assert_eq!(fma64(x, x, -d(0x3ff0_0000_0000_0002), NEAREST).to_bits(), 0x3970_0000_0000_0000);
        // x·x − 1 = 2^-51 + 2^-104: a tie between 2^-51 and its successor, to the even 2^-51.
        assert_eq!(fma64(x, x, -1.0, NEAREST).to_bits(), 0x3cc0_0000_0000_0000);
        assert_eq!(fma64(x, x, -1.0, UP).to_bits(), 0x3cc0_0000_0000_0001);
        // A far smaller addend tips directed roundings only.
        assert_eq!(fma64(1.0, 1.0, p2(-200), UP).to_bits(), 0x3ff0_0000_0000_0001);
        assert_eq!(fma64(1.0, 1.0, -p2(-200), ZERO).to_bits(), 0x3fef_ffff_ffff_ffff);
        assert_eq!(fma64(1.0, 1.0, -d(1), NEAREST), 1.0);
        // A far smaller product, likewise: 1 + 2^-600·2^-600.
        assert_eq!(fma64(p2(-600), p2(-600), 1.0, UP).to_bits(), 0x3ff0_0000_0000_0001);
        assert_eq!(fma64(-p2(-600), p2(-600), 1.0, DOWN).to_bits(), 0x3fef_ffff_ffff_ffff);
        // Exact zeros and signed-zero addends (IEEE 754 §6.3).
        assert_eq!(fma64(2.0, 3.0, -6.0, NEAREST).to_bits(), 0);
        assert_eq!(fma64(2.0, 3.0, -6.0, DOWN).to_bits(), 1 << 63);
        assert_eq!(fma64(0.0, -1.0, 0.0, NEAREST).to_bits(), 0);
        assert_eq!(fma64(0.0, -1.0, -0.0, NEAREST).to_bits(), 1 << 63);
        assert_eq!(fma64(0.0, -1.0, 5.0, DOWN), 5.0);
        // A product past MAX is still finite in the exact sum: with c = −∞ the result is −∞.
        assert_eq!(fma64(f64::MAX, 2.0, f64::NEG_INFINITY, NEAREST), f64::NEG_INFINITY);
        // MAX·2 − MAX = MAX exactly.
        assert_eq!(fma64(f64::MAX, 2.0, -f64::MAX, NEAREST), f64::MAX);
        assert!(fma64(f64::INFINITY, 0.0, 1.0, NEAREST).is_nan());
        assert_eq!(fma64(f64::INFINITY, -1.0, 1.0, NEAREST), f64::NEG_INFINITY);
    }

    #[test]
    fn narrowing_to_float32_rounds_once() {
        let f = f32::from_bits;
        // 1 + 2^-24 is the midpoint of 1 and 1 + 2^-23; 1 + 3·2^-24 of ...01 and ...02.
        assert_eq!(f64_to_f32(1.0 + p2(-24), NEAREST), 1.0);
        assert_eq!(f64_to_f32(1.0 + p2(-24), UP), f(0x3f80_0001));
        assert_eq!(f64_to_f32(1.0 + 3.0 * p2(-24), NEAREST), f(0x3f80_0002));
        assert_eq!(f64_to_f32(-(1.0 + p2(-30)), DOWN), f(0xbf80_0001));
        assert_eq!(f64_to_f32(-(1.0 + p2(-30)), ZERO), -1.0);
        // f32::MAX + 2^103 (half its ulp) overflows to nearest; toward zero it stays MAX.
        let max = f64::from(f32::MAX);
        assert_eq!(f64_to_f32(max + p2(103), NEAREST), f32::INFINITY);
        assert_eq!(f64_to_f32(max + p2(103), ZERO), f32::MAX);
        assert_eq!(f64_to_f32(max + p2(102), NEAREST), f32::MAX);
        assert_eq!(f64_to_f32(1e300, DOWN), f32::MAX);
        assert_eq!(f64_to_f32(-1e300, DOWN), f32::NEG_INFINITY);
        // Subnormal float32 results: 2^-150 ties to 0, 3·2^-150 to 2·2^-149.
        assert_eq!(f64_to_f32(p2(-150), NEAREST).to_bits(), 0);
        assert_eq!(f64_to_f32(p2(-150), UP).to_bits(), 1);
        assert_eq!(f64_to_f32(3.0 * p2(-150), NEAREST).to_bits(), 2);
        assert_eq!(f64_to_f32(-p2(-150), DOWN).to_bits(), 0x8000_0001);
        assert_eq!(f64_to_f32(1e-300, UP).to_bits(), 1);
        assert_eq!(f64_to_f32(1e-300, NEAREST).to_bits(), 0);
        assert!(f64_to_f32(f64::NAN, UP).is_nan());
        assert_eq!(f64_to_f32(f64::NEG_INFINITY, ZERO), f32::NEG_INFINITY);
    }

    #[test]
    fn integers_convert_to_doubles_rounded_once() {
        // 2^53 + 1 ties to the even 2^53 (0x4340000000000000); up it is 2^53 + 2.
        assert_eq!(f64_from_u64((1 << 53) + 1, NEAREST, false).to_bits(), 0x4340_0000_0000_0000);
        assert_eq!(f64_from_u64((1 << 53) + 1, UP, false).to_bits(), 0x4340_0000_0000_0001);
        assert_eq!(f64_from_u64((1 << 53) + 3, NEAREST, false).to_bits(), 0x4340_0000_0000_0002);
        // 2^64 − 1: 2^64 to nearest, 2^64 − 2^11 down.
        assert_eq!(f64_from_u64(u64::MAX, NEAREST, false).to_bits(), 0x43f0_0000_0000_0000);
        assert_eq!(f64_from_u64(u64::MAX, ZERO, false).to_bits(), 0x43ef_ffff_ffff_ffff);
        // Signed: −2^63 exactly, −1 exactly, −(2^53 + 1) away from zero when rounding down.
        assert_eq!(f64_from_u64(1 << 63, ZERO, true).to_bits(), 0xc3e0_0000_0000_0000);
        assert_eq!(f64_from_u64(u64::MAX, UP, true), -1.0);
        let v = (-(1i64 << 53) - 1) as u64;
        assert_eq!(f64_from_u64(v, DOWN, true).to_bits(), 0xc340_0000_0000_0001);
        assert_eq!(f64_from_u64(v, UP, true).to_bits(), 0xc340_0000_0000_0000);
        assert_eq!(f64_from_u64(0, DOWN, true).to_bits(), 0);
        // Float32: 2^24 + 1 ties to 2^24; up 2^24 + 2.
        assert_eq!(f32_from_u64((1 << 24) + 1, NEAREST, false).to_bits(), 0x4b80_0000);
        assert_eq!(f32_from_u64((1 << 24) + 1, UP, false).to_bits(), 0x4b80_0001);
        assert_eq!(f32_from_u64(u64::MAX, DOWN, true).to_bits(), 0xbf80_0000);
    }

    #[test]
    fn doubles_round_to_integral_values() {
        assert_eq!(round_int64(2.5, NEAREST), 2.0);
        assert_eq!(round_int64(3.5, NEAREST), 4.0);
        assert_eq!(round_int64(-2.5, NEAREST), -2.0);
        assert_eq!(round_int64(-0.4, NEAREST).to_bits(), 1 << 63);
        assert_eq!(round_int64(-0.4, DOWN), -1.0);
        assert_eq!(round_int64(0.4, UP), 1.0);
        assert_eq!(round_int64(-1.7, ZERO), -1.0);
        // 2^52 − 0.5 ties between 2^52 − 1 (odd) and 2^52: to 2^52.
        assert_eq!(round_int64(p2(52) - 0.5, NEAREST), p2(52));
        assert_eq!(round_int64(p2(60) + p2(8), DOWN), p2(60) + p2(8));
        assert_eq!(min_number(-0.0f64, 0.0).to_bits(), 1 << 63);
        assert_eq!(max_number(-0.0f64, 0.0).to_bits(), 0);
        assert_eq!(min_number(f64::NAN, 2.0), 2.0);
        assert_eq!(max_number(-3.0, f64::NAN), -3.0);
        assert_eq!(flush_subnormal(-d(1)).to_bits(), 1 << 63);
        assert_eq!(flush_subnormal(p2(-1022)), p2(-1022));
    }

    /// Pseudo-random doubles of every exponent, some of them subnormal, infinite or NaN.
    fn samples(n: usize) -> impl Iterator<Item = f64> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..n).map(move |i| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d);
            match i % 8 {
                // Near 1, so that sums and products cancel and carry.
                0 | 1 => {
                    d(0x3ff0_0000_0000_0000 | (r & 0x000f_ffff_ffff_ffff))
                        * if r >> 63 == 1 { -1.0 } else { 1.0 }
                }
                2 => d(r & 0x800f_ffff_ffff_ffff), // subnormal
                _ => d(r),
            }
        })
    }

    extern crate std;

    #[test]
    fn nearest_results_agree_with_the_host_and_directed_ones_bracket_them() {
        // To nearest, Rust's own `+`, `*` and `mul_add` (the host's fused multiply-add) are the
        // reference; the directed results are the two neighbours around it, equal when exact.
        let xs: std::vec::Vec<f64> = samples(96).collect();
        let next_up = |x: f64| x.next_up();
        for (i, &a) in xs.iter().enumerate() {
            for &b in &xs {
                let c = xs[(i * 7 + 3) % xs.len()];
                for (near, down, up, zero, host) in [
                    (add64(a, b, NEAREST), add64(a, b, DOWN), add64(a, b, UP), add64(a, b, ZERO), a + b),
                    (mul64(a, b, NEAREST), mul64(a, b, DOWN), mul64(a, b, UP), mul64(a, b, ZERO), a * b),
                    (
                        fma64(a, b, c, NEAREST),
                        fma64(a, b, c, DOWN),
                        fma64(a, b, c, UP),
                        fma64(a, b, c, ZERO),
                        a.mul_add(b, c),
                    ),
                ] {
                    if host.is_nan() {
                        assert!(near.is_nan() && down.is_nan() && up.is_nan(), "{a:e} {b:e} {c:e}");
                        continue;
                    }
                    assert_eq!(near.to_bits(), host.to_bits(), "{a:e} {b:e} {c:e}");
                    if down != up {
                        assert!(next_up(down) == up && (near == down || near == up), "{a:e} {b:e} {c:e}");
                    }
                    assert!(down <= near && near <= up, "{a:e} {b:e} {c:e}");
                    assert_eq!(
                        zero.to_bits(),
                        if near.is_sign_negative() { up } else { down }.to_bits(),
                        "{a:e} {b:e} {c:e}"
                    );
                }
            }
        }
    }
}

//! Number formats declared in specs: minifloats (fp20, AGX's 8-bit immediate) and two's
//! complement fixed point (fx10). The spec declares the shape; the arithmetic lives here once.

/// A binary floating-point format: sign, exponent and mantissa widths and the exponent bias.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatFormat {
    /// Sign bits (0 or 1).
    pub sign: u32,
    /// Exponent bits.
    pub exponent: u32,
    /// Mantissa (fraction) bits.
    pub mantissa: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Whether the all-ones exponent means infinity/NaN (IEEE) rather than ordinary values.
    pub specials: bool,
    /// Whether a decimal the format does not hold exactly is read anyway: as the nearest IEEE
    /// single, its extra mantissa bits dropped (grate's `float_to_fp20`); otherwise it is no
    /// value of the format.
    pub truncate: bool,
}

impl FloatFormat {
    /// Total width in bits.
    pub const fn width(&self) -> u32 {
        self.sign + self.exponent + self.mantissa
    }

    /// Decodes raw bits to a value. A zero exponent is subnormal; the all-ones exponent is
    /// infinity (zero mantissa) or NaN.
    pub fn decode(&self, bits: u64) -> f64 {
        let m_mask = (1u64 << self.mantissa) - 1;
        let e_max = (1u64 << self.exponent) - 1;
        let mant = bits & m_mask;
        let exp = (bits >> self.mantissa) & e_max;
        let negative = self.sign == 1 && (bits >> (self.mantissa + self.exponent)) & 1 == 1;
        let scale = |e: i32| pow2(e);
        let magnitude = if exp == 0 {
            mant as f64 * scale(1 - self.bias - self.mantissa as i32)
        } else if exp == e_max && self.specials {
            if mant == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        } else {
            (mant | (1 << self.mantissa)) as f64 * scale(exp as i32 - self.bias - self.mantissa as i32)
        };
        if negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// Encodes a value, truncating extra mantissa bits (as the hardware assemblers do).
    /// Returns `None` when the value is out of the format's range or negative without a sign.
    pub fn encode(&self, value: f64) -> Option<u64> {
        let sign_bit = if value.is_sign_negative() && value != 0.0 {
            if self.sign == 0 {
                return None;
            }
            1u64 << (self.mantissa + self.exponent)
        } else {
            0
        };
        let a = value.abs();
        let e_max = (1u64 << self.exponent) - 1;
        if (a.is_nan() || a.is_infinite()) && !self.specials {
            return None;
        }
        if a.is_nan() {
            return Some(sign_bit | (e_max << self.mantissa) | 1);
        }
        if a.is_infinite() {
            return Some(sign_bit | (e_max << self.mantissa));
        }
        if a == 0.0 {
            return Some(sign_bit);
        }
        // Find e with 2^e <= a < 2^(e+1).
        let mut e = 0i32;
        let mut x = a;
        while x >= 2.0 {
            x /= 2.0;
            e += 1;
        }
        while x < 1.0 {
            x *= 2.0;
            e -= 1;
        }
        let biased = e + self.bias;
        if biased > e_max as i32 || (self.specials && biased == e_max as i32) {
            return None;
        }
        if biased <= 0 {
            // Subnormal: value = mant * 2^(1 - bias - mantissa).
            let mant = (a / pow2(1 - self.bias - self.mantissa as i32)) as u64;
            return Some(sign_bit | mant);
        }
        let mant = ((x - 1.0) * pow2(self.mantissa as i32)) as u64;
        Some(sign_bit | ((biased as u64) << self.mantissa) | mant)
    }
}

/// A two's complement fixed-point format: `width` bits of which `fraction` are fractional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedFormat {
    /// Total width in bits.
    pub width: u32,
    /// Fraction bits (1.0 = 1 << fraction).
    pub fraction: u32,
    /// Whether the format is signed (two's complement).
    pub signed: bool,
}

impl FixedFormat {
    /// Decodes raw bits to a value.
    pub fn decode(&self, bits: u64) -> f64 {
        let raw = if self.signed { crate::bits::sign_extend(bits, self.width) as f64 } else { bits as f64 };
        raw / pow2(self.fraction as i32)
    }

    /// Encodes a value, truncating towards zero; `None` when it does not fit.
    pub fn encode(&self, value: f64) -> Option<u64> {
        let scaled = value * pow2(self.fraction as i32);
        let scaled = if scaled < 0.0 { -((-scaled) as i64) } else { scaled as i64 };
        let (min, max) = if self.signed {
            (-(1i64 << (self.width - 1)), (1i64 << (self.width - 1)) - 1)
        } else {
            (0, (1i64 << self.width) - 1)
        };
        if scaled < min || scaled > max || !value.is_finite() {
            return None;
        }
        Some((scaled as u64) & crate::bits::mask(self.width))
    }
}

/// A declared number format: how a decimal becomes bits and bits a decimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Number {
    /// A binary floating-point format.
    Float(FloatFormat),
    /// A fixed-point format.
    Fixed(FixedFormat),
}

impl Number {
    /// The bits of `value`, `None` when the format does not hold it.
    pub fn encode(&self, value: f64) -> Option<u64> {
        match self {
            // Assemblers that read decimals as singles (grate's `atof` into a float) round
            // them to the nearest single first, then re-bias its exponent: a value below the
            // format's normal range is none of its values (grate's `float_to_fp20` writes a
            // wrapped exponent), zero of either sign is 0.
            Number::Float(f) if f.truncate => {
                let single = f64::from(value as f32);
                if single == 0.0 {
                    return Some(0);
                }
                let raw = f.encode(single)?;
                (raw >> f.mantissa & ((1 << f.exponent) - 1) != 0).then_some(raw)
            }
            Number::Float(f) => f.encode(value),
            Number::Fixed(f) => f.encode(value),
        }
    }

    /// The value of `bits`.
    pub fn decode(&self, bits: u64) -> f64 {
        match self {
            Number::Float(f) => f.decode(bits),
            Number::Fixed(f) => f.decode(bits),
        }
    }

    /// The bits a decimal literal `x` stands for: for a truncating float format or a fixed
    /// format, what [`Number::encode`] makes of it; for another float format, only a value it
    /// holds exactly (`-0.0` keeps its sign).
    pub fn read(&self, x: f64) -> Option<u64> {
        match self {
            Number::Float(f) if !f.truncate => {
                let mut raw = f.encode(x)?;
                if x == 0.0 && x.is_sign_negative() && f.sign == 1 {
                    raw |= 1 << (f.exponent + f.mantissa);
                }
                let back = f.decode(raw);
                (back == x || (back.is_nan() && x.is_nan())).then_some(raw)
            }
            _ => self.encode(x),
        }
    }

    /// Writes the value of `bits` as the shortest decimal that [`Number::read`] takes back to
    /// the same bits, always with a point and never with an exponent (`1.0`, `-0.5`,
    /// `0.099998474`, `0.00390625`), the form assemblers that only read `[-]digits.digits`
    /// take (grate's fragment lexer). `None` (nothing written) when no decimal reads back to
    /// `bits`: infinities, NaNs, a negative zero or an unnormalised value a truncating format
    /// reads as something else, a fixed-point value out of its range.
    pub fn write_decimal(&self, bits: u64, out: &mut dyn core::fmt::Write) -> Option<core::fmt::Result> {
        let x = self.decode(bits);
        if !x.is_finite() || self.read(x) != Some(bits) {
            return None;
        }
        // A float a single holds prints as the single's shortest digits when they read back
        // (`0.099998474`), otherwise as the double's, which are exact for a fixed-point value.
        let single = x as f32;
        let short = matches!(self, Number::Float(_)) && f64::from(single) == x;
        let texts = [short.then(|| alloc::format!("{single}")), Some(alloc::format!("{x}"))];
        let digits = texts
            .into_iter()
            .flatten()
            .find(|t| parse_decimal(t).and_then(|v| self.read(v)) == Some(bits))?;
        Some(
            out.write_str(&digits)
                .and_then(|()| if digits.contains('.') { Ok(()) } else { out.write_str(".0") }),
        )
    }
}

/// A positional decimal (`-12.5`, `3`) as a double, correctly rounded.
fn parse_decimal(s: &str) -> Option<f64> {
    s.parse::<f64>().ok()
}

fn pow2(e: i32) -> f64 {
    let mut r = 1.0f64;
    if e >= 0 {
        for _ in 0..e {
            r *= 2.0;
        }
    } else {
        for _ in 0..(-e) {
            r /= 2.0;
        }
    }
    r
}

/// Why an IEEE float format cannot hold a finite literal ([`float_literal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutOfRange {
    /// Past the format's largest value: it would be an infinity.
    Beyond,
    /// Below half the format's smallest subnormal, not zero: it would be 0.
    Below,
}

impl OutOfRange {
    /// The error for literal `value` (as written) in a float of `bits` bits.
    pub fn message(self, value: &str, bits: u32) -> alloc::string::String {
        match self {
            OutOfRange::Beyond => {
                alloc::format!("{value} is beyond a {bits}-bit float's range: it would be infinite")
            }
            OutOfRange::Below => {
                alloc::format!("{value} is below a {bits}-bit float's smallest value: it would be 0")
            }
        }
    }
}

/// A float literal `x` as the bits of an IEEE float of `bytes` bytes (2, 4 or 8), rounded to
/// nearest even; an error where the format cannot come near a finite `x` ([`OutOfRange`]),
/// as GNU as refuses one ("cannot create floating-point number", gas/config/atof-ieee.c).
pub fn float_literal(x: f64, bytes: u8) -> Result<u64, OutOfRange> {
    let (raw, infinity) = match bytes {
        2 => (u64::from(crate::arith::f64_to_f16(x)), 0x7c00),
        4 => (u64::from((x as f32).to_bits()), 0x7f80_0000),
        _ => (x.to_bits(), 0x7ff0_0000_0000_0000),
    };
    let magnitude = raw & !(1 << (u32::from(bytes) * 8 - 1));
    if x.is_finite() && magnitude == infinity {
        Err(OutOfRange::Beyond)
    } else if x != 0.0 && magnitude == 0 {
        Err(OutOfRange::Below)
    } else {
        Ok(raw)
    }
}

use core::fmt::Write as _;

/// Writes an IEEE single given as bits the way C's `printf("%f", (double)f)` does
/// (six decimals, `inf`, `nan` and `-nan` by the sign bit), as disassemblers written in C print.
pub fn write_c_f(out: &mut dyn core::fmt::Write, bits: u32) -> core::fmt::Result {
    let f = f32::from_bits(bits);
    let negative = bits >> 31 == 1;
    if f.is_nan() {
        out.write_str(if negative { "-nan" } else { "nan" })
    } else if f.is_infinite() {
        out.write_str(if negative { "-inf" } else { "inf" })
    } else {
        write!(out, "{:.6}", f as f64)
    }
}

/// Writes `v` as C's `printf("%.{precision}e")` does: `1.84467440737095516160e+19`.
pub fn write_c_e(out: &mut dyn core::fmt::Write, v: f64, precision: usize) -> core::fmt::Result {
    if !v.is_finite() {
        return write_c_special(out, v);
    }
    let mut s = Digits::new();
    write!(s, "{v:.precision$e}")?;
    let s = s.as_str();
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    write!(out, "{mantissa}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
}

/// Writes `v` as C's `printf("%.{precision}g")` does: `0.375`, `16777216`,
/// `-1.175494350822287508e-38`.
pub fn write_c_g(out: &mut dyn core::fmt::Write, v: f64, precision: usize) -> core::fmt::Result {
    if !v.is_finite() {
        return write_c_special(out, v);
    }
    let p = precision.max(1);
    // The exponent the value has once rounded to p significant digits.
    let mut s = Digits::new();
    write!(s, "{v:.prec$e}", prec = p - 1)?;
    let s = s.as_str();
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= p as i32 {
        let m = strip_fraction_zeros(mantissa);
        write!(out, "{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
    } else {
        let mut fixed = Digits::new();
        write!(fixed, "{v:.prec$}", prec = (p as i32 - 1 - exp) as usize)?;
        out.write_str(strip_fraction_zeros(fixed.as_str()))
    }
}

/// The digits of one number, on the stack: printing a float immediate allocates nothing. A
/// text longer than the buffer (a precision no disassembler uses) goes to the heap.
struct Digits {
    bytes: [u8; 96],
    len: usize,
    long: Option<alloc::string::String>,
}

impl Digits {
    fn new() -> Self {
        Digits { bytes: [0; 96], len: 0, long: None }
    }

    fn as_str(&self) -> &str {
        match &self.long {
            Some(s) => s,
            // Only whole `str`s are copied in: the bytes are UTF-8.
            None => core::str::from_utf8(&self.bytes[..self.len]).unwrap_or(""),
        }
    }
}

impl core::fmt::Write for Digits {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        if let Some(long) = &mut self.long {
            long.push_str(s);
            return Ok(());
        }
        let end = self.len + s.len();
        match self.bytes.get_mut(self.len..end) {
            Some(dest) => {
                dest.copy_from_slice(s.as_bytes());
                self.len = end;
            }
            None => {
                let mut long = alloc::string::String::from(self.as_str());
                long.push_str(s);
                self.long = Some(long);
            }
        }
        Ok(())
    }
}

fn strip_fraction_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn write_c_special(out: &mut dyn core::fmt::Write, v: f64) -> core::fmt::Result {
    out.write_str(match (v.is_nan(), v.is_sign_negative()) {
        (true, false) => "nan",
        (true, true) => "-nan",
        (false, false) => "inf",
        (false, true) => "-inf",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // fp20 as the grate assembler defines it: sign 1, exponent 6, mantissa 13, bias 31.
    const FP20: FloatFormat =
        FloatFormat { sign: 1, exponent: 6, mantissa: 13, bias: 31, specials: true, truncate: true };
    const FX10: FixedFormat = FixedFormat { width: 10, fraction: 8, signed: true };

    fn g(v: f64, p: usize) -> alloc::string::String {
        let mut s = alloc::string::String::new();
        write_c_g(&mut s, v, p).unwrap();
        s
    }

    #[test]
    fn c_g_and_e_match_printf() {
        // Expected strings are glibc printf's.
        assert_eq!(g(0.375, 20), "0.375");
        assert_eq!(g(16777216.0, 20), "16777216");
        assert_eq!(g(-12583039.0, 20), "-12583039");
        assert_eq!(g(-f64::from(f32::MIN_POSITIVE), 20), "-1.175494350822287508e-38");
        assert_eq!(g(f64::from(0.3333_f32), 20), "0.33329999446868896484");
        assert_eq!(g(-0.0, 20), "-0");
        assert_eq!(g(1e-5, 6), "1e-05");
        assert_eq!(g(123456.0, 6), "123456");
        assert_eq!(g(1234567.0, 6), "1.23457e+06");
        let mut s = alloc::string::String::new();
        write_c_e(&mut s, 18446744073709551616.0, 20).unwrap();
        assert_eq!(s, "1.84467440737095516160e+19");
    }

    #[test]
    fn c_g_longer_than_the_stack_buffer() {
        // 2^-20 = 0.00000095367431640625 exactly: `%.100g` prints every digit and no zeros,
        // through the heap (the fixed text is 102 characters before its zeros go).
        assert_eq!(g(0.00000095367431640625, 100), "9.5367431640625e-07");
        assert_eq!(g(0.5, 100), "0.5");
        assert_eq!(g(1.0 / 3.0, 60), "0.333333333333333314829616256247390992939472198486328125");
    }

    #[test]
    fn fp20_matches_grate_reference_values() {
        // Reference values from grate's assembler (docs/research/facts-tegra-agx.md A.5).
        assert_eq!(FP20.encode(1.0), Some(0x3E000));
        assert_eq!(FP20.encode(-2.5), Some(0xC0800));
        assert_eq!(FP20.encode(0.5), Some(0x3C000));
        assert_eq!(FP20.encode(0.1), Some(0x37333));
        assert_eq!(FP20.decode(0x3E000), 1.0);
        assert_eq!(FP20.decode(0xC0800), -2.5);
    }

    #[test]
    fn fx10_matches_grate_reference_values() {
        assert_eq!(FX10.encode(1.0), Some(0x100));
        assert_eq!(FX10.encode(0.5), Some(0x080));
        assert_eq!(FX10.encode(0.25), Some(0x040));
        assert_eq!(FX10.encode(-1.0), Some(0x300));
        assert_eq!(FX10.decode(0x300), -1.0);
        assert_eq!(FX10.encode(2.0), None);
    }

    fn decimal(n: Number, bits: u64) -> Option<alloc::string::String> {
        let mut s = alloc::string::String::new();
        n.write_decimal(bits, &mut s)?.ok()?;
        Some(s)
    }

    #[test]
    fn decimals_have_a_point_and_read_back() {
        let (fp20, fx10) = (Number::Float(FP20), Number::Fixed(FX10));
        // grate's lexer reads `[-]digits.digits` only (fragment_asm.l T_FLOAT).
        assert_eq!(decimal(fx10, 0x300).as_deref(), Some("-1.0"));
        assert_eq!(decimal(fx10, 0x080).as_deref(), Some("0.5"));
        assert_eq!(decimal(fx10, 0x001).as_deref(), Some("0.00390625"));
        assert_eq!(decimal(fx10, 0x1ff).as_deref(), Some("1.99609375"));
        assert_eq!(decimal(fx10, 0x200).as_deref(), Some("-2.0"));
        assert_eq!(decimal(fp20, 0x3E000).as_deref(), Some("1.0"));
        assert_eq!(decimal(fp20, 0xC0800).as_deref(), Some("-2.5"));
        // 0.1 as grate stores it (0x37333): the single's shortest digits.
        assert_eq!(decimal(fp20, 0x37333).as_deref(), Some("0.099998474"));
        assert_eq!(decimal(fp20, 0).as_deref(), Some("0.0"));
        // grate's float_to_fp20 writes 0 for -0.0 and no exponent 0 but zero: no decimal.
        assert_eq!(decimal(fp20, 0x80000), None);
        assert_eq!(decimal(fp20, 0x00001), None);
        assert_eq!(decimal(fp20, 0x7E000), None);
        assert_eq!(fp20.read(-0.0), Some(0));
        // Every value of both formats that has a decimal reads back from it; every fx10 has one.
        for bits in 0..1u64 << 10 {
            let text = decimal(fx10, bits).expect("every fx10 value has a decimal");
            assert_eq!(fx10.read(text.parse().expect("a number")), Some(bits), "{text}");
        }
        for bits in (0..1u64 << 20).step_by(7) {
            if let Some(text) = decimal(fp20, bits) {
                assert!(text.contains('.') && !text.contains('e'), "{text}");
                assert_eq!(fp20.read(text.parse().expect("a number")), Some(bits), "{text}");
            } else {
                let exponent = bits >> 13 & 0x3f;
                assert!(exponent == 0 || exponent == 0x3f, "{bits:#x}");
            }
        }
    }

    #[test]
    fn agx_float_immediate() {
        // AGX 8-bit float immediate (applegpu decode_float_immediate): 0.5 = 0x20, 1.0 = 0x30,
        // 2.0 = 0x40, -2.0 = 0xC0.
        let agx =
            FloatFormat { sign: 1, exponent: 3, mantissa: 4, bias: 3, specials: false, truncate: false };
        assert_eq!(agx.decode(0x20), 0.5);
        assert_eq!(agx.decode(0x30), 1.0);
        assert_eq!(agx.decode(0xC0), -2.0);
        assert_eq!(agx.encode(2.0), Some(0x40));
    }
}

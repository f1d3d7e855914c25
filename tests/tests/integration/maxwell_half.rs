//! HADD2, HMUL2, HFMA2 and HSETP2 on both halves of their registers, against IEEE binary16
//! arithmetic done here: a half's exact value is decoded from its bits, a sum or a product of
//! two is exact in f64 (a product and a sum, `a * b + c`, exact as an integer count of
//! 2^-48), and the result is the nearest half (ties to an even significand), found by search
//! among all halves.

use isa_generated::maxwell::{self, Machine, Semantics};

#[derive(Debug, Default)]
struct NoMemory;

impl Semantics for NoMemory {
    fn constant(&mut self, _: u32, _: u32) -> u32 {
        panic!("no constant buffer is bound")
    }
    fn attribute_load(&mut self, _: bool, _: bool, _: u32, _: u32) -> u32 {
        panic!("no attributes")
    }
    fn attribute_store(&mut self, _: bool, _: u32, _: u32, _: u32) {
        panic!("no attributes")
    }
    fn local_load(&mut self, _: u32) -> u32 {
        panic!("no local memory")
    }
    fn local_store(&mut self, _: u32, _: u32) {
        panic!("no local memory")
    }
    fn geometry_output(&mut self, _: u32, _: u32, _: u32) -> u32 {
        panic!("no OUT")
    }
}

/// The exact value of a finite half.
fn half_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (e, m) = (i32::from((h >> 10) & 0x1f), f64::from(h & 0x3ff));
    assert!(e < 31, "finite halves only");
    if e == 0 {
        sign * m * 2f64.powi(-24)
    } else {
        sign * (1024.0 + m) * 2f64.powi(e - 25)
    }
}

/// The half nearest to `x` (ties to the even significand; beyond 65520 infinity).
fn nearest_half(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // Positive finite halves increase with their bits: the last one not above `a`, and the next.
    let (mut below, mut past) = (0u16, 0x7c00u16);
    while past - below > 1 {
        let mid = (below + past) / 2;
        if half_value(mid) <= a {
            below = mid;
        } else {
            past = mid;
        }
    }
    if below == 0x7bff {
        return sign | below; // below 65520: nearer 65504 than infinity
    }
    let above = below + 1;
    let (d_below, d_above) = (a - half_value(below), half_value(above) - a);
    let h = if d_below < d_above || (d_below == d_above && below % 2 == 0) { below } else { above };
    sign | h
}

/// Finite halves: edge values, then pseudo-random ones (a fixed LCG).
fn halves() -> Vec<u16> {
    let mut v =
        vec![0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3555, 0x4248];
    let mut x = 0x2545_f491u32;
    while v.len() < 40 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let h = (x >> 8) as u16;
        if (h >> 10) & 0x1f != 0x1f {
            v.push(h);
        }
    }
    v
}

fn pack(lo: u16, hi: u16) -> u32 {
    u32::from(hi) << 16 | u32::from(lo)
}

#[test]
fn hadd2_adds_both_halves_with_one_rounding() {
    let program = maxwell::assemble(
        "HADD2 R4, R0, R1\nHADD2 R5, R0.H0_H0, -R1.H1_H1\nHADD2 R6, |R0|, R1.H0_H0\nHADD2.F32 R7, R0, R1\n\
         HADD2.SAT R8, R0, R1\nHADD2.MRG_H1 R9, R0, R1\nHADD2 R10, R0, 0.5, -2\nEXIT",
        maxwell::Dialect::default(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let hs = halves();
    let v = half_value;
    for (i, &a_lo) in hs.iter().enumerate() {
        for (j, &b_lo) in hs.iter().enumerate() {
            let (a_hi, b_hi) = (hs[(i + j + 1) % hs.len()], hs[(3 * i + j) % hs.len()]);
            let mut m = Machine::new(NoMemory);
            m.state.r[0] = pack(a_lo, a_hi);
            m.state.r[1] = pack(b_lo, b_hi);
            m.state.r[9] = 0x1234_5678;
            assert_eq!(m.run(&program, 20), Ok(8));
            let r = &m.state.r;
            let sum = |x: f64, y: f64| nearest_half(x + y);
            let what = format!("a = {:#x}, b = {:#x}", r[0], r[1]);
            assert_eq!(r[4], pack(sum(v(a_lo), v(b_lo)), sum(v(a_hi), v(b_hi))), "HADD2 {what}");
            let d = sum(v(a_lo), -v(b_hi));
            assert_eq!(r[5], pack(d, d), "HADD2 .H0_H0, -.H1_H1 {what}");
            assert_eq!(r[6], pack(sum(v(a_lo).abs(), v(b_lo)), sum(v(a_hi).abs(), v(b_lo))), "|A| {what}");
            assert_eq!(r[7], ((v(a_lo) + v(b_lo)) as f32).to_bits(), "HADD2.F32 {what}");
            // Saturation gives +0 for -0, as the interpreter's FADD.SAT does.
            let sat = |x: f64, y: f64| nearest_half((x + y).clamp(0.0, 1.0) + 0.0);
            assert_eq!(r[8], pack(sat(v(a_lo), v(b_lo)), sat(v(a_hi), v(b_hi))), "HADD2.SAT {what}");
            assert_eq!(r[9], 0x5678 | u32::from(sum(v(a_hi), v(b_hi))) << 16, "HADD2.MRG_H1 {what}");
            assert_eq!(r[10], pack(sum(v(a_lo), -2.0), sum(v(a_hi), 0.5)), "HADD2 R0, 0.5, -2 {what}");
        }
    }
}

#[test]
fn hsetp2_compares_each_half() {
    let program = maxwell::assemble(
        "HSETP2.LT.AND P0, P1, R0, R1, PT\nHSETP2.GE.H_AND.AND P2, P3, R0, R1, PT\nHSETP2.EQ.OR P4, P5, R0, R1, P6\nEXIT",
        maxwell::Dialect::default(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let hs = halves();
    for (i, &a_lo) in hs.iter().enumerate() {
        for (j, &b_lo) in hs.iter().enumerate() {
            let (a_hi, b_hi) =
                (hs[(i + 2 * j) % hs.len()], if j % 3 == 0 { a_lo } else { hs[(i * j) % hs.len()] });
            let mut m = Machine::new(NoMemory);
            m.state.r[0] = pack(a_lo, a_hi);
            m.state.r[1] = pack(b_lo, b_hi);
            m.state.preds[6] = j % 2 == 0;
            assert_eq!(m.run(&program, 20), Ok(4));
            let (al, ah, bl, bh) = (half_value(a_lo), half_value(a_hi), half_value(b_lo), half_value(b_hi));
            let p = &m.state.preds;
            let what = format!("{:#x} vs {:#x}", m.state.r[0], m.state.r[1]);
            assert_eq!((p[0], p[1]), (al < bl, ah < bh), "LT: low lane to Pd, high to nPd: {what}");
            assert_eq!((p[2], p[3]), (al >= bl && ah >= bh, !(al >= bl && ah >= bh)), ".H_AND: {what}");
            let p6 = j % 2 == 0;
            assert_eq!((p[4], p[5]), (al == bl || p6, ah == bh || p6), "EQ.OR with P6: {what}");
        }
    }
}

/// HSET2 writes each lane's compare, combined with Pa, to its half of Rd: 0xffff, or 1.0
/// (0x3c00) with `.BF` (yuzu `hset2.cpp`); the compares are IEEE's, on the halves' values.
#[test]
fn hset2_writes_each_half() {
    let program = maxwell::assemble(
        "HSET2.LT.AND R2, R0, R1, PT\nHSET2.BF.GE.OR R3, R0, R1, P6\nEXIT",
        maxwell::Dialect::default(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let hs = halves();
    for (i, &a_lo) in hs.iter().enumerate() {
        for (j, &b_lo) in hs.iter().enumerate() {
            let (a_hi, b_hi) = (hs[(i + 2 * j) % hs.len()], hs[(i * j + 1) % hs.len()]);
            let mut m = Machine::new(NoMemory);
            m.state.r[0] = pack(a_lo, a_hi);
            m.state.r[1] = pack(b_lo, b_hi);
            let p6 = (i + j) % 2 == 0;
            m.state.preds[6] = p6;
            assert_eq!(m.run(&program, 20), Ok(3));
            let (al, ah, bl, bh) = (half_value(a_lo), half_value(a_hi), half_value(b_lo), half_value(b_hi));
            let lane = |t: bool, one: u32| if t { one } else { 0 };
            let what = format!("{:#x} vs {:#x}", m.state.r[0], m.state.r[1]);
            assert_eq!(m.state.r[2], lane(ah < bh, 0xffff) << 16 | lane(al < bl, 0xffff), "LT: {what}");
            assert_eq!(
                m.state.r[3],
                lane(ah >= bh || p6, 0x3c00) << 16 | lane(al >= bl || p6, 0x3c00),
                "BF.GE.OR P6: {what}"
            );
        }
    }
}

/// A finite half as an integer count of 2^-24 (every half is a multiple of 2^-24).
fn count24(h: u16) -> i128 {
    let (e, m) = (((h >> 10) & 0x1f) as u32, i128::from(h & 0x3ff));
    assert!(e < 31, "finite halves only");
    let magnitude = if e == 0 { m } else { (1024 + m) << (e - 1) };
    if h & 0x8000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// `a * b + c` of three halves, exactly, as a count of 2^-48.
fn exact_fma(a: u16, b: u16, c: u16) -> i128 {
    count24(a) * count24(b) + (count24(c) << 24)
}

/// The half nearest to `n` · 2^-48 (ties to the even significand; from 65520 on infinity),
/// a zero of the sign `negative` where `n` is 0.
fn nearest_half_of(n: i128, negative: bool) -> u16 {
    let sign = if n < 0 || n == 0 && negative { 0x8000 } else { 0 };
    let a = n.abs();
    let scaled = |h: u16| count24(h) << 24;
    if a >= 65520i128 << 48 {
        return sign | 0x7c00;
    }
    let (mut below, mut past) = (0u16, 0x7c00u16);
    while past - below > 1 {
        let mid = (below + past) / 2;
        if scaled(mid) <= a {
            below = mid;
        } else {
            past = mid;
        }
    }
    if below == 0x7bff {
        return sign | below;
    }
    let above = below + 1;
    let (d_below, d_above) = (a - scaled(below), scaled(above) - a);
    let h = if d_below < d_above || (d_below == d_above && below % 2 == 0) { below } else { above };
    sign | h
}

/// HFMA2's result lane: `a * b + c` rounded once to half. An exact zero is -0 only where the
/// product and C are both -0 (IEEE's sum of zeros, rounding to nearest).
fn fma_half(a: u16, b: u16, c: u16) -> u16 {
    let product_negative_zero = (count24(a) == 0 || count24(b) == 0) && (a ^ b) & 0x8000 != 0;
    nearest_half_of(exact_fma(a, b, c), product_negative_zero && c == 0x8000)
}

#[test]
fn hmul2_and_hfma2_round_once() {
    let program = maxwell::assemble(
        "HMUL2 R4, R0, R1\nHMUL2 R5, R0.H1_H1, R1.H0_H0\nHFMA2 R6, R0, R1, R2\n\
         HFMA2 R7, R0, R1.H1_H1, -R2\nHMUL2.FMZ R8, R0, R3\nHMUL2.SAT R9, R0, R1\nEXIT",
        maxwell::Dialect::default(),
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let hs = halves();
    let v = half_value;
    let mut checked = 0;
    for (i, &a_lo) in hs.iter().enumerate() {
        for (j, &b_lo) in hs.iter().enumerate() {
            let (a_hi, b_hi) = (hs[(i + j + 1) % hs.len()], hs[(3 * i + j) % hs.len()]);
            let (c_lo, c_hi) = (hs[(i * 7 + j * 5) % hs.len()], hs[(i + 2 * j + 3) % hs.len()]);
            let mut m = Machine::new(NoMemory);
            m.state.r[0] = pack(a_lo, a_hi);
            m.state.r[1] = pack(b_lo, b_hi);
            m.state.r[2] = pack(c_lo, c_hi);
            m.state.r[3] = pack(0x0000, 0x8000);
            assert_eq!(m.run(&program, 20), Ok(7));
            let r = &m.state.r;
            let mul = |x: u16, y: u16| nearest_half(v(x) * v(y));
            let what = format!("a = {:#x}, b = {:#x}, c = {:#x}", r[0], r[1], r[2]);
            assert_eq!(r[4], pack(mul(a_lo, b_lo), mul(a_hi, b_hi)), "HMUL2 {what}");
            let d = mul(a_hi, b_lo);
            assert_eq!(r[5], pack(d, d), "HMUL2 .H1_H1, .H0_H0 {what}");
            let fma = fma_half;
            assert_eq!(r[6], pack(fma(a_lo, b_lo, c_lo), fma(a_hi, b_hi, c_hi)), "HFMA2 {what}");
            let (nc_lo, nc_hi) = (c_lo ^ 0x8000, c_hi ^ 0x8000);
            assert_eq!(r[7], pack(fma(a_lo, b_hi, nc_lo), fma(a_hi, b_hi, nc_hi)), "HFMA2 -C {what}");
            // .FMZ: a zero factor gives +0 whatever the other (FMUL's FMZ).
            assert_eq!(r[8], 0, "HMUL2.FMZ by zeros {what}");
            // Saturation gives +0 for -0, as HADD2.SAT does.
            let sat = |x: u16, y: u16| nearest_half((v(x) * v(y)).clamp(0.0, 1.0) + 0.0);
            assert_eq!(r[9], pack(sat(a_lo, b_lo), sat(a_hi, b_hi)), "HMUL2.SAT {what}");
            checked += 1;
        }
    }
    assert_eq!(checked, 1600);
    // One rounding, not two: 0x6f63 · 0x3824 + 0x28fd is 3914.99990844..., whose nearest
    // half is 3914 (halves there are 2 apart); rounded to float32 first it would be 3915.0,
    // a tie that rounds to the even 3916 (worked by hand from the three halves' bits).
    let mut m = Machine::new(NoMemory);
    m.state.r[0] = 0x6f63;
    m.state.r[1] = 0x3824;
    m.state.r[2] = 0x28fd;
    assert_eq!(m.run(&program, 20), Ok(7));
    assert_eq!(v(fma_half(0x6f63, 0x3824, 0x28fd)), 3914.0);
    assert_eq!(m.state.r[6] & 0xffff, u32::from(nearest_half(3914.0)));
}

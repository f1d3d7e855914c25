//! HADD2 and HSETP2 on both halves of their registers, against IEEE binary16 arithmetic done
//! here: a half's exact value is decoded from its bits, a sum of two is exact in f64, and the
//! result is the nearest half (ties to an even significand), found by search among all halves.

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

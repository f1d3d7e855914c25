//! The runtime's elementary functions (vc4asm's `exp`, `log`, `sin`, ... in assembler
//! expressions, written without a float library) against std's `f64` ones: within four units in the
//! last place over sweeps of each function's domain, and the same `f32` after
//! rounding (what a `.float` directive stores) — GPU_FFT's twiddles `cos(2πk/N)`,
//! `sin(2πk/N)` included.

use isa_runtime::elementary as el;

/// The distance in units in the last place between two doubles of the same sign.
fn ulps(a: f64, b: f64) -> u64 {
    if a == b || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    let key = |x: f64| {
        let b = x.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    key(a).abs_diff(key(b))
}

/// `n` points spread over `lo..hi` (not evenly: a fixed irrational step), and the edges.
fn sweep(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let mut out = vec![lo, hi];
    let golden = 0.618_033_988_749_894_9;
    let mut t = 0.5f64;
    for _ in 0..n {
        t = (t + golden).fract();
        out.push(lo + (hi - lo) * t);
    }
    out
}

fn check(name: &str, ours: fn(f64) -> f64, std: fn(f64) -> f64, xs: &[f64], max_ulps: u64) {
    let mut worst = (0, 0.0);
    for &x in xs {
        let (a, b) = (ours(x), std(x));
        let d = ulps(a, b);
        if d > worst.0 {
            worst = (d, x);
        }
        assert_eq!(a as f32, b as f32, "{name}({x:e}) = {a:e}, std {b:e}: different f32");
    }
    assert!(worst.0 <= max_ulps, "{name}: {} ulps at {:e}", worst.0, worst.1);
}

#[test]
fn exponentials_and_logarithms() {
    check("exp", el::exp, f64::exp, &sweep(-700.0, 700.0, 20_000), 1);
    check("exp", el::exp, f64::exp, &sweep(-1.0, 1.0, 20_000), 4);
    check("exp2", el::exp2, f64::exp2, &sweep(-1000.0, 1000.0, 20_000), 4);
    check("exp10", el::exp10, |x| 10f64.powf(x), &sweep(-300.0, 300.0, 20_000), 4);
    check("expm1", el::expm1, f64::exp_m1, &sweep(-2.0, 2.0, 20_000), 4);
    let positive =
        [sweep(1e-300, 1e300, 10_000), sweep(0.5, 2.0, 20_000), sweep(1e-6, 10.0, 10_000)].concat();
    check("log", el::log, f64::ln, &positive, 4);
    check("log2", el::log2, f64::log2, &positive, 4);
    check("log10", el::log10, f64::log10, &positive, 4);
    check("log1p", el::log1p, f64::ln_1p, &sweep(-0.9, 3.0, 20_000), 4);
    check("sqrt", el::sqrt, f64::sqrt, &[positive.clone(), vec![4.9e-324, 1e-310, 2.0]].concat(), 0);
    // Exact values where the double holds them.
    assert_eq!(el::exp10(3.0), 1000.0);
    assert_eq!(el::log2(1024.0), 10.0);
    assert_eq!(el::exp(0.0), 1.0);
    assert_eq!(el::pow(2.0, 0.5), std::f64::consts::SQRT_2);
    assert_eq!(el::pow(3.0, 4.0), 81.0);
}

#[test]
fn trigonometric_and_hyperbolic() {
    let angles = [sweep(-10.0, 10.0, 20_000), sweep(-1e5, 1e5, 20_000)].concat();
    check("sin", el::sin, f64::sin, &angles, 1);
    check("cos", el::cos, f64::cos, &angles, 1);
    check("tan", el::tan, f64::tan, &sweep(-1.5, 1.5, 20_000), 4);
    check("atan", el::atan, f64::atan, &sweep(-100.0, 100.0, 20_000), 4);
    check("asin", el::asin, f64::asin, &sweep(-1.0, 1.0, 20_000), 4);
    check("acos", el::acos, f64::acos, &sweep(-1.0, 1.0, 20_000), 4);
    check("sinh", el::sinh, f64::sinh, &sweep(-700.0, 700.0, 20_000), 4);
    check("sinh", el::sinh, f64::sinh, &sweep(-1.0, 1.0, 20_000), 4);
    check("cosh", el::cosh, f64::cosh, &sweep(-700.0, 700.0, 20_000), 4);
    check("tanh", el::tanh, f64::tanh, &sweep(-20.0, 20.0, 20_000), 4);
    check("asinh", el::asinh, f64::asinh, &sweep(-1e10, 1e10, 20_000), 4);
    check("asinh", el::asinh, f64::asinh, &sweep(-2.0, 2.0, 20_000), 4);
    // Rust's own `acosh` is ln(x + √(x−1)·√(x+1)), which loses digits near 1; the
    // reference is C's form, ln1p(t + √(2t + t²)) with t = x − 1.
    let acosh = |x: f64| {
        let t = x - 1.0;
        if x > 1e8 {
            x.ln() + std::f64::consts::LN_2
        } else {
            (t + (2.0 * t + t * t).sqrt()).ln_1p()
        }
    };
    check("acosh", el::acosh, acosh, &sweep(1.0, 1e10, 20_000), 4);
    check("acosh", el::acosh, acosh, &sweep(1.0, 3.0, 20_000), 4);
    // Rust's `atanh` is ½·ln1p(2x/(1 − x)), which cancels for x near −1; C's is odd.
    let atanh = |x: f64| x.signum() * x.abs().atanh();
    check("atanh", el::atanh, atanh, &sweep(-0.999, 0.999, 20_000), 4);
    assert_eq!(el::sin(0.0), 0.0);
    assert_eq!(el::cos(0.0), 1.0);
}

#[test]
fn gpu_fft_twiddles_round_to_the_same_singles() {
    // GPU_FFT's twiddle factors are cos and sin of 2πk/N for every size it has (2^8 to 2^22).
    for log_n in 8..=22 {
        let n = 1u64 << log_n;
        let step = (n / 4096).max(1);
        for k in (0..n).step_by(step as usize) {
            let x = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
            assert_eq!(el::cos(x) as f32, x.cos() as f32, "cos(2π·{k}/{n})");
            assert_eq!(el::sin(x) as f32, x.sin() as f32, "sin(2π·{k}/{n})");
        }
    }
}

#[test]
fn error_functions() {
    // std has no erf: the doubles nearest erf(0.5), erf(1), erf(2), erfc(3) and erfc(5) (the C
    // library's, as Python's math.erf/erfc give them; the first digits in Abramowitz and Stegun,
    // table 7.1).
    let near = |a: f64, b: f64| ulps(a, b) <= 2;
    assert!(near(el::erf(0.5), 0.520_499_877_813_046_5), "{}", el::erf(0.5));
    assert!(near(el::erf(1.0), 0.842_700_792_949_714_9), "{}", el::erf(1.0));
    assert!(near(el::erf(2.0), 0.995_322_265_018_952_7), "{}", el::erf(2.0));
    assert!(near(el::erf(-1.0), -0.842_700_792_949_714_9));
    assert!(near(el::erfc(3.0), 2.209_049_699_858_543_8e-5), "{:e}", el::erfc(3.0));
    assert!(near(el::erfc(5.0), 1.537_459_794_428_035_1e-12), "{:e}", el::erfc(5.0));
    assert_eq!(el::erf(0.0), 0.0);
    assert_eq!(el::erfc(30.0), 0.0);
}

//! Two routines timed side by side: every iteration of every criterion sample runs both, in
//! turn (which goes first alternates), so a change of load or clock hits both alike, and
//! each turn is timed on its own, so that a sample reports its median turn. Timed one
//! after the other, as separate bench functions, the same decoders gave 0.74–1.11× between
//! rounds on the shared machine; alternated, the ratio of their times over a run is the figure
//! to compare.

use criterion::measurement::WallTime;
use criterion::BenchmarkGroup;
use std::cell::RefCell;
use std::time::{Duration, Instant};

/// Benches `first` and `second` as `<name_first>, alternated` and `<name_second>, alternated`
/// in `group`: each bench function times both routines on alternate turns and reports its
/// own, a sample's time being its iterations times its median turn. After both, prints the
/// ratio `first / second` of those times summed over every sample of both functions, and the
/// spread of the samples' ratios.
pub fn bench_alternated(
    group: &mut BenchmarkGroup<'_, WallTime>,
    label: &str,
    [name_first, name_second]: [&str; 2],
    first: impl Fn(),
    second: impl Fn(),
) {
    let pairs: RefCell<Vec<(Duration, Duration)>> = RefCell::new(Vec::new());
    let passes: RefCell<(Vec<Duration>, Vec<Duration>)> = RefCell::new((Vec::new(), Vec::new()));
    let run = |iters: u64| {
        let (a, b) = &mut *passes.borrow_mut();
        a.clear();
        b.clear();
        for i in 0..iters {
            let t0 = Instant::now();
            if i % 2 == 0 {
                first();
                let t1 = Instant::now();
                second();
                let t2 = Instant::now();
                a.push(t1 - t0);
                b.push(t2 - t1);
            } else {
                second();
                let t1 = Instant::now();
                first();
                let t2 = Instant::now();
                b.push(t1 - t0);
                a.push(t2 - t1);
            }
        }
        // The median turn: a turn descheduled by the machine's other work (milliseconds, against
        // microseconds for a turn) would otherwise decide the sample's sum.
        let median = |v: &mut Vec<Duration>| {
            v.sort_unstable();
            v.get(v.len() / 2).copied().unwrap_or_default() * u32::try_from(iters).unwrap_or(u32::MAX)
        };
        let pair = (median(a), median(b));
        pairs.borrow_mut().push(pair);
        pair
    };
    group.bench_function(format!("{name_first}, alternated"), |bench| bench.iter_custom(|n| run(n).0));
    group.bench_function(format!("{name_second}, alternated"), |bench| bench.iter_custom(|n| run(n).1));
    let pairs = pairs.into_inner();
    let total =
        |f: fn(&(Duration, Duration)) -> Duration| pairs.iter().map(f).sum::<Duration>().as_secs_f64();
    let mut ratios: Vec<f64> =
        pairs.iter().filter(|(_, b)| !b.is_zero()).map(|(a, b)| a.as_secs_f64() / b.as_secs_f64()).collect();
    ratios.sort_by(f64::total_cmp);
    if ratios.is_empty() {
        return;
    }
    let at = |q: usize| ratios[(ratios.len() - 1) * q / 100];
    eprintln!(
        "{label}: {name_first} / {name_second}, alternated: {:.3} over {} samples (per sample: p10 {:.3}, median {:.3}, p90 {:.3})",
        total(|p| p.0) / total(|p| p.1),
        ratios.len(),
        at(10),
        at(50),
        at(90),
    );
}

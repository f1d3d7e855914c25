//! Cost of the directive core's expansion on the vc4 target: `.rep` of a few lines, a macro
//! called N times and a chain of `.set`s, each at N = 1,000 / 10,000 / 100,000. The throughput
//! is the number of expanded lines (instruction or directive lines the assembler handles after
//! expansion), so a linear expansion shows the same time per line at every N.
//!
//! Before measuring, each program is assembled once and its word count checked, so the
//! benchmark measures programs that assemble.
//!
//! Measured on a 2-core machine shared with other builds (time per expanded line at N =
//! 1,000 / 10,000 / 100,000): `.rep` 107 / 105 / 106 µs, macro 51 / 48 / 51 µs, `.set` chain
//! 1.7 / 1.6 / 1.8 µs: flat, so the expansion is linear. The instruction lines cost far more
//! than the directives because each one goes through the vc4asm instruction parser.
//!
//! The 100,000-line `.rep` takes about 30 s an iteration, so the whole run takes ~10 minutes;
//! pass a filter (`set_chain`, `macro`) to measure less.
//!
//! Each program is measured beside its baseline in the same run: the same lines written out
//! (`written_out`), which assemble to the same words without any directive, so the difference
//! is what expansion costs.
//!
//! Run: `cargo bench -p isa-generated --features bench --bench directives -- --warm-up-time 1 --measurement-time 3`

use std::fmt::Write;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use isa_generated::vc4;

/// The sizes measured.
const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

/// One measured program: its text, the lines it expands to and the words it gives, and the
/// baseline: the same lines written out, which assemble to the same words without expansion.
struct Case {
    source: String,
    written_out: String,
    lines: u64,
    words: usize,
}

/// `.rep i, n` of three instruction lines, one of them using the counter.
fn rep(n: usize) -> Case {
    let source = format!(".rep i, {n}\n    ldi r0, i\n    add r2, r2, r3\n    nop\n.endr\n");
    let mut written_out = String::new();
    for i in 0..n {
        let _ = write!(written_out, "    ldi r0, {i}\n    add r2, r2, r3\n    nop\n");
    }
    Case { source, written_out, lines: 3 * n as u64, words: 3 * n }
}

/// A two-line macro called `n` times with a different argument each time.
fn macro_calls(n: usize) -> Case {
    let mut source =
        String::from(".macro load_add, reg, value\n    ldi reg, value\n    add r2, r2, reg\n.endm\n");
    let mut written_out = String::new();
    for k in 0..n {
        let _ = writeln!(source, "load_add r{}, {k}", k % 4);
        let _ = write!(written_out, "    ldi r{0}, {k}\n    add r2, r2, r{0}\n", k % 4);
    }
    Case { source, written_out, lines: 2 * n as u64, words: 2 * n }
}

/// `n` symbols each set from the one before, then one instruction using the last.
fn set_chain(n: usize) -> Case {
    let mut source = String::from(".set s0, 1\n");
    for k in 1..n {
        let _ = writeln!(source, ".set s{k}, s{} + 1", k - 1);
    }
    let _ = writeln!(source, "ldi r0, s{}", n - 1);
    // The baseline sets each symbol to its value: no symbol read on the way.
    let mut written_out = String::new();
    for k in 0..n {
        let _ = writeln!(written_out, ".set s{k}, {}", k + 1);
    }
    let _ = writeln!(written_out, "ldi r0, {n}");
    Case { source, written_out, lines: n as u64 + 1, words: 1 }
}

/// Builds the program of one kind at a size.
type Maker = fn(usize) -> Case;

fn benches(c: &mut Criterion) {
    let kinds: [(&str, Maker); 3] = [("rep", rep), ("macro", macro_calls), ("set_chain", set_chain)];
    for (name, make) in kinds {
        let mut group = c.benchmark_group(format!("vc4/directives/{name}"));
        group.sampling_mode(SamplingMode::Flat).sample_size(10);
        for n in SIZES {
            let case = make(n);
            let words = vc4::assemble(&case.source, vc4::Dialect::Vc4asm)
                .unwrap_or_else(|e| panic!("{name} {n}: {:?}", e.first()));
            assert_eq!(words.len(), case.words, "{name} {n}");
            let baseline = vc4::assemble(&case.written_out, vc4::Dialect::Vc4asm)
                .unwrap_or_else(|e| panic!("{name} {n} written out: {:?}", e.first()));
            assert_eq!(baseline, words, "{name} {n}: the baseline is the same program");
            group.throughput(Throughput::Elements(case.lines));
            for (kind, source) in [("expanded", &case.source), ("written_out", &case.written_out)] {
                group.bench_with_input(BenchmarkId::new(kind, n), source, |b, source| {
                    b.iter(|| {
                        black_box(vc4::assemble(black_box(source), vc4::Dialect::Vc4asm)).map(|p| p.len())
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(directive_benches, benches);
criterion_main!(directive_benches);

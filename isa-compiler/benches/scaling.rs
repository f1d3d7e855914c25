//! Checking and generating Rust for synthetic specs of 100, 1,000 and 10,000 encodings
//! (`tests/compiler/synthetic.rs`), formatted (`isa gen`) and unformatted (the build script's):
//! the goal is 10,000 in under 1 s. Run with
//! `cargo bench -p isa-compiler --features bench --bench scaling`. Beside them, checking each shipped spec (what
//! the spec fuzzer pays for every mutation of one).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

#[path = "../tests/compiler/synthetic.rs"]
mod synthetic;

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    for n in [100, 1_000, 10_000] {
        let source = synthetic::spec(n);
        group.bench_with_input(BenchmarkId::new("check", n), &source, |b, s| {
            b.iter(|| isa_compiler::check_source(black_box(s)).map(|t| t.formats.len()))
        });
        let Ok(target) = isa_compiler::check_source(&source) else { panic!("the synthetic spec checks") };
        group.bench_with_input(BenchmarkId::new("generate", n), &target, |b, t| {
            b.iter(|| isa_compiler::backend::rust::generate(black_box(t)).len())
        });
        // What the `isa-generated` build script writes: the same module, unformatted.
        group.bench_with_input(BenchmarkId::new("generate_compact", n), &target, |b, t| {
            b.iter(|| isa_compiler::backend::rust::generate_compact_from(black_box(t), "synthetic.isa").len())
        });
    }
    group.finish();
}

fn shipped(c: &mut Criterion) {
    let mut group = c.benchmark_group("shipped");
    group.sample_size(10);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../isa-specs");
    for name in ["maxwell", "agx", "vc4", "tegra_vs", "sph"] {
        let Ok(source) = std::fs::read_to_string(format!("{dir}/{name}.isa")) else { continue };
        group.bench_with_input(BenchmarkId::new("check", name), &source, |b, s| {
            b.iter(|| isa_compiler::check_source(black_box(s)).map(|t| t.formats.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, scaling, shipped);
criterion_main!(benches);

//! Checking and generating Rust for synthetic specs of 100, 1,000 and 10,000 encodings
//! (`tests/compiler/synthetic.rs`): the goal is 10,000 in under 1 s. Run with
//! `cargo bench -p isa-compiler --bench scaling`.

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
    }
    group.finish();
}

criterion_group!(benches, scaling);
criterion_main!(benches);

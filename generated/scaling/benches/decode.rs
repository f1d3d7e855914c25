//! Decode time per word against the number of encodings: the synthetic specs of 100, 2,000 and
//! 10,000 encodings, each decoding 65,536 random words spread evenly over all its encodings
//! (the worst case for the decoder's footprint: a real program uses few encodings). The goal
//! is 10,000 within 1.5× the 100's time per word.
//!
//! Run: `cargo bench -p isa-decode-scaling --features bench --bench decode`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// SplitMix64, as the other benches use it.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Random words of the synthetic spec of `n` encodings: opcode (bits 31:18) below `n`, the
/// other bits random.
fn words(n: u64) -> Vec<u32> {
    let mut rng = SplitMix(0x5ca1_1e00 + n);
    (0..1 << 16).map(|_| (((rng.next() % n) << 18) | (rng.next() & 0x3_ffff)) as u32).collect()
}

fn decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode_scaling");
    let small = words(100);
    let medium = words(2_000);
    let large = words(10_000);
    assert!(small.iter().all(|&w| isa_decode_scaling::n100::Instruction::decode(w).is_ok()));
    assert!(medium.iter().all(|&w| isa_decode_scaling::n2000::Instruction::decode(w).is_ok()));
    assert!(large.iter().all(|&w| isa_decode_scaling::n10000::Instruction::decode(w).is_ok()));
    g.throughput(Throughput::Elements(small.len() as u64));
    g.bench_with_input(BenchmarkId::new("decode", 100), &small, |b, words| {
        b.iter(|| {
            for &w in words {
                black_box(&isa_decode_scaling::n100::Instruction::decode(black_box(w)));
            }
        })
    });
    g.bench_with_input(BenchmarkId::new("decode", 2_000), &medium, |b, words| {
        b.iter(|| {
            for &w in words {
                black_box(&isa_decode_scaling::n2000::Instruction::decode(black_box(w)));
            }
        })
    });
    g.bench_with_input(BenchmarkId::new("decode", 10_000), &large, |b, words| {
        b.iter(|| {
            for &w in words {
                black_box(&isa_decode_scaling::n10000::Instruction::decode(black_box(w)));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);

//! Throughput of the generated NVIDIA Shader Program Header code on 1,000 headers (random
//! words with valid SphType/ShaderType/OutputTopology, fixed seed): `from_words` (checks
//! every enum field of the chosen type), typed field reads, `check()` (the document's 13
//! rules), `value()` (every field as a `Value`, the JSON path) and `from_value`, against a
//! hand-written decoder reading the same four fields with shifts and masks.
//!
//! Run: `cargo bench -p isa-generated --features bench --bench sph -- --warm-up-time 1 --measurement-time 3`.

mod common;

use common::SplitMix;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use isa_generated::sph::Sph;

const HEADERS: usize = 1_000;

/// Random headers whose enum fields hold defined values (type 2 pixel maps are all total).
fn corpus() -> Vec<[u32; 20]> {
    let mut rng = SplitMix(0x5EC4_0BE7_C0DE_0002);
    (0..HEADERS)
        .map(|i| {
            let mut w = [0u32; 20];
            for x in w.iter_mut() {
                *x = rng.next() as u32;
            }
            let (sph_type, shader_type) = if i % 2 == 0 { (1, 1 + (i as u32 / 2) % 4) } else { (2, 5) };
            w[0] = (w[0] & !0x3c1f) | sph_type | (shader_type << 10);
            w[3] = (w[3] & !0x0f00_0000) | ([1u32, 6, 7][i % 3] << 24);
            w
        })
        .collect()
}

/// Hand-written: SphType, Version, ShaderType and SassVersion with shifts and masks.
fn hand_decode(w: &[u32; 20]) -> Option<(u32, u32, u32, u32)> {
    let sph_type = w[0] & 0x1f;
    let shader_type = (w[0] >> 10) & 0xf;
    if !(1..=2).contains(&sph_type) || !(1..=5).contains(&shader_type) {
        return None;
    }
    Some((sph_type, (w[0] >> 5) & 0x1f, shader_type, (w[0] >> 17) & 0xf))
}

fn bench(c: &mut Criterion) {
    let headers = corpus();
    let decoded: Vec<Sph> = headers.iter().map(|w| Sph::from_words(*w).expect("valid header")).collect();
    let values: Vec<_> = decoded.iter().map(Sph::value).collect();
    let mut g = c.benchmark_group("sph");
    g.throughput(Throughput::Elements(HEADERS as u64));
    g.bench_function("from_words (generated, every enum checked)", |b| {
        b.iter(|| headers.iter().filter(|w| Sph::from_words(black_box(**w)).is_ok()).count())
    });
    g.bench_function("word 0 fields (generated getters)", |b| {
        b.iter(|| {
            decoded
                .iter()
                .map(|h| {
                    let w0 = black_box(h).common_word0();
                    w0.version() as u32 + w0.sass_version() as u32 + w0.shader_type().bits() as u32
                })
                .sum::<u32>()
        })
    });
    g.bench_function("word 0 fields (hand-written, from words)", |b| {
        b.iter(|| {
            headers
                .iter()
                .filter_map(|w| hand_decode(black_box(w)))
                .map(|(_, v, s, x)| v + s + x)
                .sum::<u32>()
        })
    });
    g.bench_function("check (13 rules)", |b| {
        b.iter(|| decoded.iter().map(|h| black_box(h).check().len()).sum::<usize>())
    });
    g.bench_function("value (every field)", |b| {
        b.iter(|| decoded.iter().map(|h| black_box(h).value()).collect::<Vec<_>>())
    });
    g.bench_function("from_value", |b| {
        b.iter(|| values.iter().filter(|v| Sph::from_value(black_box(v)).is_ok()).count())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

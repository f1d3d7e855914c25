//! Throughput of the generated Maxwell code on the 1,820 real instruction words of
//! `tests/data/maxwell/nvdisasm_golden.tsv`: decode (decision tree and checked fields),
//! nvdisasm-syntax disassembly of whole programs (control words and slots included) and
//! assembly of that text back into words.
//!
//! `decode+print compiled` and `decode+print engine` print every word into one reused
//! buffer, through the compiled printer and through the interpreted engine.
//!
//! Run: `cargo bench -p isa-generated --bench maxwell -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use isa_generated::maxwell::{self, Instruction, Maxwell};
use isa_runtime::target::{
    assemble_program, assemble_statement, assemble_statement_with, disassemble_program, FormatIndex,
};

fn golden_words() -> Vec<u64> {
    let text = include_str!("../../tests/data/maxwell/nvdisasm_golden.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty() && !l.contains("\tCTRL "))
        .filter_map(|l| u64::from_str_radix(l.split('\t').next()?.trim_start_matches("0x"), 16).ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let words = golden_words();
    let program: Vec<_> = words
        .iter()
        .map(|w| {
            (
                maxwell::SchedSlot::from_word(0x7e0).expect("default slot"),
                Instruction::decode(*w).expect("decodes"),
            )
        })
        .collect();
    let encoded: Vec<u128> =
        maxwell::encode_program(&program).expect("encodes").into_iter().map(u128::from).collect();
    let text: String = disassemble_program::<Maxwell>(&encoded, 0).iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(assemble_program::<Maxwell>(&text, 0).as_ref(), Ok(&encoded));
    let mut g = c.benchmark_group("maxwell");
    g.throughput(Throughput::Elements(words.len() as u64));
    g.bench_function("decode", |b| {
        b.iter(|| words.iter().filter(|w| Instruction::decode(black_box(**w)).is_ok()).count())
    });
    // Decode and print each word into one reused buffer: the compiled printer against the
    // syntax engine it was compiled from (the reference the differential tests hold it to).
    let mut buf = String::with_capacity(256);
    g.bench_function("decode+print compiled", |b| {
        b.iter(|| {
            for &w in &words {
                buf.clear();
                if let Ok(insn) = Instruction::decode(black_box(w)) {
                    let _ = insn.write_text(maxwell::Dialect::Nvdisasm, 0, &mut buf);
                }
                black_box(&buf);
            }
        })
    });
    g.bench_function("decode+print engine", |b| {
        b.iter(|| {
            for &w in &words {
                buf.clear();
                if let Some(f) = Instruction::match_format(black_box(w)) {
                    let format = maxwell::FORMATS[f];
                    isa_runtime::syntax::print(format.syntax[0], &format.unpack(w as u128), 0, &mut buf);
                }
                black_box(&buf);
            }
        })
    });
    g.bench_function("disassemble program", |b| {
        b.iter(|| disassemble_program::<Maxwell>(black_box(&encoded), 0).len())
    });
    // One instruction text at a time, every format tried in turn (the assembler before the
    // index) and only those the index gives.
    let lines: Vec<(String, u64)> =
        disassemble_program::<Maxwell>(&encoded, 0).into_iter().map(|l| (l.text, l.address)).collect();
    let index = FormatIndex::new::<Maxwell>(0);
    let read_all = |indexed: bool| {
        lines
            .iter()
            .filter(|(text, pc)| match indexed {
                true => assemble_statement_with::<Maxwell>(text, 0, *pc, &|_| None, &index).is_ok(),
                false => assemble_statement::<Maxwell>(text, 0, *pc, &|_| None, false).is_ok(),
            })
            .count()
    };
    assert_eq!(read_all(true), lines.len());
    assert_eq!(read_all(false), lines.len());
    g.sample_size(10);
    g.bench_function("assemble lines, every format", |b| b.iter(|| read_all(black_box(false))));
    g.bench_function("assemble lines, indexed", |b| b.iter(|| read_all(black_box(true))));
    g.bench_function("assemble program", |b| {
        b.iter(|| assemble_program::<Maxwell>(black_box(&text), 0).map(|w| w.len()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

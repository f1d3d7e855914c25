//! Throughput of the generated Maxwell code on the 1,820 real instruction words of
//! `tests/data/maxwell/nvdisasm_golden.tsv`: decode (decision tree and checked fields),
//! nvdisasm-syntax disassembly of whole programs (control words and slots included) and
//! assembly of that text back into words.
//!
//! `decode+print compiled` and `decode+print engine` print every word into one reused
//! buffer, through the compiled printer and through the interpreted engine.
//!
//! `maxwell/subset` measures the generated decoder and compiled printer against a
//! hand-written decoder and printer ([`maxwell_hand`], a bench baseline only) on the golden
//! words of the encodings that baseline covers (MOV, MOV32I, FADD, FMUL, FFMA, FSETP, ISETP,
//! BRA, EXIT in all their forms: about a third of the corpus). Before measuring, the setup
//! checks that both accept the same words and print the same text. Each decoded instruction
//! is handed to `black_box` by reference, on both sides: by value, the move of the generated
//! decoder's 64-byte `Result` (its error holds the word as a `u128`) was measured with it.
//! `decode hand_written, own crate` is the same hand-written decoder built as a library crate of
//! its own (`isa-bench-maxwell-hand`), called across crates as the generated decoder is.
//! `decode generated, alternated` and `decode hand_written, alternated` time the two decoders
//! in turn within every sample ([`alternate`]) and print the ratio of their times: run alone,
//! the two differed by up to a third between rounds of the same code on the shared machine.
//!
//! Run: `cargo bench -p isa-generated --features bench --bench maxwell -- --warm-up-time 1 --measurement-time 3`.

mod alternate;
mod common;
mod maxwell_hand;

use common::SplitMix;
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

/// The encodings [`maxwell_hand`] decodes, by spec name.
const SUBSET: &[&str] = &[
    "mov_r", "mov_c", "mov_i", "mov32i", "fadd_r", "fadd_c", "fadd_i", "fmul_r", "fmul_c", "fmul_i",
    "ffma_r", "ffma_c", "ffma_rc", "ffma_i", "fsetp_r", "fsetp_c", "fsetp_i", "isetp_r", "isetp_c",
    "isetp_i", "bra", "exit",
];

fn in_subset(w: u64) -> bool {
    Instruction::decode(w).is_ok_and(|i| SUBSET.contains(&i.name()))
}

/// The golden words of the subset; checks that the baseline accepts what the generated decoder
/// accepts in the subset (on those words and on random words with the subset's opcodes) and
/// prints the same text.
fn subset_words(words: &[u64]) -> Vec<u64> {
    let subset: Vec<u64> = words.iter().copied().filter(|&w| in_subset(w)).collect();
    let mut text = String::new();
    for &w in &subset {
        let insn = Instruction::decode(w).expect("golden words decode");
        let hand = maxwell_hand::decode(w).unwrap_or_else(|| panic!("the baseline rejects {w:#018x}"));
        let mut generated = String::new();
        insn.write_text(maxwell::Dialect::Nvdisasm, 0, &mut generated).expect("golden words print");
        text.clear();
        assert!(maxwell_hand::print_into(&hand, 0, &mut text), "the baseline shows no text for {w:#018x}");
        assert_eq!(text, generated, "text differs on {w:#018x}");
    }
    // Random words with the top 13 bits of a subset word: both accept the same ones.
    let mut rng = SplitMix(0x4d41_5857_454c_4c00);
    let mut accepted = 0usize;
    for i in 0..200_000 {
        let w = (subset[i % subset.len()] & !(u64::MAX >> 13)) | (rng.next() >> 13);
        let hand = maxwell_hand::decode(w);
        assert_eq!(hand.is_some(), in_subset(w), "acceptance differs on {w:#018x}");
        if let Some(hand) = hand {
            accepted += 1;
            let mut generated = String::new();
            let shown = Instruction::decode(w)
                .is_ok_and(|i| i.write_text(maxwell::Dialect::Nvdisasm, 0, &mut generated).is_ok());
            text.clear();
            assert_eq!(maxwell_hand::print_into(&hand, 0, &mut text), shown, "shown differs on {w:#018x}");
            if shown {
                assert_eq!(text, generated, "text differs on {w:#018x}");
            }
        }
    }
    eprintln!(
        "maxwell bench: the baseline decodes and prints {} of {} golden words alike, and {accepted} of 200000 random words",
        subset.len(),
        words.len()
    );
    subset
}

fn bench(c: &mut Criterion) {
    let words = golden_words();
    let subset = subset_words(&words);
    let mut g = c.benchmark_group("maxwell/subset");
    g.throughput(Throughput::Elements(subset.len() as u64));
    g.bench_function("decode generated", |b| {
        b.iter(|| {
            for &w in &subset {
                let r = Instruction::decode(black_box(w));
                black_box(&r);
            }
        })
    });
    g.bench_function("decode hand_written", |b| {
        b.iter(|| {
            for &w in &subset {
                let r = maxwell_hand::decode(black_box(w));
                black_box(&r);
            }
        })
    });
    // The same hand-written decoder compiled as a library of its own, as a user's decoder would
    // be and as `isa-generated` is: its calls then cross a crate as the generated decoder's do.
    g.bench_function("decode hand_written, own crate", |b| {
        b.iter(|| {
            for &w in &subset {
                let r = isa_bench_maxwell_hand::decode(black_box(w));
                black_box(&r);
            }
        })
    });
    // The generated and the in-crate hand-written decoder alternated within every sample: the
    // figure that settles their ratio (the bench functions above each run alone).
    alternate::bench_alternated(
        &mut g,
        "maxwell/subset",
        ["decode generated", "decode hand_written"],
        || {
            for &w in &subset {
                let r = Instruction::decode(black_box(w));
                black_box(&r);
            }
        },
        || {
            for &w in &subset {
                let r = maxwell_hand::decode(black_box(w));
                black_box(&r);
            }
        },
    );
    let mut buf = String::with_capacity(256);
    g.bench_function("decode+print generated", |b| {
        b.iter(|| {
            for &w in &subset {
                buf.clear();
                if let Ok(insn) = Instruction::decode(black_box(w)) {
                    let _ = insn.write_text(maxwell::Dialect::Nvdisasm, 0, &mut buf);
                }
                black_box(&buf);
            }
        })
    });
    g.bench_function("decode+print hand_written", |b| {
        b.iter(|| {
            for &w in &subset {
                buf.clear();
                if let Some(insn) = maxwell_hand::decode(black_box(w)) {
                    maxwell_hand::print_into(&insn, 0, &mut buf);
                }
                black_box(&buf);
            }
        })
    });
    g.finish();

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
    // Each line a program of its own (what one-line calls such as a REPL or a test do).
    assert!(lines.iter().all(|(text, _)| assemble_program::<Maxwell>(text, 0).is_ok()));
    g.bench_function("assemble one-line programs", |b| {
        b.iter(|| {
            lines.iter().filter(|(text, _)| assemble_program::<Maxwell>(black_box(text), 0).is_ok()).count()
        })
    });
    g.finish();

    // What a process pays once before its first line, outside the steady state above: the
    // format index (built once a process and shared by every program read after).
    let mut g = c.benchmark_group("maxwell/startup");
    g.sample_size(10);
    g.bench_function("format index", |b| b.iter(|| FormatIndex::new::<Maxwell>(black_box(0))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Throughput of the generated VideoCore IV code (decode, Mesa-dialect disassembly, vc4asm
//! assembly) against hand-written Rust doing the same work on the same words.
//!
//! The corpus is 10,000 pseudo-random decodable words (fixed seed, the signal cycling through
//! all 16 values) for decode and disassembly, and for assembly the vc4asm texts of the first
//! 2,000 words of the same stream that print as an instruction (most random words print as a
//! raw `.long`, which would measure only the `.long` path), and the real source lines of
//! `tests/data/vc4/vc4asm_asm_golden.tsv` as one program (`vc4/assemble_golden`). There is no
//! hand-written assembler: assembly is reported as absolute throughput.
//!
//! The baselines in [`hand`] are written from the field and table facts in the notes on
//! Mesa's output format; they decode every field of every class into plain structs, reject
//! the same undefined values, and print the Mesa text with table lookups into a `String`.
//! Before measuring, the setup checks that both sides accept the same words and print the
//! same text, so the two columns measure the same job.
//!
//! `vc4/decode_print_mesa` decodes and prints into one reused `String`: the compiled printer
//! (`Instruction::write_text`) against the hand-written printer, neither allocating per word,
//! and against the syntax engine printing the same words from their raw bits.
//!
//! Run: `cargo bench -p isa-generated --features bench --bench vc4 -- --warm-up-time 1 --measurement-time 3`
//! (add `'decode|disassemble'` to leave out the slow assembly group).

mod alternate;
mod common;

use common::SplitMix;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use isa_generated::vc4;

/// Number of words in the decode and disassembly corpus.
const CORPUS: usize = 10_000;
/// Number of vc4asm instruction texts in the assembly corpus (the assembler is far slower).
const ASM_CORPUS: usize = 2_000;
/// Seed of the corpus generator.
const SEED: u64 = 0x5EC4_0BE7_C0DE_0001;

/// The words, and vc4asm texts for the assembler.
struct Corpus {
    /// `CORPUS` random decodable words.
    words: Vec<u64>,
    /// How many of `words` print in vc4asm as a raw `.long` (no instruction syntax fits).
    raw: usize,
    /// The vc4asm texts of the first `ASM_CORPUS` decodable words (of the same stream) that
    /// print as an instruction rather than `.long`, with their words.
    asm: Vec<(String, u64)>,
}

/// Random words, each decodable by the generated decoder; the signal cycles through all 16
/// values so every class is present (ALU 13/16, small immediate, load immediate, branch).
fn corpus() -> Corpus {
    let mut rng = SplitMix(SEED);
    let mut words = Vec::with_capacity(CORPUS);
    let mut raw = 0;
    let mut asm = Vec::with_capacity(ASM_CORPUS);
    let mut n = 0u64;
    while words.len() < CORPUS || asm.len() < ASM_CORPUS {
        let word = (rng.next() & !(0xf << 60)) | ((n % 16) << 60);
        if vc4::Instruction::decode(word).is_err() {
            continue;
        }
        n += 1;
        let text = vc4::disassemble(word, vc4::Dialect::Vc4asm).expect("decodable words print");
        let is_raw = text.starts_with(".long");
        if words.len() < CORPUS {
            words.push(word);
            raw += usize::from(is_raw);
        }
        if !is_raw && asm.len() < ASM_CORPUS {
            asm.push((text, word));
        }
    }
    Corpus { words, raw, asm }
}

/// Checks that the baselines do the same job as the generated code: the same words are
/// accepted, the decoded fields agree, and the printed Mesa text is identical. Also checks
/// that every assembly text assembles (and counts the ones that give another word back).
fn cross_check(corpus: &Corpus) {
    let mut rng = SplitMix(SEED ^ 0xFFFF);
    let mut accepted = 0usize;
    for i in 0..200_000u64 {
        let word = if i < 16 { (i << 60) | 0x0123_4567_89ab_cdef } else { rng.next() };
        let generated = vc4::Instruction::decode(word);
        let baseline = hand::decode(word);
        assert_eq!(generated.is_ok(), baseline.is_ok(), "acceptance differs on {word:016x}");
        if let (Ok(g), Ok(h)) = (generated, baseline) {
            accepted += 1;
            assert_eq!(g.encode().ok(), Some(hand::encode(&h)), "fields differ on {word:016x}");
        }
    }
    for &word in &corpus.words {
        let generated = vc4::disassemble(word, vc4::Dialect::Mesa).expect("corpus words decode");
        let baseline = hand::mesa(word).expect("corpus words decode");
        assert_eq!(generated, baseline, "Mesa text differs on {word:016x}");
    }
    // The compiled printer on the typed instruction gives the same text wherever the word is
    // the instruction's own encoding (no don't-care bits a view would show).
    let mut compiled = 0usize;
    for &word in &corpus.words {
        let insn = vc4::Instruction::decode(word).expect("corpus words decode");
        if insn.encode() != Ok(word) {
            continue;
        }
        let mut text = String::new();
        insn.write_text(vc4::Dialect::Mesa, 0, &mut text).expect("corpus words print");
        assert_eq!(
            text,
            hand::mesa(word).expect("corpus words decode"),
            "compiled Mesa text differs on {word:016x}"
        );
        compiled += 1;
    }
    eprintln!("vc4 bench: {compiled} canonical corpus words print alike through the compiled printer");
    // assemble(disassemble(w)) == w is the assembler tests' business; here it is only counted
    // (and the first differences shown), so a known gap does not stop the measurements.
    let mut differ = 0usize;
    for (text, word) in &corpus.asm {
        let program = vc4::assemble(text, vc4::Dialect::Vc4asm).unwrap_or_else(|e| panic!("`{text}`: {e:?}"));
        assert_eq!(program.len(), 1, "`{text}`");
        let back = program[0].encode().expect("assembled instructions encode");
        let canonical = vc4::Instruction::decode(*word).map(|i| i.encode().expect("encodes"));
        if Ok(back) != canonical {
            differ += 1;
            if differ <= 3 {
                eprintln!("note: `{text}` assembles to {back:016x}, not {word:016x}");
            }
        }
    }
    let program: String = corpus.asm.iter().map(|(t, _)| format!("{t}\n")).collect();
    let assembled =
        vc4::assemble(&program, vc4::Dialect::Vc4asm).unwrap_or_else(|e| panic!("program: {e:?}"));
    assert_eq!(assembled.len(), corpus.asm.len());
    eprintln!(
        "vc4 bench: {} words ({} print as `.long` in vc4asm); {accepted} of 200000 random words decode \
         alike; every Mesa text identical; {} vc4asm texts assemble ({differ} to another word)",
        corpus.words.len(),
        corpus.raw,
        corpus.asm.len(),
    );
}

/// The index of the `mesa` dialect.
fn benches(c: &mut Criterion) {
    let corpus = corpus();
    cross_check(&corpus);
    let words = &corpus.words;
    let n = words.len() as u64;

    let mut group = c.benchmark_group("vc4/decode");
    group.throughput(Throughput::Elements(n));
    // The decoded instruction goes to `black_box` by reference: by value, its move (after the
    // decoder's narrow stores, a 64-byte `Result` read back with wide loads) was timed with it.
    group.bench_function("generated", |b| {
        b.iter(|| {
            for &w in words {
                let r = vc4::Instruction::decode(black_box(w));
                black_box(&r);
            }
        })
    });
    group.bench_function("hand_written", |b| {
        b.iter(|| {
            for &w in words {
                let r = hand::decode(black_box(w));
                black_box(&r);
            }
        })
    });
    // Both alternated within every sample: the figure that settles their ratio.
    alternate::bench_alternated(
        &mut group,
        "vc4/decode",
        ["generated", "hand_written"],
        || {
            for &w in words {
                let r = vc4::Instruction::decode(black_box(w));
                black_box(&r);
            }
        },
        || {
            for &w in words {
                let r = hand::decode(black_box(w));
                black_box(&r);
            }
        },
    );
    group.finish();

    let mut group = c.benchmark_group("vc4/disassemble_mesa");
    group.throughput(Throughput::Elements(n));
    group.bench_function("generated", |b| {
        b.iter(|| {
            for &w in words {
                let _ = black_box(vc4::disassemble(black_box(w), vc4::Dialect::Mesa));
            }
        })
    });
    group.bench_function("hand_written", |b| {
        b.iter(|| {
            for &w in words {
                let _ = black_box(hand::mesa(black_box(w)));
            }
        })
    });
    group.finish();

    // Decode and print into one reused buffer: the compiled printer (no allocation per
    // instruction) against the hand-written one doing the same.
    let mesa = vc4::Dialect::Mesa;
    let mut group = c.benchmark_group("vc4/decode_print_mesa");
    group.throughput(Throughput::Elements(n));
    let mut buf = String::with_capacity(256);
    group.bench_function("generated", |b| {
        b.iter(|| {
            for &w in words {
                buf.clear();
                if let Ok(insn) = vc4::Instruction::decode(black_box(w)) {
                    let _ = insn.write_text(mesa, 0, &mut buf);
                }
                black_box(&buf);
            }
        })
    });
    group.bench_function("hand_written", |b| {
        b.iter(|| {
            for &w in words {
                buf.clear();
                if let Ok(insn) = hand::decode(black_box(w)) {
                    hand::print_into(&insn, &mut buf);
                }
                black_box(&buf);
            }
        })
    });
    // The syntax engine the compiled printer is compiled from, on the words' raw bits.
    group.bench_function("engine", |b| {
        b.iter(|| {
            for &w in words {
                buf.clear();
                if let Some(f) = vc4::Instruction::match_format(black_box(w)) {
                    let format = vc4::FORMATS[f];
                    if let Some(syntax) = format.syntax.get(mesa.index()) {
                        isa_runtime::syntax::print(syntax, &format.unpack(u128::from(w)), 0, &mut buf);
                    }
                }
                black_box(&buf);
            }
        })
    });
    group.finish();

    // Assembly of vc4asm instruction texts: one call per text, and all of them as one
    // program. An iteration takes long, so the samples are flat and few.
    let mut group = c.benchmark_group("vc4/assemble_vc4asm");
    group.throughput(Throughput::Elements(corpus.asm.len() as u64));
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    group.bench_function("generated_per_line", |b| {
        b.iter(|| {
            for (text, _) in &corpus.asm {
                let _ = black_box(vc4::assemble(black_box(text), vc4::Dialect::Vc4asm));
            }
        })
    });
    let program: String = corpus.asm.iter().map(|(t, _)| format!("{t}\n")).collect();
    group.bench_function("generated_program", |b| {
        b.iter(|| black_box(vc4::assemble(black_box(&program), vc4::Dialect::Vc4asm)).map(|p| p.len()))
    });
    group.finish();

    // Assembly of real vc4asm source lines: the golden corpus (vc4asm's own test lines with the
    // words vc4asm gave them), those that assemble alone to vc4asm's word, as one program.
    let golden = golden_lines();
    let program: String = golden.iter().map(|(t, _)| format!("{t}\n")).collect();
    let words = vc4::assemble(&program, vc4::Dialect::Vc4asm).expect("the golden lines assemble");
    assert!(words.iter().zip(&golden).all(|(i, (_, w))| i.encode().ok() == Some(*w)));
    let mut group = c.benchmark_group("vc4/assemble_golden");
    group.throughput(Throughput::Elements(golden.len() as u64));
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    group.bench_function("program", |b| {
        b.iter(|| black_box(vc4::assemble(black_box(&program), vc4::Dialect::Vc4asm)).map(|p| p.len()))
    });
    group.finish();

    // What a process pays once before its first line, outside the steady state above: the
    // format index of vc4asm's dialect (number 0), built once a process and shared.
    let mut group = c.benchmark_group("vc4/startup");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    group.bench_function("format index", |b| {
        b.iter(|| isa_runtime::target::FormatIndex::new::<vc4::Vc4>(black_box(0)))
    });
    group.finish();
}

/// The lines of `tests/data/vc4/vc4asm_asm_golden.tsv` (source line, vc4asm's word) that
/// assemble alone to vc4asm's word, labels left out (the corpus defines one twice).
fn golden_lines() -> Vec<(String, u64)> {
    let text = include_str!("../../tests/data/vc4/vc4asm_asm_golden.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.contains(':'))
        .filter_map(|l| {
            let (source, word) = l.split_once('\t')?;
            Some((source.to_string(), u64::from_str_radix(word.trim(), 16).ok()?))
        })
        .filter(|(source, word)| {
            vc4::assemble(source, vc4::Dialect::Vc4asm)
                .is_ok_and(|p| p.len() == 1 && p[0].encode().ok() == Some(*word))
        })
        .collect()
}

criterion_group!(vc4_benches, benches);
criterion_main!(vc4_benches);

/// Hand-written baselines: a plain `match` decoder into plain structs, an encoder (only for
/// the cross-check), and a Mesa-format printer with static name tables.
mod hand {
    use std::fmt::Write;

    /// Fields of an ALU word (also the small-immediate form, where `raddr_b` is the code).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Alu {
        pub sig: u8,
        pub unpack: u8,
        pub pm: bool,
        pub pack: u8,
        pub cond_add: u8,
        pub cond_mul: u8,
        pub sf: bool,
        pub ws: bool,
        pub waddr_add: u8,
        pub waddr_mul: u8,
        pub op_mul: u8,
        pub op_add: u8,
        pub raddr_a: u8,
        pub raddr_b: u8,
        pub add_a: u8,
        pub add_b: u8,
        pub mul_a: u8,
        pub mul_b: u8,
    }

    /// The high-word fields shared by the load-immediate and semaphore forms, and the raw
    /// low word.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Load {
        pub pm: bool,
        pub pack: u8,
        pub cond_add: u8,
        pub cond_mul: u8,
        pub sf: bool,
        pub ws: bool,
        pub waddr_add: u8,
        pub waddr_mul: u8,
        pub imm: u32,
    }

    /// Fields of a branch word.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Branch {
        pub cond: u8,
        pub rel: bool,
        pub reg: bool,
        pub raddr_a: u8,
        pub ws: bool,
        pub waddr_add: u8,
        pub waddr_mul: u8,
        pub imm: i32,
    }

    /// One decoded word.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Insn {
        Alu(Alu),
        SmallImm(Alu),
        LoadImm(Load),
        PerElemSigned(Load, [i8; 16]),
        PerElemUnsigned(Load, [u8; 16]),
        Semaphore { load: Load, acquire: bool, number: u8 },
        Branch(Branch),
    }

    /// Why a word does not decode.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Error {
        /// Load-immediate mode 2, 5, 6 or 7.
        LoadImmMode { word: u64, mode: u8 },
        /// A field value the hardware leaves undefined.
        Undefined { field: &'static str, value: u8, word: u64 },
    }

    #[inline]
    fn bits(word: u64, lo: u32, width: u32) -> u8 {
        ((word >> lo) & ((1 << width) - 1)) as u8
    }

    #[inline]
    fn bit(word: u64, pos: u32) -> bool {
        (word >> pos) & 1 != 0
    }

    /// MUL pack codes 1, 2 and 8-10 are undefined; 11-15 are vc4asm's (undefined in the
    /// reference; vc4.isa decodes them and Mesa's text shows `???`).
    #[inline]
    fn check_pack(word: u64, pm: bool, pack: u8) -> Result<(), Error> {
        if pm && !matches!(pack, 0 | 3..=7 | 11..=15) {
            return Err(Error::Undefined { field: "pack", value: pack, word });
        }
        Ok(())
    }

    fn alu(word: u64) -> Result<Alu, Error> {
        let pm = bit(word, 56);
        let pack = bits(word, 52, 4);
        check_pack(word, pm, pack)?;
        let op_add = bits(word, 24, 5);
        if matches!(op_add, 9..=11 | 25..=29) {
            return Err(Error::Undefined { field: "op_add", value: op_add, word });
        }
        Ok(Alu {
            sig: bits(word, 60, 4),
            unpack: bits(word, 57, 3),
            pm,
            pack,
            cond_add: bits(word, 49, 3),
            cond_mul: bits(word, 46, 3),
            sf: bit(word, 45),
            ws: bit(word, 44),
            waddr_add: bits(word, 38, 6),
            waddr_mul: bits(word, 32, 6),
            op_mul: bits(word, 29, 3),
            op_add,
            raddr_a: bits(word, 18, 6),
            raddr_b: bits(word, 12, 6),
            add_a: bits(word, 9, 3),
            add_b: bits(word, 6, 3),
            mul_a: bits(word, 3, 3),
            mul_b: bits(word, 0, 3),
        })
    }

    fn load(word: u64) -> Result<Load, Error> {
        let pm = bit(word, 56);
        let pack = bits(word, 52, 4);
        check_pack(word, pm, pack)?;
        Ok(Load {
            pm,
            pack,
            cond_add: bits(word, 49, 3),
            cond_mul: bits(word, 46, 3),
            sf: bit(word, 45),
            ws: bit(word, 44),
            waddr_add: bits(word, 38, 6),
            waddr_mul: bits(word, 32, 6),
            imm: word as u32,
        })
    }

    /// Decodes one word.
    pub fn decode(word: u64) -> Result<Insn, Error> {
        match word >> 60 {
            0..=12 => alu(word).map(Insn::Alu),
            13 => alu(word).map(Insn::SmallImm),
            14 => match bits(word, 57, 3) {
                0 => load(word).map(Insn::LoadImm),
                1 => {
                    let l = load(word)?;
                    let mut e = [0i8; 16];
                    for (i, slot) in e.iter_mut().enumerate() {
                        let v = ((bits(word, 16 + i as u32, 1) << 1) | bits(word, i as u32, 1)) as i8;
                        *slot = if v >= 2 { v - 4 } else { v };
                    }
                    Ok(Insn::PerElemSigned(l, e))
                }
                3 => {
                    let l = load(word)?;
                    let mut e = [0u8; 16];
                    for (i, slot) in e.iter_mut().enumerate() {
                        *slot = (bits(word, 16 + i as u32, 1) << 1) | bits(word, i as u32, 1);
                    }
                    Ok(Insn::PerElemUnsigned(l, e))
                }
                4 => {
                    let l = load(word)?;
                    Ok(Insn::Semaphore { load: l, acquire: bit(word, 4), number: bits(word, 0, 4) })
                }
                mode => Err(Error::LoadImmMode { word, mode }),
            },
            _ => {
                let cond = bits(word, 52, 4);
                if matches!(cond, 12..=14) {
                    return Err(Error::Undefined { field: "cond_br", value: cond, word });
                }
                Ok(Insn::Branch(Branch {
                    cond,
                    rel: bit(word, 51),
                    reg: bit(word, 50),
                    raddr_a: bits(word, 45, 5),
                    ws: bit(word, 44),
                    waddr_add: bits(word, 38, 6),
                    waddr_mul: bits(word, 32, 6),
                    imm: word as u32 as i32,
                }))
            }
        }
    }

    fn load_high(l: &Load, mode: u64) -> u64 {
        (14 << 60)
            | (mode << 57)
            | (u64::from(l.pm) << 56)
            | (u64::from(l.pack) << 52)
            | (u64::from(l.cond_add) << 49)
            | (u64::from(l.cond_mul) << 46)
            | (u64::from(l.sf) << 45)
            | (u64::from(l.ws) << 44)
            | (u64::from(l.waddr_add) << 38)
            | (u64::from(l.waddr_mul) << 32)
    }

    fn elements(e: impl Iterator<Item = u8>) -> u64 {
        e.enumerate().fold(0, |w, (i, v)| w | (u64::from(v >> 1 & 1) << (16 + i)) | (u64::from(v & 1) << i))
    }

    /// Encodes a decoded word (bits the encodings ignore are zero), for the cross-check.
    pub fn encode(insn: &Insn) -> u64 {
        match insn {
            Insn::Alu(a) | Insn::SmallImm(a) => {
                (u64::from(a.sig) << 60)
                    | (u64::from(a.unpack) << 57)
                    | (u64::from(a.pm) << 56)
                    | (u64::from(a.pack) << 52)
                    | (u64::from(a.cond_add) << 49)
                    | (u64::from(a.cond_mul) << 46)
                    | (u64::from(a.sf) << 45)
                    | (u64::from(a.ws) << 44)
                    | (u64::from(a.waddr_add) << 38)
                    | (u64::from(a.waddr_mul) << 32)
                    | (u64::from(a.op_mul) << 29)
                    | (u64::from(a.op_add) << 24)
                    | (u64::from(a.raddr_a) << 18)
                    | (u64::from(a.raddr_b) << 12)
                    | (u64::from(a.add_a) << 9)
                    | (u64::from(a.add_b) << 6)
                    | (u64::from(a.mul_a) << 3)
                    | u64::from(a.mul_b)
            }
            Insn::LoadImm(l) => load_high(l, 0) | u64::from(l.imm),
            Insn::PerElemSigned(l, e) => load_high(l, 1) | elements(e.iter().map(|&v| v as u8)),
            Insn::PerElemUnsigned(l, e) => load_high(l, 3) | elements(e.iter().copied()),
            Insn::Semaphore { load, acquire, number } => {
                load_high(load, 4) | (u64::from(*acquire) << 4) | u64::from(*number)
            }
            Insn::Branch(b) => {
                (15 << 60)
                    | (u64::from(b.cond) << 52)
                    | (u64::from(b.rel) << 51)
                    | (u64::from(b.reg) << 50)
                    | (u64::from(b.raddr_a) << 45)
                    | (u64::from(b.ws) << 44)
                    | (u64::from(b.waddr_add) << 38)
                    | (u64::from(b.waddr_mul) << 32)
                    | u64::from(b.imm as u32)
            }
        }
    }

    // ---- Mesa-format printer ------------------------------------------------------------

    static SIG: [&str; 16] = [
        "sig_brk ",
        "",
        "sig_switch ",
        "sig_end ",
        "sig_wait_score ",
        "sig_unlock_score ",
        "sig_thread_switch ",
        "sig_coverage_load ",
        "sig_color_load ",
        "sig_color_load_end ",
        "load_tmu0 ",
        "load_tmu1 ",
        "sig_alpha_mask_load ",
        "sig_small_imm ",
        "sig_load_imm ",
        "sig_branch ",
    ];

    static ADD_OP: [&str; 32] = [
        "nop", "fadd", "fsub", "fmin", "fmax", "fminabs", "fmaxabs", "ftoi", "itof", "???", "???", "???",
        "add", "sub", "shr", "asr", "ror", "shl", "min", "max", "and", "or", "xor", "not", "clz", "???",
        "???", "???", "???", "???", "v8adds", "v8subs",
    ];

    static MUL_OP: [&str; 8] = ["nop", "fmul", "mul24", "v8muld", "v8min", "v8max", "v8adds", "v8subs"];

    static COND: [&str; 8] = [".never", "", ".zs", ".zc", ".ns", ".nc", ".cs", ".cc"];

    static BRANCH_COND: [&str; 16] = [
        ".all_zs", ".all_zc", ".any_zs", ".any_zc", ".all_ns", ".all_nc", ".any_ns", ".any_nc", ".all_cs",
        ".all_cc", ".any_cs", ".any_cc", "???", "???", "???", "",
    ];

    static REGFILE_PACK: [&str; 16] = [
        "",
        ".16a",
        ".16b",
        ".8888",
        ".8a",
        ".8b",
        ".8c",
        ".8d",
        ".sat",
        ".16a.sat",
        ".16b.sat",
        ".8888.sat",
        ".8a.sat",
        ".8b.sat",
        ".8c.sat",
        ".8d.sat",
    ];

    static MUL_PACK: [&str; 16] = [
        "", "???", "???", ".8888", ".8a", ".8b", ".8c", ".8d", "???", "???", "???", "???", "???", "???",
        "???", "???",
    ];

    static UNPACK: [&str; 8] = ["", ".16a", ".16b", ".8d_rep", ".8a", ".8b", ".8c", ".8d"];

    static ACC: [&str; 6] = ["r0", "r1", "r2", "r3", "r4", "r5"];

    static RA: [&str; 32] = [
        "ra0", "ra1", "ra2", "ra3", "ra4", "ra5", "ra6", "ra7", "ra8", "ra9", "ra10", "ra11", "ra12", "ra13",
        "ra14", "ra15", "ra16", "ra17", "ra18", "ra19", "ra20", "ra21", "ra22", "ra23", "ra24", "ra25",
        "ra26", "ra27", "ra28", "ra29", "ra30", "ra31",
    ];

    static RB: [&str; 32] = [
        "rb0", "rb1", "rb2", "rb3", "rb4", "rb5", "rb6", "rb7", "rb8", "rb9", "rb10", "rb11", "rb12", "rb13",
        "rb14", "rb15", "rb16", "rb17", "rb18", "rb19", "rb20", "rb21", "rb22", "rb23", "rb24", "rb25",
        "rb26", "rb27", "rb28", "rb29", "rb30", "rb31",
    ];

    /// Write names of addresses 32-63; index 0 is file A, 1 is file B.
    static WRITE_IO: [[&str; 2]; 32] = [
        ["r0", "r0"],
        ["r1", "r1"],
        ["r2", "r2"],
        ["r3", "r3"],
        ["tmu_noswap", "tmu_noswap"],
        ["r5", "r5"],
        ["host_int", "host_int"],
        ["nop", "nop"],
        ["uniforms_addr", "uniforms_addr"],
        ["quad_x", "quad_y"],
        ["ms_flags", "ms_flags"],
        ["tlb_stencil_setup", "tlb_stencil_setup"],
        ["tlb_z", "tlb_z"],
        ["tlb_color_ms", "tlb_color_ms"],
        ["tlb_color_all", "tlb_color_all"],
        ["a47?", "b47?"],
        ["vpm", "vpm"],
        ["vr_setup", "vw_setup"],
        ["vr_addr", "vw_addr"],
        ["mutex_release", "mutex_release"],
        ["sfu_recip", "sfu_recip"],
        ["sfu_recipsqrt", "sfu_recipsqrt"],
        ["sfu_exp", "sfu_exp"],
        ["sfu_log", "sfu_log"],
        ["tmu0_s", "tmu0_s"],
        ["tmu0_t", "tmu0_t"],
        ["tmu0_r", "tmu0_r"],
        ["tmu0_b", "tmu0_b"],
        ["tmu1_s", "tmu1_s"],
        ["tmu1_t", "tmu1_t"],
        ["tmu1_r", "tmu1_r"],
        ["tmu1_b", "tmu1_b"],
    ];

    /// Read names of addresses 32-63; index 0 is file A, 1 is file B.
    static READ_IO: [[&str; 2]; 32] = [
        ["uni", "uni"],
        ["???", "???"],
        ["???", "???"],
        ["vary", "vary"],
        ["???", "???"],
        ["???", "???"],
        ["elem", "qpu"],
        ["nop", "nop"],
        ["???", "???"],
        ["x_pix", "y_pix"],
        ["ms_flags", "rev_flag"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["vpm_read", "vpm_read"],
        ["vpm_ld_busy", "vpm_st_busy"],
        ["vpm_ld_wait", "vpm_st_wait"],
        ["mutex_acq", "mutex_acq"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
        ["???", "???"],
    ];

    static SMALL_IMM: [&str; 64] = [
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "11",
        "12",
        "13",
        "14",
        "15",
        "-16",
        "-15",
        "-14",
        "-13",
        "-12",
        "-11",
        "-10",
        "-9",
        "-8",
        "-7",
        "-6",
        "-5",
        "-4",
        "-3",
        "-2",
        "-1",
        "1.0",
        "2.0",
        "4.0",
        "8.0",
        "16.0",
        "32.0",
        "64.0",
        "128.0",
        "0.003906",
        "0.007812",
        "0.015625",
        "0.031250",
        "0.062500",
        "0.125000",
        "0.250000",
        "0.500000",
        "<bad imm 48>",
        "<bad imm 49>",
        "<bad imm 50>",
        "<bad imm 51>",
        "<bad imm 52>",
        "<bad imm 53>",
        "<bad imm 54>",
        "<bad imm 55>",
        "<bad imm 56>",
        "<bad imm 57>",
        "<bad imm 58>",
        "<bad imm 59>",
        "<bad imm 60>",
        "<bad imm 61>",
        "<bad imm 62>",
        "<bad imm 63>",
    ];

    /// Rotation suffix of mul accumulator sources, by small-immediate code 48-63.
    static ROTATION: [&str; 16] =
        ["", "+1", "+2", "+3", "+4", "+5", "+6", "+7", "+8", "+9", "+10", "+11", "+12", "+13", "+14", "+15"];

    fn write_name(addr: u8, in_b: bool) -> &'static str {
        if addr < 32 {
            if in_b {
                RB[addr as usize]
            } else {
                RA[addr as usize]
            }
        } else {
            WRITE_IO[addr as usize - 32][in_b as usize]
        }
    }

    fn read_name(addr: u8, in_b: bool) -> &'static str {
        if addr < 32 {
            if in_b {
                RB[addr as usize]
            } else {
                RA[addr as usize]
            }
        } else {
            READ_IO[addr as usize - 32][in_b as usize]
        }
    }

    /// A destination with the pack that applies to it.
    fn dst(out: &mut String, addr: u8, in_b: bool, is_mul: bool, pm: bool, pack: u8) {
        out.push_str(write_name(addr, in_b));
        if is_mul && pm {
            out.push_str(MUL_PACK[pack as usize]);
        } else if !in_b && !pm {
            out.push_str(REGFILE_PACK[pack as usize]);
        }
    }

    /// One ALU source through its mux.
    fn src(out: &mut String, a: &Alu, mux: u8, is_mul: bool) {
        let small = a.sig == 13;
        match mux {
            6 => out.push_str(read_name(a.raddr_a, false)),
            7 if small => {
                out.push_str(SMALL_IMM[a.raddr_b as usize]);
                return;
            }
            7 => {
                out.push_str(read_name(a.raddr_b, true));
                return;
            }
            _ => {
                out.push_str(ACC[mux as usize]);
                if is_mul && small && a.raddr_b >= 48 {
                    out.push_str(ROTATION[a.raddr_b as usize - 48]);
                }
            }
        }
        if a.unpack != 0 && ((!a.pm && mux == 6) || (a.pm && mux == 4)) {
            out.push_str(UNPACK[a.unpack as usize]);
        }
    }

    fn alu_text(out: &mut String, a: &Alu) {
        out.push_str(SIG[a.sig as usize]);
        if a.op_add == 21 && a.add_a == a.add_b {
            out.push_str("mov");
        } else {
            out.push_str(ADD_OP[a.op_add as usize]);
        }
        if a.op_add != 0 {
            if a.sf {
                out.push_str(".sf");
            }
            out.push_str(COND[a.cond_add as usize]);
        }
        out.push(' ');
        dst(out, a.waddr_add, a.ws, false, a.pm, a.pack);
        out.push_str(", ");
        src(out, a, a.add_a, false);
        if !(a.op_add == 21 && a.add_a == a.add_b) {
            out.push_str(", ");
            src(out, a, a.add_b, false);
        }
        out.push_str(" ; ");
        let mov = a.op_mul == 4 && a.mul_a == a.mul_b;
        out.push_str(if mov { "mov" } else { MUL_OP[a.op_mul as usize] });
        if a.sf && a.op_add == 0 {
            out.push_str(".sf");
        }
        if a.op_mul != 0 {
            out.push_str(COND[a.cond_mul as usize]);
        }
        out.push(' ');
        dst(out, a.waddr_mul, !a.ws, true, a.pm, a.pack);
        out.push_str(", ");
        src(out, a, a.mul_a, true);
        if !mov {
            out.push_str(", ");
            src(out, a, a.mul_b, true);
        }
    }

    fn load_text(out: &mut String, l: &Load) {
        out.push_str("load_imm ");
        dst(out, l.waddr_add, l.ws, false, l.pm, l.pack);
        if l.waddr_add != 39 {
            out.push_str(COND[l.cond_add as usize]);
        }
        out.push_str(", ");
        dst(out, l.waddr_mul, !l.ws, true, l.pm, l.pack);
        if l.waddr_mul != 39 {
            out.push_str(COND[l.cond_mul as usize]);
        }
        let f = f32::from_bits(l.imm);
        let _ = write!(out, ", 0x{:08x} (", l.imm);
        if f.is_nan() {
            out.push_str(if f.is_sign_negative() { "-nan" } else { "nan" });
        } else if f.is_infinite() {
            out.push_str(if f.is_sign_negative() { "-inf" } else { "inf" });
        } else {
            let _ = write!(out, "{:.6}", f64::from(f));
        }
        out.push(')');
    }

    /// Prints a decoded word in Mesa's format.
    pub fn print(insn: &Insn) -> String {
        let mut out = String::new();
        print_into(insn, &mut out);
        out
    }

    /// Appends a decoded word's Mesa text to `out`.
    pub fn print_into(insn: &Insn, out: &mut String) {
        match insn {
            Insn::Alu(a) | Insn::SmallImm(a) => alu_text(out, a),
            Insn::LoadImm(l) | Insn::PerElemSigned(l, _) | Insn::PerElemUnsigned(l, _) => load_text(out, l),
            Insn::Semaphore { load, .. } => load_text(out, load),
            Insn::Branch(b) => {
                out.push_str("branch");
                out.push_str(BRANCH_COND[b.cond as usize]);
                let _ = write!(out, " {}", b.imm);
            }
        }
    }

    /// Decodes and prints one word in Mesa's format.
    pub fn mesa(word: u64) -> Result<String, Error> {
        decode(word).map(|i| print(&i))
    }
}

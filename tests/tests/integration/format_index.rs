//! The assembler's index of formats by how their texts start (`FormatIndex`) against the
//! plain scan of every format.
//!
//! The assembler takes the first format (in the target's order) whose syntax reads a line.
//! With the index it tries only the formats whose syntax can start the line; that must never
//! leave out the format the plain scan takes. For every golden text and the texts of random
//! words of every encoding, in every dialect, both scans must pick the same format (or none).
//!
//! The search that reads a format also skips, where only success matters, what the text after
//! it could not match: it must read exactly what the search that describes failures reads.

use isa_generated::agx::Agx;
use isa_generated::maxwell::Maxwell;
use isa_generated::tegra_linker::TegraLinker;
use isa_generated::tegra_vs::TegraVs;
use isa_generated::vc4::Vc4;
use isa_runtime::syntax::{self, Context};
use isa_runtime::target::{assemble_program, disassemble_word, slot_text, Dialect, FormatIndex, Isa};

fn data(path: &str) -> String {
    let path = format!("{}/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Column `column` of each row of a TSV corpus (comments and control words skipped).
fn tsv_texts(text: &str, column: usize) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty() && !l.contains("\tCTRL "))
        .filter_map(|l| Some(l.split('\t').nth(column)?.trim().to_string()))
        .collect()
}

/// A listed text as the syntax reads it: without the dialect's end mark and statement separator.
fn statement<'a>(d: &Dialect, text: &'a str) -> &'a str {
    let text = d.end.map(str::trim).and_then(|e| text.trim_end().strip_suffix(e)).map_or(text, str::trim_end);
    d.separator.and_then(|e| text.strip_suffix(e)).map_or(text, str::trim_end)
}

/// The first of `formats` whose syntax in dialect `dialect` reads `text`.
fn first_reading<T: Isa>(
    formats: impl IntoIterator<Item = usize>,
    text: &str,
    dialect: usize,
) -> Option<usize> {
    let d = &T::dialects()[dialect];
    let text = statement(d, text);
    let ctx = Context { pc: 0, labels: &|_| None, ignore_case: d.ignore_case, expression: None };
    formats.into_iter().find(|&i| {
        let format = T::formats()[i];
        format.syntax.get(dialect).is_some_and(|s| syntax::parses(format, s, text, &ctx).is_some())
    })
}

/// Compares both scans on every text; returns (texts some format reads, candidates tried
/// for them) and fails naming the first texts they disagree on.
fn compare<T: Isa>(texts: &[String], dialect: usize) -> (usize, usize) {
    let index = FormatIndex::new::<T>(dialect);
    let d = &T::dialects()[dialect];
    let (mut read, mut tried) = (0, 0);
    let mut failures = Vec::new();
    for text in texts {
        // As the assembler asks: the formats the index gives, less those that cannot hold
        // some byte of the statement.
        let candidates: Vec<usize> = index
            .formats(text)
            .into_iter()
            .filter(|&i| index.may_read(i, statement(d, text), false))
            .collect();
        tried += candidates.len();
        let plain = first_reading::<T>(0..T::formats().len(), text, dialect);
        let indexed = first_reading::<T>(candidates, text, dialect);
        read += usize::from(plain.is_some());
        if plain != indexed {
            failures.push(format!("{} {text:?}: plain scan {plain:?}, indexed {indexed:?}", T::NAME));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    (read, tried)
}

/// The texts of random words of every encoding in dialect `dialect` (fixed seed). A format
/// none of whose random words has a text (Tegra's: its text needs the unused fetch indices
/// and rC at zero) gets words with each field at its default (or zero) seven times in eight,
/// from a stream of its own, until it has its share or 64 times as many were tried.
fn random_texts<T: Isa>(dialect: usize, per_format: usize) -> Vec<String> {
    let step = |rng: &mut u128| {
        *rng =
            rng.wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645).wrapping_add(0x5851_F42D_4C95_7F2D);
        *rng
    };
    let mask = if T::WORD_BITS >= 128 { u128::MAX } else { (1u128 << T::WORD_BITS) - 1 };
    // Raw directives (`.long`) are read before any format is tried.
    let raw = T::dialects()[dialect].raw.unwrap_or("\0");
    let text = |format: &isa_runtime::format::Format, r: u128, quiet: bool| {
        let mut word = (r.rotate_left(64) ^ r) & mask;
        for (n, field) in format.fields.iter().enumerate() {
            let default = (quiet && (r >> (3 * n % 61)) & 7 != 0).then(|| field.default.unwrap_or(0));
            if let Some(v) = field.fixed.or(default) {
                isa_runtime::bits::set(&mut word, field.pieces, v);
            }
        }
        disassemble_word::<T>(word, dialect, 0).ok().filter(|t| !t.starts_with(raw))
    };
    let (mut rng, mut quiet_rng) = (0x1DE_u128, 0x9A1E7_u128);
    let mut texts = Vec::new();
    for format in T::formats() {
        let before = texts.len();
        for _ in 0..per_format {
            texts.extend(text(format, step(&mut rng), false));
        }
        let (starved, mut tries) = (texts.len() == before, 64 * per_format);
        while starved && texts.len() - before < per_format && tries > 0 {
            texts.extend(text(format, step(&mut quiet_rng), true));
            tries -= 1;
        }
    }
    texts
}

#[test]
fn maxwell_index_agrees_with_the_plain_scan() {
    let mut texts = tsv_texts(&data("maxwell/nvdisasm_golden.tsv"), 1);
    texts.extend(tsv_texts(&data("maxwell/nvdisasm_compute.tsv"), 1));
    let golden = texts.len();
    let (read, tried) = compare::<Maxwell>(&texts, 0);
    eprintln!(
        "maxwell: {golden} golden texts, {read} read, {tried} candidates of {} formats",
        Maxwell::formats().len()
    );
    assert!(read > 3_500, "{read} of {golden} golden texts read");
    // The point of the index: a few formats per line rather than all of them.
    assert!(tried < golden * 10, "{tried} candidates for {golden} texts");
    let random = random_texts::<Maxwell>(0, 4);
    let (read, _) = compare::<Maxwell>(&random, 0);
    assert!(read * 2 > random.len(), "{read} of {} random texts read", random.len());
}

#[test]
fn vc4_index_agrees_with_the_plain_scan() {
    // vc4asm's corpus holds lines it rejects and lines with labels; Mesa's texts do not show
    // every bit, and some are not instructions of ours (`???`).
    let corpora = [
        (0, tsv_texts(&data("vc4/vc4asm_asm_golden.tsv"), 0), 750),
        (1, tsv_texts(&data("vc4/mesa_golden.tsv"), 1), 4_900),
    ];
    for (dialect, golden, least) in corpora {
        let name = Vc4::dialects()[dialect].name;
        let (read, _) = compare::<Vc4>(&golden, dialect);
        eprintln!("vc4 {name}: {} golden texts, {read} read", golden.len());
        assert!(read >= least, "{name}: {read} of {} golden texts read", golden.len());
        let random = random_texts::<Vc4>(dialect, 32);
        let (read, _) = compare::<Vc4>(&random, dialect);
        assert!(read * 2 > random.len(), "{name}: {read} of {} random texts read", random.len());
    }
}

#[test]
fn tegra_vs_index_agrees_with_the_plain_scan() {
    // The texts of our own vertex programs in grate's syntax (transform_vs, control_vs) as the
    // dialect prints them.
    let dir = format!("{}/data/tegra", env!("CARGO_MANIFEST_DIR"));
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}")) {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("vs_") || name.ends_with("_vs.txt") {
            let source = std::fs::read_to_string(&path).expect("readable program");
            let words = assemble_program::<TegraVs>(&source, 0).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            texts.extend(words.iter().filter_map(|w| disassemble_word::<TegraVs>(*w, 0, 0).ok()));
        }
    }
    let (read, _) = compare::<TegraVs>(&texts, 0);
    eprintln!("tegra_vs: {} texts of our programs, {read} read", texts.len());
    // 15 instruction words in the two programs (8 + 7); each text reads back.
    assert!(texts.len() == 15 && read == texts.len(), "{read} of {} texts read", texts.len());
}

/// A statement holding a byte that no reading of a format holds, or a byte after a `,` that
/// follows no `,` of a reading, is not given to that format:
/// nvdisasm's `FFMA` with a constant operand (`c[0x0][0x140]`, from the golden corpus) holds
/// `[`, which no reading of the register form `ffma_r` does, so only `ffma_c` is asked; the
/// register form's text has a register where the constant form has `c[`, and is asked only
/// of the register form. A number that takes an expression may hold any byte, so where the
/// context reads expressions the constant form may read anything.
#[test]
fn formats_are_not_asked_for_bytes_they_cannot_read() {
    let index = FormatIndex::new::<Maxwell>(0);
    let at = |name: &str| Maxwell::formats().iter().position(|f| f.name == name).expect(name);
    let (r, c) = (at("ffma_r"), at("ffma_c"));
    let constant = "FFMA R2, R3, c[0x0][0x140], R2";
    assert!(!index.may_read(r, constant, false) && !index.may_read(r, constant, true));
    assert!(index.may_read(c, constant, false));
    let register = "FFMA R6, R0, R6, R0";
    assert!(index.may_read(r, register, false) && !index.may_read(c, register, false));
    assert!(!index.may_read(c, register, true));
    // `#` is in no reading of either form, but a number may be an expression.
    let hash = "FFMA R2, R3, c[0x0][0x140 # 1], R2";
    assert!(!index.may_read(c, hash, false) && index.may_read(c, hash, true));
    // An immediate operand: its bytes are a register form's too, but no operand of the
    // register form starts with a digit after a `,` (the immediate form `ffma_i` reads it).
    let immediate = "FFMA R6, R5, 0.375, R7";
    assert!(!index.may_read(r, immediate, false) && !index.may_read(r, immediate, true));
    assert!(index.may_read(at("ffma_i"), immediate, false));
    // Inside parentheses a `,` may be an expression's (a function's arguments).
    assert!(index.may_read(c, "FFMA R2, R3, c[0x0][f(1, 2)], R2", true));
}

/// What comes after each `,` of a statement, by its place: nvdisasm's `-0.5` (golden corpus)
/// after the second `,` of `FFMA` is the immediate form's, where the register form has `-R`
/// and the constant form `-c[`; `MOV R10, 0x1` is MOV's immediate form, whose register
/// and constant forms have `R` and `c[` after the `,`; a fifth operand is no `FFMA`'s. An
/// expression holds no `[`, so `c[0x0] [0x8]` (XMAD's constant form) is not the immediate
/// form's number even where numbers take expressions.
#[test]
fn formats_are_not_asked_for_bytes_they_cannot_have_after_a_comma() {
    let index = FormatIndex::new::<Maxwell>(0);
    let at = |name: &str| Maxwell::formats().iter().position(|f| f.name == name).expect(name);
    let half = "FFMA R13, R9, -0.5, R0";
    for (form, asked) in [("ffma_r", false), ("ffma_c", false), ("ffma_rc", false), ("ffma_i", true)] {
        for expressions in [false, true] {
            assert_eq!(index.may_read(at(form), half, expressions), asked, "{form} {expressions}");
        }
    }
    assert!(index.may_read(at("ffma_r"), "FFMA R13, R9, -R5, R0", false));
    assert!(!index.may_read(at("ffma_r"), "FFMA R13, R9, R5, R0, R1", false));
    let mov = "MOV R10, 0x1";
    assert!(!index.may_read(at("mov_r"), mov, true) && !index.may_read(at("mov_c"), mov, true));
    assert!(index.may_read(at("mov_i"), mov, true));
    let xmad = "XMAD R0, R2, c[0x0] [0x8], R0";
    assert!(!index.may_read(at("xmad_i"), xmad, false) && !index.may_read(at("xmad_i"), xmad, true));
    assert!(index.may_read(at("xmad_c"), xmad, true));
}

/// The index of VideoCore IV's format `name`.
fn vc4_format(name: &str) -> usize {
    Vc4::formats().iter().position(|f| f.name == name).expect(name)
}

/// Where numbers take expressions, a byte that only an expression holds must come after a
/// place where a number may start. vc4asm writes `mov r3, r0 >> 13` (vc4asm's golden words:
/// 0xd00049e3809fd000, signal 13, the small-immediate format) with a rotation, which `alu`
/// (no small immediate) has no name for: its `>` would be an expression's, and `alu`'s
/// numbers follow `ra` or `rb` only (`ra40`), so it is not asked; `alu_small_imm` spells the
/// rotation. After `ra` a number may be an expression holding `>`.
#[test]
fn bytes_only_expressions_hold_need_a_number_before_them() {
    let index = FormatIndex::new::<Vc4>(0);
    let (alu, small) = (vc4_format("alu"), vc4_format("alu_small_imm"));
    for text in ["mov r3, r0 >> 13", "fmul r3, r0, r1 >> 2", "mov r3, r0<<r5"] {
        assert!(!index.may_read(alu, text, true), "{text}");
        assert!(index.may_read(small, text, true), "{text}");
    }
    assert!(index.may_read(alu, "fmul ra(80 >> 1), r0, r1", true));
    assert!(!index.may_read(alu, "fmul ra(80 >> 1), r0, r1", false));
}

/// A syntax's parentheses are walked as a text's commas are counted, outside them: vc4asm's
/// `mov -, sacq7`, `mov r0, srel15` (golden corpus: semaphore words e80009e700000017,
/// e80208270000000f) and `mov r0, [0,1,2,3, ...]` (per-element load e6020827ccccaaaa) are not
/// asked of `alu_small_imm`, whose `mov` has a register, a small immediate or a rotated source
/// after its `,` and which writes a rotated regfile-A source in parentheses (GPU_FFT's
/// `(ra6 >> 2).16b`): the walk that finds what follows a `,` gave up at the parenthesis.
#[test]
fn parentheses_are_walked_as_commas_are_counted() {
    let index = FormatIndex::new::<Vc4>(0);
    let small = vc4_format("alu_small_imm");
    for text in ["mov -, sacq7", "mov r0, srel15", "mov r0, [0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3]"] {
        assert!(!index.may_read(small, text, true), "{text}");
    }
    for text in ["fmul.ifn rb5, r2 >> 2, (ra6 >> 2).16b", "mov r3, r0 >> 13", "mov r0, 1"] {
        assert!(index.may_read(small, text, true), "{text}");
    }
}

/// The two bytes after a `,` are looked up as a pair, not through a set that many pairs fill:
/// vc4asm's `add r0, r1, -5` and `add r0, r1, -3` (golden corpus: d00208270c9db3c0,
/// d00208270c9dd3c0, signal 13, a small immediate) are not asked of `alu`, where a `,` may be
/// followed by `-` (no source) and by a digit's names (`r1`, `ra7`) but `-` by no digit (the
/// hashed set gave `-5` and `-3` the bits of pairs `alu` has).
#[test]
fn pairs_after_a_comma_are_looked_up_whole() {
    let index = FormatIndex::new::<Vc4>(0);
    let (alu, small) = (vc4_format("alu"), vc4_format("alu_small_imm"));
    for text in ["add r0, r1, -5", "add r0, r1, -3", "add r0, r1, -7"] {
        assert!(!index.may_read(alu, text, true), "{text}");
        assert!(index.may_read(small, text, true), "{text}");
    }
    assert!(index.may_read(alu, "add r0, r1, -", true));
}

/// A lead or required word is looked for with what may follow it wherever the syntax has it:
/// `MOV32I` (golden corpus) starts with `MOV`, which MOV's forms follow with a register only.
#[test]
fn words_are_looked_for_with_what_follows_them() {
    let index = FormatIndex::new::<Maxwell>(0);
    let names = |text: &str| -> Vec<&str> {
        index.formats(text).into_iter().map(|i| Maxwell::formats()[i].name).collect()
    };
    for text in ["MOV32I R0, 0x1", "@P0 MOV32I R2, 0x0"] {
        assert_eq!(names(text), ["mov32i"], "{text}");
    }
    assert!(names("@P0 MOV R1, R2").contains(&"mov_r"));
    assert_eq!(names("@P0 IADD32I R0, R0, 0x1"), ["iadd32i"]);
}

/// Reads each text with each candidate format two ways: the assembler's search (which skips
/// arms, optional groups and names after which the text cannot be read, guards ignored) and
/// the search that describes failures (which skips nothing). Both must give the same values,
/// or both none. Returns how many (text, format) pairs read.
fn pruned_agrees<T: Isa>(texts: &[String], dialect: usize) -> usize {
    let index = FormatIndex::new::<T>(dialect);
    let d = &T::dialects()[dialect];
    let ctx = Context { pc: 0, labels: &|_| None, ignore_case: d.ignore_case, expression: None };
    let mut scratch = syntax::Scratch::default();
    let (mut read, mut failures) = (0, Vec::new());
    for text in texts {
        let text = statement(d, text);
        for i in index.formats(text) {
            let format = T::formats()[i];
            let Some(s) = format.syntax.get(dialect) else { continue };
            let pruned = syntax::parses_in(&mut scratch, format, s, text, &ctx);
            let full = syntax::parse(format, s, text, &ctx).ok();
            read += usize::from(full.is_some());
            if pruned != full {
                failures.push(format!("{} {text:?} as {}: {pruned:?} vs {full:?}", T::NAME, format.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    read
}

#[test]
fn pruned_search_reads_what_the_describing_search_reads() {
    let mut texts = tsv_texts(&data("maxwell/nvdisasm_golden.tsv"), 1);
    texts.extend(random_texts::<Maxwell>(0, 2));
    let read = pruned_agrees::<Maxwell>(&texts, 0);
    assert!(read > 1_500, "maxwell: {read} of {} texts read", texts.len());
    let vc4asm: Vec<String> = tsv_texts(&data("vc4/vc4asm_asm_golden.tsv"), 0)
        .into_iter()
        .chain(random_texts::<Vc4>(0, 16))
        .collect();
    let read = pruned_agrees::<Vc4>(&vc4asm, 0);
    assert!(read > 750, "vc4asm: {read} of {} texts read", vc4asm.len());
    // Every other text of Mesa's corpus (the search that describes is slow).
    let mesa: Vec<String> = tsv_texts(&data("vc4/mesa_golden.tsv"), 1).into_iter().step_by(2).collect();
    let read = pruned_agrees::<Vc4>(&mesa, 1);
    assert!(read > 2_000, "mesa: {read} of {} texts read", mesa.len());
}

/// What one (text, format) pair of a differential run came to.
enum Verdict {
    /// Both ways read the same values (or agreed there is no reading).
    Agree,
    /// The way under test read it.
    Read,
    /// The way under test left it to the other.
    Unsure,
    /// The two ways differ: what each gave.
    Differs(String),
}

/// Runs `judge` on each text with every format of dialect `dialect` that has a syntax there
/// (the format's number, the format, its syntax, the statement, the context), and holds that
/// no pair differs. Returns (pairs read, pairs left unsure).
fn differential<T: Isa>(
    texts: &[String],
    dialect: usize,
    mut judge: impl FnMut(
        usize,
        &'static isa_runtime::format::Format,
        &'static syntax::Syntax,
        &str,
        &Context,
    ) -> Verdict,
) -> (usize, usize) {
    let d = &T::dialects()[dialect];
    let ctx = Context { pc: 0, labels: &|_| None, ignore_case: d.ignore_case, expression: None };
    let (mut read, mut unsure, mut failures) = (0, 0, Vec::new());
    for text in texts {
        let text = statement(d, text);
        for (i, format) in T::formats().iter().enumerate() {
            let Some(s) = format.syntax.get(dialect) else { continue };
            match judge(i, format, s, text, &ctx) {
                Verdict::Agree => {}
                Verdict::Read => read += 1,
                Verdict::Unsure => unsure += 1,
                Verdict::Differs(why) => {
                    failures.push(format!("{} {text:?} as {}: {why}", T::NAME, format.name))
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    (read, unsure)
}

/// Reads each text with every format of dialect `dialect` two ways: the quick reader and the
/// search. Where the quick reader decides, it must decide as the search: its values where it
/// reads the text, none where it says no reading exists. Returns (pairs the quick reader read,
/// pairs it left to the search).
fn quick_agrees<T: Isa>(texts: &[String], dialect: usize) -> (usize, usize) {
    let (mut scratch, mut search) = (syntax::Scratch::default(), syntax::Scratch::default());
    differential::<T>(texts, dialect, |_, format, s, text, ctx| {
        match syntax::quick_in(&mut scratch, format, s, text, ctx, false) {
            syntax::Quick::Unsure => Verdict::Unsure,
            syntax::Quick::Never if !s.may_match(text, ctx.ignore_case) => Verdict::Agree,
            quick => match (quick, syntax::parses_in(&mut search, format, s, text, ctx)) {
                (syntax::Quick::Read(v, _), Some(w)) if v == w => Verdict::Read,
                (syntax::Quick::Never, None) => Verdict::Agree,
                (quick, search) => Verdict::Differs(format!("quick {quick:?}, search {search:?}")),
            },
        }
    })
}

#[test]
fn quick_reader_reads_what_the_search_reads() {
    let mut texts = tsv_texts(&data("maxwell/nvdisasm_golden.tsv"), 1);
    texts.extend(tsv_texts(&data("maxwell/nvdisasm_compute.tsv"), 1));
    texts.extend(random_texts::<Maxwell>(0, 4));
    let (read, unsure) = quick_agrees::<Maxwell>(&texts, 0);
    eprintln!("maxwell: {} texts, quick reads {read}, leaves {unsure} (text, format) pairs", texts.len());
    assert!(read > 5_000, "maxwell: quick reads {read} of {} texts", texts.len());
    let corpora = [
        (0, tsv_texts(&data("vc4/vc4asm_asm_golden.tsv"), 0)),
        (1, tsv_texts(&data("vc4/mesa_golden.tsv"), 1)),
    ];
    for (dialect, mut texts) in corpora {
        texts.extend(random_texts::<Vc4>(dialect, 16));
        let (read, unsure) = quick_agrees::<Vc4>(&texts, dialect);
        eprintln!("vc4 dialect {dialect}: {} texts, quick reads {read}, leaves {unsure}", texts.len());
        // The quick reader walks in the search's order, so it decides lines that read several
        // ways (vc4asm's idle pipes and aliases), within its budget; a reading with a value
        // owed that the rest of the text cannot spell out ends where it is owed, and one whose
        // checks force contradicting values on fields not yet known ends where they do (757
        // of the 883 vc4asm texts decided, 444 before the facts, 262 before that; Mesa 4,581
        // of 6,691).
        let least = [700, 4_000][dialect];
        assert!(read > least, "vc4 dialect {dialect}: quick reads {read} of {} texts", texts.len());
    }
    for dialect in 0..Agx::dialects().len() {
        let (read, unsure) = quick_agrees::<Agx>(&random_texts::<Agx>(dialect, 8), dialect);
        eprintln!("agx dialect {dialect}: quick reads {read}, leaves {unsure}");
    }
    for dialect in 0..TegraVs::dialects().len() {
        let texts = random_texts::<TegraVs>(dialect, 8);
        let (read, unsure) = quick_agrees::<TegraVs>(&texts, dialect);
        eprintln!("tegra_vs dialect {dialect}: {} texts, quick reads {read}, leaves {unsure}", texts.len());
        assert!(!texts.is_empty(), "tegra_vs: no random texts");
    }
    for dialect in 0..TegraLinker::dialects().len() {
        let texts = random_texts::<TegraLinker>(dialect, 8);
        let (read, unsure) = quick_agrees::<TegraLinker>(&texts, dialect);
        eprintln!(
            "tegra_linker dialect {dialect}: {} texts, quick reads {read}, leaves {unsure}",
            texts.len()
        );
        assert!(!texts.is_empty(), "tegra_linker: no random texts");
    }
}

/// Reads each text with every format of dialect `dialect` that has a generated reader, and
/// with the engine: where the reader reads the text, the engine (the quick reader, or the
/// search where that is unsure) must read it to the same values. Returns (pairs read, pairs
/// left to the engine).
fn readers_agree<T: Isa>(texts: &[String], dialect: usize) -> (usize, usize) {
    let (mut fast, mut scratch, mut search) =
        (syntax::Scratch::default(), syntax::Scratch::default(), syntax::Scratch::default());
    differential::<T>(texts, dialect, |i, format, s, text, ctx| {
        let Some(reader) = T::reader(i, dialect) else { return Verdict::Agree };
        let (values, end) = match syntax::fast_in(&mut fast, format, reader, text, ctx) {
            syntax::Quick::Read(values, end) => (values, end),
            syntax::Quick::Never => return Verdict::Differs("the reader says never".into()),
            syntax::Quick::Unsure => return Verdict::Unsure,
        };
        let engine = match syntax::quick_in(&mut scratch, format, s, text, ctx, false) {
            syntax::Quick::Read(v, e) => Some((v, e)),
            syntax::Quick::Never => None,
            syntax::Quick::Unsure => syntax::parses_in(&mut search, format, s, text, ctx).map(|v| (v, end)),
        };
        match engine {
            Some(w) if w == (values.clone(), end) => Verdict::Read,
            engine => Verdict::Differs(format!("reader {values:?}, engine {engine:?}")),
        }
    })
}

/// Texts that spell names otherwise than the printer, from every eighth of `texts`: numbers
/// of ranges with a zero, a sign or a letter after them (`R01`, `R+1`, `R1x`), letters in
/// another case, blanks taken out or doubled. The generated readers' names (found by the
/// generated look-ups, which the test builds hold to the engine's index at every name) must
/// still read them as the engine or leave them.
fn name_variants(texts: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (k, text) in texts.iter().enumerate().filter(|(k, _)| k % 8 == 0) {
        let variant = match k / 8 % 5 {
            0 => text.replace(" R", " R0").replace(" P", " P+"),
            1 => text.replace(", R", ", R-").replace("RZ", "RZx"),
            2 => text.to_lowercase(),
            3 => text.replace(", ", ",").replace(" .", "."),
            _ => text.replace(' ', "  ").replace(".", " ."),
        };
        if variant != *text {
            out.push(variant);
        }
    }
    out
}

/// The generated readers (`isa_runtime::syntax::fast_in`) read what the engine reads: on every
/// golden line of Maxwell and VideoCore IV and on the texts of random words of every encoding.
#[test]
fn generated_readers_read_what_the_engine_reads() {
    let mut texts = tsv_texts(&data("maxwell/nvdisasm_golden.tsv"), 1);
    texts.extend(tsv_texts(&data("maxwell/nvdisasm_compute.tsv"), 1));
    texts.extend(random_texts::<Maxwell>(0, 4));
    let variants = name_variants(&texts);
    texts.extend(variants);
    let (read, unsure) = readers_agree::<Maxwell>(&texts, 0);
    eprintln!("maxwell: {} texts, readers read {read}, leave {unsure} (text, format) pairs", texts.len());
    assert!(read > 3_000, "maxwell: the generated readers read {read} of {} texts", texts.len());
    let corpora = [
        (0, tsv_texts(&data("vc4/vc4asm_asm_golden.tsv"), 0)),
        (1, tsv_texts(&data("vc4/mesa_golden.tsv"), 1)),
    ];
    for (dialect, mut texts) in corpora {
        texts.extend(random_texts::<Vc4>(dialect, 16));
        let (read, unsure) = readers_agree::<Vc4>(&texts, dialect);
        eprintln!("vc4 dialect {dialect}: {} texts, readers read {read}, leave {unsure}", texts.len());
    }
    for dialect in 0..Agx::dialects().len() {
        let (read, unsure) = readers_agree::<Agx>(&random_texts::<Agx>(dialect, 8), dialect);
        eprintln!("agx dialect {dialect}: readers read {read}, leave {unsure}");
    }
}

/// Maxwell's scheduling slots read as a prefix: the quick reader and the search agree on every
/// slot of random control bits, before an instruction.
#[test]
fn quick_reader_reads_slots_as_the_search() {
    let s = Maxwell::schedule().expect("maxwell has scheduling slots");
    let syntax = s.slot.syntax[0];
    let ctx = Context { pc: 0, labels: &|_| None, ignore_case: false, expression: None };
    let (mut scratch, mut search) = (syntax::Scratch::default(), syntax::Scratch::default());
    let mut rng = 0x5107_u64;
    let mut read = 0;
    for _ in 0..4_000 {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let slot = (rng >> 20) & 0x1f_ffff;
        let text = format!("{}  FADD R0, R1, R2", slot_text(s, slot, 0));
        let full = syntax::parse_prefix_in(&mut search, s.slot, syntax, &text, &ctx);
        match syntax::quick_in(&mut scratch, s.slot, syntax, &text, &ctx, true) {
            syntax::Quick::Read(v, end) => {
                assert_eq!(Some((v, end)), full, "{text:?}");
                read += 1;
            }
            syntax::Quick::Never => assert_eq!(full, None, "{text:?}"),
            syntax::Quick::Unsure => {}
        }
    }
    assert!(read > 2_000, "quick reads {read} of 4000 slots");
}

/// The slots the quick reader remembers (`quick_prefix_in`): every text gets the answer the
/// quick reader gives it afresh, whatever texts came before it, among slots that repeat with
/// other text after them, are cut short, or run on (`S0` and `1`, `]` and `X` or `:UA]`,
/// characters of several bytes), with and without an expression reader.
#[test]
fn remembered_slots_are_read_as_afresh() {
    let s = Maxwell::schedule().expect("maxwell has scheduling slots");
    let syntax = s.slot.syntax[0];
    let names = isa_runtime::expr::Names {
        symbol: &|_| None,
        label: &|name| (name == "x").then_some(4),
        label_prefixes: &[],
        call: None,
        bare_names: false,
    };
    let read = |t: &str| isa_runtime::expr::evaluate(t, 0, &names);
    let mut rng = 0x51_u64;
    let mut next = || {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        rng >> 24
    };
    let slots: Vec<String> = (0..6).map(|_| slot_text(s, next() & 0x1f_ffff, 0)).collect();
    let tails = [
        "  FADD R0, R1, R2 ;",
        "",
        " ",
        "X",
        "1",
        "0  MOV R0, R1",
        "]",
        ":UA]",
        " + 1",
        "\tNOP",
        "+x]",
        "\u{feff}0",
        "0\u{e9}",
    ];
    let (mut kept, mut fresh) = (syntax::Scratch::default(), syntax::Scratch::default());
    let mut read_slots = 0;
    for expression in [None, Some(&read as &dyn Fn(&str) -> isa_runtime::expr::Reading)] {
        let ctx = Context { pc: 0, labels: &|_| None, ignore_case: false, expression };
        syntax::forget_prefixes(&mut kept);
        for _ in 0..3_000 {
            let slot = &slots[next() as usize % slots.len()];
            let cut = match next() % 4 {
                0 => next() as usize % (slot.len() + 1),
                _ => slot.len(),
            };
            let text = format!("{}{}", &slot[..cut], tails[next() as usize % tails.len()]);
            let answer = syntax::quick_prefix_in(&mut kept, s.slot, syntax, &text, &ctx);
            assert_eq!(answer, syntax::quick_in(&mut fresh, s.slot, syntax, &text, &ctx, true), "{text:?}");
            read_slots += usize::from(matches!(answer, syntax::Quick::Read(..)));
        }
    }
    assert!(read_slots > 3_000, "quick reads {read_slots} of 6000 slots");
}

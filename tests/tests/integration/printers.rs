//! The compiled printers against the syntax engine they were compiled from.
//!
//! Every generated target prints a typed instruction through Rust compiled from its syntax
//! (`Instruction::write_text`); the interpreted engine (`isa_runtime::syntax::print`) stays the
//! reference. For every golden word of every target and for random words of every encoding,
//! in every dialect, both must give the same text, or both find no text (`Stop::Unshown`
//! where the engine's text is incomplete). The engine prints the instruction's encoded word:
//! the typed instruction holds no don't-care bits. The compiled printer appends to a `String`
//! directly and gathers its text on the stack for any other writer: both give the same text.

use isa_generated::maxwell::Maxwell;
use isa_generated::tegra_fs::{AluImmediates, Instruction, TegraFs};
use isa_generated::tegra_vs::TegraVs;
use isa_generated::vc4::Vc4;
use isa_runtime::print::Stop;
use isa_runtime::target::{assemble_program, Isa};

/// How the two printers compared on one word: `None` when the word does not decode,
/// otherwise how many dialects show it; a disagreement is an error naming the word.
fn compare<T: Isa>(word: u128, pc: u64) -> Result<Option<usize>, String> {
    let Ok(insn) = T::decode(word) else { return Ok(None) };
    let encoded = T::encode(&insn).map_err(|e| format!("{word:#x}: decodes but does not encode: {e}"))?;
    let format = T::formats()[T::format_index(&insn)];
    let mut shown = 0;
    for (d, dialect) in T::dialects().iter().enumerate() {
        let mut engine = String::new();
        let complete = format
            .syntax
            .get(d)
            .is_some_and(|s| isa_runtime::syntax::print(s, &format.unpack(encoded), pc, &mut engine));
        let mut compiled = String::new();
        let result = T::write_text(&insn, d, pc, &mut compiled);
        // Through any other writer the printer gathers its pieces on the stack first (a
        // `String` is appended to directly): the same text, the same result.
        let mut line = isa_runtime::print::LineBuf::new();
        let gathered = T::write_text(&insn, d, pc, &mut line);
        if (gathered, line.as_str()) != (result, compiled.as_str()) {
            return Err(format!(
                "{} {word:#x} at {pc:#x}, dialect {}: into a String {compiled:?} ({result:?}), through a writer {:?} ({gathered:?})",
                T::NAME,
                dialect.name,
                line.as_str()
            ));
        }
        match (complete, result) {
            (true, Ok(())) if engine == compiled => shown += 1,
            (false, Err(Stop::Unshown)) => {}
            (_, result) => {
                return Err(format!(
                    "{} {word:#x} at {pc:#x}, dialect {}:\n  engine:   {engine:?} (complete: {complete})\n  compiled: {compiled:?} ({result:?})",
                    T::NAME,
                    dialect.name
                ))
            }
        }
    }
    Ok(Some(shown))
}

/// Compares every word; returns (decoded words, word × dialect texts compared) and fails with
/// the first disagreements.
fn compare_all<T: Isa>(words: impl IntoIterator<Item = (u128, u64)>) -> (usize, usize) {
    let (mut decoded, mut texts) = (0, 0);
    let mut failures = Vec::new();
    for (word, pc) in words {
        match compare::<T>(word, pc) {
            Ok(Some(n)) => {
                decoded += 1;
                texts += n;
            }
            Ok(None) => {}
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    (decoded, texts)
}

fn data(path: &str) -> String {
    let path = format!("{}/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The hex word in column `column` of each row of a TSV corpus (comments and control words
/// skipped), with the address its source names (`@addr 0x110`), else 0.
fn tsv_words(text: &str, column: usize) -> Vec<(u128, u64)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty() && !l.contains("\tCTRL "))
        .filter_map(|l| {
            let word = l.split('\t').nth(column)?.trim().trim_start_matches("0x");
            let word = u128::from_str_radix(word, 16).ok()?;
            let pc = l
                .split("@addr 0x")
                .nth(1)
                .and_then(|a| u64::from_str_radix(a.split(|c: char| !c.is_ascii_hexdigit()).next()?, 16).ok())
                .unwrap_or(0);
            Some((word, pc))
        })
        .collect()
}

#[test]
fn vc4_golden_words_print_alike() {
    let mut words = tsv_words(&data("vc4/mesa_golden.tsv"), 0);
    words.extend(tsv_words(&data("vc4/vc4asm_asm_golden.tsv"), 1));
    let (decoded, texts) = compare_all::<Vc4>(words.iter().copied());
    eprintln!("vc4: {} golden words, {decoded} decode, {texts} texts agree", words.len());
    // Two dialects (mesa, vc4asm); most golden words decode and both show them.
    assert!(decoded > 4_000 && texts > decoded, "{decoded} decoded, {texts} texts");
}

#[test]
fn maxwell_golden_words_print_alike() {
    let mut words = tsv_words(&data("maxwell/nvdisasm_golden.tsv"), 0);
    words.extend(tsv_words(&data("maxwell/nvdisasm_compute.tsv"), 0));
    let (decoded, texts) = compare_all::<Maxwell>(words.iter().copied());
    eprintln!("maxwell: {} golden words, {decoded} decode, {texts} texts agree", words.len());
    assert!(decoded > 1_800 && texts >= decoded, "{decoded} decoded, {texts} texts");
}

/// The words of vertex programs in grate's syntax, at their addresses, print alike.
fn tegra_vs_programs_print_alike(programs: &[(String, String)]) {
    let mut words = Vec::new();
    for (name, source) in programs {
        let program = assemble_program::<TegraVs>(source, 0).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        words.extend(program.into_iter().enumerate().map(|(i, w)| (w, i as u64 * 16)));
    }
    let (decoded, texts) = compare_all::<TegraVs>(words.iter().copied());
    eprintln!("tegra_vs: {} program words, {decoded} decode, {texts} texts agree", words.len());
    assert!(
        !words.is_empty() && decoded == words.len() && texts >= decoded,
        "{decoded} of {} decoded, {texts} texts",
        words.len()
    );
}

/// Our own vertex programs (tests/data/tegra).
#[test]
fn tegra_vs_own_programs_print_alike() {
    let programs: Vec<(String, String)> = ["transform_vs.txt", "control_vs.txt"]
        .iter()
        .map(|n| (n.to_string(), isa_tests::tegra_program(n)))
        .collect();
    tegra_vs_programs_print_alike(&programs);
}

/// grate's 15 vertex programs (grate names them `vs_*` or `*_vs`; the fragment ones are
/// tegra_fs's), read from `ISA_GRATE_TESTS_DIR` (tests/data/tegra/README.md).
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn tegra_vs_grate_programs_print_alike() {
    let dir = std::env::var("ISA_GRATE_TESTS_DIR").expect("ISA_GRATE_TESTS_DIR");
    let mut programs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}")) {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        if name.starts_with("vs_") || name.ends_with("_vs.txt") {
            programs.push((name, std::fs::read_to_string(&path).expect("readable program")));
        }
    }
    assert_eq!(programs.len(), 15, "grate's 15 vertex programs");
    tegra_vs_programs_print_alike(&programs);
}

/// tegra_fs's compiled printers against the engine on random words of every encoding, ALU3's
/// immediates (an `any_order` with a separator) among them: the same texts, and some of those
/// texts list two immediates or more, so the separator is printed.
#[test]
fn tegra_fs_random_words_print_alike() {
    let mut rng = 0xF5_u128;
    let mut bits = Vec::new();
    for _ in 0..64 {
        rng = rng.wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645).wrapping_add(0x5851_F42D_4C95_7F2D);
        bits.push(rng.rotate_left(64) ^ rng);
    }
    let decoded = random_words_print_alike::<TegraFs>(&bits, 0).unwrap_or_else(|e| panic!("{e}"));
    assert!(decoded > 0);
    // ALU3's immediates have no fixed bits: a word decodes as an operation first.
    let immediates =
        TegraFs::formats().iter().position(|f| f.name == "alu_immediates").expect("ALU3 immediates");
    let format = TegraFs::formats()[immediates];
    let mut separated = 0;
    for &b in &bits {
        let word = b as u64;
        let insn = Instruction::AluImmediates(AluImmediates::from_word(word).expect("any word"));
        let mut engine = String::new();
        assert!(isa_runtime::syntax::print(format.syntax[0], &format.unpack(word.into()), 0, &mut engine));
        let mut compiled = String::new();
        assert_eq!(TegraFs::write_text(&insn, 0, 0, &mut compiled), Ok(()), "{word:#x}");
        assert_eq!(engine, compiled, "{word:#x}");
        separated += usize::from(compiled.contains(", imm"));
    }
    assert!(separated > 0, "no random ALU3 word lists two immediates");
}

/// A random word of encoding `format`: random bits with its fixed fields set.
fn word_of<T: Isa>(format: usize, bits: u128) -> u128 {
    let mask = if T::WORD_BITS >= 128 { u128::MAX } else { (1u128 << T::WORD_BITS) - 1 };
    let mut word = bits & mask;
    for field in T::formats()[format].fields {
        if let Some(v) = field.fixed {
            isa_runtime::bits::set(&mut word, field.pieces, v);
        }
    }
    word
}

/// Random words of every encoding, at a random address, print alike; returns how many decode.
fn random_words_print_alike<T: Isa>(bits: &[u128], pc: u64) -> Result<usize, String> {
    let mut decoded = 0;
    for format in 0..T::formats().len() {
        for &b in bits {
            decoded += usize::from(compare::<T>(word_of::<T>(format, b), pc)?.is_some());
        }
    }
    Ok(decoded)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    #[test]
    fn random_words_of_every_encoding_print_alike(
        bits in proptest::collection::vec(proptest::prelude::any::<u128>(), 4),
        pc in 0u64..0x10_0000,
    ) {
        let pc = pc * 8;
        for result in [
            random_words_print_alike::<Vc4>(&bits, pc),
            random_words_print_alike::<Maxwell>(&bits, pc),
            random_words_print_alike::<TegraVs>(&bits, pc),
        ] {
            proptest::prop_assert!(result.is_ok(), "{}", result.err().unwrap_or_default());
        }
    }
}

/// Most random words with an encoding's fixed bits decode (the rest hold undefined values),
/// so the property above compares real texts and not only rejections.
#[test]
fn random_words_of_every_encoding_mostly_decode() {
    let mut rng = 0x5EED_u128;
    let mut bits = Vec::new();
    for _ in 0..16 {
        rng = rng.wrapping_mul(0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645).wrapping_add(0x5851_F42D_4C95_7F2D);
        bits.push(rng.rotate_left(64) ^ rng);
    }
    for (name, result, formats) in [
        ("vc4", random_words_print_alike::<Vc4>(&bits, 0), Vc4::formats().len()),
        ("maxwell", random_words_print_alike::<Maxwell>(&bits, 0), Maxwell::formats().len()),
        ("tegra_vs", random_words_print_alike::<TegraVs>(&bits, 0), TegraVs::formats().len()),
    ] {
        let decoded = result.unwrap_or_else(|e| panic!("{e}"));
        assert!(decoded * 4 >= formats * 16, "{name}: {decoded} of {} random words decode", formats * 16);
    }
}

/// `Display` (the default dialect, through the compiled printer into a stack buffer) is the
/// text the listing gives for the same word.
#[test]
fn display_is_the_default_dialect_text() {
    let words = tsv_words(&data("vc4/mesa_golden.tsv"), 0);
    let mut checked = 0;
    for (word, _) in words {
        let Ok(insn) = isa_generated::vc4::Instruction::decode(word as u64) else { continue };
        let canonical = insn.encode().expect("decoded instructions encode");
        let listed =
            isa_generated::vc4::disassemble(canonical, isa_generated::vc4::Dialect::Vc4asm).expect("decodes");
        assert_eq!(insn.to_string(), listed, "{word:#x}");
        checked += 1;
    }
    assert!(checked > 4_000, "{checked}");
}

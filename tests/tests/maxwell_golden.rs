//! The Maxwell target against nvdisasm's text (`data/maxwell/nvdisasm_golden.tsv`, from the
//! research notes, docs/research/maxwell-sm5x-encodings.md §G).
//!
//! Every instruction word of the file decodes, prints exactly the file's text and assembles
//! back to the same word. The text has no `.reuse`, `.T`/`.P` suffixes and no ` ;`: those come
//! from the control word and the statement terminator, which this target does not print.
//!
//! Exceptions, by row kind:
//! - `CTRL` rows are scheduling control words, one before every three instructions. A control
//!   word is told apart from an instruction by its position in the stream, not by its bits
//!   (bit 63 is 0, which some instructions share), and the stream is not described by this
//!   spec: they are skipped here.
//! - Rows whose text was derived by the research notes' decoder rather than printed by nvdisasm
//!   (FUSHIGI rows, graphics-only instructions) are held to the same standard: their text
//!   follows NV's FORMAT lines.

use isa_generated::maxwell::{Instruction, Maxwell};
use isa_runtime::target::{assemble_one, disassemble_word};

struct Row<'a> {
    word: u64,
    text: &'a str,
    source: &'a str,
}

fn data() -> String {
    let path = format!("{}/data/maxwell/nvdisasm_golden.tsv", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rows(text: &str) -> Vec<Row<'_>> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut cols = l.split('\t');
            let word = cols.next().unwrap_or_default();
            let word = u64::from_str_radix(word.trim_start_matches("0x"), 16)
                .unwrap_or_else(|e| panic!("{word}: {e}"));
            let text = cols.next().unwrap_or_else(|| panic!("no text: {l}"));
            let source = cols.next().unwrap_or_else(|| panic!("no source: {l}"));
            Row { word, text, source }
        })
        .collect()
}

/// The instruction's address, which branch targets are relative to: `@addr 0x110` (CuAssembler
/// rows) or `@0x000310;` (Fushigi rows). Other rows do not depend on it.
fn address(source: &str) -> u64 {
    let hex = |s: &str| {
        let digits: String = s.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
        u64::from_str_radix(&digits, 16).ok()
    };
    if let Some(i) = source.find("@addr 0x") {
        return hex(&source[i + 8..]).unwrap_or(0);
    }
    if let Some(i) = source.find(" @0x") {
        return hex(&source[i + 4..]).unwrap_or(0);
    }
    0
}

#[test]
fn every_instruction_word_prints_nvdisasm_text_and_assembles_back() {
    let text = data();
    let rows = rows(&text);
    assert_eq!(rows.len(), 1955, "the golden file has 1,955 rows");
    let (mut passed, mut control) = (0, 0);
    let mut failures = Vec::new();
    for row in &rows {
        if row.text.starts_with("CTRL ") {
            control += 1;
            continue;
        }
        let pc = address(row.source);
        let w = row.word;
        if let Err(e) = Instruction::decode(w) {
            failures.push(format!("{w:#018x} {:?}: decode error {e}", row.text));
            continue;
        }
        let printed = match disassemble_word::<Maxwell>(w as u128, 0, pc) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{w:#018x} {:?}: disassembly error {e}", row.text));
                continue;
            }
        };
        if printed != row.text {
            failures.push(format!("{w:#018x}\n  nvdisasm: {}\n      ours: {printed}", row.text));
            continue;
        }
        match assemble_one::<Maxwell>(row.text, 0, pc, &|_| None, false) {
            Ok(insn) => match insn.encode() {
                Ok(back) if back == w => passed += 1,
                Ok(back) => failures.push(format!("{w:#018x} {:?}: assembles to {back:#018x}", row.text)),
                Err(e) => failures.push(format!("{w:#018x} {:?}: encode error {e}", row.text)),
            },
            Err((pos, m)) => failures.push(format!("{w:#018x} {:?}: assembler: {m} at {pos}", row.text)),
        }
    }
    assert_eq!(control, 135, "control words");
    assert!(
        failures.is_empty(),
        "{} of {} instruction words pass; {} fail:\n{}",
        passed,
        rows.len() - control,
        failures.len(),
        failures.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    assert_eq!(passed, 1955 - 135);
}

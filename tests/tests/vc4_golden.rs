//! The VideoCore IV QPU target against the real tools' output.
//!
//! - `mesa_golden.tsv`: word → the exact text Mesa's `vc4_qpu_disasm` prints (built and run
//!   from Mesa's sources). Our `mesa` dialect must print the same text.
//! - `vc4asm_asm_golden.tsv`: source line → the word the real vc4asm assembler produced. Our
//!   `vc4asm` dialect must assemble the lines it supports to the same word.
//! - `vc4asm_asm_rejected.tsv`: lines vc4asm rejects. Our assembler must reject them too, with
//!   a line and a column, and never panic.

use isa_generated::vc4::{self, Instruction};

fn data(name: &str) -> String {
    let path = format!("{}/data/vc4/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of a two-column TSV file.
fn rows(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split_once('\t').unwrap_or_else(|| panic!("not two columns: {l:?}")))
        .collect()
}

// ---- Mesa ------------------------------------------------------------------------------------

/// Every word of the Mesa corpus that one of our encodings matches prints exactly Mesa's text.
///
/// Excluded: load-immediate words with mode 2, 5, 6 or 7 (sig 14, bits 59:57). These are not
/// instructions (the spec has no encoding for them, so they match no format and the
/// disassembler returns a typed `NoMatch` error); Mesa ignores the mode and prints them like
/// any `load_imm`. Every other word matches an encoding, and the `mesa` dialect prints from the
/// raw word, so words the typed decoder rejects (undefined add opcodes, mul packs) still print
/// Mesa's `???` spellings, and views (`imm`) show the bits of `unused` ranges too.
#[test]
fn mesa_disassembly_matches_mesa() {
    let text = data("mesa_golden.tsv");
    let (mut matched, mut excluded) = (0, 0);
    let mut failures = Vec::new();
    for (word, golden) in rows(&text) {
        let w = u64::from_str_radix(word, 16).expect("hex word");
        if Instruction::match_format(w).is_none() {
            let mode = (w >> 57) & 7;
            assert!(w >> 60 == 14 && matches!(mode, 2 | 5 | 6 | 7), "{word}: no encoding matches");
            assert!(
                vc4::disassemble(w, Some("mesa")).is_err(),
                "{word}: printed although no encoding matches"
            );
            excluded += 1;
            continue;
        }
        match vc4::disassemble(w, Some("mesa")) {
            Ok(t) if t == golden => matched += 1,
            Ok(t) => failures.push(format!("{word}\n   mesa: {golden}\n    ours: {t}")),
            Err(e) => failures.push(format!("{word}\n   mesa: {golden}\n    ours: error {e}")),
        }
    }
    eprintln!(
        "mesa: {matched} words print Mesa's text; {excluded} excluded (load-immediate modes 2, 5, 6, 7)"
    );
    assert!(
        failures.is_empty(),
        "{} of {} words print differently; first ones:\n{}",
        failures.len(),
        failures.len() + matched,
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

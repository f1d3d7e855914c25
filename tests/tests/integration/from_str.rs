//! `FromStr` on the generated instruction types: one instruction in the target's default
//! dialect (at address 0, no labels), as `assemble` reads it; a line that does not read is an
//! error saying where and why, never a panic.

use isa_generated::{maxwell, vc4};

/// Words the real vc4asm assembler produced for these lines
/// (`tests/data/vc4/vc4asm_asm_golden.tsv`); vc4asm is the default dialect.
#[test]
fn vc4asm_lines_parse_to_the_words_vc4asm_assembles() {
    for (text, word) in [
        ("nop", 0x1000_09e7_009e_7000u64),
        ("nop r0", 0x1002_0827_009e_7000),
        ("thrsw", 0x2000_09e7_009e_7000),
        ("sbdone", 0x5000_09e7_009e_7000),
    ] {
        let insn: vc4::Instruction = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(insn.encode(), Ok(word), "`{text}`");
    }
}

/// nvdisasm text from `tests/data/maxwell/nvdisasm_golden.tsv` (CuAssembler's records).
#[test]
fn nvdisasm_lines_parse_to_nvdisasm_words() {
    for (text, word) in
        [("FADD R5, R0, 0.5", 0x3858_003f_0007_0005u64), ("FADD R9, R9, 0.5 ;", 0x3858_003f_0007_0909)]
    {
        let insn: maxwell::Instruction = text.parse().unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(insn.encode(), Ok(word), "`{text}`");
    }
}

/// Every decodable word of the Maxwell golden corpus: the default dialect's text of it parses
/// back to the same instruction.
#[test]
fn printed_maxwell_instructions_parse_back() {
    let path = format!("{}/data/maxwell/nvdisasm_golden.tsv", env!("CARGO_MANIFEST_DIR"));
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#') && !l.contains("\tCTRL ")) {
        let Some(word) =
            line.split('\t').next().and_then(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16).ok())
        else {
            continue;
        };
        let Ok(insn) = maxwell::Instruction::decode(word) else { continue };
        let text = insn.to_string();
        let back: maxwell::Instruction = text.parse().unwrap_or_else(|e| panic!("`{text}` ({word:#x}): {e}"));
        assert_eq!(back.encode(), insn.encode(), "`{text}`");
        checked += 1;
    }
    assert!(checked > 1000, "only {checked} words checked");
}

#[test]
fn a_line_that_does_not_read_is_an_error_with_its_place() {
    let e = "nopx r0".parse::<vc4::Instruction>().expect_err("not an instruction");
    assert_eq!((e.pos, e.length), (0, 4));
    assert_eq!(e.to_string(), format!("1: {}", e.message));
    assert!(e.message.starts_with("unknown mnemonic `nopx`"), "{}", e.message);
    let e = "FADD R5, R0,".parse::<maxwell::Instruction>().expect_err("an operand is missing");
    assert!(e.pos >= 11, "{e}");
}

//! The Maxwell target against nvdisasm's text (`data/maxwell/nvdisasm_golden.tsv`, from the
//! research notes, docs/research/maxwell-sm5x-encodings.md §G).
//!
//! Every instruction word of the file decodes, prints exactly the file's text followed by
//! nvdisasm's ` ;` and assembles back to the same word. The file's text has no `.reuse`,
//! `.T`/`.P` suffixes: those come from the control word, which this target prints as each
//! instruction's scheduling slot.
//!
//! - `CTRL` rows are scheduling control words, one before every three instructions, told apart
//!   from instructions by their position in the stream: each slot decodes to the row's values
//!   (see `every_control_word_decodes_to_its_slots`).
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
    read_data("nvdisasm_golden.tsv")
}

fn read_data(name: &str) -> String {
    let path = format!("{}/data/maxwell/{name}", env!("CARGO_MANIFEST_DIR"));
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

/// Checks every instruction row (not `CTRL`): decodes, prints the row's text followed by ` ;`,
/// and assembles back to the same word. Returns the rows that pass, the control rows skipped,
/// and a message per failing row.
fn check(rows: &[Row<'_>]) -> (usize, usize, Vec<String>) {
    let (mut passed, mut control) = (0, 0);
    let mut failures = Vec::new();
    for row in rows {
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
        let expected = format!("{} ;", row.text);
        if printed != expected {
            failures.push(format!("{w:#018x}\n  nvdisasm: {}\n      ours: {printed}", row.text));
            continue;
        }
        match assemble_one::<Maxwell>(row.text, 0, pc, &|_| None, false) {
            Ok(insn) => match insn.encode() {
                Ok(back) if back == w => passed += 1,
                Ok(back) => failures.push(format!("{w:#018x} {:?}: assembles to {back:#018x}", row.text)),
                Err(e) => failures.push(format!("{w:#018x} {:?}: encode error {e}", row.text)),
            },
            Err(e) => {
                failures.push(format!("{w:#018x} {:?}: assembler: {} at {}", row.text, e.message, e.pos))
            }
        }
    }
    (passed, control, failures)
}

#[test]
fn every_instruction_word_prints_nvdisasm_text_and_assembles_back() {
    let text = data();
    let rows = rows(&text);
    assert_eq!(rows.len(), 1955, "the golden file has 1,955 rows");
    let (passed, control, failures) = check(&rows);
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

/// The integer, logic, select, compare, conversion, special-register, shared and generic memory,
/// call, loop-break, memory-barrier, atomic, barrier, texture and surface instructions of compute
/// kernels, and the multiply, half-precision, video, predicate-move, cache-control and trap ones
/// (issue 15) against `data/maxwell/nvdisasm_compute.tsv`: CuAssembler's nvdisasm records, words
/// with random operand bits printed by nvdisasm 11.8, and ptxas's words.
#[test]
fn compute_instruction_words_print_nvdisasm_text_and_assemble_back() {
    let text = read_data("nvdisasm_compute.tsv");
    let rows = rows(&text);
    let (passed, control, failures) = check(&rows);
    assert_eq!(control, 0);
    assert!(
        failures.is_empty(),
        "{passed} of {} instruction words pass; {} fail:\n{}",
        rows.len(),
        failures.len(),
        failures.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    assert_eq!(passed, rows.len());
    // Rows per mnemonic, so that a lost encoding cannot go unnoticed.
    let mnemonic = |text: &str| {
        let unguarded =
            if text.starts_with('@') { text.split_once(' ').map_or(text, |(_, t)| t) } else { text };
        unguarded.split([' ', '.']).next().unwrap_or_default().to_string()
    };
    let count = |m: &str| rows.iter().filter(|r| mnemonic(r.text) == m).count();
    let counts: Vec<usize> = [
        "S2R", "IADD", "SHR", "LOP", "LOP32I", "SEL", "IMNMX", "ICMP", "BFE", "CAL", "RET", "PBK", "BRK",
        "MEMBAR", "I2F", "I2I", "LDS", "STS", "LD", "ST", "LDL", "STL", "ALD", "AST", "LEA", "IADD3", "SHF",
        "LOP3", "LDG", "STG", "DADD", "DMUL", "DFMA", "SHFL", "VOTE", "ATOM", "ATOMS", "RED", "BAR", "B2R",
        "PSETP", "FLO", "PRMT", "DMNMX", "CS2R", "FCHK", "POPC", "BFI", "DSETP", "BRX", "JMX", "VADD",
        "VABSDIFF", "VMNMX", "VSET", "VMAD", "PCNT", "CONT", "PRET", "JCAL", "JMP", "TLD", "TLDS", "TLD4",
        "TLD4S", "TXQ", "TMML", "TXD", "TXA", "SULD", "SUST", "SURED", "SUATOM", "PIXLD", "ISBERD",
    ]
    .iter()
    .map(|m| count(m))
    .collect();
    assert_eq!(
        counts,
        [
            28, 50, 43, 86, 22, 47, 54, 71, 36, 11, 8, 11, 10, 14, 60, 53, 36, 33, 30, 29, 8, 8, 9, 8, 28,
            28, 26, 26, 17, 17, 17, 17, 18, 25, 31, 81, 59, 28, 28, 15, 14, 24, 43, 22, 9, 23, 21, 29, 30, 7,
            6, 117, 36, 38, 40, 43, 8, 8, 8, 8, 8, 54, 59, 56, 34, 73, 50, 21, 22, 98, 89, 40, 72, 40, 37
        ],
        "rows per mnemonic"
    );
    // The encodings of session 6 (SM53 words; research D.29).
    let counts: Vec<usize> = "ISET DSET CSET CSETP PSET R2P P2R FCMP IMUL IMUL32I IMAD FFMA32I HMUL2 HFMA2 \
        HSET2 HADD2_32I HMUL2_32I HFMA2_32I VSHL VSHR VSETP FSWZADD CCTL CCTLL CCTLT SETCRSPTR GETCRSPTR \
        SETLMEMBASE GETLMEMBASE LEPC LONGJMP PEXIT RTT SAM RAM IDE BPT R2B NOP DEPBAR VABSDIFF4"
        .split_whitespace()
        .map(count)
        .collect();
    assert_eq!(
        counts,
        [
            54, 56, 47, 46, 15, 36, 44, 66, 44, 20, 59, 16, 62, 70, 89, 16, 16, 16, 50, 33, 27, 24, 48, 41,
            27, 12, 12, 12, 12, 12, 36, 12, 4, 1, 1, 13, 19, 15, 32, 7, 66
        ],
        "rows per mnemonic of the session 6 encodings"
    );
}

/// One slot as the golden file writes it: `{stall=6 bit4=0 usched=6:W6G wr=- rd=- wait=0x00 reuse=0x0}`.
#[derive(Debug, PartialEq)]
struct Slot {
    stall: u8,
    bit4: bool,
    wr: Option<u8>,
    rd: Option<u8>,
    wait: u8,
    reuse: u8,
}

fn golden_slots(text: &str) -> Vec<Slot> {
    let field = |slot: &str, name: &str| -> String {
        let start =
            slot.find(&format!("{name}=")).unwrap_or_else(|| panic!("{name} in {slot}")) + name.len() + 1;
        slot[start..].split([' ', '}']).next().unwrap_or_default().to_string()
    };
    let barrier = |v: String| if v == "-" { None } else { Some(v.parse::<u8>().expect("barrier")) };
    let hex = |v: String| u8::from_str_radix(v.trim_start_matches("0x"), 16).expect("hex");
    text.split('{')
        .skip(1)
        .take(3)
        .map(|slot| Slot {
            stall: field(slot, "stall").parse().expect("stall"),
            bit4: field(slot, "bit4") == "1",
            wr: barrier(field(slot, "wr")),
            rd: barrier(field(slot, "rd")),
            wait: hex(field(slot, "wait")),
            reuse: hex(field(slot, "reuse")),
        })
        .collect()
}

#[test]
fn every_control_word_decodes_to_its_slots() {
    use isa_generated::maxwell::{Barrier, SchedSlot, SCHEDULE};
    let text = data();
    let mut checked = 0;
    for row in rows(&text).iter().filter(|r| r.text.starts_with("CTRL ")) {
        assert!(SCHEDULE.is_control(row.word as u128), "{:#x}: bit 63 is clear", row.word);
        for (i, want) in golden_slots(row.text).into_iter().enumerate() {
            let raw = SCHEDULE.slot(row.word as u128, i as u32);
            let slot = SchedSlot::from_word(raw).unwrap_or_else(|e| panic!("{:#x} slot {i}: {e}", row.word));
            let barrier = |b: Barrier| match b {
                Barrier::None => None,
                Barrier::Sb(n) => Some(n.get()),
            };
            let got = Slot {
                stall: slot.stall,
                bit4: slot.yield_flag,
                wr: barrier(slot.write_barrier),
                rd: barrier(slot.read_barrier),
                wait: slot.wait.iter().enumerate().map(|(k, b)| u8::from(*b) << k).sum(),
                reuse: slot.reuse.iter().enumerate().map(|(k, b)| u8::from(*b) << k).sum(),
            };
            assert_eq!(got, want, "{:#x} slot {i}", row.word);
            checked += 1;
        }
    }
    assert_eq!(checked, 3 * 135);
}

/// Issue 15, session 7, against `data/maxwell/nvdisasm_differential.tsv`: words NVIDIA ptxas
/// (12.9.86 and 11.8.89) compiled for sm_50, sm_52 and sm_53 from kernels of our own, and words
/// of every encoding with random operand bits, each with the text NVIDIA nvdisasm 11.8.89
/// printed for it (`-b SM50`/`SM53`, normalised only as the other files: no ` ;`, `.reuse`,
/// `{ }` of dual issue, texture `.T`/`.P`). Every word decodes and prints exactly that text.
/// The text assembles back to the word, except on rows marked `(bits nvdisasm does not
/// print)`: bits nvdisasm ignores (the spec's `unused` bits, and those a text leaves out, such as
/// the bits above a conversion's half immediate) and NaN payloads, which it prints without. Their
/// text assembles to another word that prints the same text, and a listing keeps such a word as
/// `.quad` (checked on each of them). Session 8 added words the spec refused before (IPA.IDX
/// with an attribute address, VADD's negated immediates, VABSDIFF4's immediate B, TEXS masks
/// 5-7, XMAD's signed immediate, BAR.SYNC with two registers).
#[test]
fn differential_words_print_nvdisasm_text() {
    use isa_runtime::target::disassemble_words;
    let text = read_data("nvdisasm_differential.tsv");
    let rows = rows(&text);
    let mut failures = Vec::new();
    let (mut exact, mut lossy) = (0, 0);
    for row in &rows {
        let (w, pc) = (row.word, address(row.source));
        if let Err(e) = Instruction::decode(w) {
            failures.push(format!("{w:#018x} {:?}: decode error {e}", row.text));
            continue;
        }
        match disassemble_word::<Maxwell>(w as u128, 0, pc) {
            Ok(t) if t == format!("{} ;", row.text) => {}
            Ok(t) => {
                failures.push(format!("{w:#018x}\n  nvdisasm: {}\n      ours: {t}", row.text));
                continue;
            }
            Err(e) => {
                failures.push(format!("{w:#018x} {:?}: {e}", row.text));
                continue;
            }
        }
        let marked = row.source.contains("(bits nvdisasm does not print)");
        let listing = disassemble_words::<Maxwell>(&[0x001f_fc00_fd40_07ef, w as u128], 0);
        let raw = listing.get(1).is_some_and(|l| l.text.starts_with(&format!(".quad {w:#018x}")));
        let back = match assemble_one::<Maxwell>(row.text, 0, pc, &|_| None, false).map(|i| i.encode()) {
            Ok(Ok(back)) => back,
            Ok(Err(e)) => {
                failures.push(format!("{w:#018x} {:?}: encode error {e}", row.text));
                continue;
            }
            Err(e) => {
                failures.push(format!("{w:#018x} {:?}: assembler: {} at {}", row.text, e.message, e.pos));
                continue;
            }
        };
        if back == w && !marked {
            exact += 1;
            continue;
        }
        if !marked {
            failures.push(format!("{w:#018x} {:?}: assembles to {back:#018x}", row.text));
            continue;
        }
        // The same text from the word the assembler makes; in a listing the word stays raw.
        let again = disassemble_word::<Maxwell>(back as u128, 0, pc).unwrap_or_default();
        if back == w || again != format!("{} ;", row.text) || !raw {
            failures.push(format!("{w:#018x} {:?}: marked, assembles to {back:#018x}: {again}", row.text));
            continue;
        }
        lossy += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows fail:\n{}",
        failures.len(),
        rows.len(),
        failures.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    // Rows per mnemonic, so that a lost encoding cannot go unnoticed.
    let mnemonic = |text: &str| {
        let unguarded =
            if text.starts_with('@') { text.split_once(' ').map_or(text, |(_, t)| t) } else { text };
        unguarded.split([' ', '.']).next().unwrap_or_default().to_string()
    };
    let counts: Vec<usize> =
        "AL2P ALD AST ATOM ATOMS B2R BAR BFE BFI BPT BRA BRK BRX CAL CCTL CCTLL CCTLT CONT CS2R CSET \
        CSETP DADD DEPBAR DFMA DMNMX DMUL DSET DSETP EXIT F2F F2I FADD FADD32I FCHK FCMP FFMA FFMA32I \
        FLO FMNMX FMUL FMUL32I FSET FSETP FSWZADD GETCRSPTR GETLMEMBASE HADD2 HADD2_32I HFMA2 HFMA2_32I \
        HMUL2 HMUL2_32I HSET2 HSETP2 I2F I2I IADD IADD3 IADD32I ICMP IDE IMAD IMAD32I IMADSP IMNMX IMUL \
        IMUL32I ISBERD ISCADD ISCADD32I ISET ISETP JCAL JMP JMX KIL LD LDC LDG LDL LDS LEA LEPC LONGJMP \
        LOP LOP3 LOP32I MEMBAR MOV MOV32I MUFU NOP OUT P2R PBK PCNT PEXIT PIXLD PLONGJMP POPC PRET PRMT \
        PSET PSETP R2B R2P RAM RED RET RRO RTT S2R SAM SEL SETCRSPTR SETLMEMBASE SHF SHFL SHL SHR SSY \
        ST STG STL STP STS SUATOM SULD SURED SUST SYNC TEX TEXS TLD TLD4 TLD4S TLDS TMML TXA TXD TXQ \
        VABSDIFF VABSDIFF4 VADD VMAD VMNMX VOTE VSET VSETP VSHL VSHR XMAD"
            .split_whitespace()
            .map(|m| rows.iter().filter(|r| mnemonic(r.text) == m).count())
            .collect();
    assert_eq!(
        counts,
        [
            6, 4, 4, 23, 25, 6, 27, 26, 26, 7, 28, 8, 23, 22, 6, 6, 8, 6, 18, 6, 7, 43, 8, 48, 29, 31, 15,
            51, 7, 40, 34, 40, 6, 20, 22, 50, 4, 21, 18, 35, 6, 28, 49, 6, 6, 6, 25, 4, 22, 4, 21, 4, 15, 20,
            26, 20, 77, 42, 22, 38, 6, 18, 15, 51, 42, 18, 4, 6, 27, 7, 19, 103, 20, 20, 22, 6, 13, 10, 32,
            16, 13, 52, 6, 6, 46, 19, 18, 6, 32, 12, 33, 7, 18, 18, 22, 20, 6, 6, 28, 20, 20, 31, 7, 10, 6,
            19, 2, 28, 7, 24, 2, 22, 2, 46, 6, 6, 42, 34, 24, 29, 22, 10, 19, 23, 14, 11, 10, 26, 14, 28, 9,
            10, 11, 4, 8, 6, 6, 12, 6, 4, 9, 15, 9, 28, 14, 14, 19, 14, 18, 9, 9, 68
        ],
        "rows per mnemonic"
    );
    assert_eq!(rows.len(), 2956);
    assert_eq!(exact + lossy, rows.len());
}

/// Issue 15: the docs' table (docs/targets/maxwell.md, "Instruction encodings") lists every
/// encoding of the target once, with its fixed bits as value/mask and its syntax. Against
/// nvdisasm: every word of the three nvdisasm files (golden, compute, differential) matches the
/// value/mask of the row of the encoding it decodes as, and that row's syntax holds the
/// mnemonic nvdisasm printed; and every row has nvdisasm words (the control word is no row).
#[test]
fn docs_table_lists_every_encoding_with_its_opcode_bits_and_syntax() {
    let docs = include_str!("../../../docs/targets/maxwell.md");
    let table = docs.split("## Instruction encodings").nth(1).expect("the section");
    // | [`mov_r`](#format-mov_r) | `0x5c98000000000000/0xfff8000000000000` | `... MOV {rd}, ...` |
    let table_rows: Vec<(&str, u64, u64, &str)> = table
        .lines()
        .take_while(|l| !l.starts_with("### "))
        .filter_map(|l| l.strip_prefix("| [`"))
        .map(|l| {
            let (name, rest) = l.split_once('`').expect("name");
            let cols: Vec<&str> = rest.split(" | ").collect();
            let (value, mask) = cols[1].trim_matches('`').split_once('/').expect("value/mask");
            let hex = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex");
            (name, hex(value), hex(mask), cols[2])
        })
        .collect();
    let target = isa_generated::targets().iter().find(|t| t.name() == "maxwell").expect("maxwell");
    let mut formats: Vec<&str> = target.formats().iter().map(|f| f.name).collect();
    let mut listed: Vec<&str> = table_rows.iter().map(|r| r.0).collect();
    assert_eq!(listed.len(), 315, "rows");
    formats.sort_unstable();
    listed.sort_unstable();
    assert_eq!(listed, formats, "the table lists every encoding once");
    let mut seen = std::collections::BTreeSet::new();
    let mut wrong = Vec::new();
    for file in ["nvdisasm_golden.tsv", "nvdisasm_compute.tsv", "nvdisasm_differential.tsv"] {
        let text = read_data(file);
        for row in rows(&text).iter().filter(|r| !r.text.starts_with("CTRL ")) {
            let name = target.decode(row.word as u128).expect("decodes").name;
            let (_, value, mask, syntax) = rows_named(&table_rows, name);
            let unguarded =
                row.text.split_once(' ').filter(|(g, _)| g.starts_with('@')).map_or(row.text, |r| r.1);
            let mnemonic = unguarded.split([' ', '.']).next().unwrap_or_default();
            if row.word & mask != value || !syntax.contains(mnemonic) {
                wrong.push(format!(
                    "{:#018x} {}: row {name} {value:#x}/{mask:#x} {syntax}",
                    row.word, row.text
                ));
            }
            seen.insert(name);
        }
    }
    assert!(wrong.is_empty(), "{} words:\n{}", wrong.len(), wrong[..wrong.len().min(20)].join("\n"));
    let unseen: Vec<&str> = listed.iter().copied().filter(|n| !seen.contains(n)).collect();
    assert!(unseen.is_empty(), "encodings without an nvdisasm word: {unseen:?}");
}

fn rows_named<'a>(rows: &'a [(&'a str, u64, u64, &'a str)], name: &str) -> (&'a str, u64, u64, &'a str) {
    *rows.iter().find(|r| r.0 == name).unwrap_or_else(|| panic!("no row for {name}"))
}

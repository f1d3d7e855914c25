//! NVIDIA's disassembler listings read back as assembly source (issue 15): cuobjdump's `-sass`
//! and nvdisasm's `-hex` output, where every instruction line is
//! `/*0008*/  MOV R1, c[0x0][0x20] ;  /* 0x4c98078000870001 */` and every control word stands
//! in a `/* 0x... */` comment of its own.
//!
//! The listing's text is what a user edits; its words are what the text came from. The
//! instructions are read from the text, so an edited line assembles to its new word, and each
//! instruction's scheduling slot is taken from the listed control word, so the listing rebuilds
//! byte for byte. What the listing derives from the control words is dropped from the text,
//! as the target declares it (its stream's `mark`s, its dialect's `listing` pair marks): the
//! `{ }` around a dual-issued pair, the `.reuse` flags on operands and the `.T`/`.P` after a
//! texture instruction's mnemonic; so are the listing's `(*"..."*)` annotations. A dual-issued pair's second instruction has its word
//! comment on the next line, so texts and words are collected apart and matched by position.

use crate::words::parse_hex;
use isa_runtime::bundle::Schedule;
use isa_runtime::target::{slot_text, Target};

/// What a listing shows that the control words imply, as the target declares it.
#[derive(Default)]
pub struct Marks {
    /// A pair's opening and closing marks.
    pair: (String, String),
    /// Texts after operands (`.reuse`).
    operands: Vec<&'static str>,
    /// Texts after the mnemonic, each with the mnemonics (first words) of the encodings that
    /// show it.
    mnemonic: Vec<(&'static str, Vec<&'static str>)>,
    /// What starts a guard (`@`).
    guard: String,
    /// The dialect's byte directive, which lists the bytes that end a program inside a word
    /// (`isa disasm --listing` writes them after the listing).
    byte: Option<&'static str>,
}

impl Marks {
    /// The marks of `target` in dialect number `dialect`; nvdisasm's `{ }` where the dialect
    /// declares no listing layout.
    pub fn of(target: &dyn Target, dialect: usize) -> Self {
        let style = target.dialects().get(dialect).and_then(|d| d.listing);
        let mut marks = Marks {
            pair: style.map_or(("{".into(), "}".into()), |s| (s.open.0.into(), s.close.0.into())),
            guard: style.map_or("@".into(), |s| s.guard.into()),
            byte: target.dialects().get(dialect).and_then(|d| {
                d.directives
                    .iter()
                    .find(|(_, k)| *k == isa_runtime::directives::Directive::Byte)
                    .map(|(s, _)| *s)
            }),
            ..Marks::default()
        };
        let Some(schedule) = target.schedule() else { return marks };
        for mark in schedule.marks {
            if !mark.mnemonic {
                marks.operands.extend(mark.texts.iter().filter(|t| !t.is_empty()));
                continue;
            }
            let mut leads = Vec::new();
            for f in target.formats().iter().filter(|f| mark.names(f.name)) {
                if let Some(syntax) = f.syntax.get(dialect) {
                    syntax.mnemonics(&mut leads);
                }
            }
            for t in mark.texts.iter().filter(|t| !t.is_empty()) {
                marks.mnemonic.push((t, leads.clone()));
            }
        }
        marks
    }
}

/// The instruction text after a line's `/*0008*/` address comment, or `None` when the line is
/// not an instruction line.
fn instruction_text(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("/*")?;
    let (address, text) = rest.split_once("*/")?;
    (!address.is_empty() && address.chars().all(|c| c.is_ascii_hexdigit())).then_some(text)
}

/// Whether a comment's contents are one hex word, `0x4c98078000870001`.
fn is_word(inner: &str) -> bool {
    inner.strip_prefix("0x").is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The contents of the `/* 0x... */` comments of a line, in order.
fn word_comments(line: &str) -> impl Iterator<Item = &str> {
    let comments = line.split("/*").skip(1).filter_map(|c| c.split_once("*/"));
    comments.map(|(inner, _)| inner.trim()).filter(|inner| is_word(inner))
}

/// An instruction's text without its word comment, the pair marks, the `(*...*)`
/// annotations, the marks of the control words, the closing `;` and the blank in
/// `c[0x0] [0x8]`.
fn clean(text: &str, marks: &Marks) -> String {
    let mut t = text.split("/*").next().unwrap_or("").to_string();
    while let Some(start) = t.find("(*") {
        let end = t[start..].find("*)").map_or(t.len(), |e| start + e + 2);
        t.replace_range(start..end, "");
    }
    let mut t = t.trim();
    // The pair marks stand apart: before the text and after it (`DEPBAR {0}` keeps its own).
    let (open, close) = (marks.pair.0.as_str(), marks.pair.1.as_str());
    if let Some(rest) =
        t.strip_prefix(open).filter(|r| !open.is_empty() && r.starts_with(char::is_whitespace))
    {
        t = rest.trim_start();
    }
    if let Some(rest) =
        t.strip_suffix(close).filter(|r| !close.is_empty() && r.ends_with(char::is_whitespace))
    {
        t = rest.trim_end();
    }
    let mut t = t.trim_end_matches(';').trim_end().to_string();
    for m in &marks.operands {
        t = t.replace(m, "");
    }
    // A mark after the mnemonic, where the mnemonic is one of its encodings'.
    let start = match t.split_once(' ') {
        Some((g, _)) if !marks.guard.is_empty() && g.starts_with(marks.guard.as_str()) => g.len() + 1,
        _ => 0,
    };
    let end = t[start..].find(' ').map_or(t.len(), |e| start + e);
    let word = &t[start..end];
    let base = word.split('.').next().unwrap_or("");
    if let Some((m, _)) = marks.mnemonic.iter().find(|(m, leads)| word.ends_with(m) && leads.contains(&base))
    {
        t.replace_range(end - m.len()..end, "");
    }
    // nvdisasm 11.8 writes some constant operands with a blank, `c[0x0] [0x8]`.
    let t = t.replace("] [", "][");
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` as assembly source when it is such a listing: one line per line of the listing, an
/// instruction line becoming its slot (from the control word) and its text, a line of the
/// dialect's byte directive kept (the bytes a cut program ends in), every other line blank,
/// so that errors keep their line numbers. `None` when `text` is no listing: no
/// instruction line, or not as many word comments as its instructions and control words need.
pub fn source(
    text: &str,
    word_bits: u32,
    schedule: Option<&Schedule>,
    dialect: usize,
    marks: &Marks,
) -> Option<String> {
    let instructions = text.lines().filter(|l| instruction_text(l).is_some()).count();
    if instructions == 0 {
        return None;
    }
    let words: Vec<u128> =
        text.lines().flat_map(word_comments).map(|w| parse_hex(w, word_bits).ok()).collect::<Option<_>>()?;
    let group = schedule.map_or(1, |s| s.slots as usize);
    let controls = if schedule.is_some() { instructions.div_ceil(group) } else { 0 };
    if words.len() != instructions + controls {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut k = 0usize;
    for line in text.lines() {
        if let Some(t) = instruction_text(line) {
            if let Some(s) = schedule {
                let control = words[k / group * (group + 1)];
                out.push_str(&slot_text(s, s.slot(control, (k % group) as u32), dialect));
                out.push_str("  ");
            }
            out.push_str(&clean(t, marks));
            k += 1;
        } else if let Some(byte) = marks.byte {
            let data = line.trim_start().strip_prefix(byte);
            if data.is_some_and(|rest| rest.starts_with(char::is_whitespace)) {
                out.push_str(line);
            }
        }
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nvdisasm's marks, as maxwell.isa declares them.
    fn nvdisasm() -> Marks {
        Marks {
            pair: ("{".into(), "}".into()),
            operands: vec![".reuse"],
            mnemonic: vec![(".T", vec!["TLDS"]), (".P", vec!["TXQ"])],
            guard: "@".into(),
            byte: Some(".byte"),
        }
    }

    #[test]
    fn instruction_lines_and_their_text() {
        let clean = |t: &str| clean(t, &nvdisasm());
        assert_eq!(
            instruction_text("        /*0008*/   MOV R1 ;  /* 0x4c98 */"),
            Some("   MOV R1 ;  /* 0x4c98 */")
        );
        assert_eq!(instruction_text("   /* 0x001c4400fe0007f6 */"), None);
        assert_eq!(instruction_text("\t.headerflags @\"EF_CUDA_SM52\""), None);
        assert_eq!(
            clean(
                "         {         ISETP.LT.AND P0, PT, RZ, c[0x0][0x148], PT ;   /* 0x4b6303800527ff07 */"
            ),
            "ISETP.LT.AND P0, PT, RZ, c[0x0][0x148], PT"
        );
        assert_eq!(clean("                   S2R R24, SR_TID.X         }"), "S2R R24, SR_TID.X");
        assert_eq!(clean("  XMAD R6, R4.reuse, R5.reuse, c[0x2] [0x0] ;"), "XMAD R6, R4, R5, c[0x2][0x0]");
        assert_eq!(clean("  @!P0 SYNC      (*\"BRANCH_TARGETS .L_x_1\"*);   /* 0xf0f8 */"), "@!P0 SYNC");
        // The pair marks stand apart; an operand's own braces stay.
        assert_eq!(clean("         {         DEPBAR {0} ;   /* 0xf0f0 */"), "DEPBAR {0}");
        assert_eq!(clean("  DEPBAR.LE SB0, 0x0, {1,0}         }"), "DEPBAR.LE SB0, 0x0, {1,0}");
        // A mnemonic mark only on its encodings' mnemonics: FCMP.T is a comparison.
        assert_eq!(
            clean("  @P1 TLDS.LZ.T RZ, R30, R26, 0x58, 1D, RG ;"),
            "@P1 TLDS.LZ RZ, R30, R26, 0x58, 1D, RG"
        );
        assert_eq!(clean("  FCMP.T R1, R2, R3, R4 ;"), "FCMP.T R1, R2, R3, R4");
        assert_eq!(
            word_comments("/*0010*/ NOP ; /* 0x50b0000000070f00 */").collect::<Vec<_>>(),
            ["0x50b0000000070f00"]
        );
    }

    #[test]
    fn not_a_listing() {
        let m = nvdisasm();
        assert_eq!(source("MOV R1, R2\n", 64, None, 0, &m), None);
        // An instruction line but a missing word comment.
        assert_eq!(source("/*0000*/ NOP ;\n", 64, None, 0, &m), None);
        // Without a schedule each instruction has its word.
        assert_eq!(source("x\n/*0000*/ NOP ; /* 0x1 */\n", 64, None, 0, &m), Some("\nNOP\n".into()));
    }
}

//! Tables that a program's data sections fill: of 32-bit words (grate's `.constants`), each
//! entry `[i] = v` or `[i].part = v` writing one part of entry `i`; or of names (grate's
//! `.attributes`, `.exports`, `.uniforms`), each entry `[i] = "name"` or `[i].part = "name"`
//! naming entry `i` (a part of it), kept and printed back. The spec declares the section, the
//! entries and their parts (`table` target setting); reading lives here once.

use crate::directives::{self, Kind, Program};
use crate::error::AsmError;
pub use crate::number::Number;
use crate::target::Dialect;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// One part of a table entry: `[i].name = v` writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// Its selector (`l` in `[i].l`); empty for the part `[i] = v` writes.
    pub name: &'static str,
    /// Which 32-bit word of the entry it is in.
    pub word: u32,
    /// Its lowest bit in that word.
    pub lsb: u32,
    /// Its width.
    pub bits: u32,
    /// The format of decimals written for it; hex and integers are its raw bits.
    pub number: Option<Number>,
}

/// A table of 32-bit words filled by a data section's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    /// Its name (the program's JSON key).
    pub name: &'static str,
    /// The directive starting its section (`.constants`).
    pub section: &'static str,
    /// How many entries it has (indices `0..entries`).
    pub entries: u32,
    /// 32-bit words per entry.
    pub words: u32,
    /// The parts entries write.
    pub parts: &'static [Part],
    /// Its entries are names (`[i] = "name"`), at most this many characters long; `None`: words.
    pub names: Option<u32>,
}

/// What a program's text writes into one table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entries {
    /// A table of words: word index (entry × words + word) → word, only the words written.
    Words(BTreeMap<u32, u32>),
    /// A table of names: (entry, part selector or "" for the whole entry, name), in the
    /// order written.
    Names(Vec<(u32, String, String)>),
}

impl Entries {
    /// The words, for a table of words.
    pub fn words(&self) -> Option<&BTreeMap<u32, u32>> {
        match self {
            Entries::Words(w) => Some(w),
            Entries::Names(_) => None,
        }
    }
}

/// What a program's text writes into each table, by the table's name.
pub type Filled = Vec<(&'static str, Entries)>;

/// Reads the entries of every table's sections in `source` alone (dialect `d`; an `.include`
/// is an error here): the program expanded ([`crate::directives`]: symbols, conditionals,
/// repetitions, macros) and its entries read by [`fill`]; the other sections and statements
/// are left to the assembler. Every error is returned with its line and column.
pub fn read(source: &str, d: &Dialect, tables: &[Table]) -> Result<Filled, Vec<AsmError>> {
    let split =
        |text: &str, in_data: bool, more: bool| crate::target::split_statements(text, d, in_data, more);
    let spelling = directives::Spelling::of(d, false, Some(&split));
    let layout = directives::Layout { word_bytes: 1, code_align: 1, scheduled: None };
    let (program, errors) = directives::expand("", source, &spelling, &layout, &mut directives::NoIncludes);
    let mut errors: Vec<AsmError> = errors.iter().map(|e| program.located(e)).collect();
    let (filled, table_errors) = fill(&program, d.data_sections, tables, d.ignore_case);
    errors.extend(table_errors);
    if errors.is_empty() {
        Ok(filled)
    } else {
        Err(errors)
    }
}

/// The tables an expanded program's data sections fill: each [`Kind::Entry`] of section
/// `sections[k]` written into the table of that section (a section no table has is left
/// alone), in the order expanded, so an entry from an included file, a repetition or a macro,
/// or one written with symbols, is read as the same entry written out. Every error is located
/// through the expansion (the macro's body, the included file, with the calls that led there).
pub fn fill(
    program: &Program,
    sections: &[&str],
    tables: &[Table],
    ignore_case: bool,
) -> (Filled, Vec<AsmError>) {
    let mut filler = Filler::new(sections, tables, ignore_case);
    let mut errors = Vec::new();
    for e in &program.lines {
        errors.extend(filler.line(program, e));
    }
    (filler.filled, errors)
}

/// [`fill`] a line at a time, for a program whose expanded lines are not kept (`isa asm`
/// reading them as they come): the same entries, the same errors, in the same order.
pub struct Filler<'a> {
    sections: &'a [&'a str],
    tables: &'a [Table],
    ignore_case: bool,
    /// The tables filled so far.
    pub filled: Filled,
}

impl<'a> Filler<'a> {
    /// Empty tables.
    pub fn new(sections: &'a [&'a str], tables: &'a [Table], ignore_case: bool) -> Self {
        let filled: Filled = tables
            .iter()
            .map(|t| {
                (
                    t.name,
                    if t.names.is_some() {
                        Entries::Names(Vec::new())
                    } else {
                        Entries::Words(BTreeMap::new())
                    },
                )
            })
            .collect();
        Filler { sections, tables, ignore_case, filled }
    }

    /// Writes line `e` of `program` into its table, where it is an entry of one; its error.
    pub fn line(&mut self, program: &Program, e: &crate::directives::Expanded) -> Option<AsmError> {
        let (sections, tables, ignore_case) = (self.sections, self.tables, self.ignore_case);
        let Kind::Entry { section, text } = &e.kind else { return None };
        let name = sections.get(*section as usize)?;
        let t = tables.iter().position(|t| same(t.section, name, ignore_case))?;
        let written = match &mut self.filled[t].1 {
            Entries::Words(words) => entry(&tables[t], text, ignore_case).map(|(word, mask, bits)| {
                let old = words.get(&word).copied().unwrap_or(0);
                words.insert(word, (old & !mask) | bits);
            }),
            // A name as the source writes it (its blanks as they are), where no symbol was
            // replaced in it.
            Entries::Names(names) => {
                let raw = program.text(&e.line).get(e.offset()..e.offset() + text.len());
                let raw = raw.filter(|_| !e.replaced()).unwrap_or(text);
                name_entry(&tables[t], raw, ignore_case, names)
            }
        };
        written.err().map(|(offset, message)| program.locate(e, offset, 0, message))
    }
}

/// Reads `[i]` or `[i].part` and the `=` after it: the index, the part and the text after
/// `=` with its offset in `text`; an error is its byte offset in `text` and message.
fn target<'a>(
    t: &'a Table,
    text: &'a str,
    ignore_case: bool,
) -> Result<(u32, &'a Part, &'a str, usize), (usize, String)> {
    let value = if t.names.is_some() { "\"name\"" } else { "value" };
    let syntax =
        || alloc::format!("a `{}` entry is `[index] = {value}` or `[index].part = {value}`", t.section);
    let rest = text.strip_prefix('[').ok_or_else(|| (0, syntax()))?;
    let close = rest.find(']').ok_or_else(|| (0, syntax()))?;
    let index_text = rest[..close].trim();
    let index =
        entry_index(index_text).ok_or_else(|| (1, alloc::format!("`{index_text}` is not an entry index")))?;
    if index >= t.entries {
        let message =
            alloc::format!("entry index {index} is out of range: `{}` has {}", t.section, t.entries);
        return Err((1, message));
    }
    let mut rest = rest[close + 1..].trim_start();
    let mut at = text.len() - rest.len();
    let mut name = "";
    if let Some(after) = rest.strip_prefix('.') {
        let len = after.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
        name = &after[..len];
        rest = after[len..].trim_start();
        at += 1;
    }
    let part = t.parts.iter().find(|p| same(p.name, name, ignore_case)).ok_or_else(|| {
        let names: Vec<String> = t
            .parts
            .iter()
            .map(|p| if p.name.is_empty() { "[i]".into() } else { alloc::format!("[i].{}", p.name) })
            .collect();
        (at, alloc::format!("`{}` entries are {}", t.section, names.join(", ")))
    })?;
    let value_text = rest.strip_prefix('=').ok_or_else(|| (text.len() - rest.len(), syntax()))?.trim();
    Ok((index, part, value_text, text.len() - value_text.len()))
}

/// An entry's index: a number, or an integer expression (`i + 1` with the repetition's or the
/// macro's `i` replaced by the expander), whole, not negative.
fn entry_index(text: &str) -> Option<u32> {
    if let Ok(index) = text.parse() {
        return Some(index);
    }
    let names = crate::expr::Names {
        symbol: &|_| None,
        label: &|_| None,
        label_prefixes: &[],
        call: None,
        bare_names: false,
    };
    match crate::expr::evaluate(text, 0, &names) {
        Ok((crate::expr::Value::Int(v), end)) if end == text.len() => u32::try_from(v).ok(),
        _ => None,
    }
}

/// Reads `[i] = v` or `[i].part = v`: the word index it writes, and the mask and bits it sets
/// there; an error is its byte offset in `text` and message.
fn entry(t: &Table, text: &str, ignore_case: bool) -> Result<(u32, u32, u32), (usize, String)> {
    let (index, part, value_text, value_at) = target(t, text, ignore_case)?;
    let raw = if let Some(hex) = value_text.strip_prefix("0x").or_else(|| value_text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if !value_text.is_empty() && value_text.bytes().all(|c| c.is_ascii_digit()) {
        value_text.parse().ok()
    } else {
        value_text.parse::<f64>().ok().and_then(|v| part.number.and_then(|n| n.encode(v)))
    };
    let raw = raw.ok_or_else(|| (value_at, alloc::format!("`{value_text}` is no value of this entry")))?;
    // Raw bits wider than the part are cut to it, as grate masks them.
    let mask = crate::bits::mask(part.bits) as u32;
    let word = index * t.words + part.word;
    let shift = |v: u32| v.checked_shl(part.lsb).unwrap_or(0);
    Ok((word, shift(mask), shift((raw as u32) & mask)))
}

/// Reads `[i] = "name"` or `[i].part = "name"` into `names`. A whole entry names all its parts:
/// naming a part named before is an error, as is a name longer than the table allows.
fn name_entry(
    t: &Table,
    text: &str,
    ignore_case: bool,
    names: &mut Vec<(u32, String, String)>,
) -> Result<(), (usize, String)> {
    let (index, part, value, at) = target(t, text, ignore_case)?;
    let name = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .filter(|v| !v.is_empty() && !v.contains('"'))
        .ok_or_else(|| (at, alloc::format!("a `{}` entry names it in quotes: `\"name\"`", t.section)))?;
    if let Some(longest) = t.names.filter(|l| name.chars().count() > *l as usize) {
        return Err((at, alloc::format!("a name is at most {longest} characters")));
    }
    // Parts of the entry named so far, whole entries naming every part.
    let overlaps = |p: &str| part.name.is_empty() || p.is_empty() || same(p, part.name, ignore_case);
    if let Some((_, _, old)) = names.iter().find(|(i, p, _)| *i == index && overlaps(p)) {
        return Err((0, alloc::format!("entry {index} is named `{old}` already")));
    }
    names.push((index, String::from(part.name), String::from(name)));
    Ok(())
}

fn same(a: &str, b: &str, ignore_case: bool) -> bool {
    if ignore_case {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

/// Where the first section directive of `text` starts: at the start of `text` or after a
/// blank, outside quotes.
pub(crate) fn next_directive(text: &str, sections: &[&str], ignore_case: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut quoted = false;
    for (i, c) in bytes.iter().enumerate() {
        if *c == b'"' {
            quoted = !quoted;
        }
        let word_start = text.is_char_boundary(i) && (i == 0 || bytes[i - 1].is_ascii_whitespace());
        if !quoted && word_start && sections.iter().any(|s| starts_with_directive(&text[i..], s, ignore_case))
        {
            return Some(i);
        }
    }
    None
}

/// Whether `text` starts with the directive `d` as a whole word.
fn starts_with_directive(text: &str, d: &str, ignore_case: bool) -> bool {
    text.get(..d.len()).is_some_and(|h| same(h, d, ignore_case))
        && text[d.len()..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
}

/// `json` (one object) with each table's words added under its name: word index → word,
/// 32-bit hex as the streams are.
pub fn add_to_json(json: &str, filled: &Filled) -> String {
    let body = json.trim_end();
    let Some(open) = body.strip_suffix('}') else { return String::from(json) };
    let mut out = String::from(open);
    write_tables(&mut out, filled);
    out.push('}');
    out
}

/// The members [`add_to_json`] adds to an object, each after `, `: a table's name and its
/// entries (written after a program's streams and settings, [`crate::target::ProgramJson`]).
pub fn write_tables(out: &mut String, filled: &Filled) {
    use core::fmt::Write;
    for (name, entries) in filled {
        out.push_str(", ");
        crate::value::write_json_string(out, name);
        out.push_str(": {");
        match entries {
            Entries::Words(words) => {
                for (k, (index, word)) in words.iter().enumerate() {
                    let _ = write!(out, "{}\"{index}\": \"{word:08x}\"", if k > 0 { ", " } else { "" });
                }
            }
            // Names keyed `i` or `i.part`, in the order written.
            Entries::Names(names) => {
                for (k, (index, part, n)) in names.iter().enumerate() {
                    let dot = if part.is_empty() { "" } else { "." };
                    let _ = write!(out, "{}\"{index}{dot}{part}\": ", if k > 0 { ", " } else { "" });
                    crate::value::write_json_string(out, n);
                }
            }
        }
        out.push('}');
    }
}

/// The data sections giving each table's words in a program's JSON (`json`, as
/// [`add_to_json`] writes it), for a listing in dialect `d`: every word as hex written into a
/// part filling its whole word. A word no such part holds is an error.
pub fn listing(json: &str, d: &Dialect, tables: &[Table]) -> Result<String, String> {
    use core::fmt::Write;
    let value = crate::value::parse_json(json).map_err(|e| alloc::format!("{e}"))?;
    let end = d.separator.unwrap_or("");
    let mut out = String::new();
    for t in tables {
        let Some(words) = value.get(t.name).and_then(|v| v.entries()) else { continue };
        if words.is_empty() {
            continue;
        }
        out.push_str(t.section);
        out.push('\n');
        if t.names.is_some() {
            // Each entry is read back as the assembler reads it, so the listing assembles.
            let mut names = Vec::new();
            for (key, name) in words {
                let text = if let crate::value::Value::Text(t) = name { t.as_str() } else { "" };
                let (index, part) = key.split_once('.').unwrap_or((key, ""));
                let dot = if part.is_empty() { "" } else { "." };
                let line = alloc::format!("[{index}]{dot}{part} = \"{text}\"");
                let breaks = text.contains(['\n', '\r']) || (!end.is_empty() && text.contains(end));
                if breaks || name_entry(t, &line, d.ignore_case, &mut names).is_err() {
                    return Err(alloc::format!("`{key}`: {name:?} is no entry of `{}`", t.name));
                }
                let _ = writeln!(out, "{line}{end}");
            }
            continue;
        }
        for (key, word) in words {
            let index: u32 =
                key.parse().map_err(|_| alloc::format!("`{key}` is not a word index of `{}`", t.name))?;
            let text = if let crate::value::Value::Text(t) = word { t.as_str() } else { "" };
            let bits = u32::from_str_radix(text, 16)
                .map_err(|_| alloc::format!("`{text}` is not a 32-bit hex word"))?;
            let (entry, at) = (index / t.words.max(1), index % t.words.max(1));
            let part = t
                .parts
                .iter()
                .find(|p| p.word == at && p.lsb == 0 && p.bits == 32)
                .ok_or_else(|| alloc::format!("no part of `{}` holds word {index} whole", t.name))?;
            let dot = if part.name.is_empty() { "" } else { "." };
            let _ = writeln!(out, "[{entry}]{dot}{} = 0x{bits:08x}{end}", part.name);
        }
    }
    Ok(out)
}

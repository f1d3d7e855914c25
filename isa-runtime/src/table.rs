//! Tables of 32-bit words that a program's data sections fill (grate's `.constants`): each
//! entry `[i] = v` or `[i].part = v` writes one part of entry `i`. The spec declares the
//! section, the entries and their parts (`table` target setting); reading lives here once.

use crate::bundle::error_at;
use crate::error::AsmError;
use crate::number::{FixedFormat, FloatFormat};
use crate::target::{blank_comments, Dialect};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// How a decimal written for a part becomes its bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Number {
    /// A binary floating-point format.
    Float(FloatFormat),
    /// A fixed-point format.
    Fixed(FixedFormat),
}

impl Number {
    /// The bits of `value`, `None` when the format does not hold it.
    pub fn encode(&self, value: f64) -> Option<u64> {
        match self {
            // Assemblers that read decimals as singles (grate's `atof` into a float) round
            // them to the nearest single first.
            Number::Float(f) if f.truncate => f.encode(f64::from(value as f32)),
            Number::Float(f) => f.encode(value),
            Number::Fixed(f) => f.encode(value),
        }
    }
}

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
}

/// Each table's words as a program's text writes them: word index (entry × words + word) →
/// word, only the words written.
pub type Filled = Vec<(&'static str, BTreeMap<u32, u32>)>;

/// Reads the entries of every table's sections in `source` (dialect `d`); the other sections
/// and statements are left to the assembler. Every error is returned with its line and column.
pub fn read(source: &str, d: &Dialect, tables: &[Table]) -> Result<Filled, Vec<AsmError>> {
    let mut filled: Filled = tables.iter().map(|t| (t.name, BTreeMap::new())).collect();
    let mut errors = Vec::new();
    if tables.is_empty() {
        return Ok(filled);
    }
    let text = blank_comments(source, d);
    let separator = d.separator.unwrap_or("\n");
    let sections: Vec<&str> = d.code_section.iter().chain(d.data_sections.iter()).copied().collect();
    let mut current: Option<usize> = None;
    let mut start = 0;
    while start < text.len() {
        let end = text[start..].find(separator).map_or(text.len(), |e| start + e);
        let mut at = start;
        let mut statement = &text[start..end];
        // Section directives start the statement they are in (an empty section ends at the
        // next directive, with no separator between).
        loop {
            let trimmed = statement.trim_start();
            at += statement.len() - trimmed.len();
            statement = trimmed;
            let Some(s) = sections.iter().find(|s| starts_with_directive(statement, s, d.ignore_case)) else {
                break;
            };
            current = tables.iter().position(|t| same(t.section, s, d.ignore_case));
            at += s.len();
            statement = &statement[s.len()..];
        }
        if let Some(t) = current {
            if !statement.trim_end().is_empty() {
                match entry(&tables[t], statement.trim_end(), d.ignore_case) {
                    Ok((word, mask, bits)) => {
                        let old = filled[t].1.get(&word).copied().unwrap_or(0);
                        filled[t].1.insert(word, (old & !mask) | bits);
                    }
                    Err((offset, message)) => errors.push(error_at(source, (at + offset, 0), message)),
                }
            }
        }
        start = end + separator.len();
    }
    if errors.is_empty() {
        Ok(filled)
    } else {
        Err(errors)
    }
}

/// Reads `[i] = v` or `[i].part = v`: the word index it writes, and the mask and bits it sets
/// there; an error is its byte offset in `text` and message.
fn entry(t: &Table, text: &str, ignore_case: bool) -> Result<(u32, u32, u32), (usize, String)> {
    let syntax = || alloc::format!("a `{}` entry is `[index] = value` or `[index].part = value`", t.section);
    let rest = text.strip_prefix('[').ok_or_else(|| (0, syntax()))?;
    let close = rest.find(']').ok_or_else(|| (0, syntax()))?;
    let index_text = rest[..close].trim();
    let index: u32 =
        index_text.parse().map_err(|_| (1, alloc::format!("`{index_text}` is not an entry index")))?;
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
    let value_at = text.len() - value_text.len();
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

fn same(a: &str, b: &str, ignore_case: bool) -> bool {
    if ignore_case {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

/// Whether `text` starts with the directive `d` as a whole word.
fn starts_with_directive(text: &str, d: &str, ignore_case: bool) -> bool {
    text.get(..d.len()).is_some_and(|h| same(h, d, ignore_case))
        && text[d.len()..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
}

/// `json` (one object) with each table's words added under its name: word index → word,
/// 32-bit hex as the streams are.
pub fn add_to_json(json: &str, filled: &Filled) -> String {
    use core::fmt::Write;
    let body = json.trim_end();
    let Some(open) = body.strip_suffix('}') else { return String::from(json) };
    let mut out = String::from(open);
    for (name, words) in filled {
        out.push_str(", ");
        crate::value::write_json_string(&mut out, name);
        out.push_str(": {");
        for (k, (index, word)) in words.iter().enumerate() {
            let _ = write!(out, "{}\"{index}\": \"{word:08x}\"", if k > 0 { ", " } else { "" });
        }
        out.push('}');
    }
    out.push('}');
    out
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

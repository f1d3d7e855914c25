//! A program as JSON (its words as 32-bit parts and its summaries), written as the words come
//! and read back.

use super::isa::Isa;
use super::summary::{fold_summaries, summaries_of, summarize, Summary};
use super::words::{word_parts, words_of_parts};
use alloc::string::String;
use alloc::vec::Vec;

/// A program of one word stream as one JSON object, the shape a bundled program's is
/// ([`crate::bundle::Program::to_json`]): `streams` maps the target's name to its words as
/// 32-bit hex parts in upload order, `settings` each summary to its value.
pub fn program_json<T: Isa>(words: &[u128]) -> String {
    let mut json = ProgramJson::of::<T>();
    let mut out = String::new();
    json.start(&mut out);
    for w in words {
        json.word(*w, &mut out);
    }
    json.settings(&mut out);
    out.push('}');
    out
}

/// [`program_json`] written as the words come, so that a program of any size is written
/// without keeping its words: [`ProgramJson::start`] opens the object and the stream's list,
/// [`ProgramJson::word`] writes each word's parts, [`ProgramJson::settings`] closes the list
/// and writes the summaries (folds over the words, [`fold_summaries`], known at the end);
/// what follows them (the tables, [`crate::table::write_tables`]) and the closing `}` are the
/// caller's.
#[derive(Debug, Clone)]
pub struct ProgramJson {
    name: &'static str,
    bits: u32,
    low_first: bool,
    summaries: &'static [Summary],
    fold: fn(u128, &mut [Option<u64>]),
    highest: Vec<Option<u64>>,
    /// Parts written so far.
    parts: usize,
}

impl ProgramJson {
    /// The writer of target `T`'s programs.
    pub fn of<T: Isa>() -> Self {
        ProgramJson {
            name: T::NAME,
            bits: T::WORD_BITS,
            low_first: T::PARTS_LOW_FIRST,
            summaries: T::summaries(),
            fold: fold_summaries::<T>,
            highest: alloc::vec![None; T::summaries().len()],
            parts: 0,
        }
    }

    /// `{"streams": {"name": [`.
    pub fn start(&self, out: &mut String) {
        out.push_str("{\"streams\": {");
        crate::value::write_json_string(out, self.name);
        out.push_str(": [");
    }

    /// The next word's 32-bit parts in upload order.
    pub fn word(&mut self, word: u128, out: &mut String) {
        use core::fmt::Write;
        for part in word_parts(&[word], self.bits, self.low_first) {
            let _ = write!(out, "{}\"{part:08x}\"", if self.parts > 0 { ", " } else { "" });
            self.parts += 1;
        }
        (self.fold)(word, &mut self.highest);
    }

    /// `]}, "settings": {...}`: the list closed and each summary's value over the words.
    pub fn settings(&self, out: &mut String) {
        use core::fmt::Write;
        out.push_str("]}, \"settings\": {");
        for (i, (name, value)) in summaries_of(self.summaries, &self.highest).iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            crate::value::write_json_string(out, name);
            let _ = write!(out, ": {value}");
        }
        out.push('}');
    }
}

/// Reads the JSON object [`program_json`] writes back into the program's words. Its summaries
/// must be what the words give (a listing would give those, so a different value is an
/// error, never silently changed); other keys (the data sections' tables) are left to
/// [`crate::table::listing`].
pub fn program_from_json<T: Isa>(text: &str) -> Result<Vec<u128>, String> {
    let value = crate::value::parse_json(text).map_err(|e| alloc::format!("{e}"))?;
    let streams = value.get("streams").and_then(|s| s.entries()).ok_or("no `streams` object")?;
    let mut parts = Vec::new();
    for (name, words) in streams {
        if name != T::NAME {
            return Err(alloc::format!(
                "no stream `{name}`: a {} program is the one stream `{}`",
                T::NAME,
                T::NAME
            ));
        }
        for item in words.items().ok_or_else(|| alloc::format!("stream `{name}` is a list"))? {
            let text = item.as_name().unwrap_or("");
            match u32::from_str_radix(text, 16) {
                Ok(p) if !text.is_empty() => parts.push(p),
                _ => return Err(alloc::format!("stream `{name}`: {item:?} is no 32-bit hex word")),
            }
        }
    }
    let words = words_of_parts(&parts, T::WORD_BITS, T::PARTS_LOW_FIRST)
        .ok_or_else(|| alloc::format!("{} parts do not make {}-bit words", parts.len(), T::WORD_BITS))?;
    let given = value.get("settings").and_then(|s| s.entries()).unwrap_or_default();
    let computed = summarize::<T>(&words);
    for (name, v) in given {
        match computed.iter().find(|(n, _)| *n == name) {
            None => return Err(alloc::format!("no setting `{name}`")),
            Some((_, c)) if v.as_u64() != Some(*c) => {
                return Err(alloc::format!("setting `{name}` is {v:?}, but the words give {c}"))
            }
            Some(_) => {}
        }
    }
    Ok(words)
}

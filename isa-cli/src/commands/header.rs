//! `isa decode`, `isa validate` and `isa encode` for targets whose root is a data layout (a
//! header such as NVIDIA's SPH): the input is one whole layout, as binary bytes or hex words.

use super::{complain, say, stdout};
use crate::error::{Error, Outcome, Result};
use crate::{files, words};
use isa_runtime::layout::DataTarget;
use isa_runtime::value::{parse_json, Value};
use std::io::Write;
use std::path::Path;

/// Where a header comes from: hex words on the command line, or a file (`-`: standard input).
pub enum Input<'a> {
    /// Hex 32-bit words, word 0 first.
    Words(&'a [String]),
    /// A binary file of exactly the layout's size, or a text file of its hex words.
    File(&'a Path),
}

/// The layout's bytes from `input`: hex words (32-bit, word 0 first, little-endian in memory),
/// or a file of exactly its size in bytes, or a text file of its hex words.
fn read(target: &dyn DataTarget, input: &Input) -> Result<Vec<u8>> {
    let words_needed = target.bytes() / 4;
    let from_words = |words: Vec<u128>, name: &str| -> Result<Vec<u8>> {
        if words.len() != words_needed {
            return Err(Error::Failed(format!(
                "{name}: {} needs {words_needed} hex words, got {}",
                target.root(),
                words.len()
            )));
        }
        Ok(words.into_iter().flat_map(|w| (w as u32).to_le_bytes()).collect())
    };
    match input {
        Input::Words(args) => {
            let mut reader = words::HexReader::new(32, true);
            let mut words = Vec::new();
            let reads = args.iter().enumerate().flat_map(|(i, arg)| reader.line(i + 1, arg));
            for read in reads.collect::<Vec<_>>().into_iter().chain(reader.finish()) {
                match read {
                    words::Read::Word(w) => words.push(w),
                    words::Read::Bad { line, message, .. } => {
                        return Err(Error::Failed(format!("argument {line}: {message}")))
                    }
                }
            }
            from_words(words, "arguments")
        }
        Input::File(path) => {
            let name = files::name(path);
            let bytes = files::read_bytes(path)?;
            // The binary layout itself when it has exactly its size and is not hex text;
            // otherwise text of hex words, whose mistakes are reported by line.
            let text = std::str::from_utf8(&bytes).ok().map(files::without_bom);
            let words = text.map(|t| words::parse_hex_text(t, 32, true));
            match words {
                Some(Ok(words)) if !words.is_empty() || bytes.len() != target.bytes() => {
                    return from_words(words, &name)
                }
                Some(Err(errors)) if bytes.len() != target.bytes() => {
                    let (line, e) = &errors[0];
                    return Err(Error::Failed(format!("{name}:{line}: {e}")));
                }
                _ => {}
            }
            if bytes.len() != target.bytes() {
                return Err(Error::Failed(format!(
                    "{name}: {} is {} bytes ({words_needed} hex words), the file has {}",
                    target.root(),
                    target.bytes(),
                    bytes.len()
                )));
            }
            Ok(bytes)
        }
    }
}

/// Prints every field (`path = value`, nested layouts and arrays expanded), or the JSON value.
pub fn decode(target: &dyn DataTarget, input: &Input, json: bool) -> Result<Outcome> {
    let bytes = read(target, input)?;
    let value = match target.decode(&bytes) {
        Ok(v) => v,
        Err(e) => {
            complain(format_args!("isa: error: {e}\n"));
            return Ok(Outcome::Failure);
        }
    };
    let mut out = stdout();
    if json {
        let mut s = String::new();
        value.write_json(&mut s);
        writeln!(out, "{s}").map_err(Error::output)?;
    } else {
        let mut lines = Vec::new();
        flatten(&value, "", &mut lines);
        for (path, v) in lines {
            writeln!(out, "{path} = {v}").map_err(Error::output)?;
        }
    }
    out.flush().map_err(Error::output)?;
    Ok(Outcome::Success)
}

/// `(path, value text)` for every leaf of `value`.
fn flatten(value: &Value, prefix: &str, out: &mut Vec<(String, String)>) {
    if let Some(entries) = value.entries() {
        for (name, v) in entries {
            let path = if prefix.is_empty() { name.to_string() } else { format!("{prefix}.{name}") };
            flatten(v, &path, out);
        }
    } else if let Some(items) = value.items() {
        for (i, v) in items.iter().enumerate() {
            flatten(v, &format!("{prefix}[{i}]"), out);
        }
    } else {
        let text = match value {
            Value::Uint(v) if *v > 9 => format!("{v} ({v:#x})"),
            Value::Float(v) => format!("{v}"),
            other => {
                let mut s = String::new();
                other.write_json(&mut s);
                s.trim_matches('"').to_string()
            }
        };
        out.push((prefix.to_string(), text));
    }
}

/// Reports the constraints the header breaks, as `isa validate` does a program's: every one
/// with `all`, else the first [`super::LISTED_PER_RULE`] of each rule and a line for the rest;
/// fails when one is an error.
pub fn validate(target: &dyn DataTarget, input: &Input, all: bool) -> Result<Outcome> {
    let bytes = read(target, input)?;
    let name = match input {
        Input::File(path) => files::name(path),
        Input::Words(_) => target.root().to_string(),
    };
    let violations = match target.check(&bytes) {
        Ok(v) => v,
        Err(e) => {
            complain(format_args!("{name}: error: {e}\n"));
            return Ok(Outcome::Failure);
        }
    };
    if violations.is_empty() {
        say(format_args!("{name}: ok: {}, no rule broken", target.root()))?;
        return Ok(Outcome::Success);
    }
    let per_rule = if all { None } else { Some(super::LISTED_PER_RULE) };
    super::report(&name, &violations, per_rule, |v| {
        (format!("{name}: "), format!(" ({})", v.fields.join(", ")))
    })
}

/// Builds the header from JSON of the shape `decode --json` prints; writes its bytes, or its
/// hex words with `hex`.
pub fn encode(target: &dyn DataTarget, file: &Path, out: Option<&Path>, hex: bool) -> Result<Outcome> {
    let name = files::name(file);
    let text = files::read_text(file)?;
    let value = parse_json(&text).map_err(|e| Error::Failed(format!("{name}: {e}")))?;
    let bytes = match target.encode(&value) {
        Ok(b) => b,
        Err(e) => {
            complain(format_args!("{name}: error: {e}\n"));
            return Ok(Outcome::Failure);
        }
    };
    let data = if hex {
        let mut s = String::new();
        for w in bytes.chunks_exact(4) {
            s.push_str(&format!("0x{:08x}\n", u32::from_le_bytes([w[0], w[1], w[2], w[3]])));
        }
        s.into_bytes()
    } else {
        bytes
    };
    match out {
        Some(path) => files::write(path, &data)?,
        None => {
            let mut o = stdout();
            o.write_all(&data).map_err(Error::output)?;
            o.flush().map_err(Error::output)?;
        }
    }
    Ok(Outcome::Success)
}

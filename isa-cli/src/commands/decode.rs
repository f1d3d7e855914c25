//! `isa decode`: hex words from the arguments, or from standard input (in every form
//! [`words::HexReader`] reads), each decoded to its encoding name and fields (plain text with
//! the disassembly, or JSON lines that carry the disassembly as `text`). A bad word gets an error line and the rest still decode;
//! a word the chosen dialect cannot show reads in another dialect that can. For a target whose
//! instructions differ in length, an argument or line is bytes in memory order (`e2003412`),
//! split into instructions from its start; each line then says its instruction's length.

use crate::error::{Error, Outcome, Result};
use crate::{files, words};
use isa_runtime::target::Target;
use isa_runtime::value::{write_json_object, write_json_string};
use std::io::{self, BufRead, Write};

/// How each word is printed.
struct Printer<'a> {
    target: &'a dyn Target,
    dialect: usize,
    json: bool,
}

impl Printer<'_> {
    /// The output line for one word, and whether it decoded.
    fn line(&self, word: u128) -> (String, bool) {
        let variable = self.target.variable_length();
        let bits =
            if variable { 8 * self.target.instruction_bytes(word) as u32 } else { self.target.word_bits() };
        // An instruction of a variable-length target shows as its bytes in memory order.
        let hex = if variable {
            let mut bytes = Vec::new();
            isa_runtime::target::word_to_bytes(word, bits as usize / 8, true, &mut bytes);
            bytes.iter().map(|b| format!("{b:02x}")).collect()
        } else {
            words::to_hex(word, bits)
        };
        let prefixed = if variable { hex.clone() } else { format!("0x{hex}") };
        let decoded = match self.target.decode(word) {
            Ok(d) => d,
            Err(e) => return (self.error(&hex, &prefixed, &e.to_string()), false),
        };
        if self.json {
            let mut s = String::from("{\"word\":");
            write_json_string(&mut s, &prefixed);
            if variable {
                s.push_str(&format!(",\"length\":{}", bits / 8));
            }
            s.push_str(",\"instruction\":");
            write_json_string(&mut s, decoded.name);
            if let Ok(text) = self.text(word) {
                s.push_str(",\"text\":");
                write_json_string(&mut s, &text);
            }
            s.push_str(",\"fields\":");
            write_json_object(&mut s, &decoded.fields);
            s.push('}');
            return (s, true);
        }
        match self.text(word) {
            Ok(asm) if variable => (format!("{hex}: {} ({} bytes)  {asm}", decoded.name, bits / 8), true),
            Ok(asm) => (format!("{hex}: {}  {asm}", decoded.name), true),
            Err(e) => (self.error(&hex, &prefixed, &e.to_string()), false),
        }
    }

    /// The word's text in the chosen dialect. Where that dialect cannot show the word (its
    /// listing would hold only the raw directive), the first other dialect that can is used,
    /// named in a comment, so every word that decodes reads as an instruction; where none can,
    /// the raw directive with the word's fields in the comment.
    fn text(&self, word: u128) -> std::result::Result<String, isa_runtime::DecodeError> {
        if let Some(text) = self.target.text_of_word(word, self.dialect, 0)? {
            return Ok(text);
        }
        let dialects = self.target.dialects();
        let chosen = dialects[self.dialect].name;
        for (d, dialect) in dialects.iter().enumerate().filter(|(d, _)| *d != self.dialect) {
            if let Some(text) = self.target.text_of_word(word, d, 0)? {
                let marker = dialect.comments.first().copied().unwrap_or("//");
                return Ok(format!(
                    "{text}  {marker} {} dialect: {chosen} cannot show this word",
                    dialect.name
                ));
            }
        }
        let raw = self.target.disassemble(word, self.dialect, 0)?;
        let marker = dialects[self.dialect].comments.first().copied().unwrap_or("//");
        let mut fields = String::new();
        write_json_object(&mut fields, &self.target.decode(word)?.fields);
        Ok(format!("{raw}  {marker} {fields}"))
    }

    /// An error line; the word is shown as `plain` in text mode and as `json` in JSON mode.
    fn error(&self, plain: &str, json: &str, message: &str) -> String {
        if self.json {
            let mut s = String::from("{\"word\":");
            write_json_string(&mut s, json);
            s.push_str(",\"error\":");
            write_json_string(&mut s, message);
            s.push('}');
            s
        } else {
            format!("{plain}: error: {message}")
        }
    }
}

/// Decodes `args`, or standard input if there are none.
pub fn run(target: &dyn Target, dialect: usize, json: bool, args: &[String]) -> Result<Outcome> {
    let printer = Printer { target, dialect, json };
    let mut reader = words::HexReader::new(target.word_bits(), target.little_endian());
    let mut out = super::stdout();
    let mut failed = 0usize;
    // A target whose instructions differ in length reads each line as bytes in memory order
    // (not a number), split into instructions from the first; others read hex words.
    let mut read = |n: usize, text: &str| -> Vec<words::Read> {
        if !target.variable_length() {
            return reader.line(n, text);
        }
        match words::bytes_from_hex(text).and_then(|bytes| words::split_binary(&bytes, target)) {
            Ok((pieces, None)) => pieces
                .into_iter()
                .map(|(word, length)| {
                    let own = target.instruction_bytes(word);
                    if own == length {
                        return words::Read::Word(word);
                    }
                    // A piece the length rule reads short among the bytes after it: no
                    // instruction of its own length (`disasm` lists it as data).
                    let mut bytes = Vec::new();
                    isa_runtime::target::word_to_bytes(word, length, true, &mut bytes);
                    let text = bytes.iter().map(|b| format!("{b:02x}")).collect();
                    let message = isa_runtime::target::piece_of_another_length(length, own);
                    words::Read::Bad { line: n, text, message }
                })
                .collect(),
            Ok((_, Some(cut))) => {
                vec![words::Read::Bad { line: n, text: text.to_string(), message: cut.reason }]
            }
            Err(message) => vec![words::Read::Bad { line: n, text: text.to_string(), message }],
        }
    };
    // Every word a line (or an argument) completes; a line that cannot be read is one error.
    let mut emit = |reads: Vec<words::Read>, out: &mut dyn Write| -> Result<()> {
        for read in reads {
            let (line, ok) = match read {
                words::Read::Word(w) => printer.line(w),
                words::Read::Bad { text, message, .. } if text.trim().is_empty() => {
                    (printer.error("end of input", "", &message), false)
                }
                words::Read::Bad { text, message, .. } => {
                    (printer.error(text.trim(), text.trim(), &message), false)
                }
            };
            failed += usize::from(!ok);
            writeln!(out, "{line}").map_err(Error::output)?;
        }
        Ok(())
    };
    if args.is_empty() {
        for (n, line) in io::stdin().lock().lines().enumerate() {
            let line =
                line.map_err(|e| Error::Failed(format!("cannot read standard input (line {}): {e}", n + 1)))?;
            let text = if n == 0 { files::without_bom(&line) } else { &line };
            emit(read(n + 1, text), &mut out)?;
            // Answer each line as it comes when another program drives `isa decode`.
            out.flush().map_err(Error::output)?;
        }
    } else {
        for (n, arg) in args.iter().enumerate() {
            emit(read(n + 1, arg), &mut out)?;
        }
    }
    emit(reader.finish(), &mut out)?;
    out.flush().map_err(Error::output)?;
    if failed > 0 {
        super::complain(format_args!("isa: {} could not be decoded\n", super::plural(failed, "word")));
    }
    Ok(Outcome::failed_if(failed > 0))
}

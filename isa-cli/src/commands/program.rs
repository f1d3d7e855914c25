//! What the program commands share: buffered output, reports of broken rules, and programs
//! read piece by piece.

use super::complain;
use crate::error::{Error, Result};
use crate::files;
use crate::words;
use isa_runtime::target::Target;
use std::io::{self, Write};
use std::io::{BufWriter, StdoutLock};
use std::path::Path;

/// Buffered standard output; write errors map through [`Error::output`].
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::new(io::stdout().lock())
}

/// `n thing` or `n things`.
pub fn plural(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// How many violations of one rule `isa validate` lists unless asked for every one (`--all`).
pub const LISTED_PER_RULE: usize = 5;

/// Prints each violation (`head`, the rule, `tail`, its detail), at most `per_rule` of each
/// rule when given, with one line for each rule's violations not listed; then the count of
/// errors and warnings on standard error. Fails when any is an error (a warning is a rule the
/// hardware tolerates).
pub fn report(
    name: &str,
    violations: &[isa_runtime::program::Violation],
    per_rule: Option<usize>,
    around: impl Fn(&isa_runtime::program::Violation) -> (String, String),
) -> Result<crate::error::Outcome> {
    let mut out = stdout();
    // Each rule's violations (and whether they are warnings), in the order of its first one.
    let mut seen: Vec<(&str, usize, bool)> = Vec::new();
    for v in violations {
        let listed = match seen.iter_mut().find(|(rule, _, _)| *rule == v.rule) {
            Some(entry) => {
                entry.1 += 1;
                entry.1
            }
            None => {
                seen.push((v.rule, 1, v.warning));
                1
            }
        };
        if per_rule.is_some_and(|most| listed > most) {
            continue;
        }
        let (head, tail) = around(v);
        let kind = if v.warning { "warning: " } else { "" };
        write!(out, "{head}{kind}{} [{}]{tail}", v.message, v.rule).map_err(Error::output)?;
        if !v.detail.is_empty() {
            write!(out, ": {}", v.detail).map_err(Error::output)?;
        }
        writeln!(out).map_err(Error::output)?;
    }
    if let Some(most) = per_rule {
        for &(rule, count, warning) in seen.iter().filter(|(_, count, _)| *count > most) {
            let kind = if warning { "warning: " } else { "" };
            writeln!(
                out,
                "{name}: {kind}{} more [{rule}] not listed (`--all` lists every one)",
                count - most
            )
            .map_err(Error::output)?;
        }
    }
    out.flush().map_err(Error::output)?;
    let errors = violations.iter().filter(|v| !v.warning).count();
    complain(format_args!(
        "isa: {name}: {}, {}\n",
        plural(errors, "rule violation"),
        plural(violations.len() - errors, "warning")
    ));
    Ok(crate::error::Outcome::failed_if(errors > 0))
}

/// What [`read_program`] hands each piece of a program to: its words; where instructions
/// differ in length, each word's length in bytes as the stream held it (empty otherwise);
/// the number of its first word (where instructions differ in length: its byte address); and
/// whether it is the last piece.
pub type Each<'a> = dyn FnMut(&[u128], &[usize], usize, bool) -> Result<()> + 'a;

/// Reads a program's words as a stream, handing them to `each` piece by piece: a binary file
/// in the target's byte order, or with `hex` a text of hex words in any form
/// [`words::HexReader`] reads. A piece holds `piece` words (a multiple of the target's group
/// where it has control words), the last one fewer, so memory stays the same whatever the
/// size of the program. A trailing partial word or an unreadable hex line is an error after
/// the whole words before it have been handed on; after an unreadable line the text is read
/// on only to report its other mistakes (the first ten). With `cut`, bytes that end inside a
/// word (or a variable-length instruction) go to it after the words instead of being an error.
pub fn read_program(
    path: &Path,
    hex: bool,
    target: &dyn Target,
    piece: usize,
    each: &mut Each<'_>,
    mut cut: Option<&mut dyn FnMut(words::Cut) -> Result<()>>,
) -> Result<()> {
    let name = files::name(path);
    // Targets whose words cannot be read as bytes are refused before anything is read.
    words::from_binary(&[], target).map_err(|e| Error::Failed(format!("{name}: {e}")))?;
    let mut pieces =
        Pieces { piece, held: Vec::with_capacity(piece + 1), lengths: Vec::new(), first: 0, each };
    if hex && target.variable_length() {
        // Hex text of a byte stream: every line's bytes in memory order, in order (`isa asm
        // --hex` writes one instruction a line; `#` and `//` comments are skipped).
        let mut bytes = Vec::new();
        let mut bad = None;
        files::for_each_line(path, &mut |n, line| {
            let code = line.split("//").next().unwrap_or("").split('#').next().unwrap_or("");
            match words::bytes_from_hex(code) {
                Ok(b) => bytes.extend(b),
                Err(message) if bad.is_none() => bad = Some(format!("{name}:{n}: {message}")),
                Err(_) => {}
            }
            Ok(())
        })?;
        if let Some(message) = bad {
            return Err(Error::Failed(message));
        }
        return split(&bytes, target, &name, &mut pieces, cut);
    }
    if hex {
        let mut reader = words::HexReader::new(target.word_bits(), target.little_endian());
        let mut errors = 0usize;
        // A binary file read as hex would otherwise print a line per byte of junk.
        const SHOWN: usize = 10;
        let mut take = |reads: Vec<words::Read>, pieces: &mut Pieces<'_, '_>| -> Result<()> {
            for read in reads {
                match read {
                    words::Read::Word(w) if errors == 0 => pieces.push(&[w], &[])?,
                    words::Read::Word(_) => {}
                    words::Read::Bad { line, message, .. } => {
                        if errors == 0 {
                            // The words before the mistake are the program as far as it goes.
                            pieces.end()?;
                        }
                        errors += 1;
                        if errors <= SHOWN {
                            complain(format_args!("{name}:{line}: error: {message}\n"));
                        }
                    }
                }
            }
            Ok(())
        };
        files::for_each_line(path, &mut |n, line| take(reader.line(n, line), &mut pieces))?;
        take(reader.finish(), &mut pieces)?;
        if errors > 0 {
            if errors > SHOWN {
                complain(format_args!("... and {} more\n", errors - SHOWN));
            }
            return Err(Error::Failed(format!("{name}: {}", plural(errors, "bad hex word"))));
        }
        return pieces.end();
    }
    if target.variable_length() {
        // A stream of instructions of different lengths is split from its start: read whole.
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut files::open(path)?, &mut bytes)
            .map_err(|e| Error::Failed(format!("{name}: {e}")))?;
        return split(&bytes, target, &name, &mut pieces, cut);
    }
    let size = words::word_bytes(target.word_bits());
    // A file whose size is not a whole number of words is refused before any output (unless
    // the caller takes the bytes left over).
    if let Some(len) = files::size(path).filter(|len| cut.is_none() && len % size as u64 != 0) {
        return Err(Error::Failed(format!("{name}: {}", words::partial(len, size, target))));
    }
    let mut input = files::open(path)?;
    let mut buf = vec![0u8; size * piece];
    let mut total = 0u64;
    loop {
        let n = files::read_full(&mut input, &mut buf, path)?;
        total += n as u64;
        let whole = n - n % size;
        let words =
            words::from_binary(&buf[..whole], target).map_err(|e| Error::Failed(format!("{name}: {e}")))?;
        pieces.push(&words, &[])?;
        if n < buf.len() {
            pieces.end()?;
            if n != whole {
                let reason = words::partial(total, size, target);
                let Some(take) = cut.as_deref_mut() else {
                    return Err(Error::Failed(format!("{name}: {reason}")));
                };
                let at = total - (n - whole) as u64;
                take(words::Cut { bytes: buf[whole..n].to_vec(), at, reason })?;
            }
            return Ok(());
        }
    }
}

/// A whole byte stream into its words, handed on; the bytes that end inside an instruction go
/// to `cut`, or are an error without it.
fn split(
    bytes: &[u8],
    target: &dyn Target,
    name: &str,
    pieces: &mut Pieces<'_, '_>,
    cut: Option<&mut dyn FnMut(words::Cut) -> Result<()>>,
) -> Result<()> {
    let (split, rest) =
        words::split_binary(bytes, target).map_err(|e| Error::Failed(format!("{name}: {e}")))?;
    if let (Some(rest), None) = (&rest, &cut) {
        return Err(Error::Failed(format!("{name}: {}", rest.reason)));
    }
    let (words, lengths): (Vec<u128>, Vec<usize>) = split.into_iter().unzip();
    pieces.push(&words, &lengths)?;
    pieces.end()?;
    match (rest, cut) {
        (Some(rest), Some(take)) => take(rest),
        _ => Ok(()),
    }
}

/// A program's words on their way to [`read_program`]'s `each`: a piece is handed on once a
/// word after it has arrived, so `each` knows which piece is the last.
struct Pieces<'e, 'a> {
    piece: usize,
    held: Vec<u128>,
    /// The held words' lengths in bytes, where instructions differ in length.
    lengths: Vec<usize>,
    /// The first held word's number (where instructions differ in length: byte address).
    first: usize,
    each: &'e mut Each<'a>,
}

impl Pieces<'_, '_> {
    /// Takes `words` (with their `lengths` in bytes where instructions differ in length, else
    /// none), handing on every piece that is known not to be the last.
    fn push(&mut self, words: &[u128], lengths: &[usize]) -> Result<()> {
        for (k, chunk) in words.chunks(self.piece).enumerate() {
            self.held.extend_from_slice(chunk);
            self.lengths.extend(lengths.iter().skip(k * self.piece).take(chunk.len()));
            if self.held.len() > self.piece {
                self.hand_on(self.piece, false)?;
            }
        }
        Ok(())
    }

    /// Hands on the first `n` held words.
    fn hand_on(&mut self, n: usize, last: bool) -> Result<()> {
        let lengths = &self.lengths[..n.min(self.lengths.len())];
        (self.each)(&self.held[..n], lengths, self.first, last)?;
        self.first += if self.lengths.is_empty() { n } else { lengths.iter().sum() };
        self.held.drain(..n);
        let cut = n.min(self.lengths.len());
        self.lengths.drain(..cut);
        Ok(())
    }

    /// Hands on what is held as the last piece.
    fn end(&mut self) -> Result<()> {
        if !self.held.is_empty() {
            self.hand_on(self.held.len(), true)?;
        }
        Ok(())
    }
}

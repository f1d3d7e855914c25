//! `isa asm`: assembles a source text in a dialect into words, written as binary (the
//! target's byte order) or as hex text. Errors are `FILE:LINE:COL: error: message` with the
//! source line and a caret under the column. A bundled target's program (several word
//! streams) is written as one JSON object: `streams` (each stream's 32-bit words in hex, in
//! upload order) and `settings` (the header settings given).

use super::{complain, plural, stdout};
use crate::error::{Error, Outcome, Result};
use crate::{files, listing, words};
use isa_runtime::bundle::Streams;
use isa_runtime::directives::Includer;
use isa_runtime::target::{word_to_bytes, Target};
use isa_runtime::AsmError;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// What `isa asm` was asked to do.
pub struct Options<'a> {
    /// The source file (`-` for standard input).
    pub file: &'a Path,
    /// Where to write the words; standard output if `None`.
    pub out: Option<&'a Path>,
    /// Write hex text (one word per line) instead of binary.
    pub hex: bool,
    /// Write one JSON object: the words as 32-bit parts and the program's summaries.
    pub json: bool,
    /// Directories searched for included files (`-I`).
    pub include: &'a [PathBuf],
    /// Files assembled before the source (`-i`).
    pub prelude: &'a [PathBuf],
    /// Check the program's constraints and rules too, as warnings (`-V`).
    pub validate: bool,
}

/// Reads included files from the including file's directory and the `-I` directories.
struct Files<'a> {
    /// The main source's directory.
    base: PathBuf,
    search: &'a [PathBuf],
    /// The `-i` files' names and texts, until the assembler takes them.
    preludes: Vec<(String, String)>,
    /// The source's name in diagnostics.
    name: String,
    /// Whether the program's rules are checked (`-V`).
    validate: bool,
}

impl Includer for Files<'_> {
    fn load(
        &mut self,
        name: &str,
        system: bool,
        from: Option<&str>,
    ) -> std::result::Result<(String, String), String> {
        let own = from
            .and_then(|f| Path::new(f).parent().map(Path::to_path_buf))
            .unwrap_or_else(|| self.base.clone());
        let mut dirs: Vec<&Path> = self.search.iter().map(PathBuf::as_path).collect();
        // `"file"` is looked for beside the including file first; `<file>` last (vc4asm).
        if system {
            dirs.push(&own);
        } else {
            dirs.insert(0, &own);
        }
        let path = Path::new(name);
        let candidates: Vec<PathBuf> = if path.is_absolute() {
            vec![path.to_path_buf()]
        } else {
            dirs.iter().map(|d| d.join(path)).collect()
        };
        for candidate in &candidates {
            if candidate.is_file() {
                return match std::fs::read_to_string(candidate) {
                    Ok(text) => Ok((candidate.display().to_string(), text)),
                    Err(e) => Err(format!("cannot read `{}`: {e}", candidate.display())),
                };
            }
        }
        let looked: Vec<String> = dirs.iter().map(|d| format!("`{}`", d.display())).collect();
        Err(format!("cannot find `{name}` (looked in {})", looked.join(", ")))
    }

    fn preludes(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.preludes)
    }

    /// Printed as an error is, as `warning:`; the program is still written.
    fn warning(&mut self, warning: &AsmError, line: &str) {
        complain(format_args!("{}", diagnostic(&self.name, line, warning, "warning")));
    }

    fn validates(&self) -> bool {
        self.validate
    }
}

/// Reads the `-i` files: each as given, else from the first `-I` directory holding it.
fn read_preludes(names: &[PathBuf], search: &[PathBuf]) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for name in names {
        let found = std::iter::once(name.clone())
            .chain(search.iter().filter(|_| name.is_relative()).map(|d| d.join(name)))
            .find(|p| p.is_file())
            .unwrap_or_else(|| name.clone());
        out.push((found.display().to_string(), files::read_text(&found)?));
    }
    Ok(out)
}

/// How many errors are printed in full; the rest are only counted (as the spec checker does).
pub const SHOWN: usize = 100;

/// Assembles the source file.
pub fn run(target: &dyn Target, dialect: usize, opts: &Options<'_>) -> Result<Outcome> {
    let source = files::read_text(opts.file)?;
    // cuobjdump's and nvdisasm's listings: read from their text, with the control words their
    // comments hold (`crate::listing`).
    let marks = listing::Marks::of(target, dialect);
    let schedule = target.streams().and_then(Streams::schedule);
    let listed = listing::source(&source, target.word_bits(), schedule, dialect, &marks);
    let (source, listing_text) = match listed {
        Some(read) => (read, Some(source)),
        None => (source, None),
    };
    let name = files::name(opts.file);
    // Each error is printed as it is found, so a long source shows its first ones at once.
    let mut errors = 0usize;
    let base = opts.file.parent().map(Path::to_path_buf).unwrap_or_default();
    let preludes = read_preludes(opts.prelude, opts.include)?;
    let mut files =
        Files { base, search: opts.include, preludes, name: name.clone(), validate: opts.validate };
    // A bundled target's program is several streams: written as one JSON object.
    if let Some(bundles) = target.streams().and_then(Streams::bundles) {
        let assembled = target.assemble_bundle_files(&name, &source, dialect, &mut files, &mut |e, line| {
            errors += 1;
            if errors <= SHOWN {
                complain(format_args!("{}", report(&name, line, e)));
            }
        });
        let Some(program) = assembled else {
            if errors > SHOWN {
                let more = errors - SHOWN;
                complain(format_args!("... and {more} more error{}\n", if more == 1 { "" } else { "s" }));
            }
            complain(format_args!("isa: {name}: found {}\n", plural(errors, "error")));
            return Ok(Outcome::Failure);
        };
        // The tables the data sections fill (`.constants`), shown with the streams.
        let json = isa_runtime::table::add_to_json(&program.to_json(bundles), &program.tables) + "\n";
        match opts.out {
            Some(path) => files::write(path, json.as_bytes())?,
            None => {
                let mut out = stdout();
                out.write_all(json.as_bytes()).map_err(Error::output)?;
                out.flush().map_err(Error::output)?;
            }
        }
        return Ok(Outcome::Success);
    }
    let assembled = target.assemble_exact(&name, &source, dialect, &mut files, &mut |e, line| {
        errors += 1;
        if errors <= SHOWN {
            complain(format_args!("{}", report(&name, line, e)));
        }
    });
    let Some(mut program) = assembled else {
        if errors > SHOWN {
            let more = errors - SHOWN;
            complain(format_args!("... and {more} more error{}\n", if more == 1 { "" } else { "s" }));
        }
        complain(format_args!("isa: {name}: found {}\n", plural(errors, "error")));
        return Ok(Outcome::Failure);
    };
    // A listing's `.reuse` and pair marks are the control words': one edited into the text is
    // written into its control word where the slot's declared fields can give it, and is an
    // error where they cannot, never dropped.
    if let Some(text) = &listing_text {
        listing::write_marks(text, &mut program.words, target, dialect, &marks);
        let wrong = listing::check_marks(text, &program.words, target, dialect, &marks);
        if !wrong.is_empty() {
            let lines: Vec<&str> = text.lines().collect();
            for (line, column, length, message) in wrong.iter().take(SHOWN) {
                let e = AsmError {
                    line: *line,
                    column: *column,
                    length: *length,
                    message: message.clone(),
                    file: None,
                    expansion: Vec::new(),
                };
                complain(format_args!("{}", report(&name, lines.get(line - 1).copied().unwrap_or(""), &e)));
            }
            complain(format_args!("isa: {name}: found {}\n", plural(wrong.len(), "error")));
            return Ok(Outcome::Failure);
        }
        // Lines as the disassembler printed them rebuild their own words, even where its text
        // is the text of several.
        listing::keep_unedited(text, &mut program.words, target, dialect, &marks);
    }
    // A program that ends in data shorter than a word (a listing of a binary cut inside an
    // instruction), or holds data whose bytes begin an instruction of another length, is
    // bytes, not words: written as they are, or refused where words are asked for.
    let words = &program.words;
    let whole = |_: &&(usize, usize)| opts.json || opts.hex && !target.variable_length();
    if let Some(&(i, n)) = program.lengths.first().filter(whole) {
        let format = if opts.json { "--json" } else { "--hex" };
        if i + 1 == words.len() && !target.variable_length() {
            complain(format_args!(
                "isa: {name}: the program ends in {} of data, part of a {}-byte word: {format} holds whole words; write it as binary (-o FILE)\n",
                plural(n, "byte"),
                words::word_bytes(target.word_bits()),
            ));
        } else {
            complain(format_args!(
                "isa: {name}: word {i} is {} of data, which begin an instruction of {} bytes: {format} holds words at their own lengths; write it as binary (-o FILE)\n",
                plural(n, "byte"),
                target.instruction_bytes(words[i]),
            ));
        }
        return Ok(Outcome::Failure);
    }
    // The words are written as they are turned into bytes or text, never held a second time.
    let write = |out: &mut dyn Write| -> std::io::Result<()> {
        if opts.json {
            writeln!(
                out,
                "{}",
                isa_runtime::table::add_to_json(&target.program_json(words), &program.tables)
            )?;
            return out.flush();
        }
        let size = words::word_bytes(target.word_bits());
        let mut bytes = Vec::with_capacity(size);
        for (i, w) in words.iter().enumerate() {
            // Each word at its length in memory: its own, or that of the data it holds.
            let length = program.length(i, target);
            if opts.hex && target.variable_length() {
                // One instruction a line, as its bytes in memory order (what `decode` reads).
                bytes.clear();
                word_to_bytes(*w, length, true, &mut bytes);
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                writeln!(out, "{hex}")?;
            } else if opts.hex {
                writeln!(out, "{}", words::to_hex(*w, target.word_bits()))?;
            } else {
                bytes.clear();
                if target.variable_length() {
                    word_to_bytes(*w, length, true, &mut bytes);
                } else {
                    // The last word cut to the bytes the program holds, where it ends in data.
                    word_to_bytes(*w, size, target.little_endian(), &mut bytes);
                    bytes.truncate(length);
                }
                out.write_all(&bytes)?;
            }
        }
        out.flush()
    };
    match opts.out {
        Some(path) => files::write_with(path, write)?,
        None => {
            let mut out = stdout();
            if !opts.hex && out.get_ref().is_terminal() {
                return Err(Error::Usage(
                    "not writing binary words to a terminal; use -o FILE or --hex".into(),
                ));
            }
            write(&mut out).map_err(Error::output)?;
        }
    }
    Ok(Outcome::Success)
}

/// One error as `FILE:LINE:COL: error: message`, then its line with carets under the token it
/// is about (one at its column when it is about no token).
fn report(file: &str, line: &str, e: &AsmError) -> String {
    diagnostic(file, line, e, "error")
}

/// An error or a warning (`kind`) as [`report`] writes errors.
fn diagnostic(file: &str, line: &str, e: &AsmError, kind: &str) -> String {
    // Errors found after parsing (encoding) have no position.
    if e.line == 0 {
        return format!("{file}: {kind}: {}\n", e.message);
    }
    let main = file;
    let file = e.file.as_deref().unwrap_or(main);
    let mut s = format!("{file}:{}:{}: {kind}: {}\n", e.line, e.column, e.message);
    // One column per character, so tabs become single spaces to keep the carets in place.
    let shown: String = line.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
    let number = e.line.to_string();
    let pad = " ".repeat(number.len());
    let caret = format!("{}{}", " ".repeat(e.column.saturating_sub(1)), "^".repeat(e.length.max(1)));
    s.push_str(&format!("{pad} |\n{number} | {shown}\n{pad} | {caret}\n"));
    // The expansion stack, innermost first: where the macro was called, the file included.
    for x in &e.expansion {
        let at = x.file.as_deref().unwrap_or(main);
        s.push_str(&format!("{pad} = note: {} {at}:{}\n", x.what, x.line));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_report() {
        let e = AsmError {
            line: 2,
            column: 5,
            length: 0,
            message: "expected register".into(),
            ..Default::default()
        };
        assert_eq!(
            report("p.s", "\tadd x", &e),
            "p.s:2:5: error: expected register\n  |\n2 |  add x\n  |     ^\n"
        );
        // The whole token is underlined.
        let e = AsmError {
            line: 7,
            column: 2,
            length: 5,
            message: "unknown mnemonic `bogus`".into(),
            ..Default::default()
        };
        assert_eq!(
            report("p.s", " bogus r0", &e),
            "p.s:7:2: error: unknown mnemonic `bogus`\n  |\n7 |  bogus r0\n  |  ^^^^^\n"
        );
        let e = AsmError { line: 0, column: 0, length: 0, message: "too big".into(), ..Default::default() };
        assert_eq!(report("p.s", "", &e), "p.s: error: too big\n");
    }
}

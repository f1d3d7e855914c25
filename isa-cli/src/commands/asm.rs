//! `isa asm`: assembles a source text in a dialect into words, written as binary (the
//! target's byte order) or as hex text. Errors are `FILE:LINE:COL: error: message` with the
//! source line and a caret under the column. A bundled target's program (several word
//! streams) is written as one JSON object: `streams` (each stream's 32-bit words in hex, in
//! upload order) and `settings` (the header settings given).

use super::{complain, plural, stdout};
use crate::error::{Error, Outcome, Result};
use crate::{files, listing, words};
use isa_runtime::bundle::Streams;
use isa_runtime::directives::{Includer, Source};
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
    /// Every statement is an instruction word: no control words read, written or counted.
    pub no_control_words: bool,
    /// A listing's data sections are left out, not refused (`--code-only`).
    pub code_only: bool,
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
    /// Whether the target's control words are read and written (not `--no-control-words`).
    scheduled: bool,
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

    fn scheduled(&self) -> bool {
        self.scheduled
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
    // A source file is read a piece at a time as it is assembled, so memory stays flat
    // whatever its size (standard input copied to a temporary file first, since assembling
    // reads the source twice).
    let bundled = target.streams().and_then(Streams::bundles).is_some();
    let spool = if files::is_stdin(opts.file) { Some(files::Spool::stdin()?) } else { None };
    let path = spool.as_ref().map_or(opts.file, |s| s.path());
    let name = files::name(opts.file);
    let schedule = target.streams().and_then(Streams::schedule);
    // cuobjdump's and nvdisasm's listings: read from their text, with the control words their
    // comments hold (`crate::listing`). Every piece is looked at first, one at a time, so a
    // listing after the first MiB is read as one and the file's size never decides how.
    let mut listed = false;
    let mut file = files::Pieces::open(path, &name)?;
    if !bundled {
        let mut count = listing::Count::default();
        while let Some(piece) = file.piece() {
            for line in piece.lines() {
                count.line(line, target.word_bits());
            }
        }
        listed = file.error.is_none() && !opts.no_control_words && count.is_listing(schedule);
        isa_runtime::directives::Source::rewind(&mut file);
    }
    let mut pieces = file.error.is_none().then_some(file);
    let source = match (&pieces, &spool) {
        (Some(_), _) => String::new(),
        // Standard input was read into the spool: its text is there (its name stays <stdin>).
        (None, Some(s)) => {
            let text = String::from_utf8(files::read_bytes(s.path())?)
                .map_err(|e| Error::Failed(format!("`{}` is not UTF-8 text: {e}", files::name(opts.file))))?;
            files::without_bom(&text).to_string()
        }
        (None, None) => files::read_text(opts.file)?,
    };
    // Each error is printed as it is found, so a long source shows its first ones at once.
    let errors = std::cell::Cell::new(0usize);
    let base = opts.file.parent().map(Path::to_path_buf).unwrap_or_default();
    let preludes = read_preludes(opts.prelude, opts.include)?;
    let mut files = Files {
        base,
        search: opts.include,
        preludes,
        name: name.clone(),
        validate: opts.validate,
        scheduled: !opts.no_control_words,
    };
    let print = |e: &AsmError, line: &str| {
        errors.set(errors.get() + 1);
        if errors.get() <= SHOWN {
            complain(format_args!("{}", report(&name, line, e)));
        }
    };
    let failed = || {
        let errors = errors.get();
        if errors > SHOWN {
            let more = errors - SHOWN;
            complain(format_args!("... and {more} more error{}\n", if more == 1 { "" } else { "s" }));
        }
        complain(format_args!("isa: {name}: found {}\n", plural(errors, "error")));
        Ok(Outcome::Failure)
    };
    // A bundled target's program is several streams (a few KB at most: tegra_fs.isa holds 64
    // bundles): written as one JSON object once it is whole.
    if let Some(bundles) = target.streams().and_then(Streams::bundles) {
        let mut text = isa_runtime::directives::Text::new(&source);
        let source: &mut dyn Source = match pieces.as_mut() {
            Some(p) => p,
            None => &mut text,
        };
        let assembled = target.assemble_bundle_files(&name, source, dialect, &mut files, &mut { print });
        // A read error or text that is not UTF-8 past the first piece ended the source early.
        if let Some(e) = pieces.and_then(|p| p.error) {
            return Err(Error::Failed(e));
        }
        let Some(program) = assembled else {
            return failed();
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
    if opts.out.is_none() && !opts.json && !opts.hex && stdout().get_ref().is_terminal() {
        return Err(Error::Usage("not writing binary words to a terminal; use -o FILE or --hex".into()));
    }
    // Binary, hex or JSON: each word written as it is made (the source is expanded twice and
    // never held expanded, the words never held at all), so memory stays flat whatever the
    // program's size. What comes before the first error stays in memory up to STREAM_AFTER
    // bytes, so a short program with an error writes nothing; a longer one goes to a file
    // beside `-o FILE` that replaces it only once the whole program assembled.
    let mut writer = Writer::new(target, opts);
    let mut text = isa_runtime::directives::Text::new(&source);
    let mut print = print;
    if listed {
        // A listing's text becomes source a piece at a time, and its words are checked and
        // kept against that piece once they are all assembled (`listing::Checker`): a
        // `.reuse` or pair mark edited into the text is written into its control word where
        // the slot's declared fields can give it, and is an error where they cannot, never
        // dropped; an unedited line keeps its listed word.
        let mut converted = listing::Converted::new(files::Pieces::open(path, &name)?, target, dialect);
        let mut checker =
            listing::Checker::new(files::Pieces::open(path, &name)?, target, dialect, opts.code_only);
        let mut wrong = |(line, column, length, message, text): listing::Wrong| {
            let e = AsmError { line, column, length, message, file: None, expansion: Vec::new() };
            errors.set(errors.get() + 1);
            if errors.get() <= SHOWN {
                complain(format_args!("{}", report(&name, &text, &e)));
            }
        };
        let tables = target.assemble_stream(
            &name,
            &mut converted,
            dialect,
            &mut files,
            &mut print,
            &mut |w, length| checker.word(w, length, &mut |w, l| writer.word(w, l), &mut wrong),
        );
        checker.finish(&mut |w, l| writer.word(w, l), &mut wrong);
        // Sections left out as asked are said, so what the output holds is never a guess.
        let left_out = &checker.sections.left_out;
        if !left_out.is_empty() && errors.get() == 0 {
            let s = if left_out.len() == 1 { "" } else { "s" };
            complain(format_args!(
                "isa: {name}: --code-only: left out {} data section{s}: {}\n",
                left_out.len(),
                left_out.join(", ")
            ));
        }
        if let Some(e) = converted.groups.source.error.take().or_else(|| checker.source().error.clone()) {
            writer.output.abandon();
            return Err(Error::Failed(e));
        }
        return match tables {
            Some(tables) if errors.get() == 0 => writer.finish(&name, &tables),
            _ => {
                writer.output.abandon();
                failed()
            }
        };
    }
    let source: &mut dyn Source = match pieces.as_mut() {
        Some(p) => p,
        None => &mut text,
    };
    let tables = target.assemble_stream(&name, source, dialect, &mut files, &mut print, &mut |w, length| {
        writer.word(w, length)
    });
    // A read error or text that is not UTF-8 past the first piece ended the source early.
    if let Some(e) = pieces.and_then(|p| p.error) {
        writer.output.abandon();
        return Err(Error::Failed(e));
    }
    let Some(tables) = tables else {
        writer.output.abandon();
        return failed();
    };
    writer.finish(&name, &tables)
}

/// Writes an assembled program's words as they come: binary in the target's byte order, hex
/// text (a word a line) or one JSON object ([`isa_runtime::target::ProgramJson`]: the words'
/// parts in order, then the summaries folded over them and the tables the data sections
/// filled, known at the end). Only the last word is held back (only it can end the program
/// inside a word); the output is [`Output`]'s.
struct Writer<'a> {
    target: &'a dyn Target,
    hex: bool,
    json: Option<isa_runtime::target::ProgramJson>,
    output: Output<'a>,
    /// The last word, its number and its length where not its own.
    held: Option<(usize, u128, Option<usize>)>,
    count: usize,
    /// Whether a word at another length than its own is refused: `--json` and `--hex` hold
    /// whole words (`--hex` of a target whose instructions differ in length writes bytes).
    whole: bool,
    /// The first word so refused: its number, length and word.
    refused: Option<(usize, usize, u128)>,
    /// The JSON text of the last word, before it goes to the output.
    text: String,
}

impl<'a> Writer<'a> {
    fn new(target: &'a dyn Target, opts: &Options<'a>) -> Self {
        let json = opts.json.then(|| target.program_json_writer());
        let mut writer = Writer {
            target,
            hex: opts.hex,
            output: Output { buffer: Vec::new(), sink: None, out: opts.out, error: None },
            held: None,
            count: 0,
            whole: opts.json || opts.hex && !target.variable_length(),
            refused: None,
            text: String::new(),
            json,
        };
        if let Some(json) = &writer.json {
            json.start(&mut writer.text);
            writer.output.buffer.extend_from_slice(writer.text.as_bytes());
            writer.text.clear();
        }
        writer
    }

    /// The next word of the program, with its length in bytes where it is not its own
    /// ([`isa_runtime::target::Assembled::lengths`]).
    fn word(&mut self, w: u128, length: Option<usize>) {
        if let (Some(n), None, true) = (length, self.refused, self.whole) {
            self.refused = Some((self.count, n, w));
        }
        if let Some((_, previous, length)) = self.held.replace((self.count, w, length)) {
            self.put(previous, length);
        }
        self.count += 1;
    }

    fn put(&mut self, w: u128, length: Option<usize>) {
        match self.json.as_mut() {
            Some(json) => {
                json.word(w, &mut self.text);
                self.output.buffer.extend_from_slice(self.text.as_bytes());
                self.text.clear();
            }
            None => {
                let length = length.unwrap_or_else(|| own_length(self.target, w));
                put(self.target, self.hex, w, length, &mut self.output.buffer);
            }
        }
        self.output.spill();
    }

    /// The program assembled: the last word and, for JSON, its end (`tables`: what the data
    /// sections filled); or the program refused where it is bytes, not words.
    fn finish(mut self, name: &str, tables: &isa_runtime::table::Filled) -> Result<Outcome> {
        if let Some((i, n, w)) = self.refused {
            self.output.abandon();
            return not_words(self.target, name, (i, n), i + 1 == self.count, w, self.json.is_some());
        }
        if let Some((_, w, length)) = self.held.take() {
            self.put(w, length);
        }
        if let Some(json) = &self.json {
            json.settings(&mut self.text);
            isa_runtime::table::write_tables(&mut self.text, tables);
            self.text.push_str("}\n");
            self.output.buffer.extend_from_slice(self.text.as_bytes());
        }
        self.output.finish()?;
        Ok(Outcome::Success)
    }
}

/// Refuses a program that is bytes, not words, where `--hex` or `--json` (`json`) holds words:
/// word `i` is `n` bytes of data (the last one, `last`: the program ends inside a word).
fn not_words(
    target: &dyn Target,
    name: &str,
    (i, n): (usize, usize),
    last: bool,
    word: u128,
    json: bool,
) -> Result<Outcome> {
    let format = if json { "--json" } else { "--hex" };
    if last && !target.variable_length() {
        complain(format_args!(
            "isa: {name}: the program ends in {} of data, part of a {}-byte word: {format} holds whole words; write it as binary (-o FILE)\n",
            plural(n, "byte"),
            words::word_bytes(target.word_bits()),
        ));
    } else {
        complain(format_args!(
            "isa: {name}: word {i} is {} of data, which begin an instruction of {} bytes: {format} holds words at their own lengths; write it as binary (-o FILE)\n",
            plural(n, "byte"),
            target.instruction_bytes(word),
        ));
    }
    Ok(Outcome::Failure)
}

/// How many bytes word `w` takes in memory where the assembler gave no other length.
fn own_length(target: &dyn Target, w: u128) -> usize {
    if target.variable_length() {
        target.instruction_bytes(w)
    } else {
        words::word_bytes(target.word_bits())
    }
}

/// Bytes of output kept in memory before they are written (see [`run`]).
const STREAM_AFTER: usize = 1 << 20;

/// Where `isa asm` writes its words: a buffer, then standard output or a file beside the
/// output file that replaces it at the end.
struct Output<'a> {
    buffer: Vec<u8>,
    sink: Option<Box<dyn Write>>,
    out: Option<&'a Path>,
    error: Option<std::io::Error>,
}

impl Output<'_> {
    /// The file written before it replaces `-o FILE`.
    fn partial(path: &Path) -> PathBuf {
        let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        name.push(".partial");
        path.with_file_name(name)
    }

    /// Writes the buffer out once it holds more than [`STREAM_AFTER`] bytes.
    fn spill(&mut self) {
        if self.buffer.len() < STREAM_AFTER || self.error.is_some() {
            return;
        }
        if self.sink.is_none() {
            self.sink = match self.out {
                Some(path) => match std::fs::File::create(Self::partial(path)) {
                    Ok(f) => Some(Box::new(std::io::BufWriter::new(f))),
                    Err(e) => {
                        self.error = Some(e);
                        return;
                    }
                },
                None => Some(Box::new(stdout())),
            };
        }
        if let Some(sink) = self.sink.as_mut() {
            if let Err(e) = sink.write_all(&self.buffer) {
                self.error = Some(e);
            }
        }
        self.buffer.clear();
    }

    /// The program did not assemble: the file beside `-o FILE` goes (standard output keeps
    /// what it was given).
    fn abandon(mut self) {
        if let (Some(path), Some(_)) = (self.out, self.sink.take()) {
            let _ = std::fs::remove_file(Self::partial(path));
        }
    }

    /// The rest written; the file beside `-o FILE` replaces it.
    fn finish(mut self) -> Result<()> {
        let fail =
            |path: &Path, e: std::io::Error| Error::Failed(format!("cannot write `{}`: {e}", path.display()));
        if let Some(e) = self.error.take() {
            return match self.out {
                Some(path) => {
                    let _ = std::fs::remove_file(Self::partial(path));
                    Err(fail(path, e))
                }
                None => Err(Error::output(e)),
            };
        }
        match (self.out, self.sink.take()) {
            (Some(path), None) => files::write(path, &self.buffer),
            (Some(path), Some(mut sink)) => {
                let partial = Self::partial(path);
                let written = sink.write_all(&self.buffer).and_then(|()| sink.flush());
                drop(sink);
                if let Err(e) = written.and_then(|()| std::fs::rename(&partial, path)) {
                    let _ = std::fs::remove_file(&partial);
                    return Err(fail(path, e));
                }
                Ok(())
            }
            (None, sink) => {
                let mut sink = sink.unwrap_or_else(|| Box::new(stdout()));
                sink.write_all(&self.buffer).and_then(|()| sink.flush()).map_err(Error::output)
            }
        }
    }
}

/// Appends word `w` as the output has it, `length` bytes of memory
/// ([`isa_runtime::target::Assembled::length`]):
/// binary in the target's byte order (instructions of different lengths each at its length,
/// a fixed-length word cut to it where the program ends inside the word), or hex text, a word
/// a line.
fn put(target: &dyn Target, hex: bool, w: u128, length: usize, out: &mut Vec<u8>) {
    if hex && target.variable_length() {
        // One instruction a line, as its bytes in memory order (what `decode` reads).
        let mut bytes = Vec::new();
        word_to_bytes(w, length, true, &mut bytes);
        for b in bytes {
            out.extend_from_slice(format!("{b:02x}").as_bytes());
        }
        out.push(b'\n');
    } else if hex {
        out.extend_from_slice(words::to_hex(w, target.word_bits()).as_bytes());
        out.push(b'\n');
    } else if target.variable_length() {
        word_to_bytes(w, length, true, out);
    } else {
        let size = words::word_bytes(target.word_bits());
        let start = out.len();
        word_to_bytes(w, size, target.little_endian(), out);
        out.truncate(start + length.min(size));
    }
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

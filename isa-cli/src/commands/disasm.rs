//! `isa disasm`: a program (binary words in the target's byte order, or hex text) printed one
//! instruction per line in a dialect, each after its scheduling slot where the target has
//! control words. A word the dialect cannot show, undecodable ones included, prints as the
//! dialect's raw directive with the reason as a comment, so the listing assembles back to the
//! same words; a control word that cannot be read is written with the spec's `raw_control`
//! directive before its group (raw words where the spec has none) and the listing goes on. The command fails when a word did not decode. A bundled target's
//! program is the JSON object of its streams that `isa asm` writes, listed as bundles.

use super::{complain, plural, read_program, stdout};
use crate::error::{Error, Outcome, Result};
use crate::{files, words};
use isa_runtime::bundle::Streams;
use isa_runtime::target::{Line, Target};
use isa_runtime::DecodeError;
use std::io::Write;
use std::path::Path;

/// What `isa disasm` was asked to do.
pub struct Options<'a> {
    /// The program file (`-` for standard input).
    pub file: &'a Path,
    /// The file is hex text rather than binary.
    pub hex: bool,
    /// Prefix each line with the instruction's byte address.
    pub address: bool,
    /// Every word is an instruction: no control words, whatever the target.
    pub no_control_words: bool,
    /// The dialect's disassembler listing (addresses, words, what control words imply).
    pub listing: bool,
}

/// Groups (or words, without control words) listed per piece of a program: the memory the
/// command uses stays the same whatever the size of the program.
const PIECE_GROUPS: usize = 4096;

/// Disassembles the program piece by piece as it is read, each line written as it is made.
/// The listing needs no first pass: branch targets print as the displacements the words hold,
/// not as labels.
pub fn run(target: &dyn Target, dialect: usize, opts: &Options<'_>) -> Result<Outcome> {
    let name = files::name(opts.file);
    // A bundled target's program is the JSON object `isa asm` writes: its streams as bundles.
    let streams = target.streams();
    if let Some(bundles) = streams.and_then(Streams::bundles) {
        let text = files::read_text(opts.file)?;
        let failed = |e: isa_runtime::bundle::StreamError| Error::Failed(format!("{name}: {e}"));
        let program = isa_runtime::bundle::Program::from_json(bundles, &text).map_err(failed)?;
        let mut listing = target.disassemble_bundles(&program, dialect).map_err(failed)?;
        // The tables the data sections fill (`.constants`), after the bundles.
        if let Some(d) = target.dialects().get(dialect) {
            let tables = isa_runtime::table::listing(&text, d, target.tables())
                .map_err(|e| Error::Failed(format!("{name}: {e}")))?;
            listing.push_str(&tables);
        }
        out_write(&listing)?;
        return Ok(Outcome::Success);
    }
    // A program of one stream written as the JSON object `isa asm --json` writes: its words
    // listed, then its data sections' tables. A binary may begin with `{` too: a file that is
    // not such an object is read as binary, and the listing says why on standard error.
    let json = (!opts.hex && starts_with_brace(opts.file))
        .then(|| files::read_text(opts.file).map_err(|e| e.to_string()))
        .map(|text| text.and_then(|text| Ok((target.program_from_json(&text)?, text))));
    if let Some(Err(e)) = &json {
        complain(format_args!(
            "isa: {name}: begins with `{{` but is no program's JSON ({e}); read as binary\n"
        ));
    }
    if let Some(Ok((words, text))) = json {
        let failed = |e: String| Error::Failed(format!("{name}: {e}"));
        // The code section's directive first, where the dialect has one (grate's `.asm`).
        let mut listing = target
            .dialects()
            .get(dialect)
            .and_then(|d| d.code_section)
            .map_or(String::new(), |code| format!("{code}\n"));
        let mut undecoded = 0usize;
        for line in target.disassemble_program(&words, dialect) {
            undecoded += usize::from(line.error.is_some());
            listing.push_str(&format!("{line}\n"));
        }
        if let Some(d) = target.dialects().get(dialect) {
            listing.push_str(&isa_runtime::table::listing(&text, d, target.tables()).map_err(failed)?);
        }
        out_write(&listing)?;
        if undecoded > 0 {
            complain(format_args!(
                "isa: {name}: {undecoded} of {} words could not be decoded\n",
                words.len()
            ));
        }
        return Ok(Outcome::failed_if(undecoded > 0));
    }
    // An interleaved stream's control words, unless every word is to be an instruction.
    let control = streams.and_then(Streams::schedule);
    if opts.listing {
        return listing(target, dialect, opts, control.map(|s| s.slots as usize + 1));
    }
    let schedule = !opts.no_control_words && control.is_some();
    let group = control.filter(|_| schedule).map_or(1, |s| s.slots as usize + 1);
    let mut out = stdout();
    let mut tally = Tally::default();
    let mut words = 0usize;
    let mut list = |piece: &[u128], lengths: &[usize], first: usize, last: bool| -> Result<()> {
        let mut written = Ok(());
        let mut line = |line: Line| {
            if written.is_ok() {
                written = tally.write(&mut out, &line, opts.address);
            }
        };
        if target.variable_length() {
            // Each piece at its length in the stream, which its word alone may not say.
            target.disassemble_stream_from(piece, lengths, first as u64, last, dialect, &mut line);
        } else {
            target.disassemble_from(piece, first, last, dialect, schedule, &mut line);
        }
        words += piece.len();
        written
    };
    // Bytes that end inside a word or an instruction, listed after the words as data.
    let mut rest = None;
    let mut keep = |cut: words::Cut| -> Result<()> {
        rest = Some(cut);
        Ok(())
    };
    let read = read_program(opts.file, opts.hex, target, group * PIECE_GROUPS, &mut list, Some(&mut keep));
    let listed = read.and_then(|()| match rest.take() {
        Some(cut) => cut_line(target, dialect, &name, &cut, opts.address, &mut out).map(|()| Some(cut)),
        None => Ok(None),
    });
    // What was listed stays listed, whatever ended the input.
    out.flush().map_err(Error::output)?;
    let cut = listed?;
    let Tally { failed, controls } = tally;
    if let Some(cut) = &cut {
        listed_as_data(&name, cut);
    }
    if failed > 0 {
        complain(format_args!("isa: {name}: {failed} of {words} words could not be decoded\n"));
    }
    if let Some(s) = control.filter(|_| controls > 0) {
        complain(format_args!(
            "isa: {name}: {controls} of the words read as control words (the first of every {}) \
             cannot be control words; `--no-control-words` reads instruction words only\n",
            s.slots + 1
        ));
    }
    Ok(Outcome::failed_if(failed > 0 || cut.is_some()))
}

/// Says on standard error that the bytes that end a program inside a word were listed as data.
fn listed_as_data(name: &str, cut: &words::Cut) {
    complain(format_args!(
        "isa: {name}: {}; listed as data: the last {} at address {:#x}\n",
        cut.reason,
        plural(cut.bytes.len(), "byte"),
        cut.at
    ));
}

/// The line of a listing that shows bytes ending inside a word: the dialect's byte directive,
/// the reason as a comment, so the listing assembles back to the same bytes (the assembler
/// writes data that ends a program as it is). A dialect without a byte directive cannot show
/// them: an error naming the dialects that can.
fn cut_line(
    target: &dyn Target,
    dialect: usize,
    file: &str,
    cut: &words::Cut,
    address: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let dialects = target.dialects();
    let Some(text) =
        dialects.get(dialect).and_then(|d| isa_runtime::target::data_text(d, &cut.bytes, Some(&cut.reason)))
    else {
        let able: Vec<&str> = dialects
            .iter()
            .filter(|d| isa_runtime::target::data_text(d, &[], None).is_some())
            .map(|d| d.name)
            .collect();
        let name = dialects.get(dialect).map_or("", |d| d.name);
        let hint = if able.is_empty() { String::new() } else { format!("; dialect {} can", able.join(", ")) };
        return Err(Error::Failed(format!(
            "{file}: {}; dialect {name} has no byte directive to list them{hint}",
            cut.reason
        )));
    };
    if address {
        write!(out, "{:08x}: ", cut.at).map_err(Error::output)?;
    }
    writeln!(out, "{text}").map_err(Error::output)
}

/// `isa disasm --listing`: the dialect's disassembler listing, written as it is made.
fn listing(target: &dyn Target, dialect: usize, opts: &Options<'_>, group: Option<usize>) -> Result<Outcome> {
    let name = files::name(opts.file);
    let d = target.dialects().get(dialect);
    let (Some(group), Some(style)) = (group, d.and_then(|d| d.listing)) else {
        return Err(Error::Usage(format!(
            "`--listing` needs a target with control words and a dialect with a `listing` layout; {} dialect `{}` has none",
            target.name(),
            d.map_or("", |d| d.name)
        )));
    };
    let (mut failed, mut words, mut paired) = (0usize, 0usize, false);
    // The word comments are aligned after the longest text, as nvdisasm aligns them: the
    // listing is held until the program ends.
    let mut lines = Vec::new();
    let mut list = |piece: &[u128], _: &[usize], first: usize, last: bool| -> Result<()> {
        target.listing_from(piece, first, last, dialect, &mut paired, &mut |line| {
            failed += usize::from(line.error.is_some());
            lines.push(line);
        });
        words = first + piece.len();
        Ok(())
    };
    // Bytes that end inside a word, listed after the words as data (as without `--listing`).
    let mut rest = None;
    let mut keep = |cut: words::Cut| -> Result<()> {
        rest = Some(cut);
        Ok(())
    };
    read_program(opts.file, opts.hex, target, group * PIECE_GROUPS, &mut list, Some(&mut keep))?;
    let mut out = stdout();
    let mut written = Ok(());
    isa_runtime::target::align_listing(&lines, style, target.word_bits(), &mut |line| {
        if written.is_ok() {
            written = writeln!(out, "{line}").map_err(Error::output);
        }
    });
    written?;
    let listed = rest.as_ref().map_or(Ok(()), |cut| cut_line(target, dialect, &name, cut, false, &mut out));
    out.flush().map_err(Error::output)?;
    listed?;
    if let Some(cut) = &rest {
        listed_as_data(&name, cut);
    }
    if failed > 0 {
        complain(format_args!("isa: {name}: {failed} of {words} words could not be decoded\n"));
    }
    Ok(Outcome::failed_if(failed > 0 || rest.is_some()))
}

/// What the listing has met so far.
#[derive(Default)]
struct Tally {
    /// Words that did not decode.
    failed: usize,
    /// Of those, words read as control words.
    controls: usize,
}

impl Tally {
    /// Writes one line of the listing and counts its error.
    fn write(&mut self, out: &mut dyn Write, line: &Line, address: bool) -> Result<()> {
        if address {
            write!(out, "{:08x}: ", line.address).map_err(Error::output)?;
        }
        self.failed += usize::from(line.error.is_some());
        self.controls += usize::from(matches!(
            line.error,
            Some(DecodeError::NotControl { .. } | DecodeError::BadSlot { .. })
        ));
        writeln!(out, "{line}").map_err(Error::output)
    }
}

/// Whether the file (not standard input, which is read once) starts with `{` after blanks:
/// a program written as JSON.
fn starts_with_brace(path: &std::path::Path) -> bool {
    use std::io::Read;
    if path.as_os_str() == "-" {
        return false;
    }
    let mut head = [0u8; 256];
    let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut head));
    read.is_ok_and(|n| head[..n].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'{'))
}

/// Writes `text` to standard output.
fn out_write(text: &str) -> Result<()> {
    let mut out = stdout();
    out.write_all(text.as_bytes()).map_err(Error::output)?;
    out.flush().map_err(Error::output)
}

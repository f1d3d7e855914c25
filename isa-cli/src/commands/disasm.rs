//! `isa disasm`: a program (binary words in the target's byte order, or hex text) printed one
//! instruction per line in a dialect, each after its scheduling slot where the target has
//! control words. A word the dialect cannot show, undecodable ones included, prints as the
//! dialect's raw directive with the reason as a comment, so the listing assembles back to the
//! same words; a control word that cannot be read is listed with its group as raw words and
//! the listing goes on. The command fails when a word did not decode.

use super::{complain, read_program, stdout};
use crate::error::{Error, Outcome, Result};
use crate::{files, words};
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
    pub no_schedule: bool,
}

/// Groups (or words, without control words) listed per piece of a binary program: the memory
/// the command uses stays the same whatever the size of the program.
const PIECE_GROUPS: usize = 4096;

/// Disassembles the program: a binary one piece by piece as it is read, each line written as
/// it is made.
pub fn run(target: &dyn Target, dialect: usize, opts: &Options<'_>) -> Result<Outcome> {
    let name = files::name(opts.file);
    let schedule = !opts.no_schedule && target.schedule().is_some();
    let mut out = stdout();
    let mut tally = Tally::default();
    let mut list = |words: &[u128], first: usize, out: &mut dyn Write| -> Result<()> {
        let mut written = Ok(());
        target.disassemble_from(words, first, dialect, schedule, &mut |line| {
            if written.is_ok() {
                written = tally.write(out, &line, opts.address);
            }
        });
        written
    };
    let words = if opts.hex {
        // Hex text is read whole: whether it is read from `/* 0x... */` comments alone depends on
        // all of it.
        let program = read_program(opts.file, true, target)?;
        list(&program, 0, &mut out)?;
        program.len()
    } else if target.variable_length() {
        // A stream of instructions of different lengths is split from its start: read whole.
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut files::open(opts.file)?, &mut bytes)
            .map_err(|e| Error::Failed(format!("{name}: {e}")))?;
        let program = target.split_stream(&bytes);
        list(&program, 0, &mut out)?;
        program.len()
    } else {
        // Targets whose words cannot be read as bytes are refused before any output, and so is a
        // file whose size is not a whole number of words.
        words::from_binary(&[], target).map_err(|e| Error::Failed(format!("{name}: {e}")))?;
        let size = words::word_bytes(target.word_bits());
        if let Some(len) = files::size(opts.file).filter(|len| len % size as u64 != 0) {
            return Err(Error::Failed(format!("{name}: {}", partial(len, size, target))));
        }
        let group = target.schedule().map_or(1, |s| s.slots as usize + 1);
        let mut input = files::open(opts.file)?;
        let mut buf = vec![0u8; size * group * PIECE_GROUPS];
        let mut first = 0usize;
        let mut total = 0u64;
        loop {
            let n = files::read_full(&mut input, &mut buf, opts.file)?;
            total += n as u64;
            let whole = n - n % size;
            let words = words::from_binary(&buf[..whole], target)
                .map_err(|e| Error::Failed(format!("{name}: {e}")))?;
            list(&words, first, &mut out)?;
            first += words.len();
            if n < buf.len() {
                if n != whole {
                    out.flush().map_err(Error::output)?;
                    return Err(Error::Failed(format!("{name}: {}", partial(total, size, target))));
                }
                break;
            }
        }
        first
    };
    out.flush().map_err(Error::output)?;
    let Tally { failed, controls } = tally;
    if failed > 0 {
        complain(format_args!("isa: {name}: {failed} of {words} words could not be decoded\n"));
    }
    if let Some(s) = target.schedule().filter(|_| controls > 0) {
        complain(format_args!(
            "isa: {name}: {controls} of the words read as control words (the first of every {}) \
             cannot be control words; `--no-schedule` reads instruction words only\n",
            s.slots + 1
        ));
    }
    Ok(Outcome::failed_if(failed > 0))
}

/// Why `len` bytes are not a program of `size`-byte words.
fn partial(len: u64, size: usize, target: &dyn Target) -> String {
    let rest = len % size as u64;
    format!(
        "{len} bytes is not a whole number of {size}-byte {} words ({rest} bytes left over)",
        target.name()
    )
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

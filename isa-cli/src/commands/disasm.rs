//! `isa disasm`: a program (binary words in the target's byte order, or hex text) printed one
//! instruction per line in a dialect, each after its scheduling slot where the target has
//! control words. A word the dialect cannot show, undecodable ones included, prints as the
//! dialect's raw directive with the reason as a comment, so the listing assembles back to the
//! same words; a control word that cannot be read is listed with its group as raw words and
//! the listing goes on. The command fails when a word did not decode.

use super::{complain, read_program, stdout};
use crate::error::{Error, Outcome, Result};
use crate::files;
use isa_runtime::target::Target;
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

/// Disassembles the program.
pub fn run(target: &dyn Target, dialect: usize, opts: &Options<'_>) -> Result<Outcome> {
    let program = read_program(opts.file, opts.hex, target)?;
    let lines = if opts.no_schedule {
        target.disassemble_words(&program, dialect)
    } else {
        target.disassemble_program(&program, dialect)
    };
    let mut out = stdout();
    let (mut failed, mut controls) = (0usize, 0usize);
    for line in lines {
        if opts.address {
            write!(out, "{:08x}: ", line.address).map_err(Error::output)?;
        }
        failed += usize::from(line.error.is_some());
        controls += usize::from(matches!(
            line.error,
            Some(DecodeError::NotControl { .. } | DecodeError::BadSlot { .. })
        ));
        writeln!(out, "{line}").map_err(Error::output)?;
    }
    out.flush().map_err(Error::output)?;
    if failed > 0 {
        complain(format_args!(
            "isa: {}: {failed} of {} words could not be decoded\n",
            files::name(opts.file),
            program.len()
        ));
    }
    if let Some(s) = target.schedule().filter(|_| controls > 0) {
        complain(format_args!(
            "isa: {}: {controls} of the words read as control words (the first of every {}) \
             cannot be control words; `--no-schedule` reads instruction words only\n",
            files::name(opts.file),
            s.slots + 1
        ));
    }
    Ok(Outcome::failed_if(failed > 0))
}

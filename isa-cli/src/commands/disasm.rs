//! `isa disasm`: a program (binary words in the target's byte order, or hex text) printed one
//! instruction per line in a dialect, each after its scheduling slot where the target has
//! control words. An undecodable word prints `<error: ...>` and the rest go on; the command
//! then fails.

use super::{complain, read_program, stdout};
use crate::error::{Error, Outcome, Result};
use crate::files;
use isa_runtime::target::Target;
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
}

/// Disassembles the program.
pub fn run(target: &dyn Target, dialect: usize, opts: &Options<'_>) -> Result<Outcome> {
    let program = read_program(opts.file, opts.hex, target)?;
    let mut out = stdout();
    let mut failed = 0usize;
    for line in target.disassemble_program(&program, dialect) {
        if opts.address {
            write!(out, "{:08x}: ", line.address).map_err(Error::output)?;
        }
        failed += usize::from(line.text.is_err());
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
    Ok(Outcome::failed_if(failed > 0))
}

//! One module per command; each `run` returns how the command went, having printed its output.

pub mod asm;
pub mod decode;
pub mod disasm;
pub mod header;
pub mod layout;
pub mod spec;
pub mod targets;
pub mod validate;

use crate::error::{Error, Result};
use crate::files;
use crate::words;
use isa_runtime::target::Target;
use std::fmt;
use std::io::{self, BufWriter, StdoutLock, Write};
use std::path::Path;

/// Buffered standard output; write errors map through [`Error::output`].
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::new(io::stdout().lock())
}

/// Prints one line on standard output (no panic if it is closed).
pub fn say(line: fmt::Arguments<'_>) -> Result<()> {
    writeln!(io::stdout().lock(), "{line}").map_err(Error::output)
}

/// Prints text on standard error; a closed standard error is not worth a panic.
pub fn complain(text: fmt::Arguments<'_>) {
    let _ = write!(io::stderr().lock(), "{text}");
}

/// `n thing` or `n things`.
pub fn plural(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// Prints each violation (`head`, the rule, `tail`, its detail), then the count of errors and
/// warnings on standard error; fails when any is an error (a warning is a rule the hardware
/// tolerates).
pub fn report(
    name: &str,
    violations: &[isa_runtime::program::Violation],
    around: impl Fn(&isa_runtime::program::Violation) -> (String, String),
) -> Result<crate::error::Outcome> {
    let mut out = stdout();
    for v in violations {
        let (head, tail) = around(v);
        let kind = if v.warning { "warning: " } else { "" };
        write!(out, "{head}{kind}{} [{}]{tail}", v.message, v.rule).map_err(Error::output)?;
        if !v.detail.is_empty() {
            write!(out, ": {}", v.detail).map_err(Error::output)?;
        }
        writeln!(out).map_err(Error::output)?;
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

/// Reads a program's words: a binary file in the target's byte order, or with `hex` a text
/// of hex words in any form [`words::HexReader`] reads.
pub fn read_program(path: &Path, hex: bool, target: &dyn Target) -> Result<Vec<u128>> {
    let name = files::name(path);
    if hex {
        let text = files::read_text(path)?;
        words::parse_hex_text(&text, target.word_bits(), target.little_endian()).map_err(|errors| {
            // A binary file read as hex would otherwise print a line per byte of junk.
            const SHOWN: usize = 10;
            for (line, e) in errors.iter().take(SHOWN) {
                complain(format_args!("{name}:{line}: error: {e}\n"));
            }
            if errors.len() > SHOWN {
                complain(format_args!("... and {} more\n", errors.len() - SHOWN));
            }
            Error::Failed(format!("{name}: {}", plural(errors.len(), "bad hex word")))
        })
    } else {
        let bytes = files::read_bytes(path)?;
        words::from_binary(&bytes, target).map_err(|e| Error::Failed(format!("{name}: {e}")))
    }
}

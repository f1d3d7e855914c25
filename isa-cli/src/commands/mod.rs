//! One module per command; each `run` returns how the command went, having printed its output.

pub mod asm;
pub mod decode;
pub mod disasm;
pub mod header;
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

/// Reads a program's words: a binary file in the target's byte order, or with `hex` a text
/// file of one hex word per line.
pub fn read_program(path: &Path, hex: bool, target: &dyn Target) -> Result<Vec<u128>> {
    let name = files::name(path);
    if hex {
        let text = files::read_text(path)?;
        words::parse_hex_text(&text, target.word_bits()).map_err(|errors| {
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

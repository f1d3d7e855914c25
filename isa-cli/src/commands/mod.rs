//! One module per command; each `run` returns how the command went, having printed its output.

// The program commands work on the built-in targets (the `targets` feature).
#[cfg(feature = "targets")]
pub mod asm;
#[cfg(feature = "targets")]
pub mod decode;
#[cfg(feature = "targets")]
pub mod disasm;
#[cfg(feature = "targets")]
pub mod header;
#[cfg(feature = "targets")]
pub mod layout;
pub mod spec;
#[cfg(feature = "targets")]
pub mod targets;
#[cfg(feature = "targets")]
pub mod validate;

// What the program commands share.
#[cfg(feature = "targets")]
mod program;
#[cfg(feature = "targets")]
pub use program::*;

use crate::error::{Error, Result};
use std::fmt;
use std::io::{self, Write};

/// Prints one line on standard output (no panic if it is closed).
pub fn say(line: fmt::Arguments<'_>) -> Result<()> {
    writeln!(io::stdout().lock(), "{line}").map_err(Error::output)
}

/// Prints text on standard error; a closed standard error is not worth a panic.
pub fn complain(text: fmt::Arguments<'_>) {
    let _ = write!(io::stderr().lock(), "{text}");
}

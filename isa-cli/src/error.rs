//! How a command ends: its outcome, its errors, and the exit code each maps to.
//!
//! Exit codes: 0 success; 1 the input had errors (diagnostics, undecodable words, assembly
//! errors, rule violations, bad hex, a file that is not a whole number of words) or a file could
//! not be read or written; 2 a bad command line (clap's own errors, an unknown target or dialect).

use std::fmt;
use std::io;

/// How a command that ran to the end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything in the input was fine.
    Success,
    /// Problems were found and have already been reported (exit code 1).
    Failure,
}

#[cfg(feature = "targets")]
impl Outcome {
    /// `Failure` if `failed`, else `Success`.
    pub fn failed_if(failed: bool) -> Self {
        if failed {
            Outcome::Failure
        } else {
            Outcome::Success
        }
    }
}

/// Why a command stopped before the end.
#[derive(Debug)]
pub enum Error {
    /// A bad value on the command line (exit code 2).
    Usage(String),
    /// The input could not be used, or a file could not be read or written (exit code 1).
    Failed(String),
    /// Standard output was closed by its reader (`isa disasm x | head`): stop quietly.
    BrokenPipe,
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            Error::Failed(_) => 1,
            Error::BrokenPipe => 0,
        }
    }

    /// An error writing the command's output.
    pub fn output(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Error::BrokenPipe
        } else {
            Error::Failed(format!("cannot write output: {e}"))
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Failed(m) => f.write_str(m),
            Error::BrokenPipe => f.write_str("output closed"),
        }
    }
}

/// The result of a command.
pub type Result<T> = std::result::Result<T, Error>;

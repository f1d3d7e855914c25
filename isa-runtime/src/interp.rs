//! Shared pieces of generated interpreters.

/// Why execution stopped abnormally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trap {
    /// The word at the program counter does not decode.
    Decode(crate::DecodeError),
    /// An operation whose semantics the spec does not give and the embedder did not supply.
    Unimplemented(&'static str),
    /// The program counter left the program.
    PcOutOfRange(u64),
    /// The step budget ran out.
    StepLimit,
}

impl core::fmt::Display for Trap {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Trap::Decode(e) => write!(f, "decode error: {e}"),
            Trap::Unimplemented(op) => write!(f, "operation `{op}` has no semantics"),
            Trap::PcOutOfRange(pc) => write!(f, "program counter {pc:#x} outside the program"),
            Trap::StepLimit => f.write_str("step limit reached"),
        }
    }
}

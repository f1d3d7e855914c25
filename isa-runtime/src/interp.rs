//! Shared pieces of generated interpreters.

/// Why execution stopped abnormally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trap {
    /// The word at the program counter does not decode.
    Decode(crate::DecodeError),
    /// An operation whose semantics the spec does not give and the embedder did not supply.
    Unimplemented(&'static str),
    /// An encoding the hardware refuses (an illegal-instruction fault), where the spec says
    /// `illegal()`.
    Illegal(&'static str),
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
            Trap::Illegal(op) => write!(f, "`{op}`: an illegal instruction"),
            Trap::PcOutOfRange(pc) => write!(f, "program counter {pc:#x} outside the program"),
            Trap::StepLimit => f.write_str("step limit reached"),
        }
    }
}

impl core::error::Error for Trap {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Trap::Decode(e) => Some(e),
            _ => None,
        }
    }
}

/// The length in bytes of an instruction of a byte-stream target (its encoding's length; a
/// whole word if it does not encode).
pub fn instruction_length<T: crate::target::Isa>(insn: &T::Instruction) -> u64 {
    T::encode(insn)
        .map_or(u64::from(T::WORD_BITS.div_ceil(8)), |w| crate::target::instruction_bytes::<T>(w) as u64)
}

/// The byte address of every instruction of a byte-stream program, worked out once so that
/// finding the instruction at `pc` costs a binary search instead of a walk from the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addresses {
    /// The address of instruction `i`, then the address just past the last one.
    starts: alloc::vec::Vec<u64>,
}

impl Addresses {
    /// The addresses of `program`'s instructions, each as long as its encoding.
    pub fn of<T: crate::target::Isa>(program: &[T::Instruction]) -> Self {
        let mut starts = alloc::vec::Vec::with_capacity(program.len() + 1);
        let mut at = 0u64;
        starts.push(at);
        for insn in program {
            at += instruction_length::<T>(insn);
            starts.push(at);
        }
        Addresses { starts }
    }

    /// The byte address just past the program.
    pub fn end(&self) -> u64 {
        self.starts.last().copied().unwrap_or(0)
    }

    /// The index of the instruction starting at byte `pc` (the program's length at its end);
    /// `None` inside an instruction or past the end.
    pub fn index(&self, pc: u64) -> Option<usize> {
        self.starts.binary_search(&pc).ok()
    }

    /// The address of instruction `i` (`i` = the program's length: its end).
    pub fn start(&self, i: usize) -> Option<u64> {
        self.starts.get(i).copied()
    }

    /// The number of instructions the table was made for.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether the table was made for an empty program.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The byte address just past a byte-stream program.
pub fn stream_end<T: crate::target::Isa>(program: &[T::Instruction]) -> u64 {
    program.iter().map(instruction_length::<T>).sum()
}

/// The index of the instruction starting at byte `pc` of a byte-stream program (the program's
/// length at its end); `None` inside an instruction or past the end. It walks the program
/// from its start: a loop stepping through a program uses [`Addresses`] instead.
pub fn stream_index<T: crate::target::Isa>(program: &[T::Instruction], pc: u64) -> Option<usize> {
    let mut at = 0u64;
    for (i, insn) in program.iter().enumerate() {
        if at >= pc {
            return (at == pc).then_some(i);
        }
        at += instruction_length::<T>(insn);
    }
    (at == pc).then_some(program.len())
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::Trap;
    use crate::DecodeError;
    use std::boxed::Box;
    use std::error::Error;
    use std::string::ToString;

    /// The errors are `core::error::Error`s: `?` turns them into `Box<dyn Error>`, and a trap
    /// names the decode error behind it as its source.
    #[test]
    fn traps_are_errors_with_their_decode_error_as_source() {
        fn run() -> Result<(), Box<dyn Error>> {
            Err(Trap::Decode(DecodeError::NoMatch { word: 0xec00_0000_0000_0000 }))?
        }
        let e = run().err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(e, "decode error: no encoding matches word 0xec00000000000000");
        let trap = Trap::Decode(DecodeError::NoMatch { word: 0x5 });
        let source = trap.source().map(|s| s.to_string()).unwrap_or_default();
        assert_eq!(source, "no encoding matches word 0x5");
        assert!(Trap::StepLimit.source().is_none());
    }
}

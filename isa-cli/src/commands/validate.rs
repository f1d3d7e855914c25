//! `isa validate`: decodes a program and runs the target's validators (per-instruction
//! constraints and whole-program rules), printing each violation.

use super::{complain, read_program, say};
use crate::error::{Outcome, Result};
use crate::{files, words};
use isa_runtime::target::Target;
use std::path::Path;

/// Validates the program in `file` (binary, or hex text with `hex`).
pub fn run(target: &dyn Target, file: &Path, hex: bool) -> Result<Outcome> {
    let program = read_program(file, hex, target)?;
    let name = files::name(file);
    let step = words::word_bytes(target.word_bits()) as u64;
    let violations = match target.check(&program) {
        Ok(v) => v,
        Err((index, e)) => {
            // The index of the word (control words included), not of the instruction.
            complain(format_args!("{name}: word {index} (address {:#x}): error: {e}\n", index as u64 * step));
            return Ok(Outcome::Failure);
        }
    };
    let lines = target.disassemble_program(&program, 0);
    if violations.is_empty() {
        say(format_args!("{name}: ok: {} instructions, no rule broken", lines.len()))?;
        return Ok(Outcome::Success);
    }
    super::report(&name, &violations, |v| {
        let (pc, text) = lines
            .get(v.index)
            .map_or((v.index as u64 * step, String::new()), |l| (l.address, l.text.clone()));
        (format!("{name}: instruction {} (address {pc:#x}: {text}): ", v.index), String::new())
    })
}

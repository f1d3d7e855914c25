//! `isa validate`: decodes a program and runs the target's validators (per-instruction
//! constraints and whole-program rules), printing each violation.
//!
//! The program is read as a stream, but its words are kept: a rule may relate instructions
//! anywhere in the program (`each i: each j in 0..=len - 1`), so the whole program is checked
//! at once. Only the instructions that break a rule are listed.

use super::{complain, read_program, say};
use crate::error::{Outcome, Result};
use crate::{files, words};
use isa_runtime::bundle::Streams;
use isa_runtime::target::Target;
use std::collections::BTreeMap;
use std::path::Path;

/// Validates the program in `file` (binary, or hex text with `hex`).
pub fn run(target: &dyn Target, file: &Path, hex: bool) -> Result<Outcome> {
    let group = target.streams().and_then(Streams::schedule).map_or(1, |s| s.slots as usize + 1);
    let mut program = Vec::new();
    read_program(
        file,
        hex,
        target,
        group * 4096,
        &mut |piece, _, _, _| {
            program.extend_from_slice(piece);
            Ok(())
        },
        None,
    )?;
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
    // The listing's lines of the instructions named, by index: the rest is not kept.
    let mut named: BTreeMap<usize, (u64, String)> =
        violations.iter().map(|v| (v.index, (0, String::new()))).collect();
    let mut count = 0usize;
    target.disassemble_from(&program, 0, true, 0, true, &mut |line| {
        if let Some(shown) = named.get_mut(&count) {
            *shown = (line.address, line.text);
        }
        count += 1;
    });
    if violations.is_empty() {
        say(format_args!("{name}: ok: {} instructions, no rule broken", count))?;
        return Ok(Outcome::Success);
    }
    super::report(&name, &violations, |v| {
        let (pc, text) = match named.get(&v.index) {
            Some(shown) if v.index < count => shown.clone(),
            _ => (v.index as u64 * step, String::new()),
        };
        (format!("{name}: instruction {} (address {pc:#x}: {text}): ", v.index), String::new())
    })
}

//! Programs whose instructions come in groups behind a scheduling control word (NVIDIA
//! Maxwell: one 64-bit word before every three instructions; its slot `i`, `slot_bits` wide at
//! bit `slot_bits * i`, schedules the group's instruction `i`). Targets without a schedule are
//! one instruction per word, and every function here works on them too.

use crate::format::Format;
use crate::target::Isa;
use crate::{DecodeError, EncodeError};
use alloc::vec::Vec;

/// How a target's control words are laid out.
#[derive(Debug)]
pub struct Schedule {
    /// The slot's fields and its syntax per dialect (printed before each instruction).
    pub slot: &'static Format,
    /// Instructions (slots) per control word.
    pub slots: u32,
    /// Bits per slot.
    pub slot_bits: u32,
    /// The instruction word that fills the last group.
    pub pad: u128,
    /// The slot of an instruction whose text gives none (its fields' defaults).
    pub default_slot: u64,
    /// Checks a slot's raw bits: a field holding a value the spec does not define is an error.
    pub check: fn(u64) -> Result<(), DecodeError>,
}

impl Schedule {
    /// Index in the program's words of instruction `k`.
    pub fn word_index(&self, k: usize) -> usize {
        let n = self.slots as usize;
        k / n * (n + 1) + 1 + k % n
    }

    /// Slot `i` of control word `control`.
    pub fn slot(&self, control: u128, i: u32) -> u64 {
        ((control >> (self.slot_bits * i)) & ((1u128 << self.slot_bits.min(64)) - 1)) as u64
    }

    /// Whether `word` can be a control word (no bit outside the slots set).
    pub fn is_control(&self, word: u128) -> bool {
        let used = self.slot_bits * self.slots;
        used >= 128 || word >> used == 0
    }

    /// The first `count` slots of control word `control`; an error when a bit outside the
    /// slots is set or a slot's field holds a value the spec does not define.
    pub fn read_control(&self, control: u128, count: usize) -> Result<Vec<u64>, DecodeError> {
        if !self.is_control(control) {
            return Err(DecodeError::NotControl { word: control, slot_bits: self.slot_bits * self.slots });
        }
        let slots: Vec<u64> = (0..count as u32).map(|i| self.slot(control, i)).collect();
        for (i, slot) in slots.iter().enumerate() {
            if let Err(e) = (self.check)(*slot) {
                let (field, value) = match e {
                    DecodeError::UndefinedValue { field, value, .. } => (field, value),
                    _ => ("", *slot),
                };
                return Err(DecodeError::BadSlot { word: control, slot: i as u32, field, value });
            }
        }
        Ok(slots)
    }
}

/// An instruction with its scheduling slot (0 for targets without a schedule).
#[derive(Debug, Clone, PartialEq)]
pub struct Scheduled<I> {
    /// The raw slot bits.
    pub slot: u64,
    /// The instruction.
    pub insn: I,
    /// Index of the instruction's word in the program.
    pub word: usize,
}

/// Byte address of instruction `k` of a program of target `T`.
pub fn address<T: Isa>(k: usize) -> u64 {
    let index = T::schedule().map_or(k, |s| s.word_index(k));
    index as u64 * u64::from(T::WORD_BITS.div_ceil(8))
}

/// An instruction's word in a program: (index of the word, its slot's raw bits, the word).
pub type Entry = (usize, u64, u128);

/// Index of the instruction at byte address `pc` of a program of target `T`; a control word's
/// address means the instruction after it (where execution goes on).
pub fn index<T: Isa>(pc: u64) -> usize {
    let bytes = u64::from(T::WORD_BITS.div_ceil(8)).max(1);
    let word = (pc / bytes) as usize;
    match T::schedule() {
        None => word,
        Some(s) => {
            let group = s.slots as usize + 1;
            word / group * s.slots as usize + (word % group).max(1) - 1
        }
    }
}

/// Splits a program's words into its instructions' words with their slots. A control word
/// with bits outside its slots, or a slot field holding an undefined value, is an error at the
/// control word's index.
pub fn split<T: Isa>(words: &[u128]) -> Result<Vec<Entry>, (usize, DecodeError)> {
    match split_until_error::<T>(words) {
        (entries, None) => Ok(entries),
        (_, Some(e)) => Err(e),
    }
}

/// [`split`], keeping the entries before the first bad control word.
pub fn split_until_error<T: Isa>(words: &[u128]) -> (Vec<Entry>, Option<(usize, DecodeError)>) {
    let Some(s) = T::schedule() else {
        return (words.iter().enumerate().map(|(i, w)| (i, 0, *w)).collect(), None);
    };
    let group = s.slots as usize + 1;
    let mut out = Vec::with_capacity(words.len());
    for (g, chunk) in words.chunks(group).enumerate() {
        let slots = match s.read_control(chunk[0], chunk.len() - 1) {
            Ok(slots) => slots,
            Err(e) => return (out, Some((g * group, e))),
        };
        for (i, (w, slot)) in chunk[1..].iter().zip(slots).enumerate() {
            out.push((g * group + 1 + i, slot, *w));
        }
    }
    (out, None)
}

/// Decodes a whole program: every instruction with its slot.
pub fn decode_program<T: Isa>(
    words: &[u128],
) -> Result<Vec<Scheduled<T::Instruction>>, (usize, DecodeError)> {
    split::<T>(words)?
        .into_iter()
        .map(|(word, slot, w)| T::decode(w).map(|insn| Scheduled { slot, insn, word }).map_err(|e| (word, e)))
        .collect()
}

/// Encodes a whole program: control words in front of each group, the last group padded
/// with the schedule's pad instruction and default slot.
pub fn encode_program<T: Isa>(program: &[(u64, T::Instruction)]) -> Result<Vec<u128>, EncodeError> {
    let words =
        program.iter().map(|(slot, insn)| Ok((*slot, T::encode(insn)?))).collect::<Result<Vec<_>, _>>()?;
    Ok(pack_program::<T>(&words))
}

/// Lays out a program of instruction words with their slots: control words in front of each
/// group, the last group padded with the schedule's pad instruction and default slot.
pub fn pack_program<T: Isa>(program: &[(u64, u128)]) -> Vec<u128> {
    let Some(s) = T::schedule() else {
        return program.iter().map(|(_, word)| *word).collect();
    };
    let n = s.slots as usize;
    let mut out = Vec::with_capacity(program.len() / n * (n + 1) + n + 1);
    for group in program.chunks(n) {
        let mut control = 0u128;
        let mut words = Vec::with_capacity(n);
        for i in 0..n {
            let (slot, word) = group.get(i).copied().unwrap_or((s.default_slot, s.pad));
            control |= u128::from(slot & crate::bits::mask(s.slot_bits)) << (s.slot_bits * i as u32);
            words.push(word);
        }
        out.push(control);
        out.extend(words);
    }
    out
}

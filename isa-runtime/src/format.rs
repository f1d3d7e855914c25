//! Static descriptions of encodings: which fields an encoding has and where their bits are.
//! Generated code emits one [`Format`] per encoding; the syntax engine and generic tools read it.

use crate::bits::{self, Piece};
use alloc::vec::Vec;

/// One field of an encoding.
#[derive(Debug)]
pub struct FieldInfo {
    /// The field's spec name.
    pub name: &'static str,
    /// Where its bits are, most significant piece first.
    pub pieces: &'static [Piece],
    /// Whether the value is two's complement.
    pub signed: bool,
    /// The value an assembler uses when the text does not give one.
    pub default: Option<u64>,
    /// The value the encoding fixes (its opcode bits), if any.
    pub fixed: Option<u64>,
    /// A read-only view of bits other fields own: printed, never parsed or packed.
    pub view: bool,
}

/// One encoding (instruction class or operation form) of a target.
#[derive(Debug)]
pub struct Format {
    /// The encoding's spec name.
    pub name: &'static str,
    /// Its fields, in spec order (fixed fields included).
    pub fields: &'static [FieldInfo],
    /// Its syntax in each dialect of the target, by dialect index.
    pub syntax: &'static [&'static crate::syntax::Syntax],
}

impl Format {
    /// Every field's raw value in `word`.
    pub fn unpack(&self, word: u128) -> Vec<u64> {
        self.fields.iter().map(|f| bits::get(word, f.pieces)).collect()
    }

    /// Packs raw field values (as from [`Format::unpack`] or the parser) into a word.
    pub fn pack(&self, values: &[u64]) -> u128 {
        let mut word = 0u128;
        for (f, v) in self.fields.iter().zip(values).filter(|(f, _)| !f.view) {
            bits::set(&mut word, f.pieces, *v);
        }
        word
    }

    /// The index of the field called `name`.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

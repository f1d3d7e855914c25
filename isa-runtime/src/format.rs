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
    /// A view of bits other fields own: printed, and read back into those fields; never packed.
    pub view: bool,
    /// The raw values the encoding allows (`in` clause), inclusive ranges; empty: any.
    pub allowed: &'static [(u64, u64)],
}

impl FieldInfo {
    /// A field as most are: unsigned, 0 when the text does not give it, not fixed, not a view,
    /// any value allowed; the methods below say otherwise. Generated statics are written with
    /// these, a few tokens a field instead of every member spelt out.
    pub const fn new(name: &'static str, pieces: &'static [Piece]) -> Self {
        FieldInfo { name, pieces, signed: false, default: Some(0), fixed: None, view: false, allowed: &[] }
    }

    /// The field, its value two's complement.
    pub const fn signed(mut self) -> Self {
        self.signed = true;
        self
    }

    /// The field, with `default` the value an assembler uses when the text gives none.
    pub const fn default(mut self, default: Option<u64>) -> Self {
        self.default = default;
        self
    }

    /// The field, fixed by its encoding to `value`.
    pub const fn fixed(mut self, value: u64) -> Self {
        self.fixed = Some(value);
        self
    }

    /// The field, a view of bits other fields own.
    pub const fn view(mut self) -> Self {
        self.view = true;
        self
    }

    /// The field, allowing only the raw values of `ranges` (inclusive).
    pub const fn allowed(mut self, ranges: &'static [(u64, u64)]) -> Self {
        self.allowed = ranges;
        self
    }
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
        // A field of one piece inside the low 64 bits (most of them) is set there: a `u128`
        // shift by a variable amount costs several instructions and branches.
        let mut low = 0u64;
        let mut high: Option<u128> = None;
        for (f, &v) in self.fields.iter().zip(values) {
            if f.view {
                continue;
            }
            if let (None, [p]) = (high, f.pieces) {
                if p.width < 64 && p.lo + p.width <= 64 {
                    let m = bits::mask(p.width);
                    low = (low & !(m << p.lo)) | ((v & m) << p.lo);
                    continue;
                }
            }
            let word = high.get_or_insert(u128::from(low));
            bits::set(word, f.pieces, v);
        }
        high.unwrap_or(u128::from(low))
    }

    /// How this format's fields are packed, worked out once for [`Packing::pack`].
    pub fn packing(&self) -> Packing {
        let mut packing = Packing { low: Vec::new(), rest: Vec::new(), overlap: false };
        let mut used = 0u128;
        for (i, f) in self.fields.iter().enumerate().filter(|(_, f)| !f.view) {
            for p in f.pieces {
                let (lo, width) = (p.lo, p.width.min(64));
                if lo >= 128 || lo + width > 128 || p.width > 64 {
                    packing.overlap = true;
                    continue;
                }
                let bits = (bits::mask(width) as u128) << lo;
                packing.overlap |= used & bits != 0;
                used |= bits;
            }
            match f.pieces {
                [p] if p.width < 64 && p.lo + p.width <= 64 => {
                    packing.low.push((i as u32, p.lo, bits::mask(p.width)));
                }
                _ => packing.rest.push(i as u32),
            }
        }
        packing
    }

    /// The index of the field called `name`.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

/// How long the instructions of one encoding are, on a target whose instructions differ in
/// length (AGX, RISC-V C, Thumb-2): a program is then a byte stream, each instruction's first
/// byte the lowest of its word.
#[derive(Debug)]
pub struct Length {
    /// The field whose value picks the length (`length { 32, 48 }`); empty for one length.
    pub field: &'static [Piece],
    /// Length in bits per value of the field, shortest first.
    pub bits: &'static [u32],
}

impl Length {
    /// The length in bits of the instruction whose word (and whatever follows it) is `word`;
    /// `None` for a value of the length field with no length.
    pub fn of(&self, word: u128) -> Option<u32> {
        self.bits.get(bits::get(word, self.field) as usize).copied()
    }

    /// The instruction's own bits of `word`: what follows its last byte reads as zero.
    pub fn truncate(&self, word: u128) -> u128 {
        match self.of(word) {
            Some(bits) if bits < 128 => word & ((1u128 << bits) - 1),
            _ => word,
        }
    }

    /// Whether no bit is set past the length the word's length field picks.
    pub fn fits(&self, word: u128) -> bool {
        self.truncate(word) == word && self.of(word).is_some()
    }

    /// `word` with its length field set to the shortest length holding every other bit (the
    /// assembler's choice, as applegpu's: a long form only when the short one cannot hold it).
    pub fn shortest(&self, word: u128) -> u128 {
        if self.field.is_empty() {
            return word;
        }
        let mut rest = word;
        bits::set(&mut rest, self.field, 0);
        let pick = self.bits.iter().position(|b| *b >= 128 || rest >> b == 0).unwrap_or(self.bits.len() - 1);
        let mut out = rest;
        bits::set(&mut out, self.field, pick as u64);
        out
    }
}

/// How a format's fields are packed into its word ([`Format::packing`]): [`Format::pack`]
/// without its tests of each field's shape at each call.
#[derive(Debug, Clone)]
pub struct Packing {
    /// The fields of one piece inside the low 64 bits: index, lowest bit and mask.
    low: Vec<(u32, u32, u64)>,
    /// The other fields (not views), by index.
    rest: Vec<u32>,
    /// Two fields share a bit (the later one's value is the word's there): packed by
    /// [`Format::pack`], in order.
    overlap: bool,
}

impl Packing {
    /// What `format.pack(values)` gives, for the format this packing is of.
    pub fn pack(&self, format: &Format, values: &[u64]) -> u128 {
        if self.overlap || values.len() != format.fields.len() {
            return format.pack(values);
        }
        // No two fields share a bit: each is or-ed in.
        let mut low = 0u64;
        for &(i, lo, mask) in &self.low {
            low |= (values[i as usize] & mask) << lo;
        }
        let mut word = u128::from(low);
        for &i in &self.rest {
            bits::set(&mut word, format.fields[i as usize].pieces, values[i as usize]);
        }
        word
    }
}

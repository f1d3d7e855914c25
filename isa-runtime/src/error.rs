//! Typed errors shared by every generated target.

use core::fmt;

/// Why a word could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// No encoding of the target matches the word.
    NoMatch {
        /// The word, zero-extended.
        word: u128,
    },
    /// No encoding of a target whose instructions differ in length matches these bytes (as
    /// many as the shortest instruction holding every set bit, in memory order).
    NoMatchBytes {
        /// The bytes as a little-endian number: byte 0 is bits 7:0.
        bytes: u128,
        /// How many bytes.
        length: u8,
    },
    /// The word matches an encoding but a field holds a value the spec does not define.
    UndefinedValue {
        /// The encoding (format) that matched.
        format: &'static str,
        /// The field's spec name.
        field: &'static str,
        /// The raw field value.
        value: u64,
        /// The word, zero-extended.
        word: u128,
    },
    /// A word read as a scheduling control word has bits set outside its slots.
    NotControl {
        /// The word, zero-extended.
        word: u128,
        /// Bits its slots use (from bit 0).
        slot_bits: u32,
    },
    /// A word read as a scheduling control word has a slot whose field holds a value the spec
    /// does not define.
    BadSlot {
        /// The control word, zero-extended.
        word: u128,
        /// The slot (0: the group's first instruction).
        slot: u32,
        /// The slot field's spec name.
        field: &'static str,
        /// The raw field value.
        value: u64,
    },
    /// The word is an instruction of an encoding the hardware reserves (`reserved "why"` in the
    /// spec): printers show it, the typed decoder refuses it. `decode_strict` says so where
    /// `decode` reports [`DecodeError::NoMatch`].
    Reserved {
        /// The reserved encoding (format).
        format: &'static str,
        /// Why it is reserved, as the spec says.
        why: &'static str,
        /// The word, zero-extended.
        word: u128,
    },
    /// Fewer bytes than one instruction needs.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
}

impl DecodeError {
    /// Why the word does not decode, without the word itself (for text printed beside it,
    /// such as a listing's comment).
    pub fn reason(&self) -> Reason<'_> {
        Reason(self)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, with_word: bool) -> fmt::Result {
        let word = match self {
            DecodeError::NoMatch { word }
            | DecodeError::UndefinedValue { word, .. }
            | DecodeError::NotControl { word, .. }
            | DecodeError::BadSlot { word, .. }
            | DecodeError::Reserved { word, .. } => Some(*word).filter(|_| with_word),
            DecodeError::Truncated { .. } | DecodeError::NoMatchBytes { .. } => None,
        };
        match (self, word) {
            (DecodeError::NoMatch { .. }, Some(w)) => write!(f, "no encoding matches word {w:#x}"),
            (DecodeError::NoMatch { .. }, None) => write!(f, "no encoding matches"),
            (DecodeError::NoMatchBytes { bytes, length }, _) if with_word => {
                write!(f, "no encoding matches bytes")?;
                for i in 0..u32::from(*length).min(16) {
                    write!(f, " {:02x}", (bytes >> (8 * i)) as u8)?;
                }
                Ok(())
            }
            (DecodeError::NoMatchBytes { .. }, _) => write!(f, "no encoding matches"),
            (DecodeError::UndefinedValue { format, field, value, .. }, Some(w)) => {
                write!(f, "word {w:#x} ({format}): field `{field}` holds undefined value {value}")
            }
            (DecodeError::UndefinedValue { format, field, value, .. }, None) => {
                write!(f, "{format}: field `{field}` holds undefined value {value}")
            }
            (DecodeError::NotControl { slot_bits, .. }, w) => {
                if let Some(w) = w {
                    write!(f, "word {w:#x} ")?;
                }
                write!(f, "read as a control word: bits above its {slot_bits} slot bits are set")
            }
            (DecodeError::BadSlot { slot, field, value, .. }, w) => {
                if let Some(w) = w {
                    write!(f, "word {w:#x} ")?;
                }
                write!(
                    f,
                    "read as a control word: slot {slot}: field `{field}` holds undefined value {value}"
                )
            }
            (DecodeError::Reserved { format, why, .. }, w) => {
                if let Some(w) = w {
                    write!(f, "word {w:#x} ")?;
                }
                write!(f, "is a reserved encoding ({format}): {why}")
            }
            (DecodeError::Truncated { needed, available }, _) => {
                write!(f, "truncated instruction: {needed} bytes needed, {available} available")
            }
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, true)
    }
}

impl core::error::Error for DecodeError {}

/// [`DecodeError::reason`]: the error's text without the word.
pub struct Reason<'a>(&'a DecodeError);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f, false)
    }
}

/// Why an instruction could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeError {
    /// A field's value does not fit its bits (never silently truncated).
    OutOfRange {
        /// The encoding (format).
        format: &'static str,
        /// The field's spec name.
        field: &'static str,
        /// The value that was given.
        value: i128,
        /// The field's width in bits.
        bits: u32,
        /// Whether the field is signed.
        signed: bool,
    },
    /// A field's value is outside the values the encoding allows (its pattern).
    NotAllowed {
        /// The encoding (format).
        format: &'static str,
        /// The field's spec name.
        field: &'static str,
        /// The value that was given.
        value: u64,
    },
    /// A generic value (JSON) does not describe the layout: an unknown or ill-typed field.
    Invalid {
        /// The layout.
        format: &'static str,
        /// The field's name as given (empty for the whole value).
        field: alloc::string::String,
        /// What was expected.
        reason: &'static str,
    },
    /// An error of a nested layout's member, seen from the layout that holds it: the path the
    /// value (as JSON writes it) takes down to the nested layout, and the nested layout's error.
    Within {
        /// The outermost layout.
        layout: &'static str,
        /// The member holding the nested layout (`common_word3`, `imap_generic_vector[5]`).
        path: alloc::string::String,
        /// The nested layout's own error (never itself `Within`).
        error: alloc::boxed::Box<EncodeError>,
    },
}

impl EncodeError {
    /// The error of a nested layout's member, seen from `layout`, which holds the nested layout
    /// at `parent`; nested again, the paths join (`common_word3.output_topology`).
    pub fn within(self, layout: &'static str, parent: &str) -> Self {
        match self {
            EncodeError::Within { path, error, .. } => {
                EncodeError::Within { layout, path: alloc::format!("{parent}.{path}"), error }
            }
            other => {
                EncodeError::Within { layout, path: parent.into(), error: alloc::boxed::Box::new(other) }
            }
        }
    }

    /// The error itself, wherever it was found (the nested layout's for [`EncodeError::Within`]).
    pub fn cause(&self) -> &EncodeError {
        match self {
            EncodeError::Within { error, .. } => error.cause(),
            other => other,
        }
    }

    /// Writes the error of `layout`'s field named by `path` (empty: the whole value).
    fn write(&self, f: &mut fmt::Formatter<'_>, layout: &str, path: &str) -> fmt::Result {
        let joined = |field: &str| match (path.is_empty(), field.is_empty()) {
            (true, _) => alloc::string::String::from(field),
            (false, true) => alloc::string::String::from(path),
            (false, false) => alloc::format!("{path}.{field}"),
        };
        match self {
            EncodeError::OutOfRange { field, value, bits, signed, .. } => {
                let kind = if *signed { "signed" } else { "unsigned" };
                write!(
                    f,
                    "{layout}: value {value} does not fit field `{}` ({bits}-bit {kind})",
                    joined(field)
                )
            }
            EncodeError::NotAllowed { field, value, .. } => {
                write!(f, "{layout}: field `{}` may not hold {value} in this encoding", joined(field))
            }
            EncodeError::Invalid { field, reason, .. } if path.is_empty() && field.is_empty() => {
                write!(f, "{layout}: {reason}")
            }
            EncodeError::Invalid { field, reason, .. } => {
                write!(f, "{layout}: field `{}`: {reason}", joined(field))
            }
            EncodeError::Within { path: inner, error, .. } => error.write(f, layout, &joined(inner)),
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::OutOfRange { format, .. } | EncodeError::NotAllowed { format, .. } => {
                self.write(f, format, "")
            }
            EncodeError::Invalid { format, .. } => self.write(f, format, ""),
            EncodeError::Within { layout, path, error } => error.write(f, layout, path),
        }
    }
}

impl core::error::Error for EncodeError {}

/// An assembly error, located by line and column (both 1-based).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AsmError {
    /// Line in the source text.
    pub line: usize,
    /// Column (in characters) in that line.
    pub column: usize,
    /// How many characters from the column the error covers (the whole token it is about;
    /// 0 at the end of the line or where no token is meant).
    pub length: usize,
    /// What went wrong.
    pub message: alloc::string::String,
    /// The file of the line when it is not the source itself (an included file).
    pub file: Option<alloc::string::String>,
    /// How the line came to be assembled, innermost first: the macro calls, repetitions and
    /// includes it was expanded in.
    pub expansion: alloc::vec::Vec<Expansion>,
}

/// One step of an error's expansion stack: a macro call, a repetition or an include.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expansion {
    /// The file of the line that expanded it (`None`: the source itself).
    pub file: Option<alloc::string::String>,
    /// That line (1-based).
    pub line: usize,
    /// What it is, ready to be followed by `FILE:LINE` (`in macro `m` called from`).
    pub what: alloc::string::String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl core::error::Error for AsmError {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    #[test]
    fn nested_errors_name_the_path_from_the_outermost_layout() {
        let inner = EncodeError::OutOfRange { format: "Imap", field: "x", value: 9, bits: 3, signed: false };
        let e = inner.clone().within("Vector", "imap[2]").within("Header", "vector");
        assert_eq!(e.to_string(), "Header: value 9 does not fit field `vector.imap[2].x` (3-bit unsigned)");
        assert_eq!(e.cause(), &inner);
        let whole =
            EncodeError::Invalid { format: "Imap", field: String::new(), reason: "expected an object" };
        assert_eq!(
            whole.within("Header", "imap[0]").to_string(),
            "Header: field `imap[0]`: expected an object"
        );
        let named = EncodeError::Invalid { format: "Imap", field: "y".into(), reason: "no such field" };
        assert_eq!(named.within("Header", "imap[0]").to_string(), "Header: field `imap[0].y`: no such field");
        let not = EncodeError::NotAllowed { format: "Imap", field: "op", value: 3 };
        assert_eq!(
            not.within("Header", "a").to_string(),
            "Header: field `a.op` may not hold 3 in this encoding"
        );
        // Unnested errors read as before.
        assert_eq!(inner.to_string(), "Imap: value 9 does not fit field `x` (3-bit unsigned)");
    }
}

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
    /// Fewer bytes than one instruction needs.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NoMatch { word } => write!(f, "no encoding matches word {word:#x}"),
            DecodeError::UndefinedValue { format, field, value, word } => {
                write!(f, "word {word:#x} ({format}): field `{field}` holds undefined value {value}")
            }
            DecodeError::Truncated { needed, available } => {
                write!(f, "truncated instruction: {needed} bytes needed, {available} available")
            }
        }
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
}

impl EncodeError {
    /// The error of a nested layout's field, seen from `layout`, which holds it at `parent`:
    /// an `Invalid` field's path gains the prefix (`imap_generic_vector[5].imap_x`).
    pub fn within(self, layout: &'static str, parent: &str) -> Self {
        match self {
            EncodeError::Invalid { field, reason, .. } if field.is_empty() => {
                EncodeError::Invalid { format: layout, field: parent.into(), reason }
            }
            EncodeError::Invalid { field, reason, .. } => {
                EncodeError::Invalid { format: layout, field: alloc::format!("{parent}.{field}"), reason }
            }
            other => other,
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::OutOfRange { format, field, value, bits, signed } => {
                let kind = if *signed { "signed" } else { "unsigned" };
                write!(f, "{format}: value {value} does not fit field `{field}` ({bits}-bit {kind})")
            }
            EncodeError::NotAllowed { format, field, value } => {
                write!(f, "{format}: field `{field}` may not hold {value} in this encoding")
            }
            EncodeError::Invalid { format, field, reason } if field.is_empty() => {
                write!(f, "{format}: {reason}")
            }
            EncodeError::Invalid { format, field, reason } => {
                write!(f, "{format}: field `{field}`: {reason}")
            }
        }
    }
}

/// An assembly error, located by line and column (both 1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    /// Line in the source text.
    pub line: usize,
    /// Column (in characters) in that line.
    pub column: usize,
    /// What went wrong.
    pub message: alloc::string::String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

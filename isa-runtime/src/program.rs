//! Results of validators: per-instruction constraints and whole-program rules.

use alloc::string::String;

/// One broken rule: which rule, at which instruction, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule's or constraint's name in the spec.
    pub rule: &'static str,
    /// The rule's text, as the reference document states it.
    pub message: &'static str,
    /// Index of the instruction the violation is reported at (0 for a data layout).
    pub index: usize,
    /// The data layout the violation is reported in (empty for instructions).
    pub layout: &'static str,
    /// The fields the rule reads (dotted paths in data layouts).
    pub fields: &'static [&'static str],
    /// Whether the spec calls it a `warning` (the hardware tolerates it) rather than an error.
    pub warning: bool,
    /// Extra detail (for example the related instruction), possibly empty.
    pub detail: String,
}

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let kind = if self.warning { "warning: " } else { "" };
        if self.layout.is_empty() {
            write!(f, "instruction {}: {kind}{} ({})", self.index, self.message, self.rule)?;
        } else {
            write!(f, "{}: {kind}{} ({}; {})", self.layout, self.message, self.rule, self.fields.join(", "))?;
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

impl core::error::Error for Violation {}

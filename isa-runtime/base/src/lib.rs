//! What the spec compiler and the runtime both name, in a crate of its own so that the
//! compiler needs no runtime: the assembler's directives ([`Directive`], which a spec's dialect
//! spells), what a computed field of a stream's word counts ([`Measure`]) and the names of the
//! registers an ABI place covers ([`register_names`]). `isa-runtime` re-exports each where its
//! users find it (`isa_runtime::directives::Directive`, `isa_runtime::bundle::Measure`,
//! `isa_runtime::abi::register_names`).

#![no_std]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

extern crate alloc;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// What a directive does. A dialect gives each the spellings its community writes
/// (`set ".set", ".equ", ".define"` in the spec's dialect declaration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Directive {
    /// `NAME, expr`: gives a symbol a value from this line on.
    Set,
    /// `NAME, expr`: like `Set`, but the value is final.
    Const,
    /// `NAME`: forgets a symbol (restoring the value it shadowed).
    Unset,
    /// `NAME, expr`: gives a symbol a value in the current context (macro call, include,
    /// `Local` block) only.
    Lset,
    /// `NAME, expr`: like `Lset`, but the value is final.
    Lconst,
    /// `NAME`: forgets a symbol of the current context.
    Lunset,
    /// Opens a context for `Lset` symbols up to its `Endloc`.
    Local,
    /// Ends a `Local`.
    Endloc,
    /// `NAME(ARG, ...)`: defines a function up to its `Endf`: directives, then the line giving
    /// its value. (`Set NAME(ARG, ...) expr` defines one in a line.)
    Func,
    /// Ends a `Func`.
    Endf,
    /// `expr`: assembles what follows if the value is non-zero.
    If,
    /// `expr`: the next branch of an `If`.
    Elseif,
    /// The last branch of an `If`.
    Else,
    /// Ends an `If`.
    Endif,
    /// `NAME`: assembles what follows if the symbol is defined.
    Ifset,
    /// `[NAME,] count`: repeats the lines up to its `Endr`, the symbol counting from 0.
    Rep,
    /// Ends a `Rep`.
    Endr,
    /// `NAME, expr, ...`: repeats the lines up to its `Endfor` once per value, the symbol
    /// taking each.
    Foreach,
    /// Ends a `Foreach`.
    Endfor,
    /// `count`: assembles the lines up to its `Endb` before the last `count` instructions
    /// (into a branch's delay slots).
    Back,
    /// Ends a `Back`.
    Endb,
    /// `label, count`: copies `count` instructions from the label here.
    Clone,
    /// `NAME[, ARG...]`: defines a macro up to its `Endm`; `NAME args` then expands it.
    Macro,
    /// Ends a `Macro`.
    Endm,
    /// `expr`: an error unless the value is non-zero.
    Assert,
    /// `"file"` or `<file>`: assembles another file here.
    Include,
    /// `expr, ...`: 8-bit integers.
    Byte,
    /// `expr, ...`: 16-bit integers.
    Short,
    /// `expr, ...`: 32-bit integers.
    Int,
    /// `expr, ...`: 64-bit integers.
    Long,
    /// `expr, ...`: IEEE singles.
    Float,
    /// `expr, ...`: IEEE halves (binary16).
    Half,
    /// `expr, ...`: IEEE doubles.
    Double,
    /// `expr, ...`: single bits (0 or 1), packed from the lowest bit of a byte up; the next
    /// item of another kind starts at the next byte.
    Bit,
    /// `bytes`: zero bytes up to the next multiple of `bytes` (a power of two).
    Align,
    /// `address`: what follows is addressed from `address` (labels, an instruction's own
    /// address); its words go on where they are: nothing is written.
    Origin,
    /// `label` or `NAME, expr`: exports a symbol to a linker; nothing in a plain binary.
    Global,
    /// Marks what follows as code or data for a validator; nothing in the binary.
    Section,
}

impl Directive {
    /// Every directive, in the order of the language reference.
    pub const ALL: &'static [Directive] = &[
        Directive::Set,
        Directive::Const,
        Directive::Unset,
        Directive::Lset,
        Directive::Lconst,
        Directive::Lunset,
        Directive::Local,
        Directive::Endloc,
        Directive::Func,
        Directive::Endf,
        Directive::If,
        Directive::Elseif,
        Directive::Else,
        Directive::Endif,
        Directive::Ifset,
        Directive::Rep,
        Directive::Endr,
        Directive::Foreach,
        Directive::Endfor,
        Directive::Back,
        Directive::Endb,
        Directive::Clone,
        Directive::Macro,
        Directive::Endm,
        Directive::Assert,
        Directive::Include,
        Directive::Byte,
        Directive::Short,
        Directive::Int,
        Directive::Long,
        Directive::Float,
        Directive::Half,
        Directive::Double,
        Directive::Bit,
        Directive::Align,
        Directive::Origin,
        Directive::Global,
        Directive::Section,
    ];

    /// The directive's name in a spec's dialect declaration (`set`, `endif`).
    pub fn name(self) -> &'static str {
        match self {
            Directive::Set => "set",
            Directive::Const => "const",
            Directive::Unset => "unset",
            Directive::Lset => "lset",
            Directive::Lconst => "lconst",
            Directive::Lunset => "lunset",
            Directive::Local => "local",
            Directive::Endloc => "endloc",
            Directive::Func => "func",
            Directive::Endf => "endf",
            Directive::If => "if",
            Directive::Elseif => "elseif",
            Directive::Else => "else",
            Directive::Endif => "endif",
            Directive::Ifset => "ifset",
            Directive::Rep => "rep",
            Directive::Endr => "endr",
            Directive::Foreach => "foreach",
            Directive::Endfor => "endfor",
            Directive::Back => "back",
            Directive::Endb => "endb",
            Directive::Clone => "clone",
            Directive::Macro => "macro",
            Directive::Endm => "endm",
            Directive::Assert => "assert",
            Directive::Include => "include",
            Directive::Byte => "byte",
            Directive::Short => "short",
            Directive::Int => "int",
            Directive::Long => "long",
            Directive::Float => "float",
            Directive::Half => "half",
            Directive::Double => "double",
            Directive::Bit => "bit",
            Directive::Align => "align",
            Directive::Origin => "origin",
            Directive::Global => "global",
            Directive::Section => "section",
        }
    }
}

/// What a computed field of a stream's word counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// How many times the unit appears in the bundle.
    Count,
    /// How many of the unit's entries earlier bundles hold (where this bundle's start in the
    /// unit's stream); 0 when the bundle holds none.
    First,
}

/// The names of `length` units from unit `offset`, joined by `_`: a whole register is named
/// once (`r3`), a part of one by its suffix (`r3h`). `units` is units per register and `parts`
/// their suffixes (ignored when a register is one unit).
pub fn register_names(prefix: &str, units: u32, parts: &[&str], offset: u64, length: u64) -> String {
    let units = u64::from(units.max(1));
    let mut names = Vec::new();
    let (mut at, end) = (offset, offset.saturating_add(length));
    while at < end {
        let (register, part) = (at / units, at % units);
        if part == 0 && end - at >= units {
            names.push(format!("{prefix}{register}"));
            at += units;
        } else {
            let suffix = usize::try_from(part).ok().and_then(|p| parts.get(p)).copied().unwrap_or("?");
            names.push(format!("{prefix}{register}{suffix}"));
            at += 1;
        }
    }
    names.join("_")
}

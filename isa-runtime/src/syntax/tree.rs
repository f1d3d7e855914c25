//! The syntax tree: the static description of a dialect's syntax ([`Syntax`], its arms,
//! items, shows, number styles and conditions) that generated code writes out as `static`s.
//! Separate from what walks it, since the printer, the search, the quick reader and the
//! static analyses all read the same types.

use super::names::Table;

/// Index of a field in its format's field list.
pub type Slot = u16;

/// A condition or value over the fields of the instruction being printed or parsed.
#[derive(Debug)]
pub enum Expr {
    /// A constant.
    Int(i64),
    /// A field's raw value.
    Field(Slot),
    /// A parameter of the enclosing sub-syntax.
    Param(u8),
    /// The address of the instruction (for pc-relative operands).
    Pc,
    /// Logical not (0 ↔ 1).
    Not(&'static Expr),
    /// All must hold.
    And(&'static [Expr]),
    /// At least one must hold.
    Or(&'static [Expr]),
    /// A comparison.
    Cmp(Cmp, &'static Expr, &'static Expr),
    /// Integer arithmetic.
    Arith(Arith, &'static Expr, &'static Expr),
    /// `if c then a else b`.
    If(&'static Expr, &'static Expr, &'static Expr),
    /// Membership in inclusive ranges.
    In(&'static Expr, &'static [(i64, i64)]),
}

/// Arithmetic operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// A named syntax: ordered arms, the first whose guard holds is printed.
#[derive(Debug)]
pub struct Syntax {
    /// Name in the spec (the format's name for a top-level syntax).
    pub name: &'static str,
    /// The arms, in order.
    pub arms: &'static [Arm],
}

/// One arm of a [`Syntax`].
#[derive(Debug)]
pub struct Arm {
    /// When this arm applies; `None` always applies.
    pub guard: Option<&'static Expr>,
    /// What is printed / parsed.
    pub items: &'static [Item],
    /// Read by the assembler, never printed: another spelling of what an earlier arm prints.
    pub alias: bool,
}

/// One element of a syntax sequence.
#[derive(Debug)]
pub enum Item {
    /// Literal text. A space matches any run of blanks (including none) when parsing.
    Lit(&'static str),
    /// A field (or parameter) shown in some way.
    Show(&'static Expr, Show),
    /// A named sub-syntax, called with arguments (fields, negated fields, constants).
    Call(&'static Syntax, &'static [Expr]),
    /// An optional group: printed when the condition holds; when parsing, its presence makes
    /// the condition true and its absence makes it false.
    Opt(&'static Expr, &'static [Item]),
    /// Optional groups (each an [`Item::Opt`]) read in any order, each at most once; printed
    /// in the order written. The text (empty: none) stands between the groups written.
    AnyOrder(&'static str, &'static [Item]),
}

/// How a value is shown.
#[derive(Debug)]
pub enum Show {
    /// Through a name table.
    Table(&'static Table),
    /// Through one of two name tables, chosen by a condition (e.g. register file by `ws`).
    TableIf(&'static Expr, &'static Table, &'static Table),
    /// As a number.
    Num(Num),
}

/// Number display styles.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    /// Unsigned decimal.
    Dec,
    /// Unsigned decimal with at least `digits` digits (zero-padded).
    DecPadded {
        /// Minimum digits.
        digits: u8,
    },
    /// Signed decimal of a `bits`-wide two's complement value, with `+` on positives if `plus`.
    Signed {
        /// Width of the value.
        bits: u32,
        /// Print a `+` before non-negative values.
        plus: bool,
    },
    /// Hexadecimal with at least `digits` digits, with a `0x` prefix if `prefix`.
    Hex {
        /// Minimum digits (zero-padded).
        digits: u8,
        /// Print `0x`.
        prefix: bool,
        /// Upper-case digits (`0x1A`).
        upper: bool,
    },
    /// Binary digits, at least `digits` of them (zero-padded), without a prefix.
    Bin {
        /// Minimum digits (zero-padded).
        digits: u8,
    },
    /// An IEEE single (the field's bits) printed like C's `%f`.
    CFloat,
    /// An integer in hexadecimal with `0x` and a `-` before negative values (`-0x60`): the
    /// field's `bits`-wide value, two's complement when `signed`, times `scale`. Parsing takes
    /// a number that is a multiple of `scale` (a word index shown as a byte offset).
    HexValue {
        /// Width of the field.
        bits: u32,
        /// Read the field as two's complement.
        signed: bool,
        /// What one unit of the field is worth.
        scale: u32,
    },
    /// A floating-point value (the field's bits in `format`) printed like C's `%.{precision}g`,
    /// or `%.{precision}e` when `exponent`. Parsing takes a decimal literal the format holds
    /// exactly.
    Float {
        /// The field's number format (a float or a fixed-point one).
        format: crate::number::Number,
        /// Digits (significant for `g`, after the point for `e`).
        precision: u8,
        /// `%e` rather than `%g`.
        exponent: bool,
    },
    /// A value in a declared number format (float or fixed point) as the shortest decimal
    /// that reads back to the same bits, always with a point and never with an exponent
    /// (`1.0`, `-0.5`, `0.099998474`): [`crate::number::Number::write_decimal`]. A value no
    /// decimal reads back to is not shown by this style: a guard must leave it to another arm.
    Decimal {
        /// The field's number format.
        format: crate::number::Number,
    },
    /// A pc-relative displacement shown as the absolute address `base + displacement`, in
    /// hexadecimal with `0x`: parsing takes an address or a label.
    Target {
        /// Width of the displacement.
        bits: u32,
        /// What the displacement is relative to (an expression over `Pc` and fields).
        base: &'static Expr,
        /// Upper-case digits, the sign after the prefix (`0x1A`, `0x-A`: Python's `'0x%X'`).
        upper: bool,
    },
    /// A signed pc-relative displacement: when parsing, a label name is also accepted and
    /// becomes `label address - base`.
    Label {
        /// Width of the displacement.
        bits: u32,
        /// What the displacement is relative to (an expression over `Pc` and fields).
        base: &'static Expr,
    },
}

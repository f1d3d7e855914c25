//! The syntax tree of a `.isa` file, as written, with a span on everything that can be wrong.

pub use crate::diag::Span;

/// A name and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where.
    pub span: Span,
}

/// A whole spec file.
#[derive(Debug, Clone, Default)]
pub struct File {
    /// Top-level items in source order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Debug, Clone)]
pub enum Item {
    /// `target name { settings }`
    Target(Target),
    /// `enum Name : uN { variants }`
    Enum(Enum),
    /// `number name = float(...)`
    Number(NumberDef),
    /// `layout Name : width { members }` or `format name { members }`
    Layout(Layout),
    /// `template name(params) { body }`
    Template(TemplateDef),
    /// `property name: type = default`
    Property(PropertyDecl),
    /// `rule name "text" { each ... }`
    Rule(Rule),
    /// `machine { state }`
    Machine(Machine),
    /// `fn name(params) -> type { body }`
    Fn(FnDef),
    /// `hook name(params) -> type`
    Hook(HookDef),
    /// `group name(params) { members }`: members declared once for many formats.
    Group(Group),
    /// `let name = expr`: a named value over the fields of whichever format uses it.
    Let(LetDef),
    /// `unit name : bits { settings }`: what ABI layouts count in.
    Unit(UnitDef),
    /// `layout Name(params) : size { members }`: a layout with parameters or a unit.
    AbiLayout(AbiLayout),
}

/// `unit name : bits { register "u", 32; halves "l", "h" }`
#[derive(Debug, Clone)]
pub struct UnitDef {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Bits per unit, and where they are written.
    pub bits: (u64, Span),
    /// How registers are named.
    pub settings: Vec<Setting>,
}

/// A layout whose size, positions, array lengths and members depend on typed parameters, or
/// that counts in a unit: where an ABI puts values in registers or uniforms.
#[derive(Debug, Clone)]
pub struct AbiLayout {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Parameters, in order.
    pub params: Vec<LayoutParam>,
    /// The unit positions and the size count (bits when absent).
    pub unit: Option<Ident>,
    /// The size, in units.
    pub size: Expr,
    /// Fields and reserved ranges, in order, each with the conditions it is under.
    pub members: Vec<AbiMember>,
    /// Members an ABI layout cannot have (constraints, syntax, switches, ...): reported.
    pub unsupported: Vec<Span>,
    /// Where.
    pub span: Span,
}

/// `n: u8 in 0..=32` or `compute: bool`.
#[derive(Debug, Clone)]
pub struct LayoutParam {
    /// Name.
    pub name: Ident,
    /// Type (`bool`, `u8`); a missing type is reported by the checker.
    pub ty: Option<Ident>,
    /// `in lo..=hi`.
    pub range: Option<(u64, u64, Span)>,
}

/// A field (`name[count]: type @ position`) or reserved range (`unused [name] @ position +:
/// length`) of an ABI layout.
#[derive(Debug, Clone)]
pub struct AbiMember {
    /// Doc comment.
    pub doc: String,
    /// Name (`None`: unnamed reserved units).
    pub name: Option<Ident>,
    /// Reserved units rather than a field.
    pub reserved: bool,
    /// Array length.
    pub count: Option<Expr>,
    /// Type (fields only).
    pub ty: Option<Ident>,
    /// Position and extent, in units (may use `i` for arrays).
    pub at: Vec<BitPiece>,
    /// The conditions of the enclosing `if` blocks, outermost first.
    pub when: Vec<Expr>,
    /// Where.
    pub span: Span,
}

/// `group name(params) { members }`, or `form name(params) { members }` inside a format or group.
#[derive(Debug, Clone)]
pub struct Group {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Parameters, bound by `use name(args)` (or by the form pick `name(args)`).
    pub params: Vec<Ident>,
    /// The members (fields, syntax, lets, templates, uses, forms, ...).
    pub body: Layout,
    /// For a form: how many fields of the enclosing body are declared before it.
    pub after: usize,
    /// Where.
    pub span: Span,
}

/// `use group(args) { form(args), ... }`
#[derive(Debug, Clone)]
pub struct Use {
    /// The group.
    pub group: Ident,
    /// Arguments for the group's parameters.
    pub args: Vec<Expr>,
    /// The forms picked (none written: every form of the group), with their arguments.
    pub picks: Vec<(Ident, Vec<Expr>)>,
    /// `as a`: the group's fields, lets and templates are named `a_name` here.
    pub prefix: Option<Ident>,
    /// How many fields are declared before it: its members go there.
    pub after: usize,
    /// Where.
    pub span: Span,
    /// Doc comments written before it, which document nothing: the checker reports them.
    pub doc: Option<Span>,
}

/// `let name = expr`
#[derive(Debug, Clone)]
pub struct LetDef {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Parameters: `let lane(i) = ...` is used as `lane(0)`, its value with `i` bound.
    pub params: Vec<Ident>,
    /// The value.
    pub value: Expr,
}

/// A target setting: `name value, value;`.
#[derive(Debug, Clone)]
pub struct Setting {
    /// The setting's name.
    pub name: Ident,
    /// Its values.
    pub values: Vec<SettingValue>,
}

/// One value of a setting.
#[derive(Debug, Clone)]
pub enum SettingValue {
    /// A string.
    Str(String, Span),
    /// An integer.
    Int(u64, Span),
    /// An integer past 64 bits, up to 128: the value of a setting that is a word
    /// ([`WORD_SETTINGS`]: a 128-bit target's `pad`, a stream's `reset`).
    Wide(u128, Span),
    /// A name, optionally with nested settings (`dialect vc4asm { comment "#" }`).
    Name(Ident, Vec<Setting>),
}

/// The settings whose value is a word of the target or of a stream, which may be up to 128
/// bits (any other number is at most 64).
pub const WORD_SETTINGS: &[&str] = &["pad", "reset"];

/// `target name { ... }`
#[derive(Debug, Clone)]
pub struct Target {
    /// Doc comment.
    pub doc: String,
    /// Short name.
    pub name: Ident,
    /// Settings.
    pub settings: Vec<Setting>,
    /// Where.
    pub span: Span,
}

/// `enum Name : uN (params) -> ret { variants }`
#[derive(Debug, Clone)]
pub struct Enum {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Underlying type (`u4`).
    pub repr: Ident,
    /// Operation signature, for enums whose values are operations.
    pub signature: Option<Signature>,
    /// `use Other`: enums whose values this one takes, its own values replacing theirs.
    pub uses: Vec<Ident>,
    /// The values.
    pub variants: Vec<Variant>,
    /// Spellings of undefined values: (dialect or default, text).
    pub else_spellings: Vec<(Option<Ident>, String, Span)>,
    /// `spelled ".{NAME}"`: the spelling pattern of the variants spelled by their names.
    pub spelled: Option<(String, Span)>,
    /// `shares spellings`: two values may read the same text in a dialect (where it is written).
    pub shares: Option<Span>,
    /// A pattern none of the enum's own variants took: the values it includes must (set by the
    /// checker).
    pub pattern_pending: bool,
    /// Dialect-qualified spellings written on a line after their variant's (or `else`'s) name:
    /// (the dialect name, the variant's name or `else`). `x = 0 ".X"` and on the next line
    /// `nv ".Y"` may be a variant `nv` or `x`'s spelling in dialect `nv`; the checker refuses
    /// both readings. The parser leaves these spellings (and those after them) out.
    pub wrapped: Vec<(Ident, Ident)>,
}

/// Parameters and result of an operation enum, function or hook.
#[derive(Debug, Clone)]
pub struct Signature {
    /// Parameters.
    pub params: Vec<(Ident, Ident)>,
    /// Result type.
    pub ret: Option<Ident>,
}

/// One value of an enum.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Its value(s).
    pub value: VariantValue,
    /// Spellings: (dialect or `None` for the default, text).
    pub spellings: Vec<(Option<Ident>, String, Span)>,
    /// Semantics (for operation enums) or meaning (e.g. an immediate's value).
    pub semantics: Option<Expr>,
    /// Where.
    pub span: Span,
}

/// The value of a variant.
#[derive(Debug, Clone)]
pub enum VariantValue {
    /// `= n`
    One(u64, Span),
    /// `(lo..=hi)`
    Range(u64, u64, Span),
    /// `(_)`: every value no other variant has.
    Rest(Span),
    /// No value written: the one after the previous variant's (the name's span).
    Next(Span),
}

/// `number name = kind(arg: value, ...)`
#[derive(Debug, Clone)]
pub struct NumberDef {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// `float` or `fixed`.
    pub kind: Ident,
    /// Named arguments.
    pub args: Vec<(Ident, Option<i64>)>,
}

/// Whether a layout is an instruction encoding or a data layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutKind {
    /// `format`: an instruction encoding.
    Format,
    /// `layout`: a data structure (header, nested struct).
    Data,
}

/// `format name { ... }` or `layout Name : bits { ... }`
#[derive(Debug, Clone)]
pub struct Layout {
    /// Which.
    pub kind: LayoutKind,
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Width in bits; formats default to the word.
    pub width: Option<Expr>,
    /// Fields, in order.
    pub fields: Vec<Field>,
    /// Don't-care (reserved) bit ranges.
    pub unused: Vec<Unused>,
    /// `= switch path { value => Layout, ... }`: a union of layouts chosen by a shared field.
    pub union: Option<TypeExpr>,
    /// Syntax per dialect.
    pub syntax: Vec<(Ident, TemplateBody)>,
    /// Property definitions for this format.
    pub properties: Vec<(Ident, Expr)>,
    /// Per-instruction constraints.
    pub constraints: Vec<Constraint>,
    /// Semantics.
    pub execute: Option<Block>,
    /// `execute when cond`: conditions under which `execute` runs (a predicate guard).
    pub when: Vec<Expr>,
    /// `reserved "why"`: the encoding is reserved (its words print but do not decode).
    pub reserved: Option<(String, Span)>,
    /// Named values (`let`), visible in this body's expressions, templates and semantics.
    pub lets: Vec<LetDef>,
    /// Templates local to this body.
    pub templates: Vec<TemplateDef>,
    /// Groups whose members this body includes.
    pub uses: Vec<Use>,
    /// Alternatives: one encoding per form.
    pub forms: Vec<Group>,
    /// `fields @ hi:lo { ... }`: fields and unused bits side by side, placed by their widths
    /// when the families are expanded (until then their `bits` are empty).
    pub runs: Vec<FieldRun>,
    /// Where.
    pub span: Span,
}

/// `fields @ hi:lo { a, b: T, _: u3 }`: what lies side by side from bit `hi` down to `lo`.
#[derive(Debug, Clone)]
pub struct FieldRun {
    /// The first (most significant) bit.
    pub hi: Expr,
    /// The last bit.
    pub lo: Expr,
    /// What lies there, most significant first.
    pub items: Vec<RunItem>,
    /// The `fields { ... }` arguments whose items were put into it (for diagnostics).
    pub rows: Vec<Span>,
    /// Where.
    pub span: Span,
}

/// One item of a [`FieldRun`], as wide as its type.
#[derive(Debug, Clone)]
pub enum RunItem {
    /// The body's field at this index.
    Field(usize),
    /// The body's unused bits at this index (`_`, one bit, or `_: uN`), with the type that
    /// gives their width.
    Unused(usize, Ident),
    /// The body's `use` at this index: the bits its group declares lie here.
    Use(usize),
}

/// `unused [name] @ bits`: don't-care bits of a format, reserved bits of a layout.
#[derive(Debug, Clone)]
pub struct Unused {
    /// Doc comment.
    pub doc: String,
    /// The document's name for the bits, if any.
    pub name: Option<Ident>,
    /// Bits.
    pub bits: Vec<BitPiece>,
    /// How many fields are declared before it (its place in the documentation).
    pub after: usize,
    /// Where.
    pub span: Span,
}

/// A field of a layout.
#[derive(Debug, Clone)]
pub struct Field {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Array length, for array fields.
    pub count: Option<Expr>,
    /// Type.
    pub ty: TypeExpr,
    /// Bits (relative to the layout; may use `i` for arrays).
    pub bits: Vec<BitPiece>,
    /// `is value`: fixed by the encoding.
    pub fixed: Option<Expr>,
    /// `in set`: restricted by the encoding.
    pub allowed: Option<Vec<SetElem>>,
    /// `default value`: the assembler's value when the text gives none.
    pub default: Option<Expr>,
    /// `default [a, b, ...]`: an array's default per element, element 0 first.
    pub element_defaults: Vec<Expr>,
    /// A `view`: a read-only name for bits other fields own.
    pub view: bool,
    /// `length { 32, 48 }`: the field's value picks the instruction's length in bits.
    pub lengths: Option<(Vec<u64>, Span)>,
    /// Where.
    pub span: Span,
}

/// A field's type as written.
#[derive(Debug, Clone)]
pub enum TypeExpr {
    /// `bool`, `u6`, `s32`, an enum, a number format or a layout.
    Named(Ident),
    /// `switch tag { value => Type, ... }`
    Switch {
        /// The tag field (a path).
        tag: Vec<Ident>,
        /// The arms.
        arms: Vec<(Expr, Ident)>,
        /// Where.
        span: Span,
    },
}

/// One piece of a bit specification.
#[derive(Debug, Clone)]
pub enum BitPiece {
    /// `hi:lo`
    Range(Expr, Expr, Span),
    /// `lo +: width`
    Width(Expr, Expr, Span),
    /// `bit`
    Bit(Expr, Span),
}

/// An element of a value set: `value` or `lo..=hi`.
#[derive(Debug, Clone)]
pub enum SetElem {
    /// One value.
    One(Atom),
    /// An inclusive range.
    Range(Atom, Atom),
}

/// A value in a set: a number or a name (enum value).
#[derive(Debug, Clone)]
pub enum Atom {
    /// A number.
    Int(u64, Span),
    /// A negative number, by its magnitude (`-4` is `Neg(4)`).
    Neg(u64, Span),
    /// A name.
    Name(Ident),
}

/// A template body: arms or one sequence.
#[derive(Debug, Clone)]
pub struct TemplateBody {
    /// Arms (a body without arms is one unguarded arm).
    pub arms: Vec<TemplateArm>,
    /// Where.
    pub span: Span,
}

/// `| guard => seq`
#[derive(Debug, Clone)]
pub struct TemplateArm {
    /// `None` for `_` or an unguarded body.
    pub guard: Option<Expr>,
    /// The sequence.
    pub items: Vec<TItem>,
    /// `| alias ...`: read by the assembler, never printed (another assembler's spelling).
    pub alias: bool,
}

/// One element of a template sequence.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // built once per spec; boxing buys nothing
pub enum TItem {
    /// A literal.
    Lit(String, Span),
    /// `{expr:fmt as table}`
    Hole {
        /// The value shown.
        expr: Expr,
        /// Number format.
        fmt: Option<(String, Span)>,
        /// Name table (or a condition choosing between two).
        table: Option<TableChoice>,
        /// `@ base`: a pc-relative displacement that also accepts labels.
        base: Option<Expr>,
        /// Where.
        span: Span,
    },
    /// `name(args)`
    Call(Ident, Vec<Expr>, Span),
    /// `[cond: seq]`
    Opt(Expr, Vec<TItem>, Span),
    /// `any_order { [c: ...] [d: ...] }`: optional groups read in any order, printed as written;
    /// `any_order separator ", " { ... }` with the text between the groups written.
    AnyOrder(Option<(String, Span)>, Vec<TItem>, Span),
}

/// The table of a hole.
#[derive(Debug, Clone)]
pub enum TableChoice {
    /// `as Table`
    One(Ident),
    /// `as (if cond then A else B)`
    If(Expr, Ident, Ident),
}

/// `template name(params) { body }`
#[derive(Debug, Clone)]
pub struct TemplateDef {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Parameters.
    pub params: Vec<Ident>,
    /// Body.
    pub body: TemplateBody,
}

/// `property name: type = default`
#[derive(Debug, Clone)]
pub struct PropertyDecl {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Type.
    pub ty: Ident,
    /// Value for formats that do not define it.
    pub default: Expr,
}

/// `constraint name "text": expr`
#[derive(Debug, Clone)]
pub struct Constraint {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// The rule as the reference states it.
    pub message: String,
    /// Must hold.
    pub expr: Expr,
    /// A `warning`: breaking it is reported but is not an error.
    pub warning: bool,
}

/// `rule name "text" { each ... }`
#[derive(Debug, Clone)]
pub struct Rule {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// The rule as the reference states it.
    pub message: String,
    /// The quantified condition.
    pub body: Quantified,
    /// A `warning`: breaking it is reported but is not an error.
    pub warning: bool,
    /// Where.
    pub span: Span,
}

/// `each i in lo..=hi where cond: body`
#[derive(Debug, Clone)]
pub struct Quantified {
    /// The index variable.
    pub var: Ident,
    /// Its range, relative to the enclosing variables (default: the whole program).
    pub range: Option<(Expr, Expr)>,
    /// Only indices where this holds.
    pub filter: Option<Expr>,
    /// What must hold.
    pub body: Box<QBody>,
}

/// The body of a quantifier.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum QBody {
    /// Another quantifier.
    Nested(Quantified),
    /// The condition.
    Expr(Expr),
}

/// `machine { state }`
#[derive(Debug, Clone)]
pub struct Machine {
    /// `elements n`: the number of SIMD elements, and where it is said.
    pub elements: Option<(u64, Span)>,
    /// State elements: (doc, name, array length, type, one value per SIMD element).
    pub state: Vec<(String, Ident, Option<u64>, Ident, bool)>,
}

/// `fn name(params) -> ret { body }`
#[derive(Debug, Clone)]
pub struct FnDef {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Signature.
    pub sig: Signature,
    /// Body.
    pub body: Block,
}

/// `hook name(params) -> ret`: implemented in Rust by the embedder.
#[derive(Debug, Clone)]
pub struct HookDef {
    /// Doc comment.
    pub doc: String,
    /// Name.
    pub name: Ident,
    /// Signature.
    pub sig: Signature,
}

/// `{ stmts expr? }`
#[derive(Debug, Clone)]
pub struct Block {
    /// Statements.
    pub stmts: Vec<Stmt>,
    /// Value of the block.
    pub value: Option<Box<Expr>>,
}

/// A statement.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// `let x = e;`
    Let(Ident, Expr),
    /// `place = e;` / `place[i] = e;`
    Assign(Ident, Option<Expr>, Expr),
    /// `if c { } else { }`
    If(Expr, Block, Option<Block>),
    /// `each element { }`: the block once per SIMD element.
    EachElement(Block, Span),
    /// `for k in lo..hi { }` (`..=`: `inclusive`): the block once for each `k`, in order.
    For {
        /// The loop variable, a u32.
        var: Ident,
        /// Its first value.
        lo: Expr,
        /// The end: its last value when `inclusive`, else the one after it.
        hi: Expr,
        /// `..=`.
        inclusive: bool,
        /// The body.
        body: Block,
    },
    /// `e;`
    Expr(Expr),
}

/// An expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What kind.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// Expression kinds.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// Integer literal.
    Int(u64),
    /// Float literal.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// `"text"`: only as an argument of a group or form, whose parameter prints it in syntax.
    Str(String),
    /// `syntax { ... }`: only as an argument of a group or form, whose parameter stands for
    /// these items where a syntax (or a template of the group) names it.
    Syntax(Vec<TItem>),
    /// `fields { a, b: T, _: u3 }`: only as an argument of a group or form, whose parameter
    /// stands for these items where a `fields` run of the group names it. A layout holding the
    /// fields, unused bits and uses, with one run (of no bits) listing them in order.
    Fields(Box<Layout>),
    /// A name.
    Name(String),
    /// `a.b`
    Member(Box<Expr>, Ident),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `a in {set}`
    InSet(Box<Expr>, Vec<SetElem>),
    /// `f(args)`
    Call(Ident, Vec<Expr>),
    /// Unary operator.
    Unary(UnOp, Box<Expr>),
    /// Binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `match e { set => value, ... }`
    Match(Box<Expr>, Vec<(Option<Vec<SetElem>>, MatchBody)>),
}

/// The body of a match arm.
#[derive(Debug, Clone)]
pub enum MatchBody {
    /// An expression.
    Expr(Expr),
    /// A block.
    Block(Block),
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `!`
    Not,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `||`
    Or,
    /// `&&`
    And,
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
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&`
    BitAnd,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
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
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

//! Stage 3: the checked model of a target. Every name is resolved, every bit position is
//! absolute, every constant is a number; backends read only this. Entities are referred to by
//! newtype ids and kept in declaration order, so generated code is identical run to run.

use crate::diag::Span;

/// An enum of the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub usize);
/// A number format of the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NumberId(pub usize);
/// A data layout of the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LayoutId(pub usize);
/// An instruction encoding of the target (its place in `Target::formats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FormatId(pub usize);
/// A field of a format (its place in `Format::fields`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldId(pub usize);
/// A field slot of a format as the syntax engine numbers them: a field, or one element of an
/// array field (its place in `Format::slots()`). In a layout's constraints, a leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SlotId(pub usize);
/// A unit of ABI layouts (its place in `Target::units`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId(pub usize);
/// An instruction property (its place in `Target::properties`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PropertyId(pub usize);

/// A whole target.
#[derive(Debug, Clone)]
pub struct Target {
    /// Short name (`vc4`).
    pub name: String,
    /// Full name.
    pub title: String,
    /// Doc comment of the target.
    pub doc: String,
    /// Instruction word width in bits.
    pub word_bits: u32,
    /// Byte order of words in memory.
    pub little_endian: bool,
    /// Syntax dialects; the first is the default.
    pub dialects: Vec<Dialect>,
    /// Enums, in declaration order.
    pub enums: Vec<Enum>,
    /// Number formats.
    pub numbers: Vec<NumberFormat>,
    /// Data layouts (nested structs, headers).
    pub layouts: Vec<Layout>,
    /// What ABI layouts count in.
    pub units: Vec<Unit>,
    /// Layouts placed from parameters (ABIs), in declaration order.
    pub abi_layouts: Vec<AbiLayout>,
    /// Instruction encodings, in declaration order (the assembler tries them in this order).
    pub formats: Vec<Format>,
    /// Instruction properties used by program rules.
    pub properties: Vec<Property>,
    /// Program rules.
    pub rules: Vec<Rule>,
    /// Machine state, functions and hooks for the interpreter.
    pub semantics: Option<Semantics>,
    /// The layout a data target is made of (`root Sph`): tools decode and encode it.
    pub root: Option<LayoutId>,
    /// A one-bit field the assembler sets on a program's last instruction (grate's
    /// end-of-program bit): its name; the formats without it are left alone.
    pub program_end: Option<String>,
    /// The most instructions a program may hold (`max_instructions n`), if limited.
    pub max_instructions: Option<u64>,
    /// Values computed over a whole program (grate's `used_tram_rows`), in declaration order.
    pub summaries: Vec<Summary>,
    /// A wide word's 32-bit parts are uploaded least significant first (`part_order
    /// low_first`), not most significant first.
    pub parts_low_first: bool,
    /// Words that travel beside the instructions (`stream` and `bundle` settings): streams
    /// filled by bundles, or control words interleaved with the instructions.
    pub streams: Option<Streams>,
    /// Tables of 32-bit words the program's data sections fill (`table` settings).
    pub tables: Vec<Table>,
}

/// A table of 32-bit words filled by a data section's entries (grate's `.constants`).
#[derive(Debug, Clone)]
pub struct Table {
    /// Its name (the program's JSON key).
    pub name: String,
    /// The directive starting its section.
    pub section: String,
    /// How many entries it has.
    pub entries: u32,
    /// 32-bit words per entry.
    pub words: u32,
    /// The parts entries write.
    pub parts: Vec<TablePart>,
    /// Its entries are names of at most this many characters (`names 253`); `None`: words.
    pub names: Option<u32>,
}

/// One part of a table entry.
#[derive(Debug, Clone)]
pub struct TablePart {
    /// Its selector (`l` in `[i].l = v`); empty for the part `[i] = v` writes.
    pub name: String,
    /// The entry's word it is in.
    pub word: u32,
    /// Its lowest bit in that word.
    pub lsb: u32,
    /// Its width.
    pub bits: u32,
    /// The format of decimals written for it.
    pub number: Option<NumberKind>,
}

/// `summary name { max field; plus n; least m }`: the largest value of `field` over a
/// program's instructions plus `n`, at least `m` (also for a program without the field).
#[derive(Debug, Clone)]
pub struct Summary {
    /// Its name.
    pub name: String,
    /// The field it takes the largest value of.
    pub field: String,
    /// Added to that value.
    pub plus: u64,
    /// The least value.
    pub least: u64,
}

/// Words that travel beside the instructions: the target's `stream` settings and the
/// `bundle` that writes them. A program is either bundles (`bundle`: each statement fills
/// several streams, some computed from what it holds; Tegra's fragment `EXEC`) or
/// instructions grouped by a count, each group behind a control word computed from the slots
/// its instructions give (a stream with `every N`; Maxwell's scheduling words).
#[derive(Debug, Clone)]
pub struct Streams {
    /// The streams, in the order they are listed.
    pub streams: Vec<Stream>,
    /// How statements fill the streams, when programs are written as bundles.
    pub bundle: Option<Bundle>,
}

/// How a bundle is written: its keyword, units and header settings.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The word that starts a bundle (`EXEC`).
    pub keyword: String,
    /// The units, in the order a bundle writes them.
    pub units: Vec<BundleUnit>,
    /// The header settings (`name = N` outside the bundles): each name and its largest value.
    pub header: Vec<(String, Option<u64>)>,
    /// How many bundles a program may hold (`max 64`).
    pub max: Option<u32>,
}

/// One word stream of a program.
#[derive(Debug, Clone)]
pub struct Stream {
    /// Its name.
    pub name: String,
    /// Bits per word, a multiple of 32 (an interleaved stream's: the instruction word's).
    pub bits: u32,
    /// The formats its words are read and printed with.
    pub formats: Vec<FormatId>,
    /// The word an absent entry is.
    pub reset: u128,
    /// How its words are computed, if they are.
    pub computed: Option<Computed>,
}

/// How a computed stream's words come about.
#[derive(Debug, Clone)]
pub enum Computed {
    /// One word of `format` per bundle, whose `fields` count what the bundle holds.
    Counts {
        /// The word's format.
        format: FormatId,
        /// Its computed fields.
        fields: Vec<ComputedField>,
    },
    /// One word before every `slots.every` instructions, in the instruction stream itself.
    Slots(Box<Slots>),
}

/// A field of a computed stream's word and what it counts.
#[derive(Debug, Clone)]
pub struct ComputedField {
    /// The field's name.
    pub field: String,
    /// What it counts.
    pub measure: isa_runtime_base::Measure,
    /// Index of the unit counted.
    pub unit: usize,
}

/// One unit a bundle may hold (its stream's words).
#[derive(Debug, Clone)]
pub struct BundleUnit {
    /// The label that starts it (`MFU:`).
    pub label: String,
    /// Index of its stream.
    pub stream: usize,
    /// How many times a bundle may hold it; `None`: exactly once (its reset word if absent).
    pub max: Option<u32>,
    /// How many times a program may hold it, over all its bundles (`total 64`).
    pub total: Option<u32>,
    /// Labels of the words it is made of; empty: one word.
    pub slots: Vec<String>,
    /// (slot index, format): a slot that may hold a word of another format instead.
    pub alternatives: Vec<(usize, FormatId)>,
}

/// A syntax dialect.
#[derive(Debug, Clone)]
pub struct Dialect {
    /// Name.
    pub name: String,
    /// Line-comment markers.
    pub comments: Vec<String>,
    /// Case-insensitive matching.
    pub ignore_case: bool,
    /// Directive for raw words (`.long`), printed for words the syntax cannot show.
    pub raw: Option<String>,
    /// Text after every instruction (nvdisasm's ` ;`), optional when assembling.
    pub end: Option<String>,
    /// An integer data directive given a float stores the float's IEEE double bits, cut to
    /// its width (vc4asm's `.int 0.`), where otherwise it is an error.
    pub float_bits: bool,
    /// A conditional open at the end of a file is a warning, not an error (vc4asm's P145).
    pub open_if_warns: bool,
    /// Block comments: (opening, closing) markers (`/*`, `*/`); they may span lines.
    pub block_comments: Vec<(String, String)>,
    /// Text that ends every statement (grate's `;`): statements then span lines, and the
    /// printer ends each instruction with it.
    pub separator: Option<String>,
    /// The directive that starts the instructions (grate's `.asm`), where a program has
    /// sections.
    pub code_section: Option<String>,
    /// Directives that start sections of data entries (`.constants`), which are not
    /// instructions.
    pub data_sections: Vec<String>,
    /// The assembler's directives: each spelling and what it does.
    pub directives: Vec<(String, isa_runtime_base::Directive)>,
    /// What label references start with (vc4asm's `:`, `r:`); the first also defines one.
    pub label_prefixes: Vec<String>,
    /// The listing layout (`listing { ... }`), if the dialect has one.
    pub listing: Option<Listing>,
}

impl Dialect {
    /// A dialect with nothing set but its name and comment markers.
    pub fn named(name: &str, comments: Vec<String>) -> Dialect {
        Dialect {
            name: name.to_string(),
            comments,
            ignore_case: false,
            raw: None,
            end: None,
            float_bits: false,
            open_if_warns: false,
            block_comments: Vec::new(),
            separator: None,
            code_section: None,
            data_sections: Vec::new(),
            directives: Vec::new(),
            label_prefixes: Vec::new(),
            listing: None,
        }
    }
}

/// A dialect's listing layout; the fields mean what `isa_runtime::target::ListingStyle`'s do.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Blanks before the address.
    pub indent: u32,
    /// The address's opening and closing text and least hex digits.
    pub address: (String, String, u32),
    /// What starts a guard.
    pub guard: String,
    /// The width of the field before the mnemonic.
    pub column: u32,
    /// A pair's opening mark and its column.
    pub open: (String, u32),
    /// A pair's closing mark and the blanks before it.
    pub close: (String, u32),
    /// The blanks after the longest text before the word comments, their opening and closing
    /// text.
    pub words: (u32, String, String),
    /// The end of an instruction whose slot is the value given.
    pub end: Option<(String, u64)>,
    /// A text holding this after a blank has that blank widened to the longest other text.
    pub widen: String,
}

/// An interleaved stream's words (`every 3; slot sched_slot; pad 0x...`): one before every
/// `every` instructions, its slot `i` (a `slot.width`-bit value at bit `slot.width * i`) given
/// by the group's instruction `i` (Maxwell's scheduling control word).
#[derive(Debug, Clone)]
pub struct Slots {
    /// The slot's fields, syntax and width (a format that is not an instruction).
    pub slot: Format,
    /// Instructions (slots) per control word.
    pub every: u32,
    /// The instruction word that fills the last group.
    pub pad: u128,
    /// What a listing shows of the slot on the instruction's text (`mark`).
    pub marks: Vec<SlotMark>,
    /// The slot field values (slot field index, value) that issue an instruction together
    /// with the next (`pair when { ... }`); empty: none.
    pub pair: Vec<(usize, u64)>,
    /// The directive that writes a group's control word as it is (`raw_control ".control"`):
    /// how a listing gives back a control word no slot syntax reads. `None`: none.
    pub raw_control: Option<String>,
}

/// `mark reuse { text ".reuse"; operands ra, rb, rc }`: the flags of a slot array field shown
/// after operands (or the mnemonic) in a listing.
#[derive(Debug, Clone)]
pub struct SlotMark {
    /// The flags' slot field indices, element 0 first.
    pub flags: Vec<usize>,
    /// The texts, one per flag.
    pub texts: Vec<String>,
    /// The operand fields the flags mark (empty: the mnemonic).
    pub operands: Vec<String>,
    /// The encodings the mark is for (empty: those no other mark names).
    pub formats: Vec<String>,
    /// Where the mark applies within those encodings (`only when { a_sel 6, 7 }`): each field's value
    /// is one of its values; empty: always.
    pub when: Vec<(String, Vec<u64>)>,
}

/// Parameters (name, type) and result type of an operation enum.
pub type OpSignature = (Vec<(String, ScalarType)>, Option<ScalarType>);

/// One arm of a semantic `match`: the value ranges it takes (`None`: the rest) and its body.
pub type MatchArm = (Option<Vec<(u64, u64)>>, SemBlock);

/// An enumeration: named values of a field.
#[derive(Debug, Clone)]
pub struct Enum {
    /// Name (`AddOp`).
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Width in bits of its values.
    pub width: u32,
    /// Values, in declaration order.
    pub variants: Vec<Variant>,
    /// Operation signature: parameter names and types, result type.
    pub signature: Option<OpSignature>,
    /// Per dialect, how values no variant defines are printed (Mesa's `???`); never parsed.
    pub else_spellings: Vec<Option<String>>,
}

impl Enum {
    /// Whether every value of the width has a variant.
    pub fn is_total(&self) -> bool {
        (0..(1u64 << self.width.min(16))).all(|v| self.variant_of(v).is_some()) || self.width > 16
    }

    /// The variant holding raw value `v`.
    pub fn variant_of(&self, v: u64) -> Option<usize> {
        self.variants
            .iter()
            .position(|x| x.values.contains(v))
            .or_else(|| self.variants.iter().position(|x| matches!(x.values, Values::Rest)))
    }

    /// The raw values its variants define, as sorted inclusive ranges; `None` when every value
    /// of the width has a variant (a word with another value does not decode).
    pub fn defined(&self) -> Option<Vec<(u64, u64)>> {
        if self.is_total() || self.variants.iter().any(|v| matches!(v.values, Values::Rest)) {
            return None;
        }
        let mut ranges: Vec<(u64, u64)> = self
            .variants
            .iter()
            .map(|v| match v.values {
                Values::One(x) => (x, x),
                Values::Range(lo, hi) => (lo, hi),
                Values::Rest => (0, 0),
            })
            .collect();
        ranges.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Some(out)
    }

    /// Whether any variant carries a payload (ranges or the rest).
    pub fn has_payload(&self) -> bool {
        self.variants.iter().any(|v| !matches!(v.values, Values::One(_)))
    }
}

/// The raw values of a variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// One value.
    One(u64),
    /// `lo..=hi`; the variant carries the value.
    Range(u64, u64),
    /// Every value no other variant has.
    Rest,
}

impl Values {
    /// Whether `v` is one of these values (`Rest` answers false: it is the fallback).
    pub fn contains(&self, v: u64) -> bool {
        match self {
            Values::One(x) => *x == v,
            Values::Range(lo, hi) => (*lo..=*hi).contains(&v),
            Values::Rest => false,
        }
    }
}

/// One value of an enum.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Name in the spec.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Raw values.
    pub values: Values,
    /// Spellings per dialect (index = dialect): the first is printed, all are accepted; empty =
    /// not printable in that dialect.
    pub spellings: Vec<Vec<Spelling>>,
    /// Semantics (operation enums) or meaning (value tables).
    pub semantics: Option<SemExpr>,
}

/// How a variant is written in one dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spelling {
    /// The text as the spec writes it (`r{v-32}`): what documentation shows.
    pub text: String,
    /// For a variant carrying a value, where the value stands in the text; `None`: the text
    /// is printed for every value alike and never parsed back (Mesa's `???`).
    pub value: Option<ValueText>,
}

/// A value written inside text: `prefix`, the raw value plus `shift` in decimal, `suffix`
/// (`r{v-32}` is prefix `r`, shift -32, no suffix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueText {
    /// Text before the number.
    pub prefix: String,
    /// What is added to the raw value to give the printed number.
    pub shift: i64,
    /// Text after the number.
    pub suffix: String,
}

/// A declared number format.
#[derive(Debug, Clone)]
pub struct NumberFormat {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Shape.
    pub kind: NumberKind,
}

/// Shapes of number formats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumberKind {
    /// Binary floating point.
    Float {
        /// Sign bits.
        sign: u32,
        /// Exponent bits.
        exponent: u32,
        /// Mantissa bits.
        mantissa: u32,
        /// Bias.
        bias: i32,
        /// All-ones exponent is infinity/NaN.
        specials: bool,
        /// Decimals it does not hold are read as their nearest single, truncated.
        truncate: bool,
    },
    /// Two's complement fixed point.
    Fixed {
        /// Width.
        width: u32,
        /// Fraction bits.
        fraction: u32,
        /// Signed.
        signed: bool,
    },
}

impl NumberKind {
    /// Width in bits.
    pub fn width(&self) -> u32 {
        match *self {
            NumberKind::Float { sign, exponent, mantissa, .. } => {
                sign.saturating_add(exponent).saturating_add(mantissa)
            }
            NumberKind::Fixed { width, .. } => width,
        }
    }
}

/// The type of a field.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// One bit.
    Bool,
    /// Unsigned integer of a width.
    UInt(u32),
    /// Two's complement integer of a width.
    SInt(u32),
    /// An enum.
    Enum(EnumId),
    /// A number format.
    Number(NumberId),
    /// A nested data layout.
    Layout(LayoutId),
    /// One of several types chosen by the value of a tag field of the same layout.
    Switch {
        /// Index of the tag field.
        tag: usize,
        /// (tag value, type) arms.
        arms: Vec<(u64, Type)>,
    },
}

/// A piece of a field: `width` bits at absolute bit `lo` of the word or layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Lowest bit.
    pub lo: u32,
    /// Width.
    pub width: u32,
}

/// A field of a format or layout.
#[derive(Debug, Clone)]
pub struct Field {
    /// Name in the spec.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Type.
    pub ty: Type,
    /// Bits, most significant piece first (element 0's for arrays).
    pub pieces: Vec<Piece>,
    /// For arrays: element count and the bit stride between elements, per piece (element `i`
    /// of piece `k` starts at `pieces[k].lo + strides[k] * i`). Strides are signed: an array
    /// may run towards bit 0 (`7 - 2 * i +: 2`). We keep element 0 and strides rather than
    /// expanding every element, because the generated code indexes arrays in a loop and the
    /// documents write them as functions of `i`; [`crate::placement`] computes the elements.
    pub array: Option<(u32, Vec<i64>)>,
    /// Fixed value (opcode bits).
    pub fixed: Option<u64>,
    /// Allowed raw values (inclusive ranges), restricting the encoding.
    pub allowed: Option<Vec<(u64, u64)>>,
    /// Assembler default.
    pub default: Option<u64>,
    /// An array's assembler default per element, element 0 first (empty: `default` for all).
    pub element_defaults: Vec<u64>,
    /// Fields whose type is a switch on this one (this field is then implied by them).
    pub is_tag: bool,
    /// A read-only view of bits other fields own (printing only).
    pub view: bool,
    /// Where.
    pub span: Span,
}

impl Field {
    /// A field of `ty` over `pieces` with nothing else set: no array, no fixed, allowed or
    /// default values, not a tag, not a view.
    pub fn plain(name: String, doc: String, ty: Type, pieces: Vec<Piece>, span: crate::diag::Span) -> Field {
        Field {
            name,
            doc,
            ty,
            pieces,
            array: None,
            fixed: None,
            allowed: None,
            default: None,
            element_defaults: Vec::new(),
            is_tag: false,
            view: false,
            span,
        }
    }
}

impl Field {
    /// Width in bits of one element.
    pub fn width(&self) -> u32 {
        self.pieces.iter().map(|p| p.width).sum()
    }

    /// Whether the field is stored in the instruction (not fixed by the encoding).
    pub fn is_stored(&self) -> bool {
        self.fixed.is_none()
    }
}

/// A data layout (nested struct or header).
#[derive(Debug, Clone)]
pub struct Layout {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Width in bits.
    pub width: u32,
    /// Fields (bit positions relative to the layout).
    pub fields: Vec<Field>,
    /// Don't-care bits.
    pub unused: Vec<Piece>,
    /// Reserved bits as the document lists them (name, doc, pieces, fields declared before).
    pub reserved: Vec<Reserved>,
    /// For a union: the tag path and the arm layouts (then `fields` is empty).
    pub union: Option<Union>,
    /// Constraints over the layout's leaves.
    pub constraints: Vec<Constraint>,
    /// Every leaf field (nested layouts and arrays expanded) with absolute bits: what
    /// constraints read (`CondExpr::Field(SlotId(i))` is leaf `i`).
    pub leaves: Vec<Leaf>,
}

/// Reserved bits of a data layout.
#[derive(Debug, Clone)]
pub struct Reserved {
    /// The document's name for them (`None`: "reserved").
    pub name: Option<String>,
    /// Doc comment.
    pub doc: String,
    /// Bits.
    pub pieces: Vec<Piece>,
    /// How many fields are declared before it.
    pub after: usize,
}

/// A union layout: one of `arms`, chosen by the value of the leaf at `tag` they all share.
#[derive(Debug, Clone)]
pub struct Union {
    /// Dotted path of the tag (`common_word0.sph_type`).
    pub tag: String,
    /// The tag's bits, the same in every arm.
    pub tag_pieces: Vec<Piece>,
    /// The tag's type.
    pub tag_ty: Type,
    /// (tag value, layout) arms.
    pub arms: Vec<(u64, LayoutId)>,
}

/// A leaf of a layout: a field that is not itself a layout, at absolute bits.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// Dotted path with array indices (`imap_generic_vector[3].imap_x`).
    pub path: String,
    /// Bits within the outermost layout, most significant piece first.
    pub pieces: Vec<Piece>,
    /// Type.
    pub ty: Type,
}

/// An instruction encoding.
#[derive(Debug, Clone)]
pub struct Format {
    /// Name in the spec (`alu_small_imm`).
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Width in bits: the declared one (`format slot : 21`), else the target's word.
    pub width: u32,
    /// Fields, fixed ones included, in spec order.
    pub fields: Vec<Field>,
    /// Don't-care bits: ignored by the decoder, zero when encoding.
    pub unused: Vec<Piece>,
    /// The words this encoding matches: a union of (mask, value) cubes.
    pub pattern: Vec<(u128, u128)>,
    /// Syntax per dialect (index = dialect).
    pub syntax: Vec<Syntax>,
    /// Property values.
    pub properties: Vec<(PropertyId, CondExpr)>,
    /// Per-instruction constraints.
    pub constraints: Vec<Constraint>,
    /// Semantics.
    pub execute: Option<SemBlock>,
    /// `reserved "why"`: the hardware reserves these words. The printers show them (Mesa
    /// prints reserved load-immediate modes), the typed decoder reports no encoding.
    pub reserved: Option<String>,
    /// A field whose value picks the instruction's length (`length { 32, 48 }`); without
    /// one, every instruction of the encoding is `width` bits long.
    pub length: Option<LengthField>,
    /// Where.
    pub span: Span,
}

/// `l: bool @ 15 length { 32, 48 }`: value `v` of the field makes the instruction
/// `bits[v]` bits long; the bits past its end read as zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LengthField {
    /// The field.
    pub field: FieldId,
    /// Length in bits per value, ascending; the last is the format's width.
    pub bits: Vec<u32>,
}

impl Format {
    /// The lengths in bits an instruction of this encoding may have, shortest first.
    pub fn lengths(&self) -> Vec<u32> {
        self.length.as_ref().map_or_else(|| vec![self.width], |l| l.bits.clone())
    }
}

/// One field slot: a field, or one element of an array field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The field.
    pub field: FieldId,
    /// The array element, for array fields.
    pub element: Option<u32>,
}

impl Format {
    /// The field slots the syntax engine sees (`SlotId` = place in this list): every field,
    /// array elements one by one.
    pub fn slots(&self) -> Vec<Slot> {
        let mut out = Vec::new();
        for (i, field) in self.fields.iter().enumerate() {
            let field_id = FieldId(i);
            match &field.array {
                None => out.push(Slot { field: field_id, element: None }),
                Some((n, _)) => out.extend((0..*n).map(|e| Slot { field: field_id, element: Some(e) })),
            }
        }
        out
    }

    /// Field `id`.
    pub fn field(&self, id: FieldId) -> &Field {
        &self.fields[id.0]
    }
}

impl Target {
    /// Format `id`.
    pub fn format(&self, id: FormatId) -> &Format {
        &self.formats[id.0]
    }

    /// Property `id`.
    pub fn property(&self, id: PropertyId) -> &Property {
        &self.properties[id.0]
    }

    /// The control words interleaved with the instructions, if the target has them.
    pub fn interleaved(&self) -> Option<&Slots> {
        self.streams.as_ref()?.streams.iter().find_map(|s| match &s.computed {
            Some(Computed::Slots(slots)) => Some(&**slots),
            _ => None,
        })
    }

    /// The streams and the bundle that fills them, when programs are written as bundles.
    pub fn bundled(&self) -> Option<(&[Stream], &Bundle)> {
        let s = self.streams.as_ref()?;
        Some((s.streams.as_slice(), s.bundle.as_ref()?))
    }

    /// Whether instructions differ in length (encodings up to the word differ in width, or
    /// one picks its length from a field): programs are then byte streams. One encoding
    /// narrower than its word (a bitfield of `target!`) is one length.
    pub fn variable_length(&self) -> bool {
        let mut widths = self.formats.iter().map(|f| f.width).filter(|w| *w <= self.word_bits);
        let first = widths.next();
        self.formats.iter().any(|f| f.length.is_some()) || widths.any(|w| Some(w) != first)
    }

    /// Every format with its id, in declaration order.
    pub fn format_ids(&self) -> impl Iterator<Item = (FormatId, &Format)> {
        self.formats.iter().enumerate().map(|(i, f)| (FormatId(i), f))
    }
}

/// What an ABI layout counts in (`unit uniform_slot : 16 { ... }`).
#[derive(Debug, Clone)]
pub struct Unit {
    /// Name in the spec.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Bits per unit.
    pub bits: u32,
    /// How its registers are named.
    pub registers: Option<Registers>,
}

/// Register names of a unit: `prefix` and the number, one suffix per unit of a register.
#[derive(Debug, Clone)]
pub struct Registers {
    /// `r`, `u`.
    pub prefix: String,
    /// Units per register.
    pub units: u32,
    /// Suffix of each unit of a register, lowest first (empty for one-unit registers).
    pub parts: Vec<String>,
}

impl Unit {
    /// The names of `length` units from unit `offset` (`r3h`, `u6_u7`), if the unit has
    /// register names.
    pub fn register_names(&self, offset: u64, length: u64) -> Option<String> {
        let r = self.registers.as_ref()?;
        // A range this long reads no better as names, and naming it would take its length in
        // time (a fuzzed spec's member of 2^33 units hung the checker).
        if length > NAMED_REGISTERS * u64::from(r.units.max(1)) {
            return None;
        }
        let parts: Vec<&str> = r.parts.iter().map(String::as_str).collect();
        Some(isa_runtime_base::register_names(&r.prefix, r.units, &parts, offset, length))
    }
}

/// The most registers a diagnostic names one by one; a longer range is given by its units.
const NAMED_REGISTERS: u64 = 64;

/// A layout placed from typed parameters: each member's position (in units), length and
/// presence are expressions of them, checked for every parameter value.
#[derive(Debug, Clone)]
pub struct AbiLayout {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Parameters, in order.
    pub params: Vec<AbiParam>,
    /// The unit (`None`: bits).
    pub unit: Option<UnitId>,
    /// Size in units.
    pub size: AbiExpr,
    /// Members, in spec order.
    pub members: Vec<AbiMember>,
    /// Where.
    pub span: Span,
}

/// A parameter of an ABI layout.
#[derive(Debug, Clone)]
pub struct AbiParam {
    /// Name.
    pub name: String,
    /// Its values.
    pub ty: AbiParamType,
}

/// The values of an ABI layout parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbiParamType {
    /// `bool` (0 or 1 in expressions).
    Bool,
    /// `uN in min..=max` (N ≤ 32).
    UInt {
        /// N.
        bits: u32,
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
}

impl AbiParamType {
    /// The values, booleans as `0..=1`.
    pub fn range(self) -> (i64, i64) {
        match self {
            AbiParamType::Bool => (0, 1),
            AbiParamType::UInt { min, max, .. } => (min.into(), max.into()),
        }
    }
}

/// A member of an ABI layout.
#[derive(Debug, Clone)]
pub struct AbiMember {
    /// Name (`None`: unnamed reserved units).
    pub name: Option<String>,
    /// Doc comment.
    pub doc: String,
    /// Reserved units (padding), not a value.
    pub reserved: bool,
    /// The type as written (`u64`, an enum), for fields.
    pub type_name: Option<String>,
    /// Array length (`None`: not an array).
    pub count: Option<AbiExpr>,
    /// First unit (may use the element index).
    pub offset: AbiExpr,
    /// Length in units.
    pub length: AbiExpr,
    /// Present only when this holds (non-zero).
    pub when: Option<AbiExpr>,
}

/// An integer expression over an ABI layout's parameters (booleans are 0 and 1).
#[derive(Debug, Clone, PartialEq)]
pub enum AbiExpr {
    /// Constant.
    Int(i64),
    /// Parameter `k` of the layout.
    Param(usize),
    /// The array element's index (`i`).
    Index,
    /// Logical not.
    Not(Box<AbiExpr>),
    /// Conjunction.
    And(Box<AbiExpr>, Box<AbiExpr>),
    /// Disjunction.
    Or(Box<AbiExpr>, Box<AbiExpr>),
    /// Comparison (1 or 0).
    Cmp(CmpOp, Box<AbiExpr>, Box<AbiExpr>),
    /// Arithmetic.
    Arith(ArithOp, Box<AbiExpr>, Box<AbiExpr>),
    /// Conditional value.
    If(Box<AbiExpr>, Box<AbiExpr>, Box<AbiExpr>),
}

impl AbiExpr {
    /// The value for parameter values `params` and element `index` (`None` on overflow or
    /// division by zero).
    pub fn eval(&self, params: &[i64], index: i64) -> Option<i64> {
        Some(match self {
            AbiExpr::Int(v) => *v,
            AbiExpr::Param(k) => *params.get(*k)?,
            AbiExpr::Index => index,
            AbiExpr::Not(a) => i64::from(a.eval(params, index)? == 0),
            AbiExpr::And(a, b) => i64::from(a.eval(params, index)? != 0 && b.eval(params, index)? != 0),
            AbiExpr::Or(a, b) => i64::from(a.eval(params, index)? != 0 || b.eval(params, index)? != 0),
            AbiExpr::Cmp(op, a, b) => i64::from(op.holds(a.eval(params, index)?, b.eval(params, index)?)),
            AbiExpr::Arith(op, a, b) => op.apply(a.eval(params, index)?, b.eval(params, index)?)?,
            AbiExpr::If(c, a, b) => {
                if c.eval(params, index)? != 0 {
                    a.eval(params, index)?
                } else {
                    b.eval(params, index)?
                }
            }
        })
    }

    /// The value when it depends on nothing.
    pub fn constant(&self) -> Option<i64> {
        if self.mentions_params() || self.mentions_index() {
            None
        } else {
            self.eval(&[], 0)
        }
    }

    /// Whether the element index appears.
    pub fn mentions_index(&self) -> bool {
        self.any(&|e| matches!(e, AbiExpr::Index))
    }

    fn mentions_params(&self) -> bool {
        self.any(&|e| matches!(e, AbiExpr::Param(_)))
    }

    fn any(&self, f: &dyn Fn(&AbiExpr) -> bool) -> bool {
        f(self)
            || match self {
                AbiExpr::Int(_) | AbiExpr::Param(_) | AbiExpr::Index => false,
                AbiExpr::Not(a) => a.any(f),
                AbiExpr::And(a, b) | AbiExpr::Or(a, b) | AbiExpr::Cmp(_, a, b) | AbiExpr::Arith(_, a, b) => {
                    a.any(f) || b.any(f)
                }
                AbiExpr::If(c, a, b) => c.any(f) || a.any(f) || b.any(f),
            }
    }
}

/// A lowered syntax: named sub-syntaxes (index 0 is the top level).
#[derive(Debug, Clone, Default)]
pub struct Syntax {
    /// Top level first, then every sub-syntax it calls (instantiated for this format).
    pub parts: Vec<SyntaxPart>,
}

/// One named syntax: ordered arms.
#[derive(Debug, Clone)]
pub struct SyntaxPart {
    /// Name (the template's, or the format's for the top level).
    pub name: String,
    /// Arms.
    pub arms: Vec<SyntaxArm>,
}

/// One arm.
#[derive(Debug, Clone)]
pub struct SyntaxArm {
    /// Guard.
    pub guard: Option<CondExpr>,
    /// Items.
    pub items: Vec<SyntaxItem>,
    /// Read by the assembler, never printed: another spelling of what an earlier arm prints.
    pub alias: bool,
}

/// A lowered template item.
#[derive(Debug, Clone)]
pub enum SyntaxItem {
    /// Literal text.
    Lit(String),
    /// A value shown through a table or number style.
    Show(CondExpr, Show),
    /// A call of part `n` with arguments.
    Call(usize, Vec<CondExpr>),
    /// Optional group.
    Opt(CondExpr, Vec<SyntaxItem>),
    /// Optional groups (each an [`SyntaxItem::Opt`]) read in any order, printed as written, with
    /// the separator (empty: none) between the groups written.
    AnyOrder(String, Vec<SyntaxItem>),
}

/// How a value is shown.
#[derive(Debug, Clone)]
pub enum Show {
    /// Through an enum's spellings in the dialect.
    Table(EnumId),
    /// Through one of two enums' spellings, chosen by a condition.
    TableIf(CondExpr, EnumId, EnumId),
    /// As a number.
    Num(NumStyle),
}

/// Number display styles (mirror of the runtime's).
#[derive(Debug, Clone)]
pub enum NumStyle {
    /// Unsigned decimal.
    Dec,
    /// Unsigned decimal with at least `digits` digits (`{stall:02d}`).
    DecPadded {
        /// Minimum digits (zero-padded).
        digits: u8,
    },
    /// Signed decimal.
    Signed {
        /// Width.
        bits: u32,
        /// Leading `+`.
        plus: bool,
    },
    /// Hexadecimal.
    Hex {
        /// Minimum digits.
        digits: u8,
        /// `0x` prefix.
        prefix: bool,
        /// Upper-case digits.
        upper: bool,
    },
    /// Binary digits, zero-padded to `digits`.
    Bin {
        /// Minimum digits.
        digits: u8,
    },
    /// C `%f` of an IEEE single.
    CFloat,
    /// Hex with `0x` and a minus sign, optionally two's complement, times a scale.
    HexValue {
        /// Width.
        bits: u32,
        /// Two's complement.
        signed: bool,
        /// Multiplier.
        scale: u32,
    },
    /// The shortest decimal, with a point, that reads back to the same bits of a declared
    /// number format (`{imm:decimal}`).
    Decimal {
        /// The format.
        format: NumberKind,
    },
    /// C `%.Ng` / `%.Ne` of a value in a number format.
    Float {
        /// The format (float or fixed point).
        format: NumberKind,
        /// Precision.
        precision: u8,
        /// `%e` rather than `%g`.
        exponent: bool,
    },
    /// pc-relative displacement shown as an absolute hex address, accepting labels.
    Target {
        /// Width.
        bits: u32,
        /// Base expression.
        base: CondExpr,
        /// Upper-case digits, the sign after the prefix (`0x-A`).
        upper: bool,
    },
    /// pc-relative displacement accepting labels.
    Label {
        /// Width.
        bits: u32,
        /// Base expression.
        base: CondExpr,
    },
}

/// An expression over the fields of one instruction: guards, properties, constraints.
/// Values are integers; booleans are 0 and 1.
#[derive(Debug, Clone, PartialEq)]
pub enum CondExpr {
    /// Constant.
    Int(i64),
    /// Raw value of a field slot of the format.
    Field(SlotId),
    /// Template parameter.
    Param(usize),
    /// The instruction's address.
    Pc,
    /// Logical not.
    Not(Box<CondExpr>),
    /// Conjunction.
    And(Vec<CondExpr>),
    /// Disjunction.
    Or(Vec<CondExpr>),
    /// Comparison.
    Cmp(CmpOp, Box<CondExpr>, Box<CondExpr>),
    /// Arithmetic.
    Arith(ArithOp, Box<CondExpr>, Box<CondExpr>),
    /// Conditional value.
    If(Box<CondExpr>, Box<CondExpr>, Box<CondExpr>),
    /// Membership in a set of inclusive ranges.
    In(Box<CondExpr>, Vec<(i64, i64)>),
}

/// Comparisons: a `CondExpr::Cmp` holds one of these and nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
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

impl CmpOp {
    /// Whether `a op b` holds.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    /// The operator as Rust (and the spec language) writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// Arithmetic and bitwise operators: a `CondExpr::Arith` holds one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
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
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

impl ArithOp {
    /// `a op b` on integers (`None` on overflow, division by zero or a shift out of range).
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        Some(match self {
            ArithOp::Add => a.checked_add(b)?,
            ArithOp::Sub => a.checked_sub(b)?,
            ArithOp::Mul => a.checked_mul(b)?,
            ArithOp::Div => a.checked_div(b)?,
            ArithOp::Rem => a.checked_rem(b)?,
            ArithOp::BitAnd => a & b,
            ArithOp::BitOr => a | b,
            ArithOp::BitXor => a ^ b,
            ArithOp::Shl => a.checked_shl(u32::try_from(b).ok()?)?,
            ArithOp::Shr => a.checked_shr(u32::try_from(b).ok()?)?,
        })
    }
}

/// Binary operators of rules and semantics: logic, comparison or arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `&&`
    And,
    /// `||`
    Or,
    /// A comparison (the result is a boolean).
    Cmp(CmpOp),
    /// Arithmetic (the result has the operands' type).
    Arith(ArithOp),
}

/// Unary operators of semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `!`
    Not,
}

/// An instruction property used by program rules.
#[derive(Debug, Clone)]
pub struct Property {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Boolean (else integer).
    pub is_bool: bool,
    /// Value for formats that do not define it.
    pub default: i64,
}

/// A per-instruction constraint, or a constraint of a data layout.
#[derive(Debug, Clone)]
pub struct Constraint {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Text.
    pub message: String,
    /// The fields it reads (dotted paths in layouts), in order of first use.
    pub reads: Vec<String>,
    /// Breaking it is a warning, not an error.
    pub warning: bool,
    /// Must hold.
    pub expr: CondExpr,
}

/// A program rule over neighbouring instructions.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// The rule as the reference states it.
    pub message: String,
    /// Quantifiers, outermost first.
    pub quantifiers: Vec<Quantifier>,
    /// What must hold for every binding.
    pub body: RuleExpr,
    /// Breaking it is a warning, not an error.
    pub warning: bool,
    /// How many instructions before and after the outermost variable's the rule looks at
    /// (every index, and the innermost variable it is reported at, the outermost variable
    /// plus a constant, through inner ranges of that form; the outermost range a constant
    /// start and a constant end or `len` plus or minus a constant, `len` nowhere else): a
    /// window that wide checks it for that instruction before the program's end is known
    /// (`isa_runtime::program::Window`). `None`: it may look anywhere (the whole program).
    pub reach: Option<(u32, u32)>,
}

/// `each var in lo..=hi where filter`.
#[derive(Debug, Clone)]
pub struct Quantifier {
    /// Variable name.
    pub var: String,
    /// Range (expressions over outer variables); `None` = every instruction.
    pub range: Option<(RuleExpr, RuleExpr)>,
    /// Filter.
    pub filter: Option<RuleExpr>,
}

/// Expressions in rules: over quantifier variables, the program length and properties.
#[derive(Debug, Clone, PartialEq)]
pub enum RuleExpr {
    /// Constant.
    Int(i64),
    /// Quantifier variable `n` (outermost = 0).
    Var(usize),
    /// Number of instructions.
    Len,
    /// A property of the instruction at an index.
    Prop(PropertyId, Box<RuleExpr>),
    /// Logical not.
    Not(Box<RuleExpr>),
    /// Binary operation.
    Binary(BinOp, Box<RuleExpr>, Box<RuleExpr>),
}

/// Scalar types of semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarType {
    /// Boolean.
    Bool,
    /// Unsigned 32-bit.
    U32,
    /// Signed 32-bit.
    I32,
    /// Unsigned 64-bit.
    U64,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
}

/// Machine state, functions and hooks.
#[derive(Debug, Clone, Default)]
pub struct Semantics {
    /// `elements n`: a SIMD machine whose per-element state holds n values.
    pub elements: Option<u32>,
    /// State elements.
    pub state: Vec<StateElem>,
    /// Functions written in the spec.
    pub functions: Vec<Function>,
    /// Hooks the embedder implements.
    pub hooks: Vec<Hook>,
}

/// One element of machine state: a register, flag or counter, or an array of them.
#[derive(Debug, Clone)]
pub struct StateElem {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Array length (`name[n]`).
    pub count: Option<u32>,
    /// Type of one value.
    pub ty: ScalarType,
    /// One value per SIMD element (`per element`).
    pub per_element: bool,
}

/// A function written in the spec.
#[derive(Debug, Clone)]
pub struct Function {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Parameters.
    pub params: Vec<(String, ScalarType)>,
    /// Result.
    pub ret: Option<ScalarType>,
    /// Body.
    pub body: SemBlock,
}

/// A hook: a named escape hatch into Rust, visible in the spec.
#[derive(Debug, Clone)]
pub struct Hook {
    /// Name.
    pub name: String,
    /// Doc comment.
    pub doc: String,
    /// Parameters.
    pub params: Vec<(String, ScalarType)>,
    /// Result.
    pub ret: Option<ScalarType>,
}

/// A block of semantic statements.
#[derive(Debug, Clone, Default)]
pub struct SemBlock {
    /// Statements.
    pub stmts: Vec<SemStmt>,
    /// Value.
    pub value: Option<Box<SemExpr>>,
}

/// A semantic statement.
#[derive(Debug, Clone)]
pub enum SemStmt {
    /// `let name = e;`
    Let(String, ScalarType, SemExpr),
    /// `state[index] = e;`
    Assign(usize, Option<SemExpr>, SemExpr),
    /// `if c {..} else {..}`
    If(SemExpr, SemBlock, Option<SemBlock>),
    /// `each element {..}`: the block once per SIMD element; the elements read the state as
    /// it was before the block and their writes land together when it ends.
    EachElement(SemBlock),
    /// `for var in lo..hi {..}` (`..=`: `inclusive`), `var` a u32 local.
    For {
        /// The loop variable.
        var: String,
        /// Its first value.
        lo: SemExpr,
        /// The end: its last value when `inclusive`, else the one after it.
        hi: SemExpr,
        /// `..=`.
        inclusive: bool,
        /// The body.
        body: SemBlock,
    },
    /// `e;`
    Expr(SemExpr),
}

/// A typed semantic expression.
#[derive(Debug, Clone)]
pub struct SemExpr {
    /// Kind.
    pub kind: SemKind,
    /// Type.
    pub ty: ScalarType,
}

/// Semantic expression kinds.
#[derive(Debug, Clone)]
pub enum SemKind {
    /// Integer constant.
    Int(i128),
    /// Float constant.
    Float(f64),
    /// Boolean constant.
    Bool(bool),
    /// A local variable or parameter.
    Local(String),
    /// A field of the executing instruction.
    Field(FieldId),
    /// Element `index` of an array field of the executing instruction (0, or `false`, past
    /// its end).
    FieldAt(FieldId, Box<SemExpr>),
    /// A state element (optionally indexed).
    State(usize, Option<Box<SemExpr>>),
    /// Unary.
    Unary(UnOp, Box<SemExpr>),
    /// Binary.
    Binary(BinOp, Box<SemExpr>, Box<SemExpr>),
    /// Conditional.
    If(Box<SemExpr>, Box<SemExpr>, Box<SemExpr>),
    /// Match on an integer.
    Match(Box<SemExpr>, Vec<MatchArm>),
    /// A builtin conversion or helper.
    Builtin(Builtin, Vec<SemExpr>),
    /// Call of a spec function.
    Call(usize, Vec<SemExpr>),
    /// Call of a hook.
    Hook(usize, Vec<SemExpr>),
    /// Apply the semantics of the enum value `selector` holds (dispatch to the semantics
    /// trait): operations, or value tables such as small immediates.
    Op(EnumId, Box<SemExpr>, Vec<SemExpr>),
    /// The value of a range variant (inside its semantics).
    VariantValue,
    /// The number of the SIMD element executing (`element`).
    Element,
}

/// Builtins of the semantics language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// Reinterpret u32 bits as f32.
    F32,
    /// Reinterpret f32 as u32 bits (an f64 as u64 bits).
    Bits,
    /// Reinterpret u64 bits as f64.
    F64,
    /// `float64(x)`, `float64(x, rounding)`, `float64(x, rounding, signed)`: an integer or f32
    /// converted to f64 (a u64 rounded once, as a signed one with `signed`).
    ToFloat64,
    /// `int64(x)`: a float to a signed 64-bit integer (truncating, saturating, NaN to 0), as u64.
    ToInt64,
    /// `uint64(x)`: a float to u64 (truncating, saturating, NaN to 0).
    ToUint64,
    /// Convert an integer value to f32.
    ToFloat,
    /// Convert f32 to i32 (truncating, saturating).
    ToInt,
    /// Convert to u32 (wrapping).
    U32,
    /// Convert to i32 (wrapping).
    I32,
    /// Widen to u64 (zero-extending a `u32`, sign-extending an `i32`).
    U64,
    /// Count the set bits.
    Popc,
    /// Reverse the bits.
    Brev,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Absolute value.
    Abs,
    /// Clamp to [lo, hi].
    Clamp,
    /// Count leading zeros.
    Clz,
    /// Rotate right.
    RotR,
    /// `in_element(i, x)`: `x` evaluated as SIMD element `i` sees it.
    InElement,
    /// `all(c)`: `c` holds in every SIMD element.
    All,
    /// `any(c)`: `c` holds in some SIMD element.
    Any,
    /// `fma(a, b, c)` / `fma(a, b, c, rounding)`: `a * b + c` rounded once.
    Fma,
    /// `fadd(a, b, rounding)`: a sum rounded in the given mode.
    FAdd,
    /// `fmul(a, b, rounding)`: a product rounded in the given mode.
    FMul,
    /// `float(x, rounding)`: an integer or an f64 converted to f32 in the given rounding mode
    /// (`float(x, rounding, signed)`: a u64 as a signed integer).
    ToFloatRounded,
    /// `round_int(x, rounding)`: a float rounded to an integral value.
    RoundInt,
    /// `uint(x)`: f32 to u32 (truncating, saturating, NaN to 0).
    ToUint,
    /// `ftz(x)`: a subnormal float flushed to zero of the same sign.
    Ftz,
    /// `f16(bits)`: the float16 in the low 16 bits, as f32.
    F16,
    /// `bits16(x)`: f32 to float16 bits (to nearest even); `bits16(x, r)` in rounding mode `r`.
    Bits16,
    /// `sqrt(x)`, correctly rounded.
    Sqrt,
    /// `exp2(x)`.
    Exp2,
    /// `log2(x)`.
    Log2,
    /// `sin(x)` (radians).
    Sin,
    /// `cos(x)` (radians).
    Cos,
    /// `bytes_add_sat(a, b)`: four unsigned bytes added with saturation.
    BytesAddSat,
    /// `bytes_sub_sat(a, b)`: four unsigned bytes subtracted with saturation.
    BytesSubSat,
    /// `bytes_min(a, b)`: the smaller of each byte pair.
    BytesMin,
    /// `bytes_max(a, b)`: the larger of each byte pair.
    BytesMax,
    /// `bytes_mul(a, b)`: each byte pair multiplied as unorm8 (a·b/255 rounded).
    BytesMul,
    /// `bfe(x, pos, len)`, `bfe(x, pos, len, signed)`: a bit field (PTX `bfe`).
    Bfe,
    /// `bfi(x, base, pos, len)`: `x`'s low bits put into a field of `base` (PTX `bfi`).
    Bfi,
    /// `sext(x, bits)`: the low `bits` bits sign-extended.
    Sext,
    /// `shl(x, n)`: a left shift, every bit out from a count of the width on.
    Shl,
    /// `shr(x, n)`: a logical right shift, 0 from a count of the width on.
    Shr,
    /// `asr(x, n)`: an arithmetic right shift, the sign from a count of the width on.
    Asr,
    /// `lut3(a, b, c, lut)`: a three-input function by its truth table (PTX `lop3`).
    Lut3,
    /// `prmt(a, b, sel)`: four bytes of `b:a` chosen by `sel`'s nibbles (PTX `prmt`).
    Prmt,
    /// `bfind(x)`, `bfind(x, signed)`, `bfind(x, signed, shift_amount)`: the highest set bit's
    /// position (PTX `bfind`).
    Bfind,
    /// `uadd_overflows(a, b)`, `uadd_overflows(a, b, carry)`: the carry out of an add.
    UaddOverflows,
    /// `sadd_overflows(a, b)`, `sadd_overflows(a, b, carry)`: the signed overflow of an add.
    SaddOverflows,
    /// `uadd_sat(a, b)`, `uadd_sat(a, b, carry)`: an unsigned add clamped to the width.
    UaddSat,
    /// `sadd_sat(a, b)`, `sadd_sat(a, b, carry)`: a signed add clamped to the range.
    SaddSat,
    /// `unmodelled()`: the interpreter stops with a trap naming the format or function (a case
    /// the spec leaves to the embedder, such as 64-bit conversions).
    Unmodelled,
    /// `illegal()`: the interpreter stops with an illegal-instruction trap naming the format or
    /// function (an encoding the hardware refuses).
    Illegal,
}

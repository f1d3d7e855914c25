//! The view model: what the documents show, as typed rows and sections in document order,
//! computed from the IR. The outline (`outline`) lays it out once; the writers only spell it.

use std::collections::HashMap;

use super::bits;
use super::render::{code, slug};
use crate::ir::{self, Field, Piece, Type, Values};
use crate::placement;

/// Match patterns shown per format before "and N more".
const MAX_PATTERNS: usize = 16;
/// Deepest nesting of layouts expanded in a flattened table (guards against cycles too).
const MAX_NESTING: usize = 8;

pub(super) struct Target {
    pub(super) name: String,
    pub(super) title: String,
    pub(super) doc: String,
    pub(super) word_bits: u32,
    pub(super) byte_order: &'static str,
    pub(super) dialects: Vec<Dialect>,
    pub(super) dialect_names: Vec<String>,
    pub(super) formats: Vec<Format>,
    /// Words that travel beside the instructions: one section, either kind.
    pub(super) streams: Option<Streams>,
    pub(super) layouts: Vec<Layout>,
    pub(super) units: Vec<super::abi::Unit>,
    pub(super) abi_layouts: Vec<super::abi::AbiLayout>,
    pub(super) enums: Vec<Enum>,
    pub(super) numbers: Vec<Number>,
    pub(super) properties: Vec<Property>,
    pub(super) rules: Vec<Rule>,
    pub(super) machine: Option<Machine>,
}

/// The target's streams ([`crate::ir::Streams`]), as the docs show them.
pub(super) enum Streams {
    /// Programs written as bundles filling several streams.
    Bundled(Bundles),
    /// One stream of control words interleaved with the instructions.
    Interleaved(Box<Schedule>),
}

pub(super) struct Dialect {
    pub(super) name: String,
    pub(super) default: bool,
    pub(super) comments: String,
    pub(super) case: &'static str,
    pub(super) raw: String,
}

/// An instruction encoding (or the scheduling slot): its patterns, diagram and field table.
pub(super) struct Format {
    pub(super) name: String,
    pub(super) anchor: String,
    pub(super) doc: String,
    pub(super) width: u32,
    /// The field that picks the instruction's length and the length in bits per value.
    pub(super) length: Option<(String, Vec<u32>)>,
    pub(super) patterns: Vec<String>,
    pub(super) more_patterns: usize,
    pub(super) diagram: String,
    pub(super) rows: Vec<FieldRow>,
    pub(super) dont_care: String,
    pub(super) undeclared: String,
    /// Why the hardware reserves the encoding (empty: it does not).
    pub(super) reserved: String,
    pub(super) constraints: Vec<ConstraintRow>,
    pub(super) properties: String,
    /// The fixed bits of the first pattern, `value/mask` in hex (empty: none, or too wide).
    pub(super) opcode: String,
    /// Per dialect with a syntax for the encoding: its name and the syntax's arms as a
    /// synopsis ([`synopsis`]).
    pub(super) syntax: Vec<(String, Vec<String>)>,
}

/// The scheduling control word: its grouping and its slot's table.
pub(super) struct Schedule {
    pub(super) slots: u32,
    pub(super) width: u32,
    pub(super) last: u32,
    pub(super) pad: String,
    pub(super) default: String,
    pub(super) slot: Format,
}

/// A bundled target's streams and the units of its bundles; cells are Markdown.
pub(super) struct Bundles {
    pub(super) keyword: String,
    /// The header settings, or `—`.
    pub(super) header: String,
    /// Stream, bits, what its words are, reset word.
    pub(super) streams: Vec<[String; 4]>,
    /// Label, stream, how many in a bundle, slots.
    pub(super) units: Vec<[String; 4]>,
}

/// One row of a format's table.
pub(super) struct FieldRow {
    pub(super) field: String,
    pub(super) bits: String,
    pub(super) width: String,
    pub(super) ty: Vec<TypePart>,
    pub(super) value: String,
    pub(super) doc: String,
    pub(super) view: bool,
}

/// One part of a type cell: text, linked to an anchor (when not empty) naming a table of the
/// document.
pub(super) struct TypePart {
    pub(super) text: String,
    pub(super) anchor: String,
}

pub(super) struct ConstraintRow {
    pub(super) name: String,
    pub(super) message: String,
    pub(super) reads: String,
    pub(super) doc: String,
}

pub(super) struct Layout {
    pub(super) name: String,
    pub(super) anchor: String,
    pub(super) doc: String,
    pub(super) size: String,
    pub(super) diagram: String,
    pub(super) rows: Vec<LayoutRow>,
    pub(super) dont_care: String,
    /// Bits no field or `unused` declares, as the reserved members of the layout's value.
    pub(super) gaps: Vec<GapRow>,
    pub(super) flat: Vec<FlatRow>,
    pub(super) nested_in: Vec<NestedIn>,
    pub(super) union: Vec<UnionArm>,
    pub(super) union_tag: String,
    pub(super) constraints: Vec<ConstraintRow>,
}

/// One row of a data layout's table, in the shape of the hardware documents' tables.
pub(super) struct LayoutRow {
    pub(super) field: String,
    pub(super) bit_width: String,
    pub(super) ty: Vec<TypePart>,
    pub(super) bits: String,
    pub(super) word: String,
    pub(super) value: String,
    pub(super) doc: String,
    pub(super) view: bool,
}

/// Bits of a data layout that nothing declares: the reserved member of its value holding them.
pub(super) struct GapRow {
    pub(super) member: String,
    pub(super) bit_width: String,
    pub(super) bits: String,
    pub(super) word: String,
}

/// One leaf of a layout with nested layouts expanded, at absolute offsets.
pub(super) struct FlatRow {
    pub(super) path: String,
    pub(super) bits: String,
    pub(super) offset: String,
    pub(super) word: String,
    pub(super) width: String,
    pub(super) ty: Vec<TypePart>,
    pub(super) doc: String,
}

/// A field of another layout that holds this one.
pub(super) struct NestedIn {
    pub(super) parent: String,
    pub(super) anchor: String,
    pub(super) field: String,
    pub(super) offset: String,
    pub(super) word: String,
}

pub(super) struct UnionArm {
    pub(super) value: String,
    pub(super) layout: String,
    pub(super) anchor: String,
}

pub(super) struct Enum {
    pub(super) name: String,
    pub(super) anchor: String,
    pub(super) doc: String,
    pub(super) width: u32,
    pub(super) signature: String,
    pub(super) has_sem: bool,
    pub(super) rows: Vec<VariantRow>,
    pub(super) undefined: String,
    pub(super) else_notes: Vec<String>,
}

pub(super) struct VariantRow {
    pub(super) value: String,
    pub(super) name: String,
    /// One cell per dialect.
    pub(super) spellings: Vec<String>,
    pub(super) sem: &'static str,
    pub(super) doc: String,
}

pub(super) struct Number {
    pub(super) name: String,
    pub(super) anchor: String,
    pub(super) doc: String,
    pub(super) kind: &'static str,
    pub(super) width: u32,
    pub(super) shape: String,
}

pub(super) struct Property {
    pub(super) name: String,
    pub(super) ty: &'static str,
    pub(super) default: String,
    pub(super) defined_by: Vec<Link>,
    pub(super) doc: String,
}

pub(super) struct Link {
    pub(super) name: String,
    pub(super) anchor: String,
}

pub(super) struct Rule {
    pub(super) name: String,
    pub(super) message: String,
    pub(super) doc: String,
    /// The instructions it reads around its outermost variable's (`isa validate` holds
    /// them), or that it may read anywhere.
    pub(super) reads: String,
}

pub(super) struct Machine {
    pub(super) state: Vec<StateRow>,
    pub(super) functions: Vec<Callable>,
    pub(super) hooks: Vec<Callable>,
}

pub(super) struct StateRow {
    pub(super) name: String,
    pub(super) ty: String,
    pub(super) doc: String,
}

/// A function or hook of the interpreter.
pub(super) struct Callable {
    pub(super) name: String,
    pub(super) signature: String,
    pub(super) doc: String,
}

/// The view model of a target.
pub(super) fn target(t: &ir::Target) -> Target {
    Model::new(t).target()
}

fn type_part(text: impl Into<String>, anchor: Option<String>) -> TypePart {
    TypePart { text: text.into(), anchor: anchor.unwrap_or_default() }
}

/// The IR with every item's anchor.
struct Model<'a> {
    t: &'a ir::Target,
    enum_anchors: Vec<String>,
    number_anchors: Vec<String>,
    layout_anchors: Vec<String>,
    abi_anchors: Vec<String>,
    format_anchors: Vec<String>,
}

impl<'a> Model<'a> {
    /// Assigns every item its anchor, in document order, deduplicated the way GitHub numbers
    /// repeated heading slugs (`x`, `x-1`, `x-2`).
    fn new(t: &'a ir::Target) -> Self {
        let mut seen: HashMap<String, usize> = HashMap::new();
        let mut anchor = |kind: &str, name: &str| {
            let base = slug(&format!("{kind} {name}"));
            let n = seen.entry(base.clone()).or_insert(0);
            let a = if *n == 0 { base } else { format!("{base}-{n}") };
            *n += 1;
            a
        };
        // Same order as the sections of the templates.
        let format_anchors = t.formats.iter().map(|f| anchor("format", &f.name)).collect();
        let layout_anchors = t.layouts.iter().map(|l| anchor("layout", &l.name)).collect();
        let abi_anchors = t.abi_layouts.iter().map(|l| anchor("layout", &l.name)).collect();
        let enum_anchors = t.enums.iter().map(|e| anchor("enum", &e.name)).collect();
        let number_anchors = t.numbers.iter().map(|n| anchor("number", &n.name)).collect();
        Model { t, enum_anchors, number_anchors, layout_anchors, abi_anchors, format_anchors }
    }

    fn target(&self) -> Target {
        let t = self.t;
        let dialects = t
            .dialects
            .iter()
            .enumerate()
            .map(|(i, d)| Dialect {
                name: d.name.clone(),
                default: i == 0,
                comments: if d.comments.is_empty() {
                    "—".to_string()
                } else {
                    d.comments.iter().map(|c| code(c)).collect::<Vec<_>>().join(", ")
                },
                case: if d.ignore_case { "ignored" } else { "significant" },
                raw: d.raw.as_deref().map_or("—".to_string(), code),
            })
            .collect();
        Target {
            name: t.name.clone(),
            title: t.title.clone(),
            doc: t.doc.clone(),
            word_bits: t.word_bits,
            byte_order: if t.little_endian { "little-endian" } else { "big-endian" },
            dialects,
            dialect_names: t.dialects.iter().map(|d| d.name.clone()).collect(),
            formats: t.formats.iter().zip(&self.format_anchors).map(|(f, a)| self.format(f, a)).collect(),
            streams: self
                .bundles()
                .map(Streams::Bundled)
                .or_else(|| self.schedule().map(|s| Streams::Interleaved(Box::new(s)))),
            layouts: (0..t.layouts.len()).map(|i| self.layout(i)).collect(),
            units: super::abi::units(t),
            abi_layouts: t
                .abi_layouts
                .iter()
                .zip(&self.abi_anchors)
                .map(|(l, anchor)| super::abi::abi_layout(t, l, anchor.clone()))
                .collect(),
            enums: (0..t.enums.len()).map(|i| self.enumeration(i)).collect(),
            numbers: (0..t.numbers.len()).map(|i| self.number(i)).collect(),
            properties: self.properties(),
            rules: self.rules(),
            machine: self.machine(),
        }
    }

    // ---- Formats -------------------------------------------------------------------------------

    /// The scheduling control word, when the target has one.
    fn schedule(&self) -> Option<Schedule> {
        let sch = self.t.interleaved()?;
        Some(Schedule {
            slots: sch.every,
            width: sch.slot.width,
            last: sch.slot.width * sch.every,
            pad: format!("{:#x}", sch.pad),
            default: format!("{:#x}", placement::default_slot(sch)),
            slot: self.format(&sch.slot, &format!("slot-{}", slug(&sch.slot.name))),
        })
    }

    /// The streams and bundle units, when the target's programs are bundles.
    fn bundles(&self) -> Option<Bundles> {
        let (all, b) = self.t.bundled()?;
        let format = |f: &ir::FormatId| code(&self.t.formats[f.0].name);
        let streams = all
            .iter()
            .map(|s| {
                let words = match &s.computed {
                    Some(ir::Computed::Counts { format: f, fields }) => {
                        let fields: Vec<String> = fields
                            .iter()
                            .map(|c| {
                                let what = match c.measure {
                                    isa_runtime_base::Measure::Count => "how many",
                                    isa_runtime_base::Measure::First => "index of the first",
                                };
                                format!("{} = {what} {}", code(&c.field), code(&b.units[c.unit].label))
                            })
                            .collect();
                        format!("computed {}: {}", format(f), fields.join(", "))
                    }
                    Some(ir::Computed::Slots(_)) | None if s.formats.is_empty() => "hex".to_string(),
                    Some(ir::Computed::Slots(_)) | None => {
                        s.formats.iter().map(format).collect::<Vec<_>>().join(", ")
                    }
                };
                [
                    code(&s.name),
                    s.bits.to_string(),
                    words,
                    code(&format!("{:#0w$x}", s.reset, w = s.bits as usize / 4 + 2)),
                ]
            })
            .collect();
        let units = b
            .units
            .iter()
            .map(|u| {
                let mut count =
                    u.max.map_or("once (its reset word when left out)".to_string(), |m| format!("0 to {m}"));
                if let Some(t) = u.total {
                    count += &format!(", at most {t} in a program");
                }
                let slots = if u.slots.is_empty() {
                    "—".to_string()
                } else {
                    let mut slots: Vec<String> = u.slots.iter().map(|s| code(s)).collect();
                    for (slot, f) in &u.alternatives {
                        slots[*slot] = format!("{} (or {})", slots[*slot], format(f));
                    }
                    slots.join(", ")
                };
                [code(&u.label), code(&all[u.stream].name), count, slots]
            })
            .collect();
        let mut header = if b.header.is_empty() {
            "—".to_string()
        } else {
            let one = |(name, max): &(String, Option<u64>)| match max {
                Some(m) => format!("{} (at most {m})", code(name)),
                None => code(name),
            };
            b.header.iter().map(one).collect::<Vec<_>>().join(", ")
        };
        if let Some(m) = b.max {
            header += &format!(". A program holds at most {m} bundles");
        }
        Some(Bundles { keyword: code(&b.keyword), header, streams, units })
    }

    fn format(&self, f: &ir::Format, anchor: &str) -> Format {
        let width = f.width;
        let owners = bits::owners(width, &f.fields, &f.unused);
        // Rows in hardware order; a layout's rows keep declaration order, as its document lists them.
        let rows = bits::hardware_order(&f.fields)
            .into_iter()
            .map(|k| self.field_row(&f.fields[k], &f.fields))
            .collect();
        let properties = f
            .properties
            .iter()
            .filter_map(|(p, _)| self.t.properties.get(p.0))
            .map(|p| code(&p.name))
            .collect::<Vec<_>>()
            .join(", ");
        let patterns = if width <= 128 {
            f.pattern.iter().take(MAX_PATTERNS).map(|&(m, v)| bits::pattern_text(width, m, v)).collect()
        } else {
            Vec::new()
        };
        Format {
            name: f.name.clone(),
            anchor: anchor.to_string(),
            doc: f.doc.clone(),
            width,
            length: f.length.as_ref().map(|l| (f.field(l.field).name.clone(), l.bits.clone())),
            patterns,
            more_patterns: f.pattern.len().saturating_sub(MAX_PATTERNS),
            diagram: bits::diagram(width, &f.fields, owners.as_deref()),
            rows,
            dont_care: bits::pieces_text(&f.unused),
            undeclared: bits::undeclared_text(owners.as_deref()),
            reserved: f.reserved.clone().unwrap_or_default(),
            constraints: f.constraints.iter().map(constraint_row).collect(),
            properties,
            opcode: f
                .pattern
                .first()
                .filter(|_| width <= 128)
                .map(|&(m, v)| {
                    let digits = width.div_ceil(4) as usize;
                    format!("0x{v:0digits$x}/0x{m:0digits$x}")
                })
                .unwrap_or_default(),
            syntax: f
                .syntax
                .iter()
                .zip(&self.t.dialects)
                .filter(|(x, _)| !x.parts.is_empty())
                .map(|(x, d)| (d.name.clone(), synopsis(f, x)))
                .collect(),
        }
    }

    // ---- Layouts -------------------------------------------------------------------------------

    fn layout(&self, i: usize) -> Layout {
        let l = &self.t.layouts[i];
        let owners = bits::owners(l.width, &l.fields, &l.unused);
        // Fields and named reserved bits in declaration order, as the document's tables list them.
        let mut rows = Vec::new();
        for (k, f) in l.fields.iter().enumerate() {
            rows.extend(l.reserved.iter().filter(|r| r.after == k).map(reserved_row));
            rows.push(self.layout_row(f, &l.fields));
        }
        rows.extend(l.reserved.iter().filter(|r| r.after >= l.fields.len()).map(reserved_row));
        let union = l.union.as_ref().map_or_else(Vec::new, |u| {
            u.arms
                .iter()
                .filter_map(|(v, arm)| {
                    let a = self.t.layouts.get(arm.0)?;
                    Some(UnionArm {
                        value: self.value_name(&u.tag_ty, *v),
                        layout: a.name.clone(),
                        anchor: self.layout_anchors[arm.0].clone(),
                    })
                })
                .collect()
        });
        let mut flat = Vec::new();
        let has_nested = l.fields.iter().any(|f| matches!(f.ty, Type::Layout(_)));
        if has_nested {
            let mut stack = vec![i];
            self.flatten(i, &[Piece { lo: 0, width: l.width }], "", &[], &mut stack, &mut flat);
        }
        // A union's bits are its arms'.
        let is_union = l.union.is_some();
        Layout {
            name: l.name.clone(),
            anchor: self.layout_anchors[i].clone(),
            doc: l.doc.clone(),
            size: size_text(l.width),
            diagram: if is_union {
                String::new()
            } else {
                bits::diagram(l.width, &l.fields, owners.as_deref())
            },
            rows,
            dont_care: bits::pieces_text(&l.unused),
            gaps: undeclared_members(l),
            flat,
            nested_in: self.nested_in(i),
            union,
            union_tag: l.union.as_ref().map_or("", |u| u.tag.as_str()).to_string(),
            constraints: l.constraints.iter().map(constraint_row).collect(),
        }
    }

    /// One row of a data layout's table, in the shape of the hardware documents' tables:
    /// name (with its element count), total bit width, type, bits and 32-bit word.
    fn layout_row(&self, f: &Field, siblings: &[Field]) -> LayoutRow {
        let count = f.array.as_ref().map_or(1, |a| a.0);
        let name = if f.array.is_some() { format!("{}[{count}]", f.name) } else { f.name.clone() };
        let bits = if f.array.is_some() {
            let (lo, hi) = bits::span_of(f);
            format!(
                "{} (element i: {})",
                bits::range_text(lo, hi.saturating_sub(lo).saturating_add(1)),
                bits::field_bits_text(f)
            )
        } else {
            bits::field_bits_text(f)
        };
        let kind = match f.ty {
            Type::Layout(_) => "struct ",
            Type::Enum(_) => "enum ",
            Type::Bool | Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Switch { .. } => "",
        };
        let mut ty = vec![type_part(kind, None)];
        ty.extend(self.type_cell(&f.ty, siblings));
        LayoutRow {
            field: name,
            bit_width: (u64::from(f.width()) * u64::from(count)).to_string(),
            ty,
            bits,
            word: bits::field_words_text(f),
            value: self.value_notes(f, siblings),
            doc: f.doc.clone(),
            view: f.view,
        }
    }

    /// Where layout `id` is nested: one entry per parent field.
    fn nested_in(&self, id: usize) -> Vec<NestedIn> {
        let mut out = Vec::new();
        for (pi, parent) in self.t.layouts.iter().enumerate() {
            for f in &parent.fields {
                let uses = match &f.ty {
                    Type::Layout(l) => l.0 == id,
                    Type::Switch { arms, .. } => {
                        arms.iter().any(|(_, ty)| matches!(ty, Type::Layout(l) if l.0 == id))
                    }
                    Type::Bool | Type::UInt(_) | Type::SInt(_) | Type::Enum(_) | Type::Number(_) => false,
                };
                if !uses {
                    continue;
                }
                out.push(NestedIn {
                    parent: parent.name.clone(),
                    anchor: self.layout_anchors[pi].clone(),
                    field: f.name.clone(),
                    offset: bits::offset_text(bits::lowest_bit(&f.pieces), &bits::array_terms(f, "i")),
                    word: bits::pieces_words_text(&f.pieces),
                });
            }
        }
        out
    }

    /// The leaf fields of layout `id`, laid out at `at` (element 0, absolute), with absolute
    /// offsets, nested layouts expanded in place.
    fn flatten(
        &self,
        id: usize,
        at: &[Piece],
        prefix: &str,
        terms: &[(i64, String)],
        stack: &mut Vec<usize>,
        out: &mut Vec<FlatRow>,
    ) {
        const INDEX_NAMES: [&str; MAX_NESTING] = ["i", "j", "k", "l", "m", "n", "p", "q"];
        let Some(l) = self.t.layouts.get(id) else {
            return;
        };
        for f in l.fields.iter().filter(|f| !f.view) {
            let mut terms = terms.to_vec();
            let mut path = format!("{prefix}{}", f.name);
            if f.array.is_some() {
                let var = INDEX_NAMES[terms.len().min(MAX_NESTING - 1)];
                path.push_str(&format!("[{var}]"));
                terms.extend(bits::array_terms(f, var));
            }
            // Each piece on its own, so the table lists the spec's pieces.
            let pieces: Vec<Piece> = f.pieces.iter().flat_map(|p| placement::sub_pieces(at, &[*p])).collect();
            let nested = match f.ty {
                Type::Layout(n) => Some(n.0).filter(|n| *n < self.t.layouts.len()),
                Type::Bool
                | Type::UInt(_)
                | Type::SInt(_)
                | Type::Enum(_)
                | Type::Number(_)
                | Type::Switch { .. } => None,
            };
            match nested {
                Some(n) if !stack.contains(&n) && stack.len() < MAX_NESTING => {
                    stack.push(n);
                    self.flatten(n, &pieces, &format!("{path}."), &terms, stack, out);
                    stack.pop();
                }
                _ => out.push(FlatRow {
                    path,
                    bits: bits::pieces_text(&pieces),
                    offset: bits::offset_text(bits::lowest_bit(&pieces), &terms),
                    word: bits::pieces_words_text(&pieces),
                    width: bits::width_text(f),
                    ty: self.type_cell(&f.ty, &l.fields),
                    doc: f.doc.clone(),
                }),
            }
        }
    }

    // ---- Fields --------------------------------------------------------------------------------

    /// One row of a format's table.
    fn field_row(&self, f: &Field, siblings: &[Field]) -> FieldRow {
        let name = match &f.array {
            Some((n, _)) => format!("{}[0..{n}]", f.name),
            None => f.name.clone(),
        };
        FieldRow {
            field: name,
            bits: bits::field_bits_text(f),
            width: bits::width_text(f),
            ty: self.type_cell(&f.ty, siblings),
            value: self.value_notes(f, siblings),
            doc: f.doc.clone(),
            view: f.view,
        }
    }

    /// The Type cell: the type's name, linked to its table.
    fn type_cell(&self, ty: &Type, siblings: &[Field]) -> Vec<TypePart> {
        match ty {
            Type::Switch { tag, arms } => {
                let tag_field = siblings.get(*tag);
                let tag_name = tag_field.map_or("?", |x| x.name.as_str());
                let mut parts = vec![type_part(format!("switch {tag_name}: "), None)];
                for (k, (v, arm)) in arms.iter().enumerate() {
                    let sep = if k > 0 { ", " } else { "" };
                    let value = tag_field.map_or(v.to_string(), |x| self.value_name(&x.ty, *v));
                    parts.push(type_part(format!("{sep}{value} → "), None));
                    parts.push(self.simple_type(arm));
                }
                parts
            }
            other => vec![self.simple_type(other)],
        }
    }

    fn simple_type(&self, ty: &Type) -> TypePart {
        let t = self.t;
        match ty {
            Type::Bool => type_part("bool", None),
            Type::UInt(w) => type_part(format!("u{w}"), None),
            Type::SInt(w) => type_part(format!("s{w}"), None),
            Type::Enum(e) => match t.enums.get(e.0) {
                Some(x) => type_part(&x.name, self.enum_anchors.get(e.0).cloned()),
                None => type_part(format!("enum #{}", e.0), None),
            },
            Type::Number(n) => match t.numbers.get(n.0) {
                Some(x) => type_part(&x.name, self.number_anchors.get(n.0).cloned()),
                None => type_part(format!("number #{}", n.0), None),
            },
            Type::Layout(l) => match t.layouts.get(l.0) {
                Some(x) => type_part(&x.name, self.layout_anchors.get(l.0).cloned()),
                None => type_part(format!("layout #{}", l.0), None),
            },
            Type::Switch { .. } => type_part("switch", None),
        }
    }

    /// The Value cell: fixed value, allowed values, assembler default, view and tag markers,
    /// array shape.
    fn value_notes(&self, f: &Field, siblings: &[Field]) -> String {
        let mut notes = Vec::new();
        if let Some(v) = f.fixed {
            notes.push(format!("is {}", self.value_with_number(&f.ty, v)));
        }
        if let Some(ranges) = &f.allowed {
            let names = ranges
                .iter()
                .map(|&(lo, hi)| {
                    if lo == hi {
                        self.value_name(&f.ty, lo)
                    } else {
                        format!("{}..={}", self.value_name(&f.ty, lo), self.value_name(&f.ty, hi))
                    }
                })
                .collect::<Vec<_>>()
                .join(", ");
            let numbers = ranges
                .iter()
                .map(|&(lo, hi)| if lo == hi { lo.to_string() } else { format!("{lo}..={hi}") })
                .collect::<Vec<_>>()
                .join(", ");
            if names == numbers {
                notes.push(format!("in {numbers}"));
            } else {
                notes.push(format!("in {names} ({numbers})"));
            }
        }
        if let Some(v) = f.default {
            notes.push(format!("default {}", self.value_with_number(&f.ty, v)));
        }
        if !f.element_defaults.is_empty() {
            let values: Vec<String> =
                f.element_defaults.iter().map(|v| self.value_with_number(&f.ty, *v)).collect();
            notes.push(format!("defaults [{}] (element 0 first)", values.join(", ")));
        }
        if let Some((n, strides)) = &f.array {
            let same = strides.windows(2).all(|w| w[0] == w[1]);
            let strides = strides[..if same { strides.len().min(1) } else { strides.len() }]
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let first = f
                .pieces
                .iter()
                .map(|p| bits::range_text(u64::from(p.lo), u64::from(p.width)))
                .collect::<Vec<_>>()
                .join(", ");
            notes.push(format!("{n} elements; element 0 at {first}; stride {strides}"));
        }
        if f.view {
            notes.push("view (the bits belong to other fields; printed, and read back into them)".into());
        }
        if f.is_tag {
            let selected: Vec<String> = siblings
                .iter()
                .filter(|x| {
                    matches!(&x.ty, Type::Switch { tag, .. }
                        if siblings.get(*tag).is_some_and(|y| std::ptr::eq(y, f)))
                })
                .map(|x| code(&x.name))
                .collect();
            if !selected.is_empty() {
                notes.push(format!("selects the type of {}", selected.join(", ")));
            }
        }
        notes.join("; ")
    }

    /// A raw value as the spec would write it: an enum value's name, `true`, or the number.
    fn value_name(&self, ty: &Type, v: u64) -> String {
        match ty {
            Type::Bool => (v != 0).to_string(),
            Type::Enum(e) => {
                let Some(en) = self.t.enums.get(e.0) else {
                    return v.to_string();
                };
                match en.variant_of(v).map(|k| &en.variants[k]) {
                    Some(x) if x.values == Values::One(v) => x.name.clone(),
                    Some(x) => format!("{}({v})", x.name),
                    None => v.to_string(),
                }
            }
            Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Layout(_) | Type::Switch { .. } => {
                v.to_string()
            }
        }
    }

    /// `load_imm (14)` for enum values, the bare number otherwise.
    fn value_with_number(&self, ty: &Type, v: u64) -> String {
        let name = self.value_name(ty, v);
        if name == v.to_string() || matches!(ty, Type::Bool) {
            name
        } else {
            format!("{name} ({v})")
        }
    }

    // ---- Enums ---------------------------------------------------------------------------------

    fn enumeration(&self, i: usize) -> Enum {
        let t = self.t;
        let e = &t.enums[i];
        let has_sem = e.signature.is_some() || e.variants.iter().any(|v| v.semantics.is_some());
        let rows = e
            .variants
            .iter()
            .map(|v| VariantRow {
                value: match v.values {
                    Values::One(x) => x.to_string(),
                    Values::Range(lo, hi) => format!("{lo}..={hi}"),
                    Values::Rest => "other".to_string(),
                },
                name: v.name.clone(),
                spellings: (0..t.dialects.len())
                    .map(|d| spellings_text(v.spellings.get(d).map_or(&[], |x| x)))
                    .collect(),
                sem: if v.semantics.is_some() { "yes" } else { "" },
                doc: v.doc.clone(),
            })
            .collect();
        let signature = e.signature.as_ref().map(|(params, ret)| signature_text(params, *ret));
        let else_notes = e
            .else_spellings
            .iter()
            .enumerate()
            .filter_map(|(d, x)| {
                let text = x.as_ref()?;
                let dialect = t.dialects.get(d).map_or("?", |x| x.name.as_str());
                Some(format!("{} in {dialect}", code(text)))
            })
            .collect();
        Enum {
            name: e.name.clone(),
            anchor: self.enum_anchors[i].clone(),
            doc: e.doc.clone(),
            width: e.width,
            signature: signature.unwrap_or_default(),
            has_sem,
            rows,
            undefined: undefined_values(e),
            else_notes,
        }
    }

    // ---- Number formats, properties, rules, machine --------------------------------------------

    fn number(&self, i: usize) -> Number {
        let n = &self.t.numbers[i];
        let (kind, shape) = match n.kind {
            ir::NumberKind::Float { sign, exponent, mantissa, bias, specials, truncate } => (
                "float",
                format!(
                    "sign {sign}, exponent {exponent}, mantissa {mantissa}, bias {bias}{}{}",
                    if specials { "; all-ones exponent is infinity/NaN" } else { "" },
                    if truncate { "; other decimals read as their nearest single, truncated" } else { "" }
                ),
            ),
            ir::NumberKind::Fixed { width, fraction, signed } => (
                "fixed",
                format!(
                    "width {width}, fraction {fraction}, {}{}",
                    if signed { "signed (two's complement)" } else { "unsigned" },
                    if fraction < 64 {
                        format!("; 1.0 = {}", code(&format!("{:#x}", 1u64 << fraction)))
                    } else {
                        String::new()
                    }
                ),
            ),
        };
        Number {
            name: n.name.clone(),
            anchor: self.number_anchors[i].clone(),
            doc: n.doc.clone(),
            kind,
            width: n.kind.width(),
            shape,
        }
    }

    fn properties(&self) -> Vec<Property> {
        let t = self.t;
        t.properties
            .iter()
            .enumerate()
            .map(|(i, p)| Property {
                name: p.name.clone(),
                ty: if p.is_bool { "bool" } else { "int" },
                default: if p.is_bool { (p.default != 0).to_string() } else { p.default.to_string() },
                defined_by: t
                    .formats
                    .iter()
                    .zip(&self.format_anchors)
                    .filter(|(f, _)| f.properties.iter().any(|(x, _)| x.0 == i))
                    .map(|(f, a)| Link { name: f.name.clone(), anchor: a.clone() })
                    .collect(),
                doc: p.doc.clone(),
            })
            .collect()
    }

    fn rules(&self) -> Vec<Rule> {
        self.t
            .rules
            .iter()
            .map(|r| Rule {
                name: r.name.clone(),
                message: if r.warning { format!("warning: {}", r.message) } else { r.message.clone() },
                doc: r.doc.clone(),
                reads: match r.reach {
                    Some((0, 0)) => "its own".to_string(),
                    Some((0, after)) => format!("{after} after"),
                    Some((before, 0)) => format!("{before} before"),
                    Some((before, after)) => format!("{before} before, {after} after"),
                    None => "anywhere: validation holds the whole program".to_string(),
                },
            })
            .collect()
    }

    fn machine(&self) -> Option<Machine> {
        let m = self.t.semantics.as_ref()?;
        let state = m
            .state
            .iter()
            .map(|s| StateRow {
                name: s.name.clone(),
                ty: {
                    let one = match s.count {
                        Some(n) => format!("{}[{n}]", scalar_name(s.ty)),
                        None => scalar_name(s.ty).to_string(),
                    };
                    match m.elements {
                        Some(n) if s.per_element => format!("{one} per element (×{n})"),
                        _ => one,
                    }
                },
                doc: s.doc.clone(),
            })
            .collect();
        let callable = |name: &str, params: &[(String, ir::ScalarType)], ret, doc: &str| Callable {
            name: name.to_string(),
            signature: signature_text(params, ret),
            doc: doc.to_string(),
        };
        Some(Machine {
            state,
            functions: m.functions.iter().map(|f| callable(&f.name, &f.params, f.ret, &f.doc)).collect(),
            hooks: m.hooks.iter().map(|h| callable(&h.name, &h.params, h.ret, &h.doc)).collect(),
        })
    }
}

// ---- Text of cells ---------------------------------------------------------------------------------

/// A constraint's row; its text marked when breaking it is only a warning.
fn constraint_row(c: &ir::Constraint) -> ConstraintRow {
    ConstraintRow {
        name: c.name.clone(),
        message: if c.warning { format!("warning: {}", c.message) } else { c.message.clone() },
        reads: c.reads.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", "),
        doc: c.doc.clone(),
    }
}

/// The reserved members of layout `l` ([`placement::reserved_members`]) that no `unused`
/// declares, lowest bits first (none for a union: its arms have theirs).
fn undeclared_members(l: &ir::Layout) -> Vec<GapRow> {
    let declared = |bit: u32| {
        l.reserved.iter().flat_map(|r| &r.pieces).any(|p| (p.lo..p.lo.saturating_add(p.width)).contains(&bit))
    };
    placement::reserved_members(l)
        .into_iter()
        .filter(|m| !declared(m.piece.lo))
        .map(|m| GapRow {
            member: m.name,
            bit_width: m.piece.width.to_string(),
            bits: bits::pieces_text(&[m.piece]),
            word: bits::pieces_words_text(&[m.piece]),
        })
        .collect()
}

/// A reserved row of a data layout's table.
fn reserved_row(r: &ir::Reserved) -> LayoutRow {
    let width: u64 = r.pieces.iter().map(|p| u64::from(p.width)).sum();
    LayoutRow {
        field: r.name.as_deref().unwrap_or("reserved").to_string(),
        bit_width: width.to_string(),
        ty: vec![type_part("-", None)],
        bits: bits::pieces_text(&r.pieces),
        word: bits::pieces_words_text(&r.pieces),
        value: String::new(),
        doc: r.doc.clone(),
        view: false,
    }
}

/// `(a: u32, b: u32) -> u32` as a code span.
fn signature_text(params: &[(String, ir::ScalarType)], ret: Option<ir::ScalarType>) -> String {
    let params =
        params.iter().map(|(n, ty)| format!("{n}: {}", scalar_name(*ty))).collect::<Vec<_>>().join(", ");
    code(&match ret {
        Some(r) => format!("({params}) -> {}", scalar_name(r)),
        None => format!("({params})"),
    })
}

/// The spellings of a variant in one dialect: the printed one, then the aliases.
fn spellings_text(spellings: &[ir::Spelling]) -> String {
    match spellings.split_first() {
        None => "—".to_string(),
        Some((first, [])) => code(&first.text),
        Some((first, rest)) => {
            format!(
                "{} (also {})",
                code(&first.text),
                rest.iter().map(|x| code(&x.text)).collect::<Vec<_>>().join(", ")
            )
        }
    }
}

fn scalar_name(ty: ir::ScalarType) -> &'static str {
    match ty {
        ir::ScalarType::Bool => "bool",
        ir::ScalarType::U32 => "u32",
        ir::ScalarType::I32 => "i32",
        ir::ScalarType::U64 => "u64",
        ir::ScalarType::F32 => "f32",
        ir::ScalarType::F64 => "f64",
    }
}

/// `640 bits: 20 words of 32 bits, 80 bytes`.
fn size_text(bits: u32) -> String {
    let plural = |n: u32, one: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    };
    format!(
        "{}: {} of 32 bits, {}",
        plural(bits, "bit"),
        plural(bits.div_ceil(32), "word"),
        plural(bits.div_ceil(8), "byte")
    )
}

/// Values of the enum's width that no variant defines, as ranges (enums up to 16 bits).
fn undefined_values(e: &ir::Enum) -> String {
    if e.width > 16 || e.variants.iter().any(|v| v.values == Values::Rest) {
        return String::new();
    }
    let n = 1usize << e.width;
    let mut defined = vec![false; n];
    for v in &e.variants {
        let (lo, hi) = match v.values {
            Values::One(x) => (x, x),
            Values::Range(lo, hi) => (lo, hi),
            Values::Rest => continue,
        };
        for x in lo..=hi.min(n as u64 - 1) {
            defined[x as usize] = true;
        }
    }
    let mut ranges = Vec::new();
    let mut x = 0;
    while x < n {
        if defined[x] {
            x += 1;
            continue;
        }
        let lo = x;
        while x + 1 < n && !defined[x + 1] {
            x += 1;
        }
        ranges.push(if lo == x { lo.to_string() } else { format!("{lo}..={x}") });
        x += 1;
    }
    ranges.join(", ")
}

// ---- Syntax synopses -----------------------------------------------------------------------

/// Deepest nesting of templates expanded in a synopsis.
const MAX_CALLS: usize = 8;

/// A format's syntax as a reader scans it: one line per arm of its top level (aliases, which
/// only the assembler reads, left out), literal text as it is printed, `{field}` where a
/// field's value is shown, `[...]` around text printed only under a condition, and each
/// template written out in place: a template of one arm as that arm, of an empty arm and one
/// other as the other in `[...]`, of two or three arms as `(a | b)`, of more as its last arm
/// (the general case). Arms that read alike (they differ in how a value is spelt) are written
/// once.
pub(super) fn synopsis(f: &ir::Format, s: &ir::Syntax) -> Vec<String> {
    let Some(top) = s.parts.first() else { return Vec::new() };
    let names = slot_names(f);
    let mut lines: Vec<String> = Vec::new();
    for a in top.arms.iter().filter(|a| !a.alias) {
        let mut out = String::new();
        synopsis_items(s, &names, &a.items, &[], 0, &mut out);
        if !lines.contains(&out) {
            lines.push(out);
        }
    }
    lines
}

/// The name of every field slot of `f` (`reuse[1]` for an array element).
fn slot_names(f: &ir::Format) -> Vec<String> {
    f.slots()
        .iter()
        .map(|slot| {
            let name = &f.field(slot.field).name;
            slot.element.map_or_else(|| name.clone(), |e| format!("{name}[{e}]"))
        })
        .collect()
}

/// What a value shown or passed to a template is, in a synopsis: a field's name, an argument's
/// (`args`), a number, else `…`.
fn synopsis_value(e: &ir::CondExpr, names: &[String], args: &[String]) -> String {
    match e {
        ir::CondExpr::Field(slot) => names.get(slot.0).cloned().unwrap_or_else(|| "…".into()),
        ir::CondExpr::Param(i) => args.get(*i).cloned().unwrap_or_else(|| "…".into()),
        ir::CondExpr::Int(v) => v.to_string(),
        ir::CondExpr::Pc => "pc".into(),
        _ => "…".into(),
    }
}

fn synopsis_items(
    s: &ir::Syntax,
    names: &[String],
    items: &[ir::SyntaxItem],
    args: &[String],
    depth: usize,
    out: &mut String,
) {
    for item in items {
        match item {
            ir::SyntaxItem::Lit(t) => out.push_str(t),
            ir::SyntaxItem::Show(e, _) => {
                out.push('{');
                out.push_str(&synopsis_value(e, names, args));
                out.push('}');
            }
            ir::SyntaxItem::Opt(_, inner) => {
                let mut t = String::new();
                synopsis_items(s, names, inner, args, depth, &mut t);
                if !t.is_empty() {
                    out.push('[');
                    out.push_str(&t);
                    out.push(']');
                }
            }
            ir::SyntaxItem::AnyOrder(_, inner) => synopsis_items(s, names, inner, args, depth, out),
            ir::SyntaxItem::Call(n, call_args) => {
                let Some(part) = s.parts.get(*n) else { continue };
                if depth >= MAX_CALLS {
                    out.push_str(&format!("⟨{}⟩", part.name));
                    continue;
                }
                let values: Vec<String> = call_args.iter().map(|e| synopsis_value(e, names, args)).collect();
                let arms: Vec<String> = part
                    .arms
                    .iter()
                    .filter(|a| !a.alias)
                    .map(|a| {
                        let mut t = String::new();
                        synopsis_items(s, names, &a.items, &values, depth + 1, &mut t);
                        t
                    })
                    .collect();
                // Forms that differ only in how a value is spelt read alike: written once.
                let mut shown: Vec<&str> = Vec::new();
                for a in arms.iter().filter(|a| !a.is_empty()) {
                    if !shown.contains(&a.as_str()) {
                        shown.push(a);
                    }
                }
                let empty = arms.iter().any(String::is_empty);
                let text = match shown.as_slice() {
                    [] => continue,
                    [only] => (*only).to_string(),
                    _ if arms.len() > 3 => shown[shown.len() - 1].to_string(),
                    _ => format!("({})", shown.join(" | ")),
                };
                if empty && arms.len() <= 3 {
                    out.push_str(&format!("[{text}]"));
                } else {
                    out.push_str(&text);
                }
            }
        }
    }
}

//! Documentation tables (Markdown and HTML) generated from the spec with tera templates.
//!
//! The tables follow the shape of the hardware reference documents: one bit-layout table per
//! encoding or data layout, one value table per enum. Everything the templates show is computed
//! here into a plain model (strings and lists, in declaration order); the templates only lay it
//! out. Text cells use the doc-comment convention (Markdown with `code` spans) and each template
//! escapes them for its output: `md`/`md_block` for Markdown, `html`/`html_block` for HTML.

use std::collections::HashMap;

use tera::{Context, Map, Tera, Value};

use crate::ir::{self, Field, Piece, Type, Values};
use crate::placement;

const MARKDOWN_TEMPLATE: &str = include_str!("../../templates/docs.md.tera");
const HTML_TEMPLATE: &str = include_str!("../../templates/docs.html.tera");

/// Widest format or layout drawn as a bit diagram; wider ones get only the table.
const MAX_DIAGRAM_BITS: u32 = 1 << 14;
/// Bits per line of a bit diagram (one 32-bit word, as the reference documents draw them).
const DIAGRAM_ROW_BITS: u32 = 32;
/// Match patterns shown per format before "and N more".
const MAX_PATTERNS: usize = 16;
/// Deepest nesting of layouts expanded in a flattened table (guards against cycles too).
const MAX_NESTING: usize = 8;

/// The target's documentation as Markdown.
pub fn markdown(t: &ir::Target) -> String {
    let mut text = render("docs.md", MARKDOWN_TEMPLATE, t);
    text.truncate(text.trim_end().len());
    text.push('\n');
    text
}

/// The target's documentation as a standalone HTML page.
pub fn html(t: &ir::Target) -> String {
    render("docs.html", HTML_TEMPLATE, t)
}

/// Renders one template over the target's model; a failure becomes the returned text.
fn render(name: &str, source: &str, t: &ir::Target) -> String {
    let mut tera = Tera::default();
    tera.register_filter("md", |v: &Value, _: &HashMap<String, Value>| {
        Ok(Value::String(md_inline(&value_text(v))))
    });
    tera.register_filter("md_block", |v: &Value, _: &HashMap<String, Value>| {
        Ok(Value::String(md_block(&value_text(v))))
    });
    tera.register_filter("html", |v: &Value, _: &HashMap<String, Value>| {
        Ok(Value::String(html_inline(&value_text(v))))
    });
    tera.register_filter("html_block", |v: &Value, _: &HashMap<String, Value>| {
        Ok(Value::String(html_block(&value_text(v))))
    });
    if let Err(e) = tera.add_raw_template(name, source) {
        return error_text(&e);
    }
    let context = match Context::from_value(Model::new(t).target()) {
        Ok(c) => c,
        Err(e) => return error_text(&e),
    };
    tera.render(name, &context).unwrap_or_else(|e| error_text(&e))
}

/// A tera error with its causes (tera puts the useful part in the source chain).
fn error_text(e: &tera::Error) -> String {
    let mut text = format!("error: documentation template: {e}");
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        text.push_str(&format!("\n  caused by: {c}"));
        cause = c.source();
    }
    text.push('\n');
    text
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

// ---- The model ---------------------------------------------------------------------------------

/// Builds a JSON object from (key, value) pairs, keeping their order.
fn obj<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert(k.to_string(), v);
    }
    Value::Object(m)
}

fn s(text: impl Into<String>) -> Value {
    Value::String(text.into())
}

fn list(items: Vec<Value>) -> Value {
    Value::Array(items)
}

/// One part of a type cell: text, linked to an anchor when it names a table of the document.
fn type_part(text: impl Into<String>, anchor: Option<String>) -> Value {
    obj([("text", s(text)), ("anchor", s(anchor.unwrap_or_default()))])
}

/// Who owns one bit of a format or layout, for the bit diagrams.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// No field, no `unused`: the spec says nothing about the bit.
    Undeclared,
    /// Declared don't-care.
    Unused,
    /// Piece `1` of field `0`.
    Field(usize, usize),
}

struct Model<'a> {
    t: &'a ir::Target,
    enum_anchors: Vec<String>,
    number_anchors: Vec<String>,
    layout_anchors: Vec<String>,
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
        let enum_anchors = t.enums.iter().map(|e| anchor("enum", &e.name)).collect();
        let number_anchors = t.numbers.iter().map(|n| anchor("number", &n.name)).collect();
        Model { t, enum_anchors, number_anchors, layout_anchors, format_anchors }
    }

    fn target(&self) -> Value {
        let t = self.t;
        let dialects = t
            .dialects
            .iter()
            .enumerate()
            .map(|(i, d)| {
                obj([
                    ("name", s(&d.name)),
                    ("default", Value::Bool(i == 0)),
                    (
                        "comments",
                        s(if d.comments.is_empty() {
                            "—".to_string()
                        } else {
                            d.comments.iter().map(|c| code(c)).collect::<Vec<_>>().join(", ")
                        }),
                    ),
                    ("case", s(if d.ignore_case { "ignored" } else { "significant" })),
                    ("raw", s(d.raw.as_deref().map_or("—".to_string(), code))),
                ])
            })
            .collect();
        obj([
            ("name", s(&t.name)),
            ("title", s(&t.title)),
            ("doc", s(&t.doc)),
            ("word_bits", Value::from(t.word_bits)),
            ("byte_order", s(if t.little_endian { "little-endian" } else { "big-endian" })),
            ("dialects", list(dialects)),
            ("dialect_names", list(t.dialects.iter().map(|d| s(&d.name)).collect())),
            ("formats", list((0..t.formats.len()).map(|i| self.format(i)).collect())),
            ("schedule", self.schedule()),
            ("layouts", list((0..t.layouts.len()).map(|i| self.layout(i)).collect())),
            ("enums", list((0..t.enums.len()).map(|i| self.enumeration(i)).collect())),
            ("numbers", list((0..t.numbers.len()).map(|i| self.number(i)).collect())),
            ("properties", list(self.properties())),
            ("rules", list(self.rules())),
            ("machine", self.machine()),
        ])
    }

    // ---- Formats -------------------------------------------------------------------------------

    fn format(&self, i: usize) -> Value {
        self.format_of(&self.t.formats[i], &self.format_anchors[i])
    }

    /// The scheduling control word: its grouping and its slot's table (or nothing).
    fn schedule(&self) -> Value {
        let Some(sch) = &self.t.schedule else { return s("") };
        obj([
            ("slots", Value::from(sch.slots)),
            ("width", Value::from(sch.slot.width)),
            ("last", Value::from(sch.slot.width * sch.slots)),
            ("pad", s(format!("{:#x}", sch.pad))),
            ("default", s(format!("{:#x}", placement::default_slot(sch)))),
            ("slot", self.format_of(&sch.slot, &format!("slot-{}", slug(&sch.slot.name)))),
        ])
    }

    fn format_of(&self, f: &ir::Format, anchor: &str) -> Value {
        let width = f.width;
        let owners = owners(width, &f.fields, &f.unused);
        let rows = f.fields.iter().map(|x| self.field_row(x, &f.fields, None)).collect();
        let constraints = f
            .constraints
            .iter()
            .map(|c| obj([("name", s(&c.name)), ("message", s(constraint_text(c)))]))
            .collect();
        let properties = f
            .properties
            .iter()
            .filter_map(|(p, _)| self.t.properties.get(p.0))
            .map(|p| code(&p.name))
            .collect::<Vec<_>>()
            .join(", ");
        let patterns: Vec<Value> = if width <= 128 {
            f.pattern.iter().take(MAX_PATTERNS).map(|&(m, v)| s(pattern_text(width, m, v))).collect()
        } else {
            Vec::new()
        };
        obj([
            ("name", s(&f.name)),
            ("anchor", s(anchor)),
            ("doc", s(&f.doc)),
            ("width", Value::from(width)),
            ("patterns", list(patterns)),
            ("more_patterns", Value::from(f.pattern.len().saturating_sub(MAX_PATTERNS))),
            ("diagram", s(diagram(width, &f.fields, owners.as_deref()))),
            ("rows", list(rows)),
            ("dont_care", s(pieces_text(&f.unused))),
            ("undeclared", s(undeclared_text(owners.as_deref()))),
            ("constraints", list(constraints)),
            ("properties", s(properties)),
        ])
    }

    // ---- Layouts -------------------------------------------------------------------------------

    fn layout(&self, i: usize) -> Value {
        let l = &self.t.layouts[i];
        let owners = owners(l.width, &l.fields, &l.unused);
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
                    Some(obj([
                        ("value", s(self.value_name(&u.tag_ty, *v))),
                        ("layout", s(&a.name)),
                        ("anchor", s(&self.layout_anchors[arm.0])),
                    ]))
                })
                .collect()
        });
        let constraints = l
            .constraints
            .iter()
            .map(|c| {
                obj([
                    ("name", s(&c.name)),
                    ("message", s(constraint_text(c))),
                    ("reads", s(c.reads.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", "))),
                    ("doc", s(&c.doc)),
                ])
            })
            .collect();
        let mut flat = Vec::new();
        let has_nested = l.fields.iter().any(|f| matches!(f.ty, Type::Layout(_)));
        if has_nested {
            let mut stack = vec![i];
            self.flatten(i, &[Piece { lo: 0, width: l.width }], "", &[], &mut stack, &mut flat);
        }
        let nested_in = self.nested_in(i);
        obj([
            ("name", s(&l.name)),
            ("anchor", s(&self.layout_anchors[i])),
            ("doc", s(&l.doc)),
            ("width", Value::from(l.width)),
            ("size", s(size_text(l.width))),
            // A union's bits are its arms'.
            (
                "diagram",
                s(if l.union.is_some() {
                    String::new()
                } else {
                    diagram(l.width, &l.fields, owners.as_deref())
                }),
            ),
            ("rows", list(rows)),
            ("dont_care", s(pieces_text(&l.unused))),
            (
                "undeclared",
                s(if l.union.is_some() { String::new() } else { undeclared_text(owners.as_deref()) }),
            ),
            ("flat", list(flat)),
            ("nested_in", list(nested_in)),
            ("union", list(union)),
            ("union_tag", s(l.union.as_ref().map_or("", |u| u.tag.as_str()))),
            ("constraints", list(constraints)),
        ])
    }

    /// One row of a data layout's table, in the shape of the hardware documents' tables:
    /// name (with its element count), total bit width, type, bits and 32-bit word.
    fn layout_row(&self, f: &Field, siblings: &[Field]) -> Value {
        let count = f.array.as_ref().map_or(1, |a| a.0);
        let name = if f.array.is_some() { format!("{}[{count}]", f.name) } else { f.name.clone() };
        let (lo, hi) = span_of(f);
        let bits = if f.array.is_some() {
            format!(
                "{} (element i: {})",
                range_text(lo, hi.saturating_sub(lo).saturating_add(1)),
                field_bits_text(f)
            )
        } else {
            field_bits_text(f)
        };
        let kind = match f.ty {
            Type::Layout(_) => "struct ",
            Type::Enum(_) => "enum ",
            Type::Bool | Type::UInt(_) | Type::SInt(_) | Type::Number(_) | Type::Switch { .. } => "",
        };
        let mut ty = vec![type_part(kind, None)];
        if let Value::Array(parts) = self.type_cell(&f.ty, siblings) {
            ty.extend(parts);
        }
        obj([
            ("field", s(name)),
            ("bit_width", s((u64::from(f.width()) * u64::from(count)).to_string())),
            ("ty", list(ty)),
            ("bits", s(bits)),
            ("word", s(words_text(lo, hi))),
            ("value", s(self.value_notes(f, siblings))),
            ("doc", s(&f.doc)),
            ("view", Value::Bool(f.view)),
        ])
    }

    /// Where layout `id` is nested: one entry per parent field.
    fn nested_in(&self, id: usize) -> Vec<Value> {
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
                let at = offset_text(lowest_bit(&f.pieces), &array_terms(f, "i"));
                out.push(obj([
                    ("parent", s(&parent.name)),
                    ("anchor", s(&self.layout_anchors[pi])),
                    ("field", s(&f.name)),
                    ("offset", s(at)),
                    ("word", s(word_text(f))),
                ]));
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
        out: &mut Vec<Value>,
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
                terms.extend(array_terms(f, var));
            }
            // Each piece on its own, so the table lists the spec's pieces.
            let pieces: Vec<Piece> = f.pieces.iter().flat_map(|p| placement::sub_pieces(at, &[*p])).collect();
            let lo = lowest_bit(&pieces);
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
                _ => {
                    let bits = pieces_text(&pieces);
                    let last = pieces
                        .iter()
                        .map(|p| u64::from(p.lo) + u64::from(p.width.max(1)) - 1)
                        .max()
                        .unwrap_or(lo);
                    let word = if lo / 32 == last / 32 {
                        format!("{}", lo / 32)
                    } else {
                        format!("{}-{}", lo / 32, last / 32)
                    };
                    out.push(obj([
                        ("path", s(path)),
                        ("bits", s(bits)),
                        ("offset", s(offset_text(lo, &terms))),
                        ("word", s(word)),
                        ("width", s(width_text(f))),
                        ("ty", self.type_cell(&f.ty, &l.fields)),
                        ("doc", s(&f.doc)),
                    ]));
                }
            }
        }
    }

    // ---- Fields --------------------------------------------------------------------------------

    /// One row of a bit-layout table. `layout_base` is set for data layouts, which also show
    /// each field's offset and 32-bit word.
    fn field_row(&self, f: &Field, siblings: &[Field], layout_base: Option<u64>) -> Value {
        let name = match &f.array {
            Some((n, _)) => format!("{}[0..{n}]", f.name),
            None => f.name.clone(),
        };
        let mut row = Map::new();
        row.insert("field".into(), s(name));
        row.insert("bits".into(), s(field_bits_text(f)));
        row.insert("width".into(), s(width_text(f)));
        row.insert("ty".into(), self.type_cell(&f.ty, siblings));
        row.insert("value".into(), s(self.value_notes(f, siblings)));
        row.insert("doc".into(), s(&f.doc));
        row.insert("view".into(), Value::Bool(f.view));
        if let Some(base) = layout_base {
            let lo = base.saturating_add(lowest_bit(&f.pieces));
            row.insert("offset".into(), s(offset_text(lo, &array_terms(f, "i"))));
            row.insert("word".into(), s(word_text(f)));
        }
        Value::Object(row)
    }

    /// The Type cell: the type's name, linked to its table.
    fn type_cell(&self, ty: &Type, siblings: &[Field]) -> Value {
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
                list(parts)
            }
            other => list(vec![self.simple_type(other)]),
        }
    }

    fn simple_type(&self, ty: &Type) -> Value {
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
                .map(|p| range_text(u64::from(p.lo), u64::from(p.width)))
                .collect::<Vec<_>>()
                .join(", ");
            notes.push(format!("{n} elements; element 0 at {first}; stride {strides}"));
        }
        if f.view {
            notes.push("view (read-only; the bits belong to other fields)".into());
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

    fn enumeration(&self, i: usize) -> Value {
        let t = self.t;
        let e = &t.enums[i];
        let has_sem = e.signature.is_some() || e.variants.iter().any(|v| v.semantics.is_some());
        let rows = e
            .variants
            .iter()
            .map(|v| {
                let value = match v.values {
                    Values::One(x) => x.to_string(),
                    Values::Range(lo, hi) => format!("{lo}..={hi}"),
                    Values::Rest => "other".to_string(),
                };
                let spellings = (0..t.dialects.len())
                    .map(|d| s(spellings_text(v.spellings.get(d).map_or(&[], |x| x))))
                    .collect();
                obj([
                    ("value", s(value)),
                    ("name", s(&v.name)),
                    ("spellings", list(spellings)),
                    ("sem", s(if v.semantics.is_some() { "yes" } else { "" })),
                    ("doc", s(&v.doc)),
                ])
            })
            .collect();
        let signature = e.signature.as_ref().map(|(params, ret)| {
            let params = params
                .iter()
                .map(|(n, ty)| format!("{n}: {}", scalar_name(*ty)))
                .collect::<Vec<_>>()
                .join(", ");
            match ret {
                Some(r) => code(&format!("({params}) -> {}", scalar_name(*r))),
                None => code(&format!("({params})")),
            }
        });
        let else_notes = e
            .else_spellings
            .iter()
            .enumerate()
            .filter_map(|(d, x)| {
                let text = x.as_ref()?;
                let dialect = t.dialects.get(d).map_or("?", |x| x.name.as_str());
                Some(s(format!("{} in {dialect}", code(text))))
            })
            .collect();
        obj([
            ("name", s(&e.name)),
            ("anchor", s(&self.enum_anchors[i])),
            ("doc", s(&e.doc)),
            ("width", Value::from(e.width)),
            ("signature", s(signature.unwrap_or_default())),
            ("has_sem", Value::Bool(has_sem)),
            ("rows", list(rows)),
            ("undefined", s(undefined_values(e))),
            ("else_notes", list(else_notes)),
        ])
    }

    // ---- Number formats, properties, rules, machine --------------------------------------------

    fn number(&self, i: usize) -> Value {
        let n = &self.t.numbers[i];
        let (kind, shape) = match n.kind {
            ir::NumberKind::Float { sign, exponent, mantissa, bias, specials } => (
                "float",
                format!(
                    "sign {sign}, exponent {exponent}, mantissa {mantissa}, bias {bias}{}",
                    if specials { "; all-ones exponent is infinity/NaN" } else { "" }
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
        obj([
            ("name", s(&n.name)),
            ("anchor", s(&self.number_anchors[i])),
            ("doc", s(&n.doc)),
            ("kind", s(kind)),
            ("width", Value::from(n.kind.width())),
            ("shape", s(shape)),
        ])
    }

    fn properties(&self) -> Vec<Value> {
        let t = self.t;
        t.properties
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let defined_by = t
                    .formats
                    .iter()
                    .zip(&self.format_anchors)
                    .filter(|(f, _)| f.properties.iter().any(|(x, _)| x.0 == i))
                    .map(|(f, a)| obj([("name", s(&f.name)), ("anchor", s(a))]))
                    .collect();
                let default = if p.is_bool { (p.default != 0).to_string() } else { p.default.to_string() };
                obj([
                    ("name", s(&p.name)),
                    ("ty", s(if p.is_bool { "bool" } else { "int" })),
                    ("default", s(default)),
                    ("defined_by", list(defined_by)),
                    ("doc", s(&p.doc)),
                ])
            })
            .collect()
    }

    fn rules(&self) -> Vec<Value> {
        self.t
            .rules
            .iter()
            .map(|r| obj([("name", s(&r.name)), ("message", s(&r.message)), ("doc", s(&r.doc))]))
            .collect()
    }

    fn machine(&self) -> Value {
        let Some(m) = &self.t.semantics else {
            return Value::Null;
        };
        let signature = |params: &[(String, ir::ScalarType)], ret: Option<ir::ScalarType>| {
            let params = params
                .iter()
                .map(|(n, ty)| format!("{n}: {}", scalar_name(*ty)))
                .collect::<Vec<_>>()
                .join(", ");
            code(&match ret {
                Some(r) => format!("({params}) -> {}", scalar_name(r)),
                None => format!("({params})"),
            })
        };
        let state = m
            .state
            .iter()
            .map(|(name, doc, count, ty)| {
                let ty = match count {
                    Some(n) => format!("{}[{n}]", scalar_name(*ty)),
                    None => scalar_name(*ty).to_string(),
                };
                obj([("name", s(name)), ("ty", s(ty)), ("doc", s(doc))])
            })
            .collect();
        let functions = m
            .functions
            .iter()
            .map(|f| {
                obj([("name", s(&f.name)), ("signature", s(signature(&f.params, f.ret))), ("doc", s(&f.doc))])
            })
            .collect();
        let hooks = m
            .hooks
            .iter()
            .map(|h| {
                obj([("name", s(&h.name)), ("signature", s(signature(&h.params, h.ret))), ("doc", s(&h.doc))])
            })
            .collect();
        obj([("state", list(state)), ("functions", list(functions)), ("hooks", list(hooks))])
    }
}

// ---- Text of cells ---------------------------------------------------------------------------------

/// GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens.
fn slug(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c == ' ' {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A Markdown code span holding `text` exactly (a longer fence when it contains backticks).
fn code(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    if longest > 0 || (text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty()) {
        format!("{fence} {text} {fence}")
    } else if text.is_empty() {
        // An empty spelling: the spec writes it `""`.
        "`\"\"`".to_string()
    } else {
        format!("{fence}{text}{fence}")
    }
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

/// `hi:lo`, or the bit alone for one bit.
fn range_text(lo: u64, width: u64) -> String {
    if width <= 1 {
        lo.to_string()
    } else {
        format!("{}:{lo}", lo.saturating_add(width - 1))
    }
}

fn pieces_text(pieces: &[Piece]) -> String {
    pieces.iter().map(|p| range_text(u64::from(p.lo), u64::from(p.width))).collect::<Vec<_>>().join(", ")
}

/// A bit position of element `i`: `16+i`, `i`, `32+8i`.
fn indexed_bit(bit: u64, stride: i64) -> String {
    let term = match stride {
        1 => "i".to_string(),
        -1 => "-i".to_string(),
        s => format!("{s}i"),
    };
    match (bit, stride) {
        (_, 0) => bit.to_string(),
        (0, _) => term,
        (_, s) if s < 0 => format!("{bit}{term}"),
        _ => format!("{bit}+{term}"),
    }
}

/// The Bits cell: pieces most significant first; array pieces as functions of the index `i`.
fn field_bits_text(f: &Field) -> String {
    placement::runs(f)
        .iter()
        .map(|r| {
            let (lo, stride) = (u64::from(r.lo), r.stride);
            if stride == 0 {
                range_text(lo, u64::from(r.width))
            } else if r.width <= 1 {
                indexed_bit(lo, stride)
            } else {
                format!("{}:{}", indexed_bit(lo + u64::from(r.width) - 1, stride), indexed_bit(lo, stride))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn width_text(f: &Field) -> String {
    match &f.array {
        Some((n, _)) => format!("{n} × {}", f.width()),
        None => f.width().to_string(),
    }
}

fn lowest_bit(pieces: &[Piece]) -> u64 {
    pieces.iter().map(|p| u64::from(p.lo)).min().unwrap_or(0)
}

/// The (stride, index) terms of an array field, for offsets: the stride of its lowest piece.
fn array_terms(f: &Field, var: &str) -> Vec<(i64, String)> {
    match placement::runs(f).iter().min_by_key(|r| r.lo) {
        Some(r) if r.stride != 0 => vec![(r.stride, var.to_string())],
        _ => Vec::new(),
    }
}

/// `64`, or `64 + 8i + 2j` inside arrays.
fn offset_text(lo: u64, terms: &[(i64, String)]) -> String {
    let mut text = lo.to_string();
    for (stride, var) in terms {
        if *stride < 0 {
            text.push_str(&format!(" - {}{var}", stride.unsigned_abs()));
        } else {
            text.push_str(&format!(" + {stride}{var}"));
        }
    }
    text
}

/// The 32-bit word(s) of element 0 of a field: `2`, or `2-3` when it straddles words.
fn word_text(f: &Field) -> String {
    let lo = lowest_bit(&f.pieces);
    let hi = f.pieces.iter().map(|p| u64::from(p.lo) + u64::from(p.width.max(1)) - 1).max().unwrap_or(lo);
    if lo / 32 == hi / 32 {
        format!("{}", lo / 32)
    } else {
        format!("{}-{}", lo / 32, hi / 32)
    }
}

/// A constraint's text, marked when breaking it is only a warning.
fn constraint_text(c: &ir::Constraint) -> String {
    if c.warning {
        format!("warning: {}", c.message)
    } else {
        c.message.clone()
    }
}

/// A reserved row of a data layout's table.
fn reserved_row(r: &ir::Reserved) -> Value {
    let lo = lowest_bit(&r.pieces);
    let hi = r.pieces.iter().map(|p| u64::from(p.lo) + u64::from(p.width.max(1)) - 1).max().unwrap_or(lo);
    let width: u64 = r.pieces.iter().map(|p| u64::from(p.width)).sum();
    obj([
        ("field", s(r.name.as_deref().unwrap_or("reserved"))),
        ("bit_width", s(width.to_string())),
        ("ty", list(vec![type_part("-", None)])),
        ("bits", s(pieces_text(&r.pieces))),
        ("word", s(words_text(lo, hi))),
        ("value", s("")),
        ("doc", s(&r.doc)),
        ("view", Value::Bool(false)),
    ])
}

/// Lowest and highest bit of a field, over all its array elements.
fn span_of(f: &Field) -> (u64, u64) {
    let (lo, end) = placement::span(f);
    let hi = end.saturating_sub(1);
    (lo.min(hi), hi)
}

/// `2`, or `2-5` for bits spanning words.
fn words_text(lo: u64, hi: u64) -> String {
    if lo / 32 == hi / 32 {
        format!("{}", lo / 32)
    } else {
        format!("{}-{}", lo / 32, hi / 32)
    }
}

/// Who owns each bit (index = bit number), or `None` when too wide to draw.
fn owners(width: u32, fields: &[Field], unused: &[Piece]) -> Option<Vec<Owner>> {
    if width == 0 || width > MAX_DIAGRAM_BITS {
        return None;
    }
    let mut owners = vec![Owner::Undeclared; width as usize];
    let mut mark = |lo: u64, w: u64, o: Owner| {
        for b in lo..lo.saturating_add(w).min(u64::from(width)) {
            owners[b as usize] = o;
        }
    };
    for p in unused {
        mark(u64::from(p.lo), u64::from(p.width), Owner::Unused);
    }
    for (fi, f) in fields.iter().enumerate().filter(|(_, f)| !f.view) {
        for i in 0..placement::element_count(f) {
            for (k, p) in placement::element_pieces(f, i).into_iter().enumerate() {
                mark(u64::from(p.lo), u64::from(p.width), Owner::Field(fi, k));
            }
        }
    }
    Some(owners)
}

fn undeclared_text(owners: Option<&[Owner]>) -> String {
    let Some(owners) = owners else {
        return String::new();
    };
    let mut ranges = Vec::new();
    let mut b = owners.len();
    while b > 0 {
        b -= 1;
        if owners[b] != Owner::Undeclared {
            continue;
        }
        let hi = b;
        while b > 0 && owners[b - 1] == Owner::Undeclared {
            b -= 1;
        }
        ranges.push(range_text(b as u64, (hi - b + 1) as u64));
    }
    ranges.join(", ")
}

/// A box diagram of the bits, most significant first, one 32-bit word per line; a run of bits
/// of one field piece is one box (`unused`: don't-care, `?`: undeclared):
///
/// ```text
///  63 60 59    57  56  55  52
/// +-----+--------+----+------+
/// | sig | unpack | pm | pack |
/// +-----+--------+----+------+
/// ```
fn diagram(width: u32, fields: &[Field], owners: Option<&[Owner]>) -> String {
    let Some(owners) = owners else {
        return String::new();
    };
    let mut out = String::new();
    let mut row_hi = width;
    while row_hi > 0 {
        let row_lo = row_hi.saturating_sub(DIAGRAM_ROW_BITS);
        // Segments of this row: (hi, lo, label).
        let mut segments: Vec<(u32, u32, String)> = Vec::new();
        let mut b = row_hi;
        while b > row_lo {
            b -= 1;
            let owner = owners[b as usize];
            let hi = b;
            while b > row_lo && owners[(b - 1) as usize] == owner {
                b -= 1;
            }
            let label = match owner {
                Owner::Undeclared => "?".to_string(),
                Owner::Unused => "unused".to_string(),
                Owner::Field(fi, _) => fields.get(fi).map_or("?".into(), |f| f.name.clone()),
            };
            segments.push((hi, b, label));
        }
        let mut numbers = String::new();
        let mut border = String::from("+");
        let mut labels = String::from("|");
        for (hi, lo, label) in &segments {
            let (hi_text, lo_text) = (hi.to_string(), lo.to_string());
            let nums_len = if hi == lo { hi_text.len() } else { hi_text.len() + 1 + lo_text.len() };
            let w = (label.chars().count() + 2).max(nums_len);
            numbers.push(' ');
            if hi == lo {
                numbers.push_str(&format!("{hi_text:^w$}"));
            } else {
                let gap = w - hi_text.len() - lo_text.len();
                numbers.push_str(&hi_text);
                numbers.push_str(&" ".repeat(gap));
                numbers.push_str(&lo_text);
            }
            border.push_str(&"-".repeat(w));
            border.push('+');
            labels.push_str(&format!("{label:^w$}"));
            labels.push('|');
        }
        out.push_str(numbers.trim_end());
        out.push('\n');
        out.push_str(&border);
        out.push('\n');
        out.push_str(&labels);
        out.push('\n');
        out.push_str(&border);
        out.push('\n');
        row_hi = row_lo;
    }
    out
}

/// A match pattern as bits from the most significant: `0`/`1` fixed, `x` any; nibbles spaced.
fn pattern_text(width: u32, mask: u128, value: u128) -> String {
    let mut text = String::new();
    for b in (0..width.min(128)).rev() {
        let bit = 1u128 << b;
        text.push(if mask & bit == 0 {
            'x'
        } else if value & bit != 0 {
            '1'
        } else {
            '0'
        });
        if b % 4 == 0 && b > 0 {
            text.push(' ');
        }
    }
    text
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

// ---- Escaping --------------------------------------------------------------------------------------

/// Doc-comment text split into plain text and `code` spans (CommonMark fences: a run of N
/// backticks closes at the next run of exactly N; an unclosed run is plain text).
enum Span<'a> {
    Text(&'a str),
    Code(&'a str),
}

fn spans(text: &str) -> Vec<Span<'_>> {
    let bytes = text.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        // Find the closing run of exactly n backticks.
        let mut j = i + n;
        let mut close = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                if start < i {
                    out.push(Span::Text(&text[start..i]));
                }
                out.push(Span::Code(&text[i..j + n]));
                i = j + n;
                start = i;
            }
            None => i += n,
        }
    }
    if start < text.len() {
        out.push(Span::Text(&text[start..]));
    }
    out
}

/// Markdown for one table cell: one line, `|` escaped (also in code spans, as GitHub tables
/// need), `<` outside code spans so no text is taken for an HTML tag.
fn md_inline(text: &str) -> String {
    let one_line = text.replace("\r\n", " ").replace(['\n', '\r'], " ");
    md_escape(&one_line, true)
}

/// Markdown for a paragraph of doc text: the lines kept, `<` escaped outside code spans.
fn md_block(text: &str) -> String {
    md_escape(text, false)
}

fn md_escape(text: &str, in_table: bool) -> String {
    let mut out = String::new();
    for span in spans(text) {
        match span {
            Span::Code(c) if in_table => out.push_str(&c.replace('|', "\\|")),
            Span::Code(c) => out.push_str(c),
            Span::Text(t) => {
                for ch in t.chars() {
                    match ch {
                        '|' if in_table => out.push_str("\\|"),
                        '<' => out.push_str("&lt;"),
                        _ => out.push(ch),
                    }
                }
            }
        }
    }
    out
}

/// HTML for a table cell: escaped, code spans as `<code>`.
fn html_inline(text: &str) -> String {
    let mut out = String::new();
    for span in spans(text) {
        match span {
            Span::Text(t) => out.push_str(&escape_html(t)),
            Span::Code(c) => {
                let inner = c.trim_matches('`');
                // CommonMark strips one space each side when both are there.
                let inner = match inner.strip_prefix(' ').and_then(|x| x.strip_suffix(' ')) {
                    Some(x) if !x.trim().is_empty() => x,
                    _ => inner,
                };
                out.push_str("<code>");
                out.push_str(&escape_html(inner));
                out.push_str("</code>");
            }
        }
    }
    out
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// HTML for doc text: paragraphs at blank lines.
fn html_block(text: &str) -> String {
    let mut out = String::new();
    for para in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
        out.push_str("<p>");
        out.push_str(&html_inline(para.trim()));
        out.push_str("</p>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vc4() -> ir::Target {
        let src = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../isa-specs/vc4.isa"));
        match crate::check_source(src) {
            Ok(t) => t,
            Err(d) => panic!("vc4.isa: {}", crate::diag::render("vc4.isa", src, &d)),
        }
    }

    /// The lines of the Markdown section that starts with `heading`, up to the next heading.
    fn section<'a>(doc: &'a str, heading: &str) -> Vec<&'a str> {
        let mut lines = doc.lines().skip_while(|l| *l != heading);
        let first = lines.next().unwrap_or_else(|| panic!("no section {heading}"));
        std::iter::once(first).chain(lines.take_while(|l| !l.starts_with('#'))).collect()
    }

    /// The cells of the table row whose first cell is `first`.
    fn row(lines: &[&str], first: &str) -> Vec<String> {
        let mut in_code = false;
        lines
            .iter()
            .filter(|l| {
                if l.starts_with("```") {
                    in_code = !in_code;
                }
                !in_code && l.starts_with('|')
            })
            .map(|l| {
                // Split at unescaped pipes.
                let mut cells = Vec::new();
                let mut cur = String::new();
                let mut prev = ' ';
                for c in l.chars() {
                    if c == '|' && prev != '\\' {
                        cells.push(cur.trim().to_string());
                        cur.clear();
                    } else {
                        cur.push(c);
                    }
                    prev = c;
                }
                cells[1..].to_vec()
            })
            .find(|cells| cells.first().map(String::as_str) == Some(first))
            .unwrap_or_else(|| panic!("no row {first} in\n{}", lines.join("\n")))
    }

    #[test]
    fn docs_vc4_alu_table() {
        let md = markdown(&vc4());
        let alu = section(&md, "### Format `alu`");
        let header = row(&alu, "Field");
        assert_eq!(header, ["Field", "Bits", "Width", "Type", "Value", "Description"]);
        let sig = row(&alu, "sig");
        assert_eq!(sig[1], "63:60");
        assert_eq!(sig[2], "4");
        assert_eq!(sig[3], "[Sig](#enum-sig)");
        assert_eq!(sig[4], "in bkpt..=loadam (0..=12)");
        let op_add = row(&alu, "op_add");
        assert_eq!(op_add[1], "28:24");
        assert_eq!(op_add[3], "[AddOp](#enum-addop)");
        assert_eq!(op_add[5], "Add-pipe operation.");
        let waddr_add = row(&alu, "waddr_add");
        assert_eq!(waddr_add[1], "43:38");
        assert_eq!(waddr_add[3], "u6");
        assert_eq!(waddr_add[4], "default 39");
        assert_eq!(row(&alu, "cond_add")[4], "default never (0)");
        let pack = row(&alu, "pack");
        assert_eq!(
            pack[3],
            "switch pm: false → [RegfilePack](#enum-regfilepack), true → [MulPack](#enum-mulpack)"
        );
        assert_eq!(row(&alu, "pm")[4], "selects the type of `pack`");
        // The diagram: the first word from sig down to waddr_mul, fields in order.
        let diagram = alu.join("\n");
        assert!(diagram.contains("| sig | unpack | pm | pack | cond_add |"), "{diagram}");
        assert!(diagram.contains("| mul_b |"), "{diagram}");
        // The patterns: sig 0..=12 is three cubes.
        assert!(diagram.contains("0xxx xxxx"), "{diagram}");
        assert!(diagram.contains("1100 xxxx"), "{diagram}");
        assert!(alu
            .iter()
            .any(|l| l.contains("`one_peripheral`") && l.contains("at most one closely coupled")));
    }

    #[test]
    fn docs_vc4_scattered_and_fixed_fields() {
        let md = markdown(&vc4());
        let f = section(&md, "### Format `load_imm_per_elem_signed`");
        let elements = row(&f, "elements[0..16]");
        assert_eq!(elements[1], "16+i, i");
        assert_eq!(elements[2], "16 × 2");
        assert_eq!(elements[3], "s2");
        assert_eq!(elements[4], "16 elements; element 0 at 16, 0; stride 1");
        let sig = row(&f, "sig");
        assert_eq!(sig[4], "is load_imm (14)");
        assert_eq!(row(&f, "mode")[4], "is 1");
        assert!(row(&f, "imm")[4].starts_with("view"));
        let text = f.join("\n");
        // Element i's high bit is at 16+i: the diagram shows two 16-bit runs of `elements`.
        assert!(text.contains(" 31      16 15       0\n"), "{text}");
        assert!(text.contains("| elements | elements |"), "{text}");

        let branch = section(&md, "### Format `branch`");
        assert!(branch.iter().any(|l| l.contains("Don't-care bits") && l.contains("59:56")));
    }

    #[test]
    fn docs_vc4_enum_tables() {
        let md = markdown(&vc4());
        let add = section(&md, "### Enum `AddOp`");
        assert_eq!(row(&add, "Value"), ["Value", "Name", "vc4asm", "mesa", "Semantics", "Description"]);
        let or = row(&add, "21");
        assert_eq!(or[1], "or");
        assert_eq!(or[4], "yes");
        assert_eq!(or[5], "Bitwise or.");
        assert_eq!(row(&add, "30")[2], "`av8adds`");
        assert_eq!(row(&add, "30")[4], "");
        let text = add.join("\n");
        assert!(text.contains("`(a: u32, b: u32) -> u32`"), "{text}");
        assert!(text.contains("9..=11, 25..=29"), "{text}");
        assert!(text.contains("printed as `???` in mesa"), "{text}");

        let sig = section(&md, "### Enum `Sig`");
        let small = row(&sig, "13");
        assert_eq!(small[1], "small_imm");
        assert_eq!(small[3], "`sig_small_imm`");
        assert_eq!(row(&sig, "0")[2], "`bkpt` (also `break`)");
        assert_eq!(row(&sig, "1")[3], "`\"\"`");

        let read_a = section(&md, "### Enum `ReadA`");
        assert_eq!(row(&read_a, "0..=31")[1], "ra");
        assert_eq!(row(&read_a, "0..=31")[2], "`ra{v}`");
        assert_eq!(row(&read_a, "33..=34")[3], "`???`");

        // `<` in a Markdown cell stays literal inside its code span.
        let imm = section(&md, "### Enum `SmallImm`");
        assert_eq!(row(&imm, "48..=63")[3], "`<bad imm {v}>`");
    }

    #[test]
    fn docs_vc4_header_properties_rules() {
        let t = vc4();
        let md = markdown(&t);
        assert!(md.starts_with("# Broadcom VideoCore IV QPU\n"), "{md}");
        assert!(md.contains("| Word size | 64 bits |"));
        assert!(md.contains("| Byte order | little-endian |"));
        assert!(md.contains("| vc4asm (default) | `#` |"));
        assert!(md.contains("- [`alu`](#format-alu)"));
        let props = section(&md, "## Properties");
        let p = row(&props, "`is_thread_end`");
        assert_eq!(p[1], "bool");
        assert_eq!(p[2], "false");
        assert_eq!(p[3], "[alu](#format-alu)");
        let rules = section(&md, "## Program rules");
        assert!(row(&rules, "`thread_end_physical`")[1]
            .contains("must not write to either physical register file"));
        // Deterministic.
        assert_eq!(md, markdown(&t));
    }

    #[test]
    fn docs_vc4_html() {
        let t = vc4();
        let page = html(&t);
        assert!(page.starts_with("<!doctype html>"), "{}", &page[..200.min(page.len())]);
        assert!(page.contains("<title>Broadcom VideoCore IV QPU</title>"));
        assert!(page.contains("<code>&lt;bad imm {v}&gt;</code>"));
        assert!(!page.contains("<bad imm"));
        assert!(page.contains(r#"<h3 id="enum-addop">"#));
        assert!(page.contains(r##"<a href="#enum-addop">AddOp</a>"##));
        assert!(page.contains("<td>63:60</td>"));
        assert!(page.trim_end().ends_with("</html>"));
        assert_eq!(page, html(&t));
    }

    const NESTED: &str = r#"
/// A test target.
target t {
    title "Test <target>"
    word 32
    byte_order big
    dialect d { comment ";" }
}

/// Two bytes.
enum Kind : u2 {
    /// First | kind.
    a = 0 "a|b"
    b = 1
}

/// 10-bit fixed point.
number fx10 = fixed(width: 10, fraction: 8, signed)
/// A small float.
number fp20 = float(sign: 1, exponent: 6, mantissa: 13, bias: 31)

/// A pair of bytes.
layout Pair : 16 {
    /// Low byte.
    lo: u8 @ 7:0
    /// High byte.
    hi: u8 @ 15:8
}

/// The header.
layout Header : 64 {
    /// Kind.
    kind: Kind @ 1:0
    unused @ 15:2
    /// One pair.
    first: Pair @ 31:16
    /// Two pairs.
    pairs[2]: Pair @ 32 + 16 * i +: 16
}
"#;

    #[test]
    fn docs_place_split_nested_layouts_and_descending_arrays() {
        let source = "target t {\n    word 32\n}\n\
            layout Pair : 16 {\n    lo: u8 @ 7:0\n    hi: u8 @ 15:8\n}\n\
            layout Split : 64 {\n    split: Pair @ [63:56, 7:0]\n    back[2]: Pair @ 40 - 16 * i +: 16\n}\n";
        let t = match crate::check_source(source) {
            Ok(t) => t,
            Err(d) => panic!("{}", crate::diag::render("split.isa", source, &d)),
        };
        let md = markdown(&t);
        let split = section(&md, "### Layout `Split`");
        // The pair's high byte is the split's first piece, its low byte the second.
        let hi = row(&split, "split.hi");
        assert_eq!(hi[1..4], ["63:56", "56", "1"]);
        let lo = row(&split, "split.lo");
        assert_eq!(lo[1..4], ["7:0", "0", "0"]);
        // Element i of `back` starts at bit 40 - 16i: element 1 at 39:24.
        let back = row(&split, "back[2]");
        assert_eq!(back[3], "55:24 (element i: 55-16i:40-16i)");
        assert_eq!(back[5], "2 elements; element 0 at 55:40; stride -16");
        let lo = row(&split, "back[i].lo");
        assert_eq!(lo[1..4], ["47:40", "40 - 16i", "1"]);
    }

    #[test]
    fn docs_nested_layout_offsets() {
        let t = match crate::check_source(NESTED) {
            Ok(t) => t,
            Err(d) => panic!("{}", crate::diag::render("nested.isa", NESTED, &d)),
        };
        let md = markdown(&t);
        let header = section(&md, "### Layout `Header`");
        assert_eq!(
            row(&header, "Field"),
            ["Field", "Bit width", "Type", "Bits", "Word", "Value", "Description"]
        );
        let first = row(&header, "first");
        assert_eq!(first[1], "16");
        assert_eq!(first[2], "struct [Pair](#layout-pair)");
        assert_eq!(first[3], "31:16");
        assert_eq!(first[4], "0");
        // An array: its name with the count, the total width, all its bits and words.
        let pairs = row(&header, "pairs[2]");
        assert_eq!(pairs[1], "32");
        assert_eq!(pairs[3], "63:32 (element i: 47+16i:32+16i)");
        assert_eq!(pairs[4], "1");
        assert_eq!(pairs[5], "2 elements; element 0 at 47:32; stride 16");
        // Reserved bits are rows too, as the documents list them.
        assert_eq!(row(&header, "reserved"), ["reserved", "14", "-", "15:2", "0", "", ""]);
        // Flattened: absolute offsets of the nested fields.
        let flat = row(&header, "first.hi");
        assert_eq!(flat[1], "31:24");
        assert_eq!(flat[2], "24");
        assert_eq!(flat[3], "0");
        let flat = row(&header, "pairs[i].hi");
        assert_eq!(flat[1], "47:40");
        assert_eq!(flat[2], "40 + 16i");
        assert_eq!(flat[3], "1");
        let text = header.join("\n");
        assert!(text.contains("Don't-care bits: 15:2"), "{text}");
        // The nested layout says where it is used.
        let pair = section(&md, "### Layout `Pair`");
        let text = pair.join("\n");
        assert!(text.contains("[Header](#layout-header)"), "{text}");
        assert!(text.contains("`pairs` at bit 32 + 16i"), "{text}");
        // Pipes are escaped in cells, `<` in prose.
        let kind = section(&md, "### Enum `Kind`");
        assert_eq!(row(&kind, "0")[2], r"`a\|b`");
        assert_eq!(row(&kind, "0")[3], r"First \| kind.");
        assert!(md.starts_with("# Test &lt;target>\n"), "{md}");
        // Number formats.
        let fx = section(&md, "### Number `fx10`");
        assert!(fx.join("\n").contains("width 10, fraction 8, signed (two's complement); 1.0 = `0x100`"));
        let page = html(&t);
        assert!(page.contains("<title>Test &lt;target&gt;</title>"));
        assert!(page.contains("<code>a|b</code>"));
    }

    #[test]
    fn docs_never_panic_on_odd_ir() {
        let mut t = vc4();
        // Dangling ids, a cycle of layouts and absurd positions must not panic.
        t.layouts.push(ir::Layout {
            name: "Loop".into(),
            doc: String::new(),
            width: 8,
            fields: vec![Field {
                name: "me".into(),
                doc: String::new(),
                ty: Type::Layout(ir::LayoutId(0)),
                pieces: vec![Piece { lo: 0, width: 8 }],
                array: Some((4096, vec![i64::MIN])),
                fixed: None,
                allowed: Some(vec![(5, 1)]),
                default: Some(u64::MAX),
                is_tag: true,
                view: false,
                span: t.formats[0].span,
            }],
            unused: vec![Piece { lo: u32::MAX, width: 64 }],
            reserved: vec![ir::Reserved {
                name: None,
                doc: String::new(),
                pieces: vec![Piece { lo: u32::MAX, width: 64 }],
                after: 99,
            }],
            union: Some(ir::Union {
                tag: "me.x".into(),
                tag_pieces: Vec::new(),
                tag_ty: Type::Enum(ir::EnumId(999)),
                arms: vec![(3, ir::LayoutId(77))],
            }),
            constraints: Vec::new(),
            leaves: Vec::new(),
        });
        if let Some(f) = t.formats.get_mut(0) {
            f.fields[0].ty = Type::Enum(ir::EnumId(999));
            f.fields[1].ty = Type::Switch { tag: 77, arms: vec![(1, Type::Number(ir::NumberId(3)))] };
        }
        t.enums[0].width = 40;
        t.enums[0].else_spellings = vec![None, None, Some("`x`".into())];
        let md = markdown(&t);
        assert!(md.contains("### Layout `Loop`"));
        let _ = html(&t);
    }
}

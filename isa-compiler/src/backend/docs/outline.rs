//! The document's outline: the view model laid out once as headings, paragraphs, tables and
//! lists, with every sentence of the documents' prose. `markdown` and `html` only write these
//! blocks in their syntax, so the two documents cannot drift apart.

use super::abi::AbiLayout;
use super::model::{Enum, FieldRow, Format, Layout, Streams, Target, TypePart};

/// A piece of text, escaped by each writer for its output.
pub(super) enum Span {
    /// Doc-comment text: Markdown's conventions with `code` spans.
    Doc(String),
    /// Literal text.
    Plain(String),
    /// Literal text in a code span.
    Code(String),
    /// An identifier in a table: code where the output styles it (HTML), plain in Markdown tables.
    Name(String),
    /// Strong emphasis of literal text.
    Strong(String),
    /// A link to a heading of the document.
    Link(Vec<Span>, String),
    /// A line break inside a table cell.
    Break,
}

/// Text: spans in order.
pub(super) type Text = Vec<Span>;

/// A table row; view rows (computed from other fields) are shown apart where the output can.
pub(super) struct Row {
    pub(super) view: bool,
    pub(super) cells: Vec<Text>,
}

/// One section of the contents: its title and anchor, and an entry per table in it.
pub(super) struct Section {
    pub(super) title: &'static str,
    pub(super) anchor: &'static str,
    pub(super) entries: Vec<(String, String)>,
}

pub(super) enum Block {
    /// A heading; Markdown finds its anchor by slug, HTML gives it as the id.
    Heading {
        level: u8,
        anchor: String,
        text: Text,
    },
    /// A paragraph; a note is secondary (greyed in HTML).
    Para {
        text: Text,
        note: bool,
    },
    /// A doc comment: paragraphs at blank lines, nothing when empty.
    Doc(String),
    /// Preformatted lines, nothing when empty.
    Pre(String),
    Table {
        head: Vec<Text>,
        rows: Vec<Row>,
    },
    List(Vec<Text>),
    /// The contents: sections with entries, then the sections without.
    Contents(Vec<Section>),
}

/// The document: its title, the spec's name, and the blocks after the title.
pub(super) struct Document {
    pub(super) title: String,
    pub(super) name: String,
    pub(super) blocks: Vec<Block>,
}

fn doc(s: &str) -> Span {
    Span::Doc(s.to_string())
}
fn plain(s: impl Into<String>) -> Span {
    Span::Plain(s.into())
}
fn code(s: &str) -> Span {
    Span::Code(s.to_string())
}
fn name(s: &str) -> Span {
    Span::Name(s.to_string())
}
fn link(label: Span, anchor: &str) -> Span {
    Span::Link(vec![label], anchor.to_string())
}

/// Spans with a separator between each two.
fn joined(items: impl Iterator<Item = Span>, separator: impl Fn() -> Span) -> Text {
    let mut text = Vec::new();
    for item in items {
        if !text.is_empty() {
            text.push(separator());
        }
        text.push(item);
    }
    text
}

/// Builds the blocks in document order.
struct Outline(Vec<Block>);

impl Outline {
    fn heading(&mut self, level: u8, anchor: &str, text: Text) {
        self.0.push(Block::Heading { level, anchor: anchor.to_string(), text });
    }
    fn para(&mut self, text: Text) {
        self.0.push(Block::Para { text, note: false });
    }
    fn note(&mut self, text: Text) {
        self.0.push(Block::Para { text, note: true });
    }
    fn doc(&mut self, text: &str) {
        if !text.is_empty() {
            self.0.push(Block::Doc(text.to_string()));
        }
    }
    fn pre(&mut self, text: String) {
        if !text.is_empty() {
            self.0.push(Block::Pre(text));
        }
    }
    fn table(&mut self, head: &[&str], rows: impl IntoIterator<Item = Vec<Text>>) {
        let rows = rows.into_iter().map(|cells| Row { view: false, cells }).collect();
        self.view_table(head, rows);
    }
    fn view_table(&mut self, head: &[&str], rows: Vec<Row>) {
        let head = head.iter().map(|h| vec![plain(*h)]).collect();
        self.0.push(Block::Table { head, rows });
    }
}

pub(super) fn document(t: &Target) -> Document {
    let mut o = Outline(Vec::new());
    o.doc(&t.doc);
    let facts = [
        ("Word size", format!("{} bits", t.word_bits)),
        ("Byte order", t.byte_order.to_string()),
        ("Encodings", t.formats.len().to_string()),
        ("Enums", t.enums.len().to_string()),
    ];
    o.0.push(Block::Table {
        head: vec![vec![plain("Target")], vec![code(&t.name)]],
        rows: facts
            .into_iter()
            .map(|(k, v)| Row { view: false, cells: vec![vec![plain(k)], vec![plain(v)]] })
            .collect(),
    });
    o.heading(2, "dialects", vec![plain("Dialects")]);
    o.para(vec![plain(
        "The first dialect is the default. In the enum tables, the first spelling of a value is the one\n\
         printed; the others are accepted by the assembler too.",
    )]);
    let dialects = t.dialects.iter().map(|d| {
        let default = if d.default { " (default)" } else { "" };
        vec![
            vec![plain(format!("{}{default}", d.name))],
            vec![doc(&d.comments)],
            vec![plain(d.case)],
            vec![doc(&d.raw)],
        ]
    });
    o.table(&["Dialect", "Comments", "Case", "Raw words"], dialects);
    o.0.push(Block::Contents(contents(t)));
    if !t.formats.is_empty() {
        o.heading(2, "instruction-encodings", vec![plain("Instruction encodings")]);
        o.para(vec![doc(&format!(
            "Bits are numbered from 0, the least significant bit of the {}-bit word. In the\n\
             patterns, `x` is a bit the encoding does not fix. In a syntax, `{{field}}` is where a\n\
             field's value is printed, `[...]` text printed only under a condition (brackets of\n\
             the instruction's own text aside) and `(a | b)` one of a template's forms.",
            t.word_bits
        ))]);
        summary(&mut o, t);
        for f in &t.formats {
            format(&mut o, f);
        }
    }
    streams(&mut o, t);
    if !t.layouts.is_empty() {
        o.heading(2, "data-layouts", vec![plain("Data layouts")]);
        o.para(vec![doc(
            "Offsets are in bits from the start of the layout; bit `b` is in 32-bit word `b / 32`.",
        )]);
        for l in &t.layouts {
            layout(&mut o, l);
        }
    }
    abi_layouts(&mut o, t);
    if !t.enums.is_empty() {
        o.heading(2, "enums", vec![plain("Enums")]);
        for e in &t.enums {
            enumeration(&mut o, t, e);
        }
    }
    if !t.numbers.is_empty() {
        o.heading(2, "number-formats", vec![plain("Number formats")]);
        for n in &t.numbers {
            o.heading(3, &n.anchor, vec![plain("Number "), code(&n.name)]);
            o.doc(&n.doc);
            let kind = if n.kind == "float" { "Floating point" } else { "Fixed point" };
            o.para(vec![plain(format!("{kind}, {} bits: ", n.width)), doc(&n.shape), plain(".")]);
        }
    }
    if !t.properties.is_empty() {
        o.heading(2, "properties", vec![plain("Properties")]);
        o.para(vec![plain(
            "Values each instruction has, read by the program rules; an encoding that does not set a\n\
             property has its default.",
        )]);
        let rows = t.properties.iter().map(|p| {
            let set_by = joined(p.defined_by.iter().map(|f| link(doc(&f.name), &f.anchor)), || plain(", "));
            vec![
                vec![code(&p.name)],
                vec![plain(p.ty)],
                vec![plain(p.default.as_str())],
                set_by,
                vec![doc(&p.doc)],
            ]
        });
        o.table(&["Property", "Type", "Default", "Set by", "Description"], rows);
    }
    if !t.rules.is_empty() {
        o.heading(2, "program-rules", vec![plain("Program rules")]);
        o.para(vec![doc(
            "Each rule reads the instructions around the one its outermost variable names; `isa validate`\n\
             holds only those, whatever the program's size (all of it for a rule that reads anywhere).",
        )]);
        let rows = t.rules.iter().map(|r| {
            vec![vec![code(&r.name)], vec![doc(&r.message)], vec![doc(&r.reads)], vec![doc(&r.doc)]]
        });
        o.table(&["Rule", "Statement", "Instructions read", "Description"], rows);
    }
    if let Some(m) = &t.machine {
        o.heading(2, "interpreter", vec![plain("Interpreter")]);
        if !m.state.is_empty() {
            o.heading(3, "machine-state", vec![plain("Machine state")]);
            let rows = m
                .state
                .iter()
                .map(|x| vec![vec![code(&x.name)], vec![plain(x.ty.as_str())], vec![doc(&x.doc)]]);
            o.table(&["State", "Type", "Description"], rows);
        }
        let callables = [
            (&m.functions, "functions", "Functions", "Function", None),
            (
                &m.hooks,
                "hooks",
                "Hooks",
                "Hook",
                Some("Escape hatches into Rust: the embedder implements these."),
            ),
        ];
        for (list, anchor, title, column, intro) in callables {
            if list.is_empty() {
                continue;
            }
            o.heading(3, anchor, vec![plain(title)]);
            if let Some(intro) = intro {
                o.para(vec![plain(intro)]);
            }
            let rows =
                list.iter().map(|x| vec![vec![code(&x.name)], vec![doc(&x.signature)], vec![doc(&x.doc)]]);
            o.table(&[column, "Signature", "Description"], rows);
        }
    }
    Document { title: t.title.clone(), name: t.name.clone(), blocks: o.0 }
}

/// The sections of the contents, in document order.
fn contents(t: &Target) -> Vec<Section> {
    let entries = |items: Vec<(&String, &String)>| -> Vec<(String, String)> {
        items.into_iter().map(|(n, a)| (n.clone(), a.clone())).collect()
    };
    let present = |yes: bool, title, anchor| yes.then_some(Section { title, anchor, entries: Vec::new() });
    let with = |title, anchor, entries: Vec<(String, String)>| {
        (!entries.is_empty()).then_some(Section { title, anchor, entries })
    };
    [
        with(
            "Instruction encodings",
            "instruction-encodings",
            entries(t.formats.iter().map(|f| (&f.name, &f.anchor)).collect()),
        ),
        with(
            "Data layouts",
            "data-layouts",
            entries(t.layouts.iter().map(|l| (&l.name, &l.anchor)).collect()),
        ),
        with(
            "ABI layouts",
            "abi-layouts",
            entries(t.abi_layouts.iter().map(|l| (&l.name, &l.anchor)).collect()),
        ),
        with("Enums", "enums", entries(t.enums.iter().map(|e| (&e.name, &e.anchor)).collect())),
        present(!t.numbers.is_empty(), "Number formats", "number-formats"),
        present(!t.properties.is_empty(), "Properties", "properties"),
        present(!t.rules.is_empty(), "Program rules", "program-rules"),
        present(t.machine.is_some(), "Interpreter", "interpreter"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Every encoding in one table: its fixed bits and its syntax in the default dialect.
fn summary(o: &mut Outline, t: &Target) {
    let dialect = t.dialect_names.first().map_or("", String::as_str);
    let rows = t.formats.iter().map(|f| {
        let arms = f.syntax.iter().find(|(d, _)| d == dialect).map_or(&[][..], |(_, arms)| arms);
        let syntax = joined(arms.iter().map(|a| code(a)), || Span::Break);
        let opcode = if f.opcode.is_empty() { Vec::new() } else { vec![code(&f.opcode)] };
        vec![vec![link(code(&f.name), &f.anchor)], opcode, syntax]
    });
    let syntax = format!("Syntax ({dialect})");
    o.table(&["Encoding", "Fixed bits (value/mask)", &syntax], rows);
}

fn format(o: &mut Outline, f: &Format) {
    o.heading(3, &f.anchor, vec![plain("Format "), code(&f.name)]);
    o.doc(&f.doc);
    if let Some((field, bits)) = &f.length {
        let each: Vec<String> = bits.iter().enumerate().map(|(v, b)| format!("{v}: {b} bits")).collect();
        o.para(vec![
            plain("Field "),
            code(field),
            plain(format!(
                " picks the length ({}); a shorter instruction reads the bits past its end as zero.",
                each.join(", ")
            )),
        ]);
    }
    if !f.patterns.is_empty() {
        o.para(vec![plain(format!("{}-bit encoding, matching (bit {} first):", f.width, f.width - 1))]);
        let mut lines: String = f.patterns.iter().map(|p| format!("{p}\n")).collect();
        if f.more_patterns > 0 {
            lines.push_str(&format!("... and {} more\n", f.more_patterns));
        }
        o.pre(lines);
    }
    for (dialect, arms) in &f.syntax {
        o.para(vec![plain(format!("Syntax ({dialect}):"))]);
        o.pre(arms.iter().map(|a| format!("{a}\n")).collect());
    }
    field_table(o, &f.diagram, &f.rows);
    if !f.dont_care.is_empty() {
        o.note(vec![plain(format!(
            "Don't-care bits: {} (ignored when decoding, zero when encoding).",
            f.dont_care
        ))]);
    }
    if !f.undeclared.is_empty() {
        o.note(vec![plain(format!("Bits no field declares: {}.", f.undeclared))]);
    }
    if !f.reserved.is_empty() {
        o.note(vec![
            plain("Reserved: "),
            doc(&f.reserved),
            plain(" (disassemblers print these words; the decoder reports no encoding)."),
        ]);
    }
    if !f.constraints.is_empty() {
        o.para(vec![Span::Strong("Constraints".to_string())]);
        let rows = f.constraints.iter().map(|c| vec![vec![code(&c.name)], vec![doc(&c.message)]]);
        o.table(&["Constraint", "Must hold"], rows);
    }
    if !f.properties.is_empty() {
        o.note(vec![plain("Properties set: "), doc(&f.properties), plain(".")]);
    }
}

/// An encoding's bit diagram and field table.
fn field_table(o: &mut Outline, diagram: &str, rows: &[FieldRow]) {
    o.pre(diagram.to_string());
    let rows = rows
        .iter()
        .map(|r| Row {
            view: r.view,
            cells: vec![
                vec![name(&r.field)],
                vec![plain(r.bits.as_str())],
                vec![plain(r.width.as_str())],
                type_cell(&r.ty),
                vec![doc(&r.value)],
                vec![doc(&r.doc)],
            ],
        })
        .collect();
    o.view_table(&["Field", "Bits", "Width", "Type", "Value", "Description"], rows);
}

fn streams(o: &mut Outline, t: &Target) {
    match &t.streams {
        Some(Streams::Bundled(b)) => {
            o.heading(2, "streams", vec![plain("Streams")]);
            o.para(vec![doc(&format!(
                "A program is {} word streams, written as bundles: each statement starts with {} and holds the units below, in this order, each unit's words going to its stream; a word no syntax shows is written as its 32-bit parts in hex. Header settings: {}.",
                b.streams.len(),
                b.keyword,
                b.header
            ))]);
            let cells = |row: &[String; 4]| row.iter().map(|c| vec![doc(c)]).collect::<Vec<_>>();
            o.table(&["Stream", "Bits", "Words", "Reset word"], b.streams.iter().map(cells));
            o.table(&["Unit", "Stream", "In a bundle", "Slots"], b.units.iter().map(cells));
        }
        Some(Streams::Interleaved(s)) => {
            o.heading(2, "streams", vec![plain("Streams")]);
            o.para(vec![doc(&format!(
                "One stream of control words, interleaved with the instructions: programs are groups of one control word and {} instructions. Slot `i` of the\n\
                 control word, bits `{w}i+{}:{w}i`,\n\
                 schedules the group's instruction `i`; bits from {} up are zero. The\n\
                 disassembler prints each instruction's slot before it; the assembler reads it there and gives an\n\
                 instruction without one the default slot {}. The last group is filled with\n\
                 {}.",
                s.slots,
                s.width - 1,
                s.last,
                super::render::code(&s.default),
                super::render::code(&s.pad),
                w = s.width,
            ))]);
            o.heading(3, &s.slot.anchor, vec![plain("Slot "), code(&s.slot.name)]);
            o.doc(&s.slot.doc);
            field_table(o, &s.slot.diagram, &s.slot.rows);
        }
        None => {}
    }
}

fn layout(o: &mut Outline, l: &Layout) {
    o.heading(3, &l.anchor, vec![plain("Layout "), code(&l.name)]);
    o.doc(&l.doc);
    o.para(vec![plain(format!("{}.", l.size))]);
    if !l.nested_in.is_empty() {
        o.para(vec![plain("Used in:")]);
        let items = l.nested_in.iter().map(|u| {
            vec![
                link(plain(u.parent.as_str()), &u.anchor),
                plain(" field "),
                code(&u.field),
                plain(format!(" at bit {} (word {})", u.offset, u.word)),
            ]
        });
        o.0.push(Block::List(items.collect()));
    }
    if !l.union.is_empty() {
        o.para(vec![plain("One of these layouts, chosen by "), code(&l.union_tag), plain(":")]);
        let items = l.union.iter().map(|u| {
            vec![
                code(&l.union_tag),
                plain(" = "),
                doc(&u.value),
                plain(": "),
                link(plain(u.layout.as_str()), &u.anchor),
            ]
        });
        o.0.push(Block::List(items.collect()));
    } else {
        o.pre(l.diagram.clone());
        let rows = l
            .rows
            .iter()
            .map(|r| Row {
                view: r.view,
                cells: vec![
                    vec![name(&r.field)],
                    vec![plain(r.bit_width.as_str())],
                    type_cell(&r.ty),
                    vec![plain(r.bits.as_str())],
                    vec![plain(r.word.as_str())],
                    vec![doc(&r.value)],
                    vec![doc(&r.doc)],
                ],
            })
            .collect();
        o.view_table(&["Field", "Bit width", "Type", "Bits", "Word", "Value", "Description"], rows);
    }
    if !l.constraints.is_empty() {
        o.para(vec![doc("Constraints (`check()`; each violation names the fields it reads):")]);
        let rows = l.constraints.iter().map(|c| {
            vec![vec![code(&c.name)], vec![doc(&c.message)], vec![doc(&c.reads)], vec![doc(&c.doc)]]
        });
        o.table(&["Constraint", "Rule", "Reads", "Note"], rows);
    }
    if !l.dont_care.is_empty() {
        o.note(vec![plain(format!("Don't-care bits: {}.", l.dont_care))]);
    }
    if !l.gaps.is_empty() {
        o.note(vec![doc(
            "Bits no field declares, kept as members of the layout's value (decoding reads them, \
             encoding writes them back, `validate` warns when they are not zero):",
        )]);
        let rows = l.gaps.iter().map(|g| {
            vec![
                vec![name(&g.member)],
                vec![plain(g.bit_width.as_str())],
                vec![plain(g.bits.as_str())],
                vec![plain(g.word.as_str())],
            ]
        });
        o.table(&["Reserved member", "Bit width", "Bits", "Word"], rows);
    }
    if !l.flat.is_empty() {
        o.para(vec![
            Span::Strong("Absolute offsets".to_string()),
            plain(", nested layouts expanded (for arrays: element 0, plus the stride per index):"),
        ]);
        let rows = l.flat.iter().map(|r| {
            vec![
                vec![name(&r.path)],
                vec![plain(r.bits.as_str())],
                vec![plain(r.offset.as_str())],
                vec![plain(r.word.as_str())],
                vec![plain(r.width.as_str())],
                type_cell(&r.ty),
                vec![doc(&r.doc)],
            ]
        });
        o.table(&["Path", "Bits", "Offset", "Word", "Width", "Type", "Description"], rows);
    }
}

/// The ABI layouts: units, then per layout its members as expressions and worked examples.
fn abi_layouts(o: &mut Outline, t: &Target) {
    if t.abi_layouts.is_empty() {
        return;
    }
    o.heading(2, "abi-layouts", vec![plain("ABI layouts")]);
    o.para(vec![doc(
        "Layouts placed from parameters: each member's position and length count the layout's unit\n\
         and are expressions of the parameters (`i` is an array element), checked for every parameter\n\
         value. A member with a condition is present only when it holds.",
    )]);
    if !t.units.is_empty() {
        let rows = t.units.iter().map(|u| {
            vec![vec![doc(&u.name)], vec![plain(u.bits.to_string())], vec![doc(&u.names)], vec![doc(&u.doc)]]
        });
        o.table(&["Unit", "Bits", "Register names", "Description"], rows);
    }
    for l in &t.abi_layouts {
        abi_layout(o, l);
    }
}

fn abi_layout(o: &mut Outline, l: &AbiLayout) {
    o.heading(3, &l.anchor, vec![plain("Layout "), code(&l.name)]);
    o.doc(&l.doc);
    o.para(vec![
        plain("Parameters: "),
        doc(&l.params),
        plain(". Size: "),
        doc(&l.size),
        plain(" "),
        doc(&l.unit),
        plain("."),
    ]);
    let rows = l.rows.iter().map(|r| {
        [&r.member, &r.ty, &r.position, &r.length, &r.when, &r.doc]
            .into_iter()
            .map(|c| vec![doc(c)])
            .collect()
    });
    o.table(&["Member", "Type", "Position", "Length", "Present when", "Description"], rows);
    for x in &l.examples {
        let values = if x.values.is_empty() { "Worked out".to_string() } else { format!("For {}", x.values) };
        o.para(vec![plain(format!("{values}: size ")), doc(&x.size), plain(".")]);
        let rows = x.rows.iter().map(|r| {
            vec![
                vec![doc(&r.member)],
                vec![doc(&r.place)],
                vec![plain(r.position.as_str())],
                vec![plain(r.bits.as_str())],
            ]
        });
        o.table(&["Member", "Registers", "Units", "Bits"], rows);
    }
}

fn enumeration(o: &mut Outline, t: &Target, e: &Enum) {
    o.heading(3, &e.anchor, vec![plain("Enum "), code(&e.name)]);
    o.doc(&e.doc);
    let mut intro = vec![plain(format!("{}-bit values.", e.width))];
    if !e.signature.is_empty() {
        intro.push(plain(" Operation "));
        intro.push(doc(&e.signature));
        intro.push(plain(": the Semantics column marks the values whose meaning the spec defines."));
    }
    o.para(intro);
    let mut head = vec!["Value", "Name"];
    head.extend(t.dialect_names.iter().map(String::as_str));
    if e.has_sem {
        head.push("Semantics");
    }
    head.push("Description");
    let rows = e.rows.iter().map(|r| {
        let mut cells = vec![vec![plain(r.value.as_str())], vec![name(&r.name)]];
        cells.extend(r.spellings.iter().map(|sp| vec![doc(sp)]));
        if e.has_sem {
            cells.push(vec![plain(r.sem)]);
        }
        cells.push(vec![doc(&r.doc)]);
        cells
    });
    o.table(&head, rows);
    if !e.undefined.is_empty() {
        o.note(vec![plain(format!("Undefined values: {}.", e.undefined))]);
    }
    if !e.else_notes.is_empty() {
        let mut text = vec![plain("Values no variant defines are printed as ")];
        text.extend(joined(e.else_notes.iter().map(|n| doc(n)), || plain("; ")));
        text.push(plain(" (never parsed)."));
        o.note(text);
    }
}

/// A type cell: each part as text, linked when it names a table of the document.
fn type_cell(parts: &[TypePart]) -> Text {
    parts
        .iter()
        .map(|p| {
            if p.anchor.is_empty() {
                plain(p.text.as_str())
            } else {
                link(plain(p.text.as_str()), &p.anchor)
            }
        })
        .collect()
}

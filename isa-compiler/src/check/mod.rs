//! Stage 2: syntax tree → checked [`crate::ir`]. Every mistake becomes a located
//! [`Diagnostic`]; checking goes on after an error so one run reports as many as it can, and
//! nothing here panics on any input.
//!
//! One concern per file: `families` (groups, forms and lets, expanded first into plain
//! formats), `names` (the symbol table), `types` (enums, number formats, field
//! types), `fields` (bits, overlaps, patterns), `ambiguity`, `syntax` (templates),
//! `layouts` (unions, layout constraints, the root), `abi` (units and layouts placed from
//! parameters), `cond` (instruction expressions), `rules`
//! and `semantics`.

mod abi;
mod ambiguity;
mod cond;
mod cycles;
mod families;
mod fields;
mod layouts;
mod names;
mod rules;
mod semantics;
mod streams;
mod syntax;
mod tables;
mod types;

use crate::ast::{self, Span};
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir;
/// How the checker maps a spec's operators to the IR's (the one place it does).
pub use cond::{bin_op, un_op};
pub(crate) use names::Names;
use std::collections::{HashMap, HashSet};

/// The types the Rust backend defines in every generated target's module (its `Dialect` and
/// `Instruction` enums, the interpreter's `Machine`, `State` and `Semantics`).
const GENERATED_TYPES: &[&str] = &["Dialect", "Instruction", "Machine", "State", "Semantics"];

/// Checks a parsed file and builds the target, or returns the errors found (the first
/// [`crate::diag::SHOWN`] in full, the rest counted).
pub fn check(file: &ast::File) -> Result<ir::Target, Diagnostics> {
    let mut cx = Checker {
        diags: Diagnostics::default(),
        seen: HashSet::new(),
        discarded: Diagnostic::error(Span::default(), ""),
        names: Names::default(),
    };
    for item in &file.items {
        match item {
            ast::Item::Layout(l) => cx.docs_before_uses(l),
            ast::Item::Group(g) => cx.docs_before_uses(&g.body),
            _ => {}
        }
    }
    let file = &families::expand(&mut cx, file);
    let mut duplicates = Vec::new();
    cx.names = names::collect(file, &mut duplicates);
    for d in duplicates {
        cx.report(d);
    }
    let target = cx.target(file);
    if cx.diags.total() == 0 {
        Ok(target)
    } else {
        Err(cx.diags)
    }
}

pub(crate) struct Checker {
    pub diags: Diagnostics,
    /// (message, start, end) of every error reported: templates are checked once per use, and
    /// each mistake is reported once.
    seen: HashSet<(String, usize, usize)>,
    /// What `error` hands out for a repeated or only counted error, so callers can label it.
    discarded: Diagnostic,
    pub names: Names,
}

impl Checker {
    pub fn error(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.report(Diagnostic::error(span, message))
    }

    /// A flag setting's value (`ignore_case true`): `true` or `false`, anything else an error
    /// at it (and off).
    fn flag(&mut self, setting: &ast::Setting) -> bool {
        match setting.values.as_slice() {
            [ast::SettingValue::Name(v, nested)] if nested.is_empty() && v.name == "true" => true,
            [ast::SettingValue::Name(v, nested)] if nested.is_empty() && v.name == "false" => false,
            values => {
                let span = match values.first() {
                    Some(
                        ast::SettingValue::Str(_, span)
                        | ast::SettingValue::Int(_, span)
                        | ast::SettingValue::Wide(_, span),
                    ) => *span,
                    Some(ast::SettingValue::Name(v, _)) => v.span,
                    None => setting.name.span,
                };
                self.error(span, format!("`{}` takes `true` or `false`", setting.name.name));
                false
            }
        }
    }

    /// Records an error once; returns it for labelling (a scratch copy when it is a repeat or
    /// beyond the errors shown).
    pub fn report(&mut self, d: Diagnostic) -> &mut Diagnostic {
        let key = (d.message.clone(), d.primary.span.start, d.primary.span.end);
        if self.seen.insert(key) {
            if let Some(kept) = self.diags.push(d) {
                return kept;
            }
        }
        self.discarded = Diagnostic::error(Span::default(), "");
        &mut self.discarded
    }

    /// Whether an error was reported at exactly `span` (a type argument the expansion put in
    /// several places is reported once there).
    pub fn has_error_at(&self, span: Span) -> bool {
        self.seen.iter().any(|(_, start, end)| *start == span.start && *end == span.end)
    }

    /// Whether further errors are only counted: checks may then stop early.
    pub fn is_full(&self) -> bool {
        self.diags.is_full()
    }

    fn target(&mut self, file: &ast::File) -> ir::Target {
        let mut t = ir::Target {
            name: String::new(),
            title: String::new(),
            doc: String::new(),
            word_bits: 32,
            little_endian: true,
            dialects: Vec::new(),
            enums: Vec::new(),
            numbers: Vec::new(),
            layouts: Vec::new(),
            units: Vec::new(),
            abi_layouts: Vec::new(),
            formats: Vec::new(),
            properties: Vec::new(),
            rules: Vec::new(),
            semantics: None,
            root: None,
            program_end: None,
            max_instructions: None,
            summaries: Vec::new(),
            parts_low_first: false,
            streams: None,
            tables: Vec::new(),
        };
        let targets: Vec<&ast::Target> = file
            .items
            .iter()
            .filter_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })
            .collect();
        match targets.as_slice() {
            [] => {
                self.error(Span::default(), "no `target` declaration")
                    .note("every spec starts with `target name { word 64 dialect asm }`");
            }
            [first, rest @ ..] => {
                for other in rest {
                    self.error(other.name.span, "a spec file declares one target")
                        .with(first.name.span, "first declared here");
                }
                self.target_settings(first, &mut t);
                // The generated Rust names the target's type by the target's name in
                // CamelCase, beside the types every generated target has: one of theirs
                // cannot be the target's too (found by the spec fuzzer: `target dialect`).
                let camel = crate::backend::rust::names::camel(&first.name.name);
                if GENERATED_TYPES.contains(&camel.as_str()) {
                    self.error(
                        first.name.span,
                        format!("the target's Rust type `{camel}` has the name of a type every generated target has"),
                    )
                    .note(format!("the generated module defines {}; rename the target", GENERATED_TYPES.join(", ")));
                }
            }
        }
        // The same for the types of enums, number formats and formats (the spec fuzzer: a format
        // `dialect` became a second `Dialect`, E0428); and two of them whose names differ only
        // where CamelCase loses it (`f0` and `F0`) would be one type twice.
        let mut rust_types: HashMap<String, (&str, &ast::Ident)> = HashMap::new();
        // An enum with a signature also names methods (`apply_…`) by its CamelCase name in
        // snake_case, where `ABC` and `Abc` (from `a_b_c` and `abc`) meet.
        let mut apply_names: HashMap<String, &ast::Ident> = HashMap::new();
        for item in &file.items {
            let ast::Item::Enum(e) = item else { continue };
            if e.signature.is_none() {
                continue;
            }
            let snake = crate::backend::rust::names::snake(&crate::backend::rust::names::camel(&e.name.name));
            match apply_names.get(&snake) {
                Some(old) if old.name != e.name.name => {
                    self.error(
                        e.name.span,
                        format!(
                            "the enums `{}` and `{}` are both the methods `apply_{snake}` in the generated Rust",
                            old.name, e.name.name
                        ),
                    )
                    .with(old.span, format!("`{}` defined here", old.name))
                    .note("the generated machine names an operation enum's methods in snake_case; rename one of them");
                }
                Some(_) => {}
                None => {
                    apply_names.insert(snake, &e.name);
                }
            }
        }
        for item in &file.items {
            let (what, name) = match item {
                ast::Item::Enum(e) => ("enum", &e.name),
                ast::Item::Number(n) => ("number format", &n.name),
                ast::Item::Layout(l) if l.kind == ast::LayoutKind::Format => ("format", &l.name),
                _ => continue,
            };
            let camel = crate::backend::rust::names::camel(&name.name);
            if GENERATED_TYPES.contains(&camel.as_str()) {
                self.error(
                    name.span,
                    format!(
                        "the {what}'s Rust type `{camel}` has the name of a type every generated target has"
                    ),
                )
                .note(format!(
                    "the generated module defines {}; rename the {what}",
                    GENERATED_TYPES.join(", ")
                ));
            }
            match rust_types.get(&camel) {
                // The same name twice is reported where names are declared.
                Some((other, old)) if old.name != name.name => {
                    self.error(
                        name.span,
                        format!(
                            "the {other} `{}` and the {what} `{}` are both the Rust type `{camel}`",
                            old.name, name.name
                        ),
                    )
                    .with(old.span, format!("the {other} `{}`", old.name))
                    .note("the generated module names types in CamelCase; rename one of them");
                }
                Some(_) => {}
                None => {
                    rust_types.insert(camel, (what, name));
                }
            }
        }
        types::declare(self, file, &mut t);
        let origins = fields::layouts_and_formats(self, file, &mut t);
        layouts::check(self, file, &mut t);
        abi::check(self, file, &mut t);
        let interleaved = streams::extract(self, file, &origins, &mut t);
        tables::extract(self, file, &mut t);
        // The slot format is no instruction, also when the stream naming it has mistakes.
        let slot_name = streams::slot_name(file);
        let slot = t.formats.iter().position(|f| Some(&f.name) == slot_name.as_ref()).map(ir::FormatId);
        ambiguity::check(self, &t, slot);
        rules::properties(self, file, &mut t);
        syntax::lower_all(self, file, &origins, &mut t);
        rules::lower(self, file, &origins, &mut t);
        semantics::lower(self, file, &origins, &mut t);
        streams::finish(interleaved, &mut t);
        self.program_end(file, &mut t);
        self.summaries(file, &mut t);
        self.variable_length(&t, slot_name.as_deref());
        t
    }

    /// A doc comment documents a field: one before `use g` (in a body or a `fields` run) has
    /// nothing to document, the group's fields being documented where the group declares them.
    fn docs_before_uses(&mut self, l: &ast::Layout) {
        for u in &l.uses {
            if let Some(doc) = u.doc {
                self.error(doc, format!("a doc comment before `use {}` documents nothing", u.group.name))
                    .with(u.span, "a `use` declares no field of its own")
                    .note("document the group's fields where the group declares them, or use `//`");
            }
            for a in &u.args {
                if let ast::ExprKind::Fields(row) = &a.kind {
                    self.docs_before_uses(row);
                }
            }
        }
        for form in &l.forms {
            self.docs_before_uses(&form.body);
        }
    }

    /// Instructions of different lengths make a program a byte stream read from its start:
    /// each length a whole number of bytes, the first bytes the low bits (the decoder finds
    /// the opcode and the length there before it knows how much to read).
    fn variable_length(&mut self, t: &ir::Target, slot: Option<&str>) {
        // A slot format the interleaved stream could not take is still among the formats.
        if !t.variable_length() || t.formats.iter().any(|f| Some(f.name.as_str()) == slot) {
            return;
        }
        for f in &t.formats {
            if f.width % 8 != 0 {
                self.error(
                    f.span,
                    format!(
                        "`{}` is {} bits long: instructions of different lengths are whole bytes",
                        f.name, f.width
                    ),
                );
            }
        }
        if let Some(f) = t.formats.iter().find(|f| f.length.is_some() || f.width < t.word_bits) {
            // A bundled program is no byte stream: each stream is read a word of its own width
            // at a time (Tegra's 32-bit streams beside its 64-bit ALU words), in either order.
            if !t.little_endian && t.bundled().is_none() {
                self.error(
                    f.span,
                    format!(
                        "`{}` makes instructions differ in length, which needs `byte_order little`",
                        f.name
                    ),
                )
                .note("a variable-length program is read from its first byte, the word's lowest");
            }
            if t.interleaved().is_some() {
                self.error(f.span, "scheduling control words need instructions of one length");
            }
        }
    }

    /// `program_end field`: the one-bit field the assembler sets on a program's last
    /// instruction; some instruction format must have it, and every format that has it as a
    /// stored one-bit field.
    fn program_end(&mut self, file: &ast::File, t: &mut ir::Target) {
        let settings =
            file.items.iter().filter_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None });
        for s in settings.flat_map(|target| &target.settings).filter(|s| s.name.name == "program_end") {
            let Some(ast::SettingValue::Name(name, _)) = s.values.first() else {
                self.error(s.name.span, "`program_end` names a one-bit field: `program_end end_of_program`");
                continue;
            };
            let mut found = false;
            for f in &t.formats {
                let Some(field) = f.fields.iter().find(|x| x.name == name.name) else { continue };
                found = true;
                if field.width() != 1 || field.array.is_some() || !field.is_stored() || field.view {
                    self.error(
                        name.span,
                        format!("`{}` of format `{}` is not a stored one-bit field", name.name, f.name),
                    )
                    .with(field.span, "declared here");
                }
            }
            if !found {
                self.error(name.span, format!("no instruction format has a field `{}`", name.name));
            }
            t.program_end = Some(name.name.clone());
        }
    }

    /// `summary name { max field; plus n; least m }`: a value over the whole program. Some
    /// instruction format must have `field` as a stored scalar field.
    fn summaries(&mut self, file: &ast::File, t: &mut ir::Target) {
        let settings =
            file.items.iter().filter_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None });
        const FORM: &str = "`summary used_rows { max row; plus 1; least 1 }`";
        for s in settings.flat_map(|target| &target.settings).filter(|s| s.name.name == "summary") {
            let Some(ast::SettingValue::Name(name, nested)) = s.values.first() else {
                self.error(s.name.span, format!("a summary is named and says what it computes: {FORM}"));
                continue;
            };
            if t.summaries.iter().any(|x| x.name == name.name) {
                self.error(name.span, format!("summary `{}` declared twice", name.name));
                continue;
            }
            let mut summary =
                ir::Summary { name: name.name.clone(), field: String::new(), plus: 0, least: 0 };
            let mut field_span = None;
            for n in nested {
                match (n.name.name.as_str(), n.values.first()) {
                    ("max", Some(ast::SettingValue::Name(f, _))) => {
                        summary.field = f.name.clone();
                        field_span = Some(f.span);
                    }
                    ("plus", Some(ast::SettingValue::Int(v, _))) => summary.plus = *v,
                    ("least", Some(ast::SettingValue::Int(v, _))) => summary.least = *v,
                    _ => {
                        self.error(
                            n.name.span,
                            format!("a summary says `max field`, `plus n` and `least n`: {FORM}"),
                        );
                    }
                }
            }
            let Some(span) = field_span else {
                self.error(name.span, format!("summary `{}` names no field: {FORM}", name.name));
                continue;
            };
            let mut found = false;
            for f in &t.formats {
                let Some(field) = f.fields.iter().find(|x| x.name == summary.field) else { continue };
                found = true;
                if field.array.is_some() || !field.is_stored() || field.view {
                    self.error(
                        span,
                        format!("`{}` of format `{}` is not a stored scalar field", summary.field, f.name),
                    )
                    .with(field.span, "declared here");
                }
            }
            if !found {
                self.error(span, format!("no instruction format has a field `{}`", summary.field));
            }
            t.summaries.push(summary);
        }
    }

    fn target_settings(&mut self, target: &ast::Target, t: &mut ir::Target) {
        t.name = target.name.name.clone();
        t.doc = target.doc.clone();
        t.title = target.name.name.clone();
        for s in &target.settings {
            let first = s.values.first();
            match (s.name.name.as_str(), first) {
                ("title", Some(ast::SettingValue::Str(v, _))) => t.title = v.clone(),
                // Resolved with the layouts and formats.
                ("root" | "schedule" | "program_end" | "summary" | "stream" | "bundle" | "table", _) => {}
                ("max_instructions", Some(ast::SettingValue::Int(v, sp))) => {
                    if *v == 0 {
                        self.error(*sp, "a program holds at least one instruction");
                    } else {
                        t.max_instructions = Some(*v);
                    }
                }
                ("part_order", Some(ast::SettingValue::Name(v, _))) => match v.name.as_str() {
                    "high_first" => t.parts_low_first = false,
                    "low_first" => t.parts_low_first = true,
                    _ => {
                        self.error(v.span, "part order is `high_first` or `low_first`");
                    }
                },
                ("word", Some(ast::SettingValue::Int(v, sp))) => {
                    if *v == 0 || *v > 128 || v % 8 != 0 {
                        self.error(*sp, "instruction words must be 8 to 128 bits, a multiple of 8");
                    } else {
                        t.word_bits = *v as u32;
                    }
                }
                ("byte_order", Some(ast::SettingValue::Name(v, _))) => match v.name.as_str() {
                    "little" => t.little_endian = true,
                    "big" => t.little_endian = false,
                    _ => {
                        self.error(v.span, "byte order is `little` or `big`");
                    }
                },
                ("dialect", Some(_)) => {
                    for v in &s.values {
                        if let ast::SettingValue::Name(name, nested) = v {
                            let mut d = ir::Dialect::named(&name.name, Vec::new());
                            for n in nested {
                                match (n.name.name.as_str(), n.values.first()) {
                                    ("comment", _) => {
                                        for c in &n.values {
                                            if let ast::SettingValue::Str(c, _) = c {
                                                d.comments.push(c.clone());
                                            }
                                        }
                                    }
                                    ("ignore_case", _) => d.ignore_case = self.flag(n),
                                    ("float_bits", _) => d.float_bits = self.flag(n),
                                    ("open_if_warns", _) => d.open_if_warns = self.flag(n),
                                    ("raw", Some(ast::SettingValue::Str(r, _))) => d.raw = Some(r.clone()),
                                    ("end", Some(ast::SettingValue::Str(r, _))) => d.end = Some(r.clone()),
                                    ("separator", Some(ast::SettingValue::Str(r, sp))) => {
                                        if r.trim().is_empty() {
                                            self.error(*sp, "a statement separator must not be blank");
                                        }
                                        d.separator = Some(r.clone())
                                    }
                                    ("code_section", Some(ast::SettingValue::Str(r, _))) => {
                                        d.code_section = Some(r.clone())
                                    }
                                    ("data_section", _) => {
                                        for c in &n.values {
                                            if let ast::SettingValue::Str(c, _) = c {
                                                d.data_sections.push(c.clone());
                                            }
                                        }
                                    }
                                    ("block_comment", _) => match n.values.as_slice() {
                                        [ast::SettingValue::Str(open, sp), ast::SettingValue::Str(close, _)] =>
                                        {
                                            if open.is_empty() || close.is_empty() {
                                                self.error(*sp, "block comment markers must not be empty");
                                            }
                                            d.block_comments.push((open.clone(), close.clone()))
                                        }
                                        _ => {
                                            self.error(n.name.span, "`block_comment` takes its opening and closing markers: `block_comment \"/*\", \"*/\"`");
                                        }
                                    },
                                    ("label", _) => {
                                        for v in &n.values {
                                            if let ast::SettingValue::Str(p, _) = v {
                                                d.label_prefixes.push(p.clone());
                                            }
                                        }
                                    }
                                    ("listing", Some(ast::SettingValue::Name(_, layout))) => {
                                        d.listing = Some(self.dialect_listing(layout));
                                    }
                                    (name, _) if directive_named(name).is_some() => {
                                        self.dialect_directive(&mut d, n);
                                    }
                                    _ => {
                                        self.error(n.name.span, format!("unknown dialect setting `{}`", n.name.name))
                                            .note("dialect settings: `comment \"#\"`, `ignore_case`, `float_bits`, `open_if_warns`, `raw \".long\"`, `end \" ;\"`, `separator \";\"`, `block_comment \"/*\", \"*/\"`, `code_section \".asm\"`, `data_section \".constants\"`, `label \":\"`, `listing nvdisasm { ... }`, and a directive's spellings (`set \".set\", \".equ\"`; README §2)");
                                    }
                                }
                            }
                            if t.dialects.iter().any(|x| x.name == d.name) {
                                self.error(name.span, format!("dialect `{}` declared twice", d.name));
                            }
                            t.dialects.push(d);
                        }
                    }
                }
                _ => {
                    self.error(s.name.span, format!("unknown or malformed target setting `{}`", s.name.name)).note(
                        "target settings: `title \"...\"`, `word 64`, `byte_order little`, `dialect name { comment \"#\" }`, `root Layout`",
                    );
                }
            }
        }
        if t.dialects.is_empty() {
            t.dialects.push(ir::Dialect::named("default", vec!["//".into()]));
        }
    }
}

/// The directive a dialect setting names (`set`, `endif`), if it names one.
fn directive_named(name: &str) -> Option<isa_runtime_base::Directive> {
    isa_runtime_base::Directive::ALL.iter().copied().find(|d| d.name() == name)
}

impl Checker {
    /// A dialect's listing layout: `listing nvdisasm { indent 8; address "/*", "*/", 4;
    /// guard "@", 19; open "{", 9; close "}", 9; words 2, "/* ", " */"; end ";", 0x7e0 }`.
    fn dialect_listing(&mut self, settings: &[ast::Setting]) -> ir::Listing {
        use ast::SettingValue::{Int, Str};
        let mut l = ir::Listing::default();
        let num = |v: &u64| u32::try_from(*v).unwrap_or(u32::MAX).min(512);
        for n in settings {
            match (n.name.name.as_str(), n.values.as_slice()) {
                ("indent", [Int(v, _)]) => l.indent = num(v),
                ("address", [Str(a, _), Str(b, _), Int(v, _)]) => {
                    l.address = (a.clone(), b.clone(), num(v).min(32))
                }
                ("guard", [Str(g, _), Int(v, _)]) => (l.guard, l.column) = (g.clone(), num(v)),
                ("open", [Str(m, _), Int(v, _)]) => l.open = (m.clone(), num(v)),
                ("close", [Str(m, _), Int(v, _)]) => l.close = (m.clone(), num(v)),
                ("words", [Int(v, _), Str(a, _), Str(b, _)]) => l.words = (num(v), a.clone(), b.clone()),
                ("end", [Str(e, _), Int(v, _)]) => l.end = Some((e.clone(), *v)),
                ("widen", [Str(w, _)]) => l.widen = w.clone(),
                _ => {
                    self.error(n.name.span, format!("unknown or malformed listing setting `{}`", n.name.name)).note(
                        "listing settings: `indent 8`, `address \"/*\", \"*/\", 4`, `guard \"@\", 19`, `open \"{\", 9`, `close \"}\", 9`, `words 2, \"/* \", \" */\"`, `end \";\", 0x7e0`, `widen \"???\"`",
                    );
                }
            }
        }
        l
    }

    /// A dialect setting giving a directive's spellings: `set ".set", ".equ"`.
    fn dialect_directive(&mut self, d: &mut ir::Dialect, n: &ast::Setting) {
        let Some(directive) = directive_named(&n.name.name) else { return };
        for v in &n.values {
            match v {
                ast::SettingValue::Str(spelling, span) => {
                    if spelling.is_empty() || spelling.contains(char::is_whitespace) {
                        self.error(*span, "a directive's spelling is one word");
                    } else if let Some((_, other)) = d.directives.iter().find(|(s, _)| s == spelling) {
                        let message = format!("`{spelling}` already spells directive `{}`", other.name());
                        self.error(*span, message);
                    } else {
                        d.directives.push((spelling.clone(), directive));
                    }
                }
                ast::SettingValue::Int(_, span) | ast::SettingValue::Wide(_, span) => {
                    self.error(*span, "a directive's spellings are strings (`\".set\"`)");
                }
                ast::SettingValue::Name(name, _) => {
                    self.error(name.span, "a directive's spellings are strings (`\".set\"`)");
                }
            }
        }
    }
}

/// Finds a dialect's index by name.
pub(crate) fn dialect_index(t: &ir::Target, name: &str) -> Option<usize> {
    t.dialects.iter().position(|d| d.name == name)
}

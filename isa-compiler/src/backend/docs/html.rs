//! The HTML page of a target: the view model laid out as one standalone page. Every name and
//! number is escaped (`esc`); doc text goes through `html`/`html_block`, which escape it and turn
//! `code` spans into `<code>`.

use std::fmt::{self, Write};

use super::model::{Format, Layout, Streams, Target, TypePart};
use super::render::{escape_html as esc, html_block as block, html_inline as html};

const STYLE: &str = "\
body { font-family: system-ui, sans-serif; line-height: 1.45; max-width: 80em; margin: 2em auto; padding: 0 1em; color: #222; }
h1, h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; }
h3 { margin-top: 2em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
tr.view td { color: #666; font-style: italic; }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .92em; }
code { background: #f4f4f4; padding: 0 .2em; border-radius: 3px; }
pre { background: #f8f8f8; border: 1px solid #ddd; padding: .6em; overflow-x: auto; }
nav ul { columns: 3; }
.note { color: #444; }
";

/// The standalone page.
pub(super) fn document(t: &Target) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_document(&mut out, t);
    out
}

fn write_document(out: &mut String, t: &Target) -> fmt::Result {
    let (name, title) = (esc(&t.name), esc(&t.title));
    write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"isa-compiler ({name} spec)\">\n<title>{title}</title>\n\
         <style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n{}\n<table>\n\
         <tr><th>Target</th><td><code>{name}</code></td></tr>\n\
         <tr><th>Word size</th><td>{} bits</td></tr>\n\
         <tr><th>Byte order</th><td>{}</td></tr>\n\
         <tr><th>Encodings</th><td>{}</td></tr>\n\
         <tr><th>Enums</th><td>{}</td></tr>\n</table>\n\n",
        block(&t.doc),
        t.word_bits,
        esc(t.byte_order),
        t.formats.len(),
        t.enums.len(),
    )?;
    out.push_str(
        "<h2 id=\"dialects\">Dialects</h2>\n\
         <p>The first dialect is the default. In the enum tables, the first spelling of a value is the one\n\
         printed; the others are accepted by the assembler too.</p>\n<table>\n\
         <tr><th>Dialect</th><th>Comments</th><th>Case</th><th>Raw words</th></tr>\n",
    );
    for d in &t.dialects {
        let default = if d.default { " (default)" } else { "" };
        writeln!(
            out,
            "<tr><td>{}{default}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&d.name),
            html(&d.comments),
            esc(d.case),
            html(&d.raw)
        )?;
    }
    out.push_str("</table>\n\n");
    contents(out, t)?;
    if !t.formats.is_empty() {
        write!(
            out,
            "\n<h2 id=\"instruction-encodings\">Instruction encodings</h2>\n\
             <p>Bits are numbered from 0, the least significant bit of the {}-bit word. In the\n\
             patterns, <code>x</code> is a bit the encoding does not fix. In a syntax,\n\
             <code>{{field}}</code> is where a field's value is printed, <code>[...]</code> text\n\
             printed only under a condition (brackets of the instruction's own text aside) and\n\
             <code>(a | b)</code> one of a template's forms.</p>\n",
            t.word_bits
        )?;
        summary(out, t)?;
        for f in &t.formats {
            format(out, f)?;
        }
    }
    if let Some(Streams::Bundled(b)) = &t.streams {
        let intro = format!(
            "A program is {} word streams, written as bundles: each statement starts with {} and holds the units below, in this order, each unit's words going to its stream; a word no syntax shows is written as its 32-bit parts in hex. Header settings: {}.",
            b.streams.len(),
            b.keyword,
            b.header
        );
        write!(out, "\n<h2 id=\"streams\">Streams</h2>\n<p>{}</p>\n", html(&intro))?;
        let cells = |row: &[String; 4]| row.iter().map(|c| html(c)).collect::<Vec<_>>();
        table(out, &["Stream", "Bits", "Words", "Reset word"], b.streams.iter().map(cells));
        table(out, &["Unit", "Stream", "In a bundle", "Slots"], b.units.iter().map(cells));
    }
    if let Some(Streams::Interleaved(s)) = &t.streams {
        write!(
            out,
            "\n<h2 id=\"streams\">Streams</h2>\n\
             <p>One stream of control words, interleaved with the instructions: programs are groups of one control word and {} instructions. Slot <code>i</code> of the\n\
             control word, bits <code>{w}i+{}:{w}i</code>,\n\
             schedules the group's instruction <code>i</code>; bits from {} up are zero. The\n\
             disassembler prints each instruction's slot before it; the assembler reads it there and gives an\n\
             instruction without one the default slot <code>{}</code>. The last group is filled with\n\
             <code>{}</code>.</p>\n<h3 id=\"{}\">Slot <code>{}</code></h3>\n{}",
            s.slots,
            s.width - 1,
            s.last,
            esc(&s.default),
            esc(&s.pad),
            esc(&s.slot.anchor),
            esc(&s.slot.name),
            block(&s.slot.doc),
            w = s.width,
        )?;
        diagram(out, &s.slot.diagram)?;
        out.push_str(
            "\n<table>\n<tr><th>Field</th><th>Bits</th><th>Width</th><th>Type</th><th>Value</th><th>Description</th></tr>\n",
        );
        for r in &s.slot.rows {
            writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&r.field),
                esc(&r.bits),
                esc(&r.width),
                type_cell(&r.ty),
                html(&r.value),
                html(&r.doc)
            )?;
        }
        out.push_str("</table>");
    }
    if !t.layouts.is_empty() {
        out.push_str(
            "\n<h2 id=\"data-layouts\">Data layouts</h2>\n\
             <p>Offsets are in bits from the start of the layout; bit <code>b</code> is in 32-bit word <code>b / 32</code>.</p>\n",
        );
        for l in &t.layouts {
            layout(out, l)?;
        }
    }
    abi_layouts(out, t)?;
    if !t.enums.is_empty() {
        out.push_str("\n<h2 id=\"enums\">Enums</h2>\n");
        for e in &t.enums {
            write!(
                out,
                "\n<h3 id=\"{}\">Enum <code>{}</code></h3>\n{}\n<p>{}-bit values.",
                esc(&e.anchor),
                esc(&e.name),
                block(&e.doc),
                e.width
            )?;
            if !e.signature.is_empty() {
                write!(
                    out,
                    " Operation {}: the Semantics column marks the values whose meaning the spec defines.",
                    html(&e.signature)
                )?;
            }
            out.push_str("</p>\n<table>\n<tr><th>Value</th><th>Name</th>");
            for d in &t.dialect_names {
                write!(out, "<th>{}</th>", esc(d))?;
            }
            if e.has_sem {
                out.push_str("<th>Semantics</th>");
            }
            out.push_str("<th>Description</th></tr>\n");
            for r in &e.rows {
                write!(out, "<tr><td>{}</td><td><code>{}</code></td>", esc(&r.value), esc(&r.name))?;
                for sp in &r.spellings {
                    write!(out, "<td>{}</td>", html(sp))?;
                }
                if e.has_sem {
                    write!(out, "<td>{}</td>", esc(r.sem))?;
                }
                writeln!(out, "<td>{}</td></tr>", html(&r.doc))?;
            }
            out.push_str("</table>");
            if !e.undefined.is_empty() {
                write!(out, "\n<p class=\"note\">Undefined values: {}.</p>", esc(&e.undefined))?;
            }
            if !e.else_notes.is_empty() {
                let notes: Vec<String> = e.else_notes.iter().map(|n| html(n)).collect();
                write!(
                    out,
                    "\n<p class=\"note\">Values no variant defines are printed as {} (never parsed).</p>",
                    notes.join("; ")
                )?;
            }
            out.push('\n');
        }
    }
    if !t.numbers.is_empty() {
        out.push_str("\n<h2 id=\"number-formats\">Number formats</h2>\n");
        for n in &t.numbers {
            let kind = if n.kind == "float" { "Floating point" } else { "Fixed point" };
            write!(
                out,
                "\n<h3 id=\"{}\">Number <code>{}</code></h3>\n{}\n<p>{kind}, {} bits: {}.</p>\n",
                esc(&n.anchor),
                esc(&n.name),
                block(&n.doc),
                n.width,
                html(&n.shape)
            )?;
        }
    }
    if !t.properties.is_empty() {
        out.push_str(
            "\n<h2 id=\"properties\">Properties</h2>\n\
             <p>Values each instruction has, read by the program rules; an encoding that does not set a\n\
             property has its default.</p>\n",
        );
        let rows = t.properties.iter().map(|p| {
            let set_by: Vec<String> = p
                .defined_by
                .iter()
                .map(|f| format!("<a href=\"#{}\">{}</a>", esc(&f.anchor), esc(&f.name)))
                .collect();
            vec![code_cell(&p.name), esc(p.ty), esc(&p.default), set_by.join(", "), html(&p.doc)]
        });
        table(out, &["Property", "Type", "Default", "Set by", "Description"], rows);
    }
    if !t.rules.is_empty() {
        out.push_str(
            "\n<h2 id=\"program-rules\">Program rules</h2>\n\
             <p>Each rule reads the instructions around the one its outermost variable names; <code>isa validate</code>\n\
             holds only those, whatever the program's size (all of it for a rule that reads anywhere).</p>\n",
        );
        let rows =
            t.rules.iter().map(|r| vec![code_cell(&r.name), html(&r.message), esc(&r.reads), html(&r.doc)]);
        table(out, &["Rule", "Statement", "Instructions read", "Description"], rows);
    }
    if let Some(m) = &t.machine {
        out.push_str("\n<h2 id=\"interpreter\">Interpreter</h2>");
        if !m.state.is_empty() {
            out.push_str("\n<h3 id=\"machine-state\">Machine state</h3>\n");
            let rows = m.state.iter().map(|x| vec![code_cell(&x.name), esc(&x.ty), html(&x.doc)]);
            table(out, &["State", "Type", "Description"], rows);
        }
        let callables = [
            (&m.functions, "<h3 id=\"functions\">Functions</h3>\n", "Function"),
            (
                &m.hooks,
                "<h3 id=\"hooks\">Hooks</h3>\n<p>Escape hatches into Rust: the embedder implements these.</p>\n",
                "Hook",
            ),
        ];
        for (list, heading, column) in callables {
            if list.is_empty() {
                continue;
            }
            write!(out, "\n{heading}")?;
            let rows = list.iter().map(|x| vec![code_cell(&x.name), html(&x.signature), html(&x.doc)]);
            table(out, &[column, "Signature", "Description"], rows);
        }
    }
    out.push_str("\n</body>\n</html>\n");
    Ok(())
}

/// The navigation: a list per section with tables, then links to the other sections.
fn contents(out: &mut String, t: &Target) -> fmt::Result {
    out.push_str("<h2 id=\"contents\">Contents</h2>\n<nav>\n");
    let sections: [(&str, Vec<(&str, &str)>); 4] = [
        ("Instruction encodings", t.formats.iter().map(|f| (&*f.name, &*f.anchor)).collect()),
        ("Data layouts", t.layouts.iter().map(|l| (&*l.name, &*l.anchor)).collect()),
        ("ABI layouts", t.abi_layouts.iter().map(|l| (&*l.name, &*l.anchor)).collect()),
        ("Enums", t.enums.iter().map(|e| (&*e.name, &*e.anchor)).collect()),
    ];
    for (title, items) in &sections {
        if !items.is_empty() {
            write!(out, "<h3>{title}</h3>\n<ul>\n")?;
            for (name, anchor) in items {
                writeln!(out, "<li><a href=\"#{}\"><code>{}</code></a></li>", esc(anchor), esc(name))?;
            }
            out.push_str("</ul>\n");
        }
    }
    out.push_str("<p>");
    let links = [
        (!t.numbers.is_empty(), "<a href=\"#number-formats\">Number formats</a> · "),
        (!t.properties.is_empty(), "<a href=\"#properties\">Properties</a> · "),
        (!t.rules.is_empty(), "<a href=\"#program-rules\">Program rules</a> · "),
        (t.machine.is_some(), "<a href=\"#interpreter\">Interpreter</a>"),
    ];
    for (present, link) in links {
        if present {
            out.push_str(link);
        }
    }
    out.push_str("</p>\n</nav>\n");
    Ok(())
}

/// Every encoding in one table: its fixed bits and its syntax in the default dialect.
fn summary(out: &mut String, t: &Target) -> fmt::Result {
    let dialect = t.dialect_names.first().map_or("", String::as_str);
    write!(
        out,
        "\n<table>\n<tr><th>Encoding</th><th>Fixed bits (value/mask)</th><th>Syntax ({})</th></tr>\n",
        esc(dialect)
    )?;
    for f in &t.formats {
        let syntax = f.syntax.iter().find(|(d, _)| d == dialect).map_or(String::new(), |(_, arms)| {
            arms.iter().map(|a| code_cell(a)).collect::<Vec<_>>().join("<br>")
        });
        let opcode = if f.opcode.is_empty() { String::new() } else { code_cell(&f.opcode) };
        writeln!(
            out,
            "<tr><td><a href=\"#{}\">{}</a></td><td>{opcode}</td><td>{syntax}</td></tr>",
            esc(&f.anchor),
            code_cell(&f.name)
        )?;
    }
    out.push_str("</table>\n");
    Ok(())
}

fn format(out: &mut String, f: &Format) -> fmt::Result {
    write!(
        out,
        "\n<h3 id=\"{}\">Format <code>{}</code></h3>\n{}",
        esc(&f.anchor),
        esc(&f.name),
        block(&f.doc)
    )?;
    if let Some((field, bits)) = &f.length {
        let each: Vec<String> = bits.iter().enumerate().map(|(v, b)| format!("{v}: {b} bits")).collect();
        write!(
            out,
            "\n<p>Field <code>{}</code> picks the length ({}); a shorter instruction reads the bits past its end as zero.</p>\n",
            esc(field),
            each.join(", ")
        )?;
    }
    if !f.patterns.is_empty() {
        write!(out, "\n<p>{}-bit encoding, matching (bit {} first):</p>\n<pre>", f.width, f.width - 1)?;
        for p in &f.patterns {
            writeln!(out, "{}", esc(p))?;
        }
        if f.more_patterns > 0 {
            writeln!(out, "... and {} more", f.more_patterns)?;
        }
        out.push_str("</pre>");
    }
    for (dialect, arms) in &f.syntax {
        write!(out, "\n<p>Syntax ({}):</p>\n<pre>", esc(dialect))?;
        for a in arms {
            writeln!(out, "{}", esc(a))?;
        }
        out.push_str("</pre>");
    }
    diagram(out, &f.diagram)?;
    out.push('\n');
    let rows = f.rows.iter().map(|r| {
        let cells = vec![
            code_cell(&r.field),
            esc(&r.bits),
            esc(&r.width),
            type_cell(&r.ty),
            html(&r.value),
            html(&r.doc),
        ];
        (r.view, cells)
    });
    view_table(out, &["Field", "Bits", "Width", "Type", "Value", "Description"], rows);
    if !f.dont_care.is_empty() {
        write!(
            out,
            "\n<p class=\"note\">Don't-care bits: {} (ignored when decoding, zero when encoding).</p>",
            esc(&f.dont_care)
        )?;
    }
    if !f.undeclared.is_empty() {
        write!(out, "\n<p class=\"note\">Bits no field declares: {}.</p>", esc(&f.undeclared))?;
    }
    if !f.reserved.is_empty() {
        write!(
            out,
            "\n<p class=\"note\">Reserved: {} (disassemblers print these words; the decoder reports no encoding).</p>",
            esc(&f.reserved)
        )?;
    }
    if !f.constraints.is_empty() {
        out.push_str("\n<p><strong>Constraints</strong></p>\n<table>\n<tr><th>Constraint</th><th>Must hold</th></tr>\n");
        for c in &f.constraints {
            writeln!(out, "<tr><td><code>{}</code></td><td>{}</td></tr>", esc(&c.name), html(&c.message))?;
        }
        out.push_str("</table>");
    }
    if !f.properties.is_empty() {
        write!(out, "\n<p class=\"note\">Properties set: {}.</p>", html(&f.properties))?;
    }
    out.push('\n');
    Ok(())
}

fn layout(out: &mut String, l: &Layout) -> fmt::Result {
    write!(
        out,
        "\n<h3 id=\"{}\">Layout <code>{}</code></h3>\n{}\n<p>{}.</p>",
        esc(&l.anchor),
        esc(&l.name),
        block(&l.doc),
        esc(&l.size)
    )?;
    if !l.nested_in.is_empty() {
        out.push_str("\n<p>Used in:</p>\n<ul>\n");
        for u in &l.nested_in {
            writeln!(
                out,
                "<li><a href=\"#{}\">{}</a> field <code>{}</code> at bit {} (word {})</li>",
                esc(&u.anchor),
                esc(&u.parent),
                esc(&u.field),
                esc(&u.offset),
                esc(&u.word)
            )?;
        }
        out.push_str("</ul>");
    }
    if !l.union.is_empty() {
        let tag = esc(&l.union_tag);
        write!(out, "\n<p>One of these layouts, chosen by <code>{tag}</code>:</p>\n<ul>\n")?;
        for u in &l.union {
            writeln!(
                out,
                "<li><code>{tag}</code> = {}: <a href=\"#{}\">{}</a></li>",
                html(&u.value),
                esc(&u.anchor),
                esc(&u.layout)
            )?;
        }
        out.push_str("</ul>");
    } else {
        diagram(out, &l.diagram)?;
        out.push('\n');
        let rows = l.rows.iter().map(|r| {
            let cells = vec![
                code_cell(&r.field),
                esc(&r.bit_width),
                type_cell(&r.ty),
                esc(&r.bits),
                esc(&r.word),
                html(&r.value),
                html(&r.doc),
            ];
            (r.view, cells)
        });
        view_table(out, &["Field", "Bit width", "Type", "Bits", "Word", "Value", "Description"], rows);
    }
    if !l.constraints.is_empty() {
        out.push_str(
            "\n<p>Constraints (<code>check()</code>; each violation names the fields it reads):</p>\n",
        );
        let rows = l
            .constraints
            .iter()
            .map(|c| vec![code_cell(&c.name), html(&c.message), html(&c.reads), html(&c.doc)]);
        table(out, &["Constraint", "Rule", "Reads", "Note"], rows);
    }
    if !l.dont_care.is_empty() {
        write!(out, "\n<p class=\"note\">Don't-care bits: {}.</p>", esc(&l.dont_care))?;
    }
    if !l.gaps.is_empty() {
        out.push_str(
            "\n<p class=\"note\">Bits no field declares, kept as members of the layout's value \
             (decoding reads them, encoding writes them back, <code>validate</code> warns when they \
             are not zero):</p>\n",
        );
        let rows =
            l.gaps.iter().map(|g| vec![code_cell(&g.member), esc(&g.bit_width), esc(&g.bits), esc(&g.word)]);
        table(out, &["Reserved member", "Bit width", "Bits", "Word"], rows);
    }
    if !l.flat.is_empty() {
        out.push_str(
            "\n<p><strong>Absolute offsets</strong>, nested layouts expanded (for arrays: element 0, plus the stride per index):</p>\n<table>\n\
             <tr><th>Path</th><th>Bits</th><th>Offset</th><th>Word</th><th>Width</th><th>Type</th><th>Description</th></tr>\n",
        );
        for r in &l.flat {
            writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&r.path),
                esc(&r.bits),
                esc(&r.offset),
                esc(&r.word),
                esc(&r.width),
                type_cell(&r.ty),
                html(&r.doc)
            )?;
        }
        out.push_str("</table>");
    }
    out.push('\n');
    Ok(())
}

/// The ABI layouts: units, then per layout its members as expressions and worked examples.
fn abi_layouts(out: &mut String, t: &Target) -> fmt::Result {
    if t.abi_layouts.is_empty() {
        return Ok(());
    }
    out.push_str(
        "\n<h2 id=\"abi-layouts\">ABI layouts</h2>\n\
         <p>Layouts placed from parameters: each member's position and length count the layout's unit\n\
         and are expressions of the parameters (<code>i</code> is an array element), checked for every\n\
         parameter value. A member with a condition is present only when it holds.</p>",
    );
    if !t.units.is_empty() {
        out.push_str(
            "\n<table>\n<tr><th>Unit</th><th>Bits</th><th>Register names</th><th>Description</th></tr>\n",
        );
        for u in &t.units {
            writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html(&u.name),
                u.bits,
                html(&u.names),
                html(&u.doc)
            )?;
        }
        out.push_str("</table>");
    }
    out.push('\n');
    for l in &t.abi_layouts {
        write!(
            out,
            "\n<h3 id=\"{}\">Layout <code>{}</code></h3>\n{}\n<p>Parameters: {}. Size: {} {}.</p>\n<table>\n\
             <tr><th>Member</th><th>Type</th><th>Position</th><th>Length</th><th>Present when</th><th>Description</th></tr>\n",
            esc(&l.anchor),
            esc(&l.name),
            block(&l.doc),
            html(&l.params),
            html(&l.size),
            html(&l.unit)
        )?;
        for r in &l.rows {
            writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html(&r.member),
                html(&r.ty),
                html(&r.position),
                html(&r.length),
                html(&r.when),
                html(&r.doc)
            )?;
        }
        out.push_str("</table>");
        for x in &l.examples {
            let values = if x.values.is_empty() {
                "Worked out".to_string()
            } else {
                format!("For {}", esc(&x.values))
            };
            write!(
                out,
                "\n<p>{values}: size {}.</p>\n<table>\n<tr><th>Member</th><th>Registers</th><th>Units</th><th>Bits</th></tr>\n",
                html(&x.size)
            )?;
            for r in &x.rows {
                writeln!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    html(&r.member),
                    html(&r.place),
                    esc(&r.position),
                    esc(&r.bits)
                )?;
            }
            out.push_str("</table>");
        }
    }
    Ok(())
}

/// A table: a header row, then one row of ready cells each; no newline after it.
fn table(out: &mut String, head: &[&str], rows: impl Iterator<Item = Vec<String>>) {
    view_table(out, head, rows.map(|cells| (false, cells)));
}

/// A table whose rows may be views (computed from other fields: shown in grey).
fn view_table(out: &mut String, head: &[&str], rows: impl Iterator<Item = (bool, Vec<String>)>) {
    out.push_str("<table>\n<tr>");
    for h in head {
        out.push_str("<th>");
        out.push_str(h);
        out.push_str("</th>");
    }
    out.push_str("</tr>\n");
    for (view, row) in rows {
        out.push_str("<tr");
        out.push_str(view_class(view));
        out.push('>');
        for cell in row {
            out.push_str("<td>");
            out.push_str(&cell);
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>");
}

/// A name cell: escaped, in `<code>`.
fn code_cell(name: &str) -> String {
    format!("<code>{}</code>", esc(name))
}

fn diagram(out: &mut String, diagram: &str) -> fmt::Result {
    if !diagram.is_empty() {
        write!(out, "\n<pre>{}</pre>", esc(diagram))?;
    }
    Ok(())
}

fn view_class(view: bool) -> &'static str {
    if view {
        " class=\"view\""
    } else {
        ""
    }
}

/// A type cell: each part as text, linked when it names a table of the document.
fn type_cell(parts: &[TypePart]) -> String {
    parts
        .iter()
        .map(|p| {
            if p.anchor.is_empty() {
                esc(&p.text)
            } else {
                format!("<a href=\"#{}\">{}</a>", esc(&p.anchor), esc(&p.text))
            }
        })
        .collect()
}

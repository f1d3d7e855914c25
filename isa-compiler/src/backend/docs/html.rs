//! The HTML page of a target: the outline written as one standalone page. Every name and number
//! is escaped (`escape_html`); doc text goes through `html_inline`/`html_block`, which escape it
//! and turn `code` spans into `<code>`.

use super::outline::{Block, Document, Section, Span};
use super::render::{escape_html as esc, html_block, html_inline};

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
pub(super) fn document(d: &Document) -> String {
    let (name, title) = (esc(&d.name), esc(&d.title));
    let mut out = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"isa-compiler ({name} spec)\">\n<title>{title}</title>\n\
         <style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    );
    for b in &d.blocks {
        block(&mut out, b);
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn block(out: &mut String, b: &Block) {
    match b {
        Block::Heading { level, anchor, text } => {
            out.push_str(&format!("\n<h{level} id=\"{}\">", esc(anchor)));
            spans(out, text);
            out.push_str(&format!("</h{level}>\n"));
        }
        Block::Para { text, note } => {
            out.push_str(if *note { "<p class=\"note\">" } else { "<p>" });
            spans(out, text);
            out.push_str("</p>\n");
        }
        Block::Doc(doc) => out.push_str(&html_block(doc)),
        Block::Pre(text) => {
            out.push_str("<pre>");
            out.push_str(&esc(text));
            out.push_str("</pre>\n");
        }
        Block::Table { head, rows } => {
            out.push_str("<table>\n<tr>");
            for h in head {
                out.push_str("<th>");
                spans(out, h);
                out.push_str("</th>");
            }
            out.push_str("</tr>\n");
            for r in rows {
                out.push_str(if r.view { "<tr class=\"view\">" } else { "<tr>" });
                for c in &r.cells {
                    out.push_str("<td>");
                    spans(out, c);
                    out.push_str("</td>");
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</table>\n");
        }
        Block::List(items) => {
            out.push_str("<ul>\n");
            for item in items {
                out.push_str("<li>");
                spans(out, item);
                out.push_str("</li>\n");
            }
            out.push_str("</ul>\n");
        }
        Block::Contents(sections) => contents(out, sections),
    }
}

/// The navigation: a list per section with tables, then links to the other sections.
fn contents(out: &mut String, sections: &[Section]) {
    out.push_str("\n<h2 id=\"contents\">Contents</h2>\n<nav>\n");
    let mut flat = Vec::new();
    for s in sections {
        if s.entries.is_empty() {
            flat.push(format!("<a href=\"#{}\">{}</a>", s.anchor, s.title));
            continue;
        }
        out.push_str(&format!("<h3>{}</h3>\n<ul>\n", s.title));
        for (name, anchor) in &s.entries {
            out.push_str(&format!("<li><a href=\"#{}\"><code>{}</code></a></li>\n", esc(anchor), esc(name)));
        }
        out.push_str("</ul>\n");
    }
    if !flat.is_empty() {
        out.push_str(&format!("<p>{}</p>\n", flat.join(" · ")));
    }
    out.push_str("</nav>\n");
}

fn spans(out: &mut String, text: &[Span]) {
    for s in text {
        match s {
            Span::Doc(t) => out.push_str(&html_inline(t)),
            Span::Plain(t) => out.push_str(&esc(t)),
            Span::Code(t) | Span::Name(t) => {
                out.push_str("<code>");
                out.push_str(&esc(t));
                out.push_str("</code>");
            }
            Span::Strong(t) => {
                out.push_str("<strong>");
                out.push_str(&esc(t));
                out.push_str("</strong>");
            }
            Span::Link(label, anchor) => {
                out.push_str(&format!("<a href=\"#{}\">", esc(anchor)));
                spans(out, label);
                out.push_str("</a>");
            }
            Span::Break => out.push_str("<br>"),
        }
    }
}

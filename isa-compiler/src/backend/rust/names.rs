//! Rust names for spec names: `alu_small_imm` → `AluSmallImm`, `f1_256` → `F1_256`.

use proc_macro2::{Ident, Span};

/// CamelCase for types and variants; an underscore stays between two digits.
pub fn camel(name: &str) -> String {
    let mut out = String::new();
    for part in name.split('_').filter(|p| !p.is_empty()) {
        if out.ends_with(|c: char| c.is_ascii_digit()) && part.starts_with(|c: char| c.is_ascii_digit()) {
            out.push('_');
        }
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    // `self`'s CamelCase is the keyword `Self`, which no identifier may be (raw or not).
    if out == "Self" {
        out.push('_');
    }
    out
}

/// snake_case for functions, fields and modules. A word starts at a capital after a lower-case
/// letter or a digit, and at the last capital of a run that a lower-case letter follows, so an
/// acronym stays one word: `VectorOpNOP` → `vector_op_nop`, `HTTPServer` → `http_server`,
/// `ICond` → `i_cond`.
pub fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            let starts = match i.checked_sub(1).map(|j| chars[j]) {
                Some(p) if p.is_ascii_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_ascii_uppercase() => next_lower,
                _ => false,
            };
            if starts && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// An operation's part of its `Semantics` method (`{enum}_{part}`): its [`snake`] name without
/// leading underscores and with every run of them one, which rustc's `non_snake_case` asks of
/// the joined name (`_y` is `op_y`, not `op__y`; `a__b` is `op_a_b`).
pub fn method_part(name: &str) -> String {
    let mut out = String::new();
    for c in snake(name).trim_start_matches('_').chars() {
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    out
}

/// SCREAMING_SNAKE_CASE for statics.
pub fn upper(name: &str) -> String {
    snake(name).to_ascii_uppercase()
}

/// An identifier, raw (`r#type`) where the name is a Rust keyword.
pub fn ident(name: &str) -> Ident {
    if !can_be_raw(name) {
        Ident::new(&format!("{name}_"), Span::call_site())
    } else if is_keyword(name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// [`ident`] as text.
pub fn ident_text(name: &str) -> String {
    if !can_be_raw(name) {
        format!("{name}_")
    } else if is_keyword(name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// Whether `name` may be written raw: `self`, `Self`, `super` and `crate` may not (`r#self`
/// is no identifier), so a field or value of that name is written with a `_` after it.
fn can_be_raw(name: &str) -> bool {
    !matches!(name, "self" | "Self" | "super" | "crate")
}

/// Whether `name` is a Rust keyword (or reserved), so only usable raw.
fn is_keyword(name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if",
        "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
        "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await",
        "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
        "virtual", "yield", "try", "gen",
    ];
    KEYWORDS.contains(&name)
}

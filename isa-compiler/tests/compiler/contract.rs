//! The IR is the one contract between the checker and the backends: no source file under
//! `src/backend/` reaches the syntax tree (`crate::ast`) or the checker (`crate::check`), by a
//! path, a `use` group or `super::` climbing. Files are read as Rust tokens, so comments and
//! strings do not count.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::path::{Path, PathBuf};

/// Modules a backend must not name.
const FORBIDDEN: [&str; 2] = ["ast", "check"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

fn is_ident(t: Option<&TokenTree>, name: &str) -> bool {
    matches!(t, Some(TokenTree::Ident(i)) if i == name)
}

fn is_path_sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!((tokens.get(i), tokens.get(i + 1)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
        if a.as_char() == ':' && b.as_char() == ':')
}

/// The first name of each item of a `use` group (`{ast, ir::Field}` → `ast`, `ir`).
fn group_heads(group: &TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    let mut at_start = true;
    for t in group.clone() {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => at_start = true,
            TokenTree::Ident(i) if at_start => {
                out.push(i.to_string());
                at_start = false;
            }
            _ => at_start = false,
        }
    }
    out
}

/// Every `crate::X` / `super::..::X` (and `crate::{X, ..}`) whose `X` is a forbidden module, in
/// order.
fn forbidden_paths(tokens: TokenStream) -> Vec<String> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    // Tokens before `resume` belong to a path already read (`super::super::..`).
    let mut resume = 0;
    for (i, t) in tokens.iter().enumerate() {
        if let TokenTree::Group(g) = t {
            out.extend(forbidden_paths(g.stream()));
        }
        let starts_path = is_ident(Some(t), "crate") || is_ident(Some(t), "super");
        if i < resume || !starts_path || !is_path_sep(&tokens, i + 1) {
            continue;
        }
        let mut j = i + 3;
        while is_ident(tokens.get(j), "super") && is_path_sep(&tokens, j + 1) {
            j += 3;
        }
        resume = j;
        let heads = match tokens.get(j) {
            Some(TokenTree::Ident(name)) => vec![name.to_string()],
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => group_heads(&g.stream()),
            _ => Vec::new(),
        };
        out.extend(heads.into_iter().filter(|name| FORBIDDEN.contains(&name.as_str())));
    }
    out
}

fn forbidden_in(text: &str) -> Vec<String> {
    let tokens: TokenStream = text.parse().unwrap_or_else(|e| panic!("not Rust: {e:?}"));
    forbidden_paths(tokens)
}

#[test]
fn the_detector_finds_every_spelling_of_a_forbidden_path() {
    let text = "use crate::ast::BinOp;\n\
        use crate::{ir, check::placeholder};\n\
        fn f() { let _ = super::super::ast::Span::default(); }\n\
        // crate::check in a comment\n\
        fn g() { let _ = \"crate::ast\"; let _ = crate::check_source(\"\"); let _ = crate::ir::Target::default; }\n\
        fn h() { quote!(#x); let _ = crate::check::placeholder; }\n";
    let found = forbidden_in(text);
    assert_eq!(found, ["ast", "check", "ast", "check"]);
}

#[test]
fn backends_read_only_the_ir() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/backend");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    // Every backend file is read: the Rust backend's modules and the docs.
    assert!(files.len() >= 12, "{files:?}");
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for name in forbidden_in(&text) {
            found.push(format!("{}: names `{name}`", path.display()));
        }
    }
    assert!(found.is_empty(), "backends must read only the IR:\n{}", found.join("\n"));
}

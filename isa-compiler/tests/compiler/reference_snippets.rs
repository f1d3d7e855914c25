//! The language reference (`isa-specs/README.md`) stays honest. Its fenced blocks are read by
//! info string:
//!
//! - ```` ```isa ````: a complete spec file that the parser accepts and the checker rejects (a
//!   planned feature the grammar already has; the text around it says so);
//! - ```` ```isa check ````: one that the checker accepts too;
//! - ```` ```isa fails ````: one that parses but that the checker rejects; the next fenced block
//!   (```` ```text ````) is exactly what `isa_compiler::diag::render` prints for it;
//! - ```` ```isa-proposed ```` and every other info string: not read (proposed syntax, Rust, ...).

use isa_compiler::{ast, check_source, diag, parse};

/// The file name the reference's example diagnostics are rendered with.
const EXAMPLE_FILE: &str = "demo.isa";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Parse,
    Check,
    Fails,
    Other,
}

/// A fenced block: its kind, the line of its opening fence (1-based) and its text.
struct Block {
    kind: Kind,
    line: usize,
    text: String,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (n, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (open.as_mut(), fence) {
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some(block), None) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, Some(info)) => {
                let words: Vec<&str> = info.split_whitespace().collect();
                let kind = match words.as_slice() {
                    ["isa"] => Kind::Parse,
                    ["isa", "check"] => Kind::Check,
                    ["isa", "fails"] => Kind::Fails,
                    _ => Kind::Other,
                };
                open = Some(Block { kind, line: n + 1, text: String::new() });
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "the markdown ends inside a fenced block");
    out
}

fn readme() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../isa-specs/README.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

#[test]
fn every_isa_block_parses_and_isa_check_blocks_check() {
    let all = blocks(&readme());
    let mut failures = Vec::new();
    let (mut parsed, mut checked, mut failing) = (0, 0, 0);
    for (i, b) in all.iter().enumerate() {
        if b.kind == Kind::Other {
            continue;
        }
        let name = format!("README.md block at line {}", b.line);
        match parse::parse_file(&b.text) {
            Err(d) => {
                failures.push(format!(
                    "block at line {} does not parse:\n{}",
                    b.line,
                    diag::render(&name, &b.text, &d.into())
                ));
                continue;
            }
            Ok(file) if !matches!(file.items.first(), Some(ast::Item::Target(_))) => {
                failures.push(format!("block at line {} does not start with a `target` item", b.line));
                continue;
            }
            Ok(_) => parsed += 1,
        }
        match (b.kind, check_source(&b.text)) {
            (Kind::Check, Ok(_)) => checked += 1,
            (Kind::Check, Err(ds)) => failures.push(format!(
                "block at line {} (```isa check) does not check:\n{}",
                b.line,
                diag::render(&name, &b.text, &ds)
            )),
            (Kind::Parse, Ok(_)) => failures.push(format!(
                "block at line {} (```isa) now passes the checker: mark it ```isa check and \
                 update the text that says it is not implemented",
                b.line
            )),
            (Kind::Fails, Ok(_)) => {
                failures.push(format!("block at line {} (```isa fails) passes the checker", b.line))
            }
            (Kind::Fails, Err(ds)) => {
                failing += 1;
                let rendered = diag::render(EXAMPLE_FILE, &b.text, &ds);
                match all.get(i + 1) {
                    Some(next) if next.kind == Kind::Other && next.text == rendered => {}
                    _ => failures.push(format!(
                        "the block after line {} must be a ```text block holding exactly:\n{rendered}",
                        b.line
                    )),
                }
            }
            _ => {}
        }
    }
    eprintln!("README.md: {parsed} ```isa blocks parse, {checked} check, {failing} fail as shown");
    assert!(parsed > 0, "no ```isa blocks found in isa-specs/README.md");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn blocks_are_told_apart_by_info_string() {
    let md = "text\n```isa check\ntarget a { }\n```\n```isa-proposed\nnot read\n```\n\
              ```rust\nfn f() {}\n```\n```isa\ntarget b { }\n```\n";
    let kinds: Vec<(Kind, usize)> = blocks(md).iter().map(|b| (b.kind, b.line)).collect();
    assert_eq!(kinds, [(Kind::Check, 2), (Kind::Other, 5), (Kind::Other, 8), (Kind::Parse, 11)]);
    assert_eq!(blocks(md)[3].text, "target b { }\n");
}

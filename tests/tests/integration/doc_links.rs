//! Documentation a user can follow from a clone: every relative Markdown link (`](path)`) and
//! every backticked relative path (`` `isa-specs/vc4.isa` ``) in every Markdown file of the
//! repository names a file or directory inside the repository. Paths of the machine a note was
//! written on (`/work/...`) or of a sibling checkout (`../../shared/...`) fail here.

use std::path::{Path, PathBuf};

/// The repository's root, canonical.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("repository root")
}

/// Every `*.md` file under `dir`, skipping hidden directories and build output.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            markdown_files(&path, out);
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The prose lines of a Markdown file: fenced code blocks (```` ``` ````, `~~~`) are left out.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|c| *c == '`' || *c == '~').collect();
        match &fence {
            Some(open) if marker.len() >= open.len() && marker.starts_with(&open[..1]) => fence = None,
            Some(_) => {}
            None if marker.len() >= 3 => fence = Some(marker),
            None => out.push((i + 1, line)),
        }
    }
    out
}

/// The targets of `](target)` links on a line.
fn link_targets(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        out.push(after[..end].split_whitespace().next().unwrap_or(""));
        rest = &after[end..];
    }
    out
}

/// The line without its inline code spans (a link written inside code is not a link).
fn without_code(line: &str) -> String {
    let mut out = line.to_string();
    for span in code_spans(line) {
        out = out.replacen(span, "", 1);
    }
    out
}

/// The contents of inline code spans on a line (a run of N backticks up to the next run of N).
fn code_spans(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let n = bytes[i..].iter().take_while(|b| **b == b'`').count();
        let start = i + n;
        let mut j = start;
        let mut close = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let m = bytes[j..].iter().take_while(|b| **b == b'`').count();
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
                out.push(line[start..j].trim());
                i = j + n;
            }
            None => i = start,
        }
    }
    out
}

/// Whether a code span reads as a path in this repository, or as a path that would have to be:
/// `./x`, `../x`, an absolute `/dir/file`, or a path under one of the repository's top-level
/// entries (`isa-specs/vc4.isa`). Paths inside other projects (`src/gallium/...`) are citations
/// of those projects, not of this one.
fn is_local_path(span: &str, top_level: &[String]) -> bool {
    if span.is_empty() || span.chars().any(char::is_whitespace) || !span.contains('/') || span.contains("://")
    {
        return false;
    }
    let path_chars = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric() || "._-/*".contains(c));
    if let Some(abs) = span.strip_prefix('/') {
        return path_chars(abs) && abs.split('/').filter(|c| !c.is_empty()).count() >= 2;
    }
    if span.starts_with("./") || span.starts_with("../") {
        return true;
    }
    let first = span.split('/').next().unwrap_or("");
    path_chars(span) && top_level.iter().any(|t| t == first)
}

/// `*` in a file name matches any run of characters.
fn wildcard_match(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (0..=name.len() - head.len()).any(|k| {
                    name.is_char_boundary(head.len() + k) && wildcard_match(tail, &name[head.len() + k..])
                })
        }
    }
}

/// Whether `path` (relative to `base`, or absolute) names something inside `root`; a `*` in its
/// last component must match at least one entry there.
fn resolves_inside(root: &Path, base: &Path, path: &str) -> bool {
    let path = path.trim_end_matches('/');
    let joined = if path.starts_with('/') { PathBuf::from(path) } else { base.join(path) };
    let inside = |p: &Path| p.canonicalize().is_ok_and(|c| c.starts_with(root));
    let name = joined.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name.contains('*') {
        let Some(dir) = joined.parent() else { return false };
        return inside(dir)
            && std::fs::read_dir(dir).is_ok_and(|entries| {
                entries.flatten().any(|e| wildcard_match(&name, &e.file_name().to_string_lossy()))
            });
    }
    inside(&joined)
}

#[test]
fn every_relative_link_and_path_resolves_inside_the_repository() {
    let root = root();
    let top_level: Vec<String> = std::fs::read_dir(&root)
        .expect("read the root")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "target")
        .collect();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    files.sort();
    assert!(files.len() >= 5, "found only {files:?}");
    let mut broken = Vec::new();
    let (mut links, mut paths) = (0, 0);
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read a Markdown file");
        let dir = file.parent().unwrap_or(&root);
        let shown = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        for (n, line) in prose_lines(&text) {
            for target in link_targets(&without_code(line)) {
                let target = target.split('#').next().unwrap_or("");
                if target.is_empty() || target.contains(':') {
                    continue; // an anchor on this page, or a URL
                }
                links += 1;
                if !resolves_inside(&root, dir, target) {
                    broken.push(format!("{shown}:{n}: link `{target}`"));
                }
            }
            for span in code_spans(line) {
                if !is_local_path(span, &top_level) {
                    continue;
                }
                paths += 1;
                // Relative to the file, or to the repository's root as prose usually means.
                if !resolves_inside(&root, dir, span) && !resolves_inside(&root, &root, span) {
                    broken.push(format!("{shown}:{n}: path `{span}`"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} links or paths lead outside the repository:\n{}",
        broken.len(),
        broken.join("\n")
    );
    // The check looked at something: the reference alone links to its research notes.
    assert!(links >= 5 && paths >= 10, "only {links} links and {paths} paths checked");
}

#[test]
fn the_path_checker_tells_paths_apart() {
    let top = vec!["isa-specs".to_string(), "docs".to_string()];
    assert!(is_local_path("isa-specs/vc4.isa", &top));
    assert!(is_local_path("../../shared/reference/facts/", &top));
    assert!(is_local_path("/work/shared/seeds/003.txt", &top));
    assert!(!is_local_path("src/gallium/drivers/vc4/vc4_qpu.h", &top), "another project's path");
    assert!(!is_local_path("//", &top));
    assert!(!is_local_path("/UnaryAbs", &top));
    assert!(!is_local_path("a / b", &top));
    assert_eq!(code_spans("a `x` b ``y ` z`` c"), vec!["x", "y ` z"]);
    assert_eq!(link_targets("see [a](b.md) and [c](https://x.org/d)"), vec!["b.md", "https://x.org/d"]);
    assert!(link_targets(&without_code("`.uniforms [i](.l|.h)`")).is_empty());
    assert!(wildcard_match("vc4asm_*.tsv", "vc4asm_asm_golden.tsv"));
    assert!(!wildcard_match("vc4asm_*.tsv", "mesa_golden.tsv"));
    let root = root();
    assert!(resolves_inside(&root, &root.join("isa-specs"), "../docs/research/seeds.md"));
    assert!(!resolves_inside(&root, &root.join("isa-specs"), "../../"));
    assert!(resolves_inside(&root, &root, "tests/data/vc4/vc4asm_*.tsv"));
}

/// Issue 14, "Documentation a user can follow from a clone": the README says how to install
/// the command and how long the first build and the test suite take, and the language
/// reference says how a downstream crate uses a spec (`target!`).
#[test]
fn a_user_can_follow_the_documentation_from_a_clone() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    assert!(readme.contains("```sh\ncargo install --path isa-cli\n```"), "no install command");
    // The first build's time as the README gives it, within the project's goal (45 s).
    let seconds = readme
        .split_once("the main job takes about ")
        .and_then(|(_, rest)| rest.split_once(" seconds"))
        .and_then(|(n, _)| n.parse::<u32>().ok());
    assert!(seconds.is_some_and(|s| s < 45), "no build time, or past the goal: {seconds:?}");
    assert!(readme.contains("the test suite about 3 minutes"), "no test-suite time");
    let reference = std::fs::read_to_string(root.join("isa-specs/README.md")).expect("read the reference");
    assert!(reference.contains("### Using a spec from your own crate: `target!`"), "no target! section");
    assert!(reference.contains("isa_derive::target!(\"../../isa-specs/sph.isa\");"), "no target! example");
}

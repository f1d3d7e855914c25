//! `summary` and `part_order` target settings (isa-specs/README.md §2): what they lower to, and
//! what a mistake in them is told as, at its place in the spec.

use crate::common::diagnose;

/// A target with `settings` and one format holding `row` (scalar) and `lanes` (an array).
fn spec(settings: &str) -> String {
    format!(
        "target t {{\n    word 64\n    dialect asm\n{settings}}}\nformat link {{\n    row: u6 @ 14:9\n    lanes[2]: bool @ 16 + i\n    unused @ [63:18, 15, 8:0]\n    syntax asm {{ \"l \" {{row}} }}\n}}\n"
    )
}

#[test]
fn a_summary_and_a_part_order_lower_to_the_ir() {
    let source = spec("    part_order low_first\n    summary rows { max row; plus 1; least 1 }\n");
    let t = isa_compiler::check_source(&source)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &source, &d)));
    assert!(t.parts_low_first);
    let s = &t.summaries[0];
    assert_eq!((s.name.as_str(), s.field.as_str(), s.plus, s.least), ("rows", "row", 1, 1));
    let t = isa_compiler::check_source(&spec("")).expect("no settings");
    assert!(!t.parts_low_first && t.summaries.is_empty());
}

#[test]
fn summary_mistakes_are_located() {
    let d = diagnose(&spec("    summary rows { max colour; plus 1 }\n"));
    assert!(d.contains("no instruction format has a field `colour`"), "{d}");
    assert!(d.contains("bad.isa:4:24"), "{d}");
    let d = diagnose(&spec("    summary rows { max lanes }\n"));
    assert!(d.contains("`lanes` of format `link` is not a stored scalar field"), "{d}");
    let d = diagnose(&spec("    summary rows { plus 1 }\n"));
    assert!(d.contains("summary `rows` names no field"), "{d}");
    let d = diagnose(&spec("    summary rows { max row; times 2 }\n"));
    assert!(d.contains("a summary says `max field`, `plus n` and `least n`"), "{d}");
    let d = diagnose(&spec("    summary rows { max row }\n    summary rows { max row }\n"));
    assert!(d.contains("summary `rows` declared twice"), "{d}");
    let d = diagnose(&spec("    part_order sideways\n"));
    assert!(d.contains("part order is `high_first` or `low_first`"), "{d}");
}

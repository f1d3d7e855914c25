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

/// Issue 14: each program rule's reach (instructions before and after the outermost
/// variable's) is in the IR, from the rule's index expressions. vc4.isa's rules, as
/// Broadcom's reference states them: the thread end and its two delay slots (0, 2), the
/// previous instruction (1, 0), three after a TMU_NOSWAP write (0, 3); none reaches further.
#[test]
fn rules_say_how_far_they_reach() {
    let t = isa_compiler::check_source(include_str!("../../../isa-specs/vc4.isa")).expect("vc4.isa");
    let reach = |name: &str| t.rules.iter().find(|r| r.name == name).map(|r| r.reach);
    assert_eq!(reach("thread_end_fifo"), Some(Some((0, 2))));
    assert_eq!(reach("thread_end_physical"), Some(Some((0, 0))));
    assert_eq!(reach("read_after_write"), Some(Some((1, 0))));
    assert_eq!(reach("thread_end_tlbz"), Some(Some((0, 2))));
    assert_eq!(reach("tmu_noswap"), Some(Some((0, 3))));
    assert_eq!(reach("early_scoreboard_wait"), Some(Some((0, 0))));
    let widest =
        t.rules.iter().map(|r| r.reach.expect("bounded")).fold((0, 0), |a, r| (a.0.max(r.0), a.1.max(r.1)));
    assert_eq!(widest, (1, 3));
    // The innermost variable (where a violation is reported) counts as an index, and an
    // outermost range ending at `len - 5` is decided once instruction `i + 4` is read.
    let bounded = spec_with_rules(concat!(
        "rule a \"a\" { each i in 0..=len - 5: !p[i] }\n",
        "rule b \"b\" { each i: each j in i..=i + 4: !p[i] }\n",
        "rule c \"c\" { each i in 2..=len + 1: each j in i - 2..=i - 1: !p[j] }\n",
        "rule d \"d\" { each i in 0..=len - 1: each j in i - 3..=i + 1: !p[i] }\n",
    ));
    let t = isa_compiler::check_source(&bounded)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &bounded, &d)));
    let reaches: Vec<_> = t.rules.iter().map(|r| r.reach).collect();
    assert_eq!(reaches, [Some((0, 4)), Some((0, 4)), Some((2, 0)), Some((3, 1))]);
    // A rule that indexes past its variables, or with `len`, may look anywhere: so may one
    // whose outermost range starts from the end or ends at a property.
    let anywhere = spec_with_rules(concat!(
        "rule a \"a\" { each i where p[i]: each j in 0..=i: !p[j] }\nrule b \"b\" { each i: !p[len - 1] }\n",
        "rule c \"c\" { each i in len - 2..=len - 1: !p[i] }\n",
        "rule e \"e\" { each i in 0..=len / 2: !p[i] }\n",
    ));
    let t = isa_compiler::check_source(&anywhere)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &anywhere, &d)));
    assert!(
        t.rules.iter().all(|r| r.reach.is_none()),
        "{:?}",
        t.rules.iter().map(|r| r.reach).collect::<Vec<_>>()
    );
}

/// [`spec`] with a property `p` and `rules`.
fn spec_with_rules(rules: &str) -> String {
    format!("{}property p: bool = false\n{rules}", spec(""))
}

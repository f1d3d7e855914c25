//! `table` target settings (isa-specs/README.md §2): tables of words a data section's entries
//! fill; what they lower to, and what a mistake in them is told as, at its place in the spec.

use crate::common::diagnose;

/// A target with the data section `.constants`, `table` settings and an fx10 number format.
fn spec(table: &str) -> String {
    format!(
        "target t {{\n    word 32\n    dialect asm {{ data_section \".constants\" }}\n{table}}}\nnumber fx10 = fixed(width: 10, fraction: 8, signed)\nformat nop {{\n    unused @ 31:0\n    syntax asm {{ \"nop\" }}\n}}\n"
    )
}

#[test]
fn a_table_lowers_to_the_ir() {
    let source = spec(
        "    table c { section \".constants\"; entries 8; part v { word 1; bits 32 }; part h { lsb 10; number fx10 }; plain v }\n",
    );
    let t = isa_compiler::check_source(&source)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("s.isa", &source, &d)));
    let c = &t.tables[0];
    assert_eq!((c.name.as_str(), c.section.as_str(), c.entries, c.words), ("c", ".constants", 8, 2));
    let parts: Vec<(&str, u32, u32, u32, bool)> =
        c.parts.iter().map(|p| (p.name.as_str(), p.word, p.lsb, p.bits, p.number.is_some())).collect();
    assert_eq!(parts, [("", 1, 0, 32, false), ("h", 0, 10, 10, true)]);
}

#[test]
fn table_mistakes_are_located() {
    let d = diagnose(&spec(
        "    table c { section \".constants\"; entries 8; part h { lsb 30; number fx10 } }\n",
    ));
    assert!(d.contains("part `h` must lie within its 32-bit word"), "{d}");
    assert!(d.contains("bad.isa:4:53"), "{d}");
    let d = diagnose(&spec("    table c { section \".constants\"; entries 8; part h { number fx11 } }\n"));
    assert!(d.contains("unknown number format `fx11`"), "{d}");
    let d = diagnose(&spec("    table c { section \".data\"; entries 8 }\n"));
    assert!(d.contains("`.data` is not a `data_section` of every dialect"), "{d}");
    let d = diagnose(&spec("    table c { entries 8 }\n"));
    assert!(d.contains("table `c` needs its `section` and `entries`"), "{d}");
    let d = diagnose(&spec("    table c { section \".constants\"; entries 8; plain q }\n"));
    assert!(d.contains("table `c` has no part `q`"), "{d}");
    let d = diagnose(&spec("    table c { section \".constants\"; entries 8; colour 3 }\n"));
    assert!(d.contains("unknown or malformed table setting `colour`"), "{d}");
}

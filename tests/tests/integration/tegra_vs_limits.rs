//! grate's limits on vertex programs (grate-driver/grate `src/libgrate/vertex_asm_parser.y`,
//! facts-tegra-agx.md A.2) are assembly errors at the operand that breaks them, with line and
//! column: each case names the text the error points at, and its column is that text's place in
//! the line.

use isa_generated::tegra_vs::TegraVs;
use isa_runtime::target::assemble_program;

/// (grate's check, program text, the text the error is at).
const LIMITS: &[(&str, &str, &str)] = &[
    ("Invalid destination register index (r0..r31 or r63)", "EXEC MOVv r32.xyzw, a[0].xyzw ;", "r32"),
    ("Invalid destination register index", "EXEC NOPv RCPs r62.x***, c[0].xxxx ;", "r62"),
    ("Invalid source register index (r0..r31)", "EXEC MOVv r0.xyzw, r32.xyzw ;", "r32"),
    ("Invalid source register index (u0..u31)", "EXEC MOVv r0.xyzw, u40.xyzw ;", "u40"),
    ("Invalid export register index (0..15 or 31)", "EXEC(export[16]=vector) MOVv r63.xyzw, r0.xyzw ;", "16"),
    ("Invalid export register index, relative", "EXEC(export[A0.x + 20]=vector) NOPv ;", "20"),
    ("Invalid attribute index (0..15)", "EXEC MOVv r0.xyzw, a[16].xyzw ;", "16"),
    ("Invalid attribute index, relative", "EXEC MOVv r0.xyzw, a[A0.y + 16].xyzw ;", "16"),
    ("Invalid constant index (0..1023)", "EXEC MOVv r0.xyzw, c[1024].xyzw ;", "1024"),
    ("Invalid condition register index (0..1)", "EXEC(cr=2) NOPv ;", "2"),
    ("Invalid branching address, max 255", "EXEC BRAs 256 ;", "256"),
    ("Invalid callee address, max 255", "EXEC CALs 300 ;", "300"),
];

#[test]
fn each_limit_is_an_error_at_its_operand() {
    for (check, text, at) in LIMITS {
        // A statement over two lines, as grate's programs write them: the error keeps its line.
        let source = format!(".asm\nEXEC NOPv NOPs ;\n{}", text.replacen("EXEC", "EXEC\n\t", 1));
        let line =
            source.lines().position(|l| l.contains(at) && !l.starts_with("EXEC NOPv NOPs")).unwrap() + 1;
        let column = source.lines().nth(line - 1).unwrap().find(at).unwrap() + 1;
        match assemble_program::<TegraVs>(&source, 0) {
            Ok(words) => panic!("{check}: `{text}` assembles to {words:x?}"),
            Err(e) => assert_eq!((e[0].line, e[0].column), (line, column), "{check}: `{text}`: {e:?}"),
        }
    }
}

/// What one instruction can hold: one attribute index, one constant index, one A0 component,
/// one rC (vertex_asm_parser.y: "Two different attribute indexes", "Two different constant
/// indexes", "Two different relative addresses used", "rC type conflict", "rC number
/// conflict"): the error is at the operand that disagrees with an earlier one.
#[test]
fn one_fetch_index_per_instruction() {
    for (check, text, at) in [
        ("Two different constant indexes", "EXEC MULv r0.xyzw, c[0].xyzw, c[1].xyzw ;", "c[1]"),
        ("Two different attribute indexes", "EXEC MULv r0.xyzw, a[0].xyzw, a[1].xyzw ;", "a[1]"),
        ("Two different relative addresses used", "EXEC MULv r0.xyzw, a[A0.x].xyzw, c[A0.y].xyzw ;", "y]"),
        ("rC type conflict", "EXEC ADDv r0.xyzw, r1.xyzw, r2.xyzw RCPs r3.x***, c[0].xxxx ;", "c[0]"),
        ("rC number conflict", "EXEC ADDv r0.xyzw, r1.xyzw, r2.xyzw RCPs r3.x***, r4.xxxx ;", "r4"),
    ] {
        let source = format!("EXEC NOPv NOPs ;\n{text}");
        let e = assemble_program::<TegraVs>(&source, 0).expect_err(check);
        assert_eq!((e[0].line, e[0].column), (2, text.find(at).unwrap() + 1), "{check}: {e:?}");
    }
    // The same index twice, and the same rC read by both operations, are one fetch.
    for text in [
        "EXEC MULv r0.xyzw, c[5].xyzw, c[5].wzyx ;",
        "EXEC MULv r0.xyzw, a[A0.z + 1].xyzw, c[A0.z + 2].xyzw ;",
        "EXEC ADDv r0.xyzw, r1.xyzw, r2.xyzw RCPs r3.x***, r2.xyzw ;",
    ] {
        assert!(assemble_program::<TegraVs>(text, 0).is_ok(), "{text}");
    }
}

/// grate keeps 256 vertex instructions ("Over 256 vertex instructions"): the 257th is the
/// error, at its line and column; 256 assemble.
#[test]
fn at_most_256_instructions() {
    let full = "EXEC NOPv NOPs ;\n".repeat(256);
    assert_eq!(assemble_program::<TegraVs>(&full, 0).map(|w| w.len()), Ok(256));
    let over = format!("{full}  EXEC MOVv r0.xyzw, r1.xyzw ;\nEXEC NOPv NOPs ;\n");
    let e = assemble_program::<TegraVs>(&over, 0).expect_err("257 instructions");
    assert_eq!(e.len(), 1, "one error: {e:?}");
    assert_eq!((e[0].line, e[0].column), (257, 3), "{e:?}");
    assert!(e[0].message.contains("256"), "{}", e[0].message);
}

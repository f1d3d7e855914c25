//! A dialect with both statement separators (tegra: statements over several lines, block
//! comments, sections) and the directive core (symbols, conditionals, macros, expressions):
//! the assembler reads the statements, then expands the directives in them.

mod stmt {
    isa_derive::target!("data/specs/statements_directives.isa");
}

use isa_runtime::target::assemble_program;

fn words(source: &str) -> Vec<u128> {
    match assemble_program::<stmt::Stmt>(source, 0) {
        Ok(words) => words,
        Err(errors) => panic!("{source:?} does not assemble: {errors:?}"),
    }
}

#[test]
fn directives_work_in_statements_spanning_lines() {
    let source = "\
.constants [0] = 1.0;
.asm
.set N, 3 * 2;
li r1,
   N + 1; /* a block
comment */ add r1, r2;
.if N > 5; li r2, -N; .else; li r2, N; .endif;
";
    // li r1, 7; add r1, r2; li r2, -6
    assert_eq!(words(source), vec![0x4107, 0x0140, 0x42fa]);
}

#[test]
fn macros_expand_in_separated_statements() {
    let source = ".macro inc, R; add R, r7; .endm; inc r3; inc r4;";
    assert_eq!(words(source), vec![0x03e0, 0x04e0]);
}

#[test]
fn an_error_in_a_statement_over_lines_is_at_its_line() {
    let source = ".set N, 1;\nli r1,\n  M;";
    let errors = assemble_program::<stmt::Stmt>(source, 0).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].line, errors[0].column), (3, 3), "{errors:?}");
}

/// Files for `.include`, in memory.
struct Files(&'static [(&'static str, &'static str)]);

impl isa_runtime::directives::Includer for Files {
    fn load(&mut self, name: &str, _: bool, _: Option<&str>) -> Result<(String, String), String> {
        let found = self.0.iter().find(|(n, _)| *n == name);
        found.map(|(n, t)| (n.to_string(), t.to_string())).ok_or_else(|| format!("cannot find `{name}`"))
    }
}

#[test]
fn an_included_file_is_read_in_statements_too() {
    // The included file's statements span lines and share them, as the main source's do.
    const LIB: &str = ".set N, 2;\n.macro inc, R;\n  add R,\n    r7; .endm;\nli r1,\n  N;";
    let mut errors = Vec::new();
    let words = isa_runtime::target::assemble_files::<stmt::Stmt>(
        "main",
        ".include \"lib\"; inc r3;\nli r2, N + 1;",
        0,
        &mut Files(&[("lib", LIB)]),
        &mut |e, _| errors.push(e.clone()),
    );
    assert!(errors.is_empty(), "{errors:?}");
    // li r1, 2; add r3, r7; li r2, 3
    assert_eq!(words, Some(vec![0x4102, 0x03e0, 0x4203]));
    // An error on the second line of a statement of the included file is at that line.
    let mut errors = Vec::new();
    isa_runtime::target::assemble_files::<stmt::Stmt>(
        "main",
        ".include \"bad\";",
        0,
        &mut Files(&[("bad", "li r1,\n  M;")]),
        &mut |e, _| errors.push(e.clone()),
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!((errors[0].file.as_deref(), errors[0].line, errors[0].column), (Some("bad"), 2, 3));
}

//! The directive core under the other dialects' spellings (issue 16): constants (`.set`,
//! `.equ`), labels in expressions, includes, conditionals, repetition, macros and data, each in
//! the spelling its dialect declares. The words are those of the same program written out by
//! hand, and facts of each target (AGX: applegpu's bytes; Tegra: grate's words).

use isa_runtime::target::Target;
use isa_tests::MemoryFiles as Files;

fn target(name: &str) -> &'static dyn Target {
    isa_generated::targets().iter().copied().find(|t| t.name() == name).expect("target")
}

fn assemble(t: &str, source: &str, files: &'static [(&'static str, &'static str)]) -> Vec<u128> {
    let mut errors = Vec::new();
    let words = target(t).assemble_files("main.s", source, 0, &mut Files(files), &mut |e, _| {
        errors.push(format!("{}:{}: {}", e.line, e.column, e.message))
    });
    assert!(errors.is_empty(), "{t}: {errors:#?}");
    words.expect("words")
}

#[test]
fn agx_in_gnu_as_spelling() {
    // applegpu: `wait 1` is the bytes 38 01, `mov_imm r0l, 5` 62 00 05 00, `stop` 88 00 (each
    // word below is one instruction's bytes read little-endian); then `.hword 0x1234` and a
    // `.byte` of a label difference (2). (Labels after instructions of different lengths are
    // laid out at the widest length for now; the difference here spans data only.)
    let source = "\
.include \"consts.s\"
.equ TWO, 2
.rep TWO
.if WAIT
wait 1
.endif
.endr
mov_imm r0l, FIVE
first:
.hword 0x1234
second:
.byte second - first
stop
";
    let files: &[(&str, &str)] = &[("consts.s", ".set FIVE, 5\n.set WAIT, 1\n")];
    let plain = assemble("agx", "wait 1\nwait 1\nmov_imm r0l, 5\n.short 0x1234\n.byte 2\nstop\n", &[]);
    let got = assemble("agx", source, files);
    assert_eq!(got, plain);
    assert_eq!(got, [0x0138, 0x0138, 0x0005_0062, 0x02_1234, 0x0088]);
}

#[test]
fn tegra_vertex_program_in_gnu_as_spelling() {
    // vs_mov (facts A.3): grate's words for its two instructions, written through a macro,
    // constants for the attribute and the export index, and an included file. grate's
    // statements end with `;`, directives too.
    let source = "\
.include \"regs.s\";
.macro move, dst, src;
EXEC(export[EXPORT]=vector) MOVv dst.xyzw, src.xyzw NOPs;
.endm;
.asm
move r0, a[ATTR];
EXEC_END NOPv NOPs;
";
    let files: &[(&str, &str)] = &[("regs.s", ".equ ATTR, 0; .set EXPORT, 0;\n")];
    assert_eq!(
        assemble("tegra_vs", source, files),
        [0x4000006c_0040000d_8106c003_6001ff80, 0x001f806c_0000000d_8006c003_60001ffd]
    );
}

//! The Tegra vertex target (`isa-specs/tegra_vs.isa`) on programs in grate's syntax: the
//! words grate's assembler makes for them (facts-tegra-agx.md A.3, derived from `vpe_vliw.h`
//! and `vertex_asm.y`) come out, part3 (bits 127:96) first.
//!
//! grate's own test programs (grate-driver/grate `tests/grate/asm/vs_*.txt` and the vertex
//! shaders of its tests) are not in this repository: the tests on them are ignored and read
//! them from `ISA_GRATE_TESTS_DIR` (tests/data/tegra/README.md), keeping grate's words here.

use isa_generated::tegra_vs::TegraVs;
use isa_runtime::target::{assemble_program, disassemble_program};
use isa_tests::grate_program as program;

/// grate's 15 vertex programs.
const PROGRAMS: &[&str] = &[
    "cube2_vs.txt",
    "filter_quad_vs.txt",
    "sky_vs.txt",
    "stencil_test_vs.txt",
    "texture_wrap_vs.txt",
    "vs_attribute_relative_addressing.txt",
    "vs_branching.txt",
    "vs_constant.txt",
    "vs_constant_relative_addressing.txt",
    "vs_export_relative_addressing.txt",
    "vs_function.txt",
    "vs_mov.txt",
    "vs_predicate.txt",
    "vs_stack.txt",
    "vs_uniform.txt",
];

fn words(name: &str) -> Vec<u128> {
    assemble_program::<TegraVs>(&program(name), 0).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// Every program assembles, one word per `EXEC`, the last with its end bit; its listing is
/// grate's text (no raw words) and assembles back to the same words.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn every_vertex_program_assembles_and_lists_back() {
    for name in PROGRAMS {
        let w = words(name);
        let statements = program(name).split(".asm").nth(1).map_or(0, |code| {
            code.lines().map(|l| l.split("//").next().unwrap_or("")).filter(|l| l.contains(';')).count()
        });
        assert_eq!(w.len(), statements, "{name}");
        assert_eq!(w.last().map(|x| x & 1), Some(1), "{name}: the end bit");
        let listing: String =
            disassemble_program::<TegraVs>(&w, 0).iter().map(|l| format!("{}\n", l.text)).collect();
        assert!(!listing.contains(".word"), "{name}:\n{listing}");
        assert_eq!(assemble_program::<TegraVs>(&listing, 0), Ok(w), "{name}:\n{listing}");
    }
}

/// grate's words for `vs_mov.txt` (facts A.3): the second instruction carries the end bit the
/// assembler sets on the last instruction.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn vs_mov_is_grates_words() {
    assert_eq!(
        words("vs_mov.txt"),
        [0x4000006c_0040000d_8106c003_6001ff80, 0x4000006c_0040010d_8106c003_6001ff9d]
    );
}

/// grate's words for `vs_function.txt` (facts A.3): CAL's target in the rC swizzle bits, A0 as
/// ARL's destination (rD 0), relative attribute addressing, RET taking the vector rD (63) and
/// a left-out scalar operation leaving its rD at 0.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn vs_function_is_grates_words() {
    assert_eq!(
        words("vs_function.txt"),
        [
            0x0000086c_5b44d00d_8186c000_40019ffc,
            0x481f806c_0040020d_8106c003_6001e001,
            0x481f886d_6040050d_8106c003_6001ff9c,
            0x001f806c_0000000d_8006c003_60001ffd,
        ]
    );
}

/// Program text as grate reads it: keywords in any case, options in any order, the two
/// operations in either order, comments anywhere, statements over several lines; the words are
/// vs_mov's first instruction (facts A.3), then the last one with its end bit.
#[test]
fn grate_text_in_any_order_and_case_is_the_same_word() {
    const FIRST: u128 = 0x4000006c_0040000d_8106c003_6001ff80;
    const LAST: u128 = 0x001f806c_0000000d_8006c003_60001ffd;
    for text in [
        "EXEC(export[0]=vector) MOVv r0.xyzw, a[0].xyzw NOPs; EXEC_END NOPv NOPs;",
        "exec(EXPORT[0]=Vector) nops movv R0.XYZW, A[0].xyzw; exec_end nopv nops;",
        ".uniforms [0] = \"mvp\"; .asm\nEXEC /* a */ (export[0]=vector)\n\tNOPs // b\n\tMOVv r0.xyzw,\n a[0].xyzw\n;\nEXEC NOPv NOPs ;",
    ] {
        assert_eq!(assemble_program::<TegraVs>(text, 0), Ok(vec![FIRST, LAST]), "{text}");
    }
    // (lt)(eq)(gt) and export in any order: the NVIDIA blob's pass-through instruction with
    // grate's rD and types (facts A.3: bits 106..108 set, 0x401f9c6c in part3).
    let ordered = "EXEC(export[0]=vector)(lt)(eq)(gt) MOVv r63.xyzw, a[0].xyzw NOPs; EXEC NOPv NOPs;";
    let shuffled = "EXEC(gt)(eq)(export[0]=vector)(lt) NOPs MOVv r63.xyzw, a[0].xyzw; EXEC NOPv NOPs;";
    let words = assemble_program::<TegraVs>(ordered, 0).expect("assembles");
    assert_eq!(words[0] >> 96, 0x401f9c6c);
    assert_eq!(assemble_program::<TegraVs>(shuffled, 0), Ok(words));
}

/// An error inside a statement that spans lines is reported at its own line and column.
#[test]
fn errors_in_a_statement_over_several_lines_keep_their_line() {
    let text = ".asm\nEXEC\n\tMOVv r0.xyzw, q[0].xyzw\n;\n";
    let errors = assemble_program::<TegraVs>(text, 0).expect_err("q[] is no register");
    assert_eq!((errors[0].line, errors[0].column), (3, 16), "{errors:?}");
}

/// cube2_vs.txt's words, worked by hand from the bit layout (facts A.1; vpe_vliw.h), part3
/// first. Every instruction: export enable (bit 126, part3 0x40000000), rD 63 (bits 116:111,
/// 0x1f8000), the predicate swizzle's reset `xyzw` (0x1b at bits 105:98, 0x6c); rA an
/// attribute (type 2 at bits 56:55, part1 0x01000000) with swizzle 0x1b at bits 70:63 (part1
/// bit 31, part2 0x0d); rB's and rC's swizzles 0x1b (part1 0x6c000; part0 0x60000000 and part1
/// 0x3). DP4v (7 at bits 90:86, part2 0x01c00000) reads rB as a constant (type 3 at bits 39:38,
/// part1 0xc0) whose index is bits 85:76 (part2 0x1000 per row); each writes one lane (bits
/// 16..13 are x..w, part0 0x10000 down to 0x2000). MOVv (1, part2 0x400000) of a[1] (bit 72,
/// part2 0x100) writes x and y (0x18000) to export 7 (bits 6:2, 0x1c) and ends the program
/// (bit 0).
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn cube2_vs_is_the_hand_worked_words() {
    assert_eq!(
        words("cube2_vs.txt"),
        [
            0x401f806c_01c0000d_8106c0c3_60010000,
            0x401f806c_01c0100d_8106c0c3_60008000,
            0x401f806c_01c0200d_8106c0c3_60004000,
            0x401f806c_01c0300d_8106c0c3_60002000,
            0x401f806c_0040010d_8106c003_6001801d,
        ]
    );
}

/// stencil_test_vs.txt, worked as above: MOVv of a[0] to export 0, then of a[1] to export 7
/// with the end bit; no scalar operation, so the scalar rD (bits 12:7) stays 0.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn stencil_test_vs_is_the_hand_worked_words() {
    assert_eq!(
        words("stencil_test_vs.txt"),
        [0x401f806c_0040000d_8106c003_60018000, 0x401f806c_0040010d_8106c003_6001801d]
    );
}

// ---- Our own programs (tests/data/tegra), words worked by hand -------------------------------
//
// Each word below is put together field by field from the bit layout (facts A.1, grate's
// `vpe_vliw.h`) with the values `vertex_asm.y` gives them (facts A.2): `reset_instruction()`
// (export index 31, swizzles `xyzw`), NOPv/NOPs rD 63, a left-out scalar operation's rD 0, RET's
// rD the one the vector operation before it wrote, BRA/CAL's target in bits 36:29, c[]/a[]
// sources of index 0 with the fetch index in bits 85:76 / 75:72. The same construction gives
// grate's words for `vs_mov.txt` and `vs_function.txt` above.

fn own_words(name: &str) -> Vec<u128> {
    let text = isa_tests::tegra_program(name);
    assemble_program::<TegraVs>(&text, 0).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// `transform_vs.txt`: four DP4v rows (opcode 7, part2 0x01c00000) of a[0] (type 2, bits 56:55)
/// by c[0..3] (rB type 3, bits 39:38; fetch index 0..3 at bits 85:76) into one lane of r1 each
/// (x = bit 16 down to w = bit 13); MOVv r1 to export 0; MADv (4) with rB `c[4].xxxx` (swizzle
/// 0 at 53:46) and rC `c[4].yyyy` (0x55 at 36:29, type 3 at 22:21); MULv (2) with `-r1.wzyx` (rB
/// negate bit 54, swizzle 0x1b reversed = 0xe4) beside RCPs (2 at 95:91) of `-abs(c[4].yyyy)`
/// (rC negate 37, abs 119) writing r4.x (bit 20, rD 4 at 12:7); the last MOVv saturated
/// (bit 122) to export 7, with the end bit, its scalar slot left out (rD 0).
#[test]
fn transform_vs_is_the_hand_worked_words() {
    assert_eq!(
        own_words("transform_vs.txt"),
        [
            0x0000806c_01c0000d_8106c0c3_60011ffc,
            0x0000806c_01c0100d_8106c0c3_60009ffc,
            0x0000806c_01c0200d_8106c0c3_60005ffc,
            0x0000806c_01c0300d_8106c0c3_60003ffc,
            0x401f806c_0040000d_8286c003_6001ff80,
            0x0001006c_0100410d_810000ca_a061fffc,
            0x0081806c_1080400d_84f9016a_a071e27c,
            0x441f806c_0040000d_8486c003_6001e01d,
        ]
    );
}

/// `control_vs.txt`: `(cs)(cwr)(cr=1)` (bits 110, 125, 121) on ARLv A0 (13, rD 0); CALs 5 (11)
/// written before MOVv, with export and attribute relative to A0.y (bits 124, 123, select 1
/// at 97:96; export index 2, fetch index 1); `(eq) BRAs 4` (9) alone, the vector rD left at 0;
/// EX2s (14) of `abs(a[2].wwww)` exported as scalar to 3 (bit 126 clear); EXEC_END on ARAv (24);
/// `(p.xxyy)(gt)(cc)` (predicate swizzle 0x05 at 105:98, bits 108, 109) on SLTv (11) of
/// `c[A0.x + 20]` (bit 1, fetch index 20) and `-r3.yzwx`, RETs (12) taking SLTv's rD 5; PUSHAv
/// and POPAs (26, 20; rD 0) in lower case with `(lt)(bit120)`, ending the program.
#[test]
fn control_vs_is_the_hand_worked_words() {
    assert_eq!(
        own_words("control_vs.txt"),
        [
            0x2200406c_0340a00d_8186c003_60019ffc,
            0x581f806d_5840010d_8106c000_a001ff88,
            0x0000086c_4800000d_8006c000_80001ffc,
            0x0080006c_7000020d_8006c01f_e05e1f8c,
            0x0000006c_0600000d_8006c003_60011ffd,
            0x0002b014_62c1400d_81db0343_6001e2fe,
            0x0100046c_a680000d_8006c003_6000007d,
        ]
    );
}

/// Our programs list as grate's text (no raw words) that assembles back to the same words.
#[test]
fn own_vertex_programs_list_back() {
    for name in ["transform_vs.txt", "control_vs.txt"] {
        let w = own_words(name);
        let listing: String =
            disassemble_program::<TegraVs>(&w, 0).iter().map(|l| format!("{}\n", l.text)).collect();
        assert!(!listing.contains(".word"), "{name}:\n{listing}");
        assert_eq!(assemble_program::<TegraVs>(&listing, 0), Ok(w), "{name}:\n{listing}");
    }
}

//! The Tegra shader linker (`isa-specs/tegra_linker.isa`) on programs in grate's syntax: the
//! words grate's linker assembler makes (facts-tegra-agx.md A.6-A.7, worked from grate's
//! `linker_asm.h` layout and `linker_asm.y`), `first` (bits 31:0) and `latter` (63:32) in
//! one 64-bit word.
//!
//! grate's 6 linker programs (grate-driver/grate `tests/grate/asm/*_linker.txt`,
//! `linker_*.txt`) are not in this repository: the test on them is ignored and reads them from
//! `ISA_GRATE_TESTS_DIR` (tests/data/tegra/README.md), keeping grate's words here.

use isa_generated::tegra_linker::TegraLinker;
use isa_runtime::target::{
    assemble_one, assemble_program, disassemble_program, disassemble_word, program_json, summarize, Isa,
};
use isa_tests::Rng;

fn words(text: &str) -> Vec<u64> {
    let words = assemble_program::<TegraLinker>(text, 0).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    words.into_iter().map(|w| w as u64).collect()
}

/// The listing of `words` assembles back to them, with no raw words.
fn lists_back(words: &[u64]) {
    let wide: Vec<u128> = words.iter().map(|w| u128::from(*w)).collect();
    let listing: String =
        disassemble_program::<TegraLinker>(&wide, 0).iter().map(|l| format!("{}\n", l.text)).collect();
    assert!(!listing.contains(".word"), "{listing}");
    assert_eq!(assemble_program::<TegraLinker>(&listing, 0), Ok(wide), "{listing}");
}

/// Per component (x at bits 35:32, y at 39:36, ...): the TRAM type (NOP 0, fx10.l 1, fx10.h 2,
/// fp20 3) << 2 | the exported component it takes (x 0 .. w 3); facts A.7 gives `LINK fp20,
/// fp20, fp20, fp20, tram0.yxzw, export1` as first 0x00000008 (export 1 at bits 6:3), latter
/// 0x0000FECD.
#[test]
fn the_facts_worked_link_is_grates_word() {
    assert_eq!(words("LINK fp20, fp20, fp20, fp20, tram0.yxzw, export1"), [0x0000fecd_00000008]);
}

/// `varyings_linker.txt`, worked from the layout: `(z)` bit 0, export at 6:3, TRAM row at 14:9,
/// `(cw)`/`(cl)` of component c at bits 16 + 4c / 17 + 4c, `(dis)` at 48 + c.
/// - `fp20, fp20, NOP, NOP, tram0.xyzw, export0`: latter 0x32dc (x: 3 << 2 | 0, y: 3 << 2 | 1,
///   z: 2, w: 3), first 0.
/// - fx10 halves flat: latter x 1 << 2 | 0, y 2 << 2 | 1, z 1 << 2 | 2, w 2 << 2 | 3 = 0xb694;
///   first export 7 (0x38), row 2 (0x400), (cw)(cl) on x, y, z (0x333 << 16).
/// - `fp20, fp20(dis), fp20(dis), NOP(dis), tram3.wzyx, export15(z)`: latter x 0xf, y 0xe,
///   z 0xd, w 0 = 0x0def, (dis) on y, z, w (0xe << 16 of latter); first 1 | 15 << 3 | 3 << 9.
#[test]
fn varyings_linker_is_the_hand_worked_words() {
    let w = words(&isa_tests::tegra_program("varyings_linker.txt"));
    assert_eq!(w, [0x000032dc_00000000, 0x0000b694_03330438, 0x000e0def_00000679]);
    lists_back(&w);
}

/// Modifiers in any order and keywords in any case give one word, listed in grate's order.
#[test]
fn modifiers_in_any_order_are_one_word() {
    let a = words("LINK fp20(cw)(dis), fx10.l(cl), NOP, NOP, tram1.xyzw, export2");
    let b = words("link FP20(dis)(cw), FX10.L(cl), nop, nop, TRAM1.XYZW, EXPORT2");
    assert_eq!(a, b);
    // x: fp20 of x (0xc), (cw) bit 16, (dis) bit 48; y: fx10.l of y (0x5), (cl) bit 21; z and w
    // NOP of z and w (0x2, 0x3); row 1 at 9, export 2 at 3.
    assert_eq!(a, [0x0001325c_00210210]);
}

/// grate's limits and mistakes are errors at the operand: exports 0..15 (a 4-bit field), a
/// column left out, an unknown type, a TRAM row over 15 (the field holds 6 bits; its
/// encoding only rows 0..15).
#[test]
fn limits_are_located_errors() {
    for (text, column) in [
        ("LINK fp20, fp20, NOP, NOP, tram0.xyzw, export16", 46),
        ("LINK fp20, fp20, NOP, tram0.xyzw, export1", 23),
        ("LINK fp21, fp20, NOP, NOP, tram0.xyzw, export1", 6),
    ] {
        let e = assemble_program::<TegraLinker>(text, 0).expect_err(text);
        assert_eq!((e[0].line, e[0].column), (1, column), "{text}: {e:?}");
    }
    let text =
        "LINK fp20, fp20, NOP, NOP, tram0.xyzw, export1\nLINK fp20, fp20, NOP, NOP, tram16.xyzw, export1";
    // linker_asm.y: "Invalid TRAM row index, 15 maximum"; the row's `in 0..=15` is read as
    // the operand's limit, at its column.
    let e = assemble_program::<TegraLinker>(text, 0).expect_err("tram16");
    // The caret underlines the value, `16`, not `16.xyzw`.
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 32, 2), "{e:?}");
    assert!(e[0].message.contains("a value in 0..=15, found `16`"), "{}", e[0].message);
    // linker_asm.y: "Too many instructions, 32 maximum".
    let full = "LINK fp20, fp20, NOP, NOP, tram0.xyzw, export1\n".repeat(32);
    assert_eq!(assemble_program::<TegraLinker>(&full, 0).map(|w| w.len()), Ok(32));
    let e =
        assemble_program::<TegraLinker>(&format!("{full} LINK fp20, fp20, NOP, NOP, tram1.xyzw, export1"), 0)
            .expect_err("33 instructions");
    assert_eq!((e.len(), e[0].line, e[0].column), (1, 33, 2), "{e:?}");
    assert!(e[0].message.contains("32"), "{}", e[0].message);
}

/// grate's 6 linker programs: five link x and y of export 1 as fp20 into TRAM row 0, one all
/// four components swizzled (facts A.7).
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn grate_linker_programs_are_grates_words() {
    for (name, expected) in [
        ("cube2_linker.txt", 0x000032dc_00000008u64),
        ("filter_quad_linker.txt", 0x000032dc_00000008),
        ("sky_linker.txt", 0x000032dc_00000008),
        ("stencil_test_linker.txt", 0x000032dc_00000008),
        ("texture_wrap_linker.txt", 0x000032dc_00000008),
        ("linker_vs_tests.txt", 0x0000fecd_00000008),
    ] {
        let w = words(&isa_tests::grate_program(name));
        assert_eq!(w, [expected], "{name}");
        lists_back(&w);
    }
}

/// Random LINK words with the bits grate never writes clear (the don't-care bits, the unknown
/// `across_point`, TRAM rows over 15): each decodes, encodes back to itself, and prints as
/// grate's text that assembles back to it. Fixed seed.
#[test]
fn random_link_words_round_trip_through_fields_and_text() {
    let mut rng = Rng(0x7e62_a000_11ce);
    // vec4_select, export, row bits 12:9, the (cw)/(cl) bits of x..w, swizzles, types, (dis).
    let written: u64 = 1 | 0xf << 3 | 0xf << 9 | 0x3333 << 16 | 0xffff << 32 | 0xf << 48;
    for _ in 0..2_000 {
        let w = u128::from(rng.next() & written);
        let insn = TegraLinker::decode(w).unwrap_or_else(|e| panic!("{w:#x}: {e:?}"));
        assert_eq!(TegraLinker::encode(&insn), Ok(w), "{w:#x}");
        let text = disassemble_word::<TegraLinker>(w, 0, 0).expect("decodes");
        assert!(text.starts_with("LINK "), "{w:#x}: {text}");
        let back = assemble_one::<TegraLinker>(&text, 0, 0, &|_| None, true).map(|i| TegraLinker::encode(&i));
        assert_eq!(back, Ok(Ok(w)), "{text}");
    }
}

/// `used_tram_rows` (grate's linker_asm.y: the highest TRAM row linked, plus 1, at least 1)
/// and the program as JSON: each LINK's `first` before its `latter` (grate-asm.c's upload).
#[test]
fn used_tram_rows_and_the_json_upload() {
    let w: Vec<u128> =
        words(&isa_tests::tegra_program("varyings_linker.txt")).into_iter().map(u128::from).collect();
    // Rows 0, 2 and 3.
    assert_eq!(summarize::<TegraLinker>(&w), [("used_tram_rows", 4)]);
    assert_eq!(summarize::<TegraLinker>(&w[..1]), [("used_tram_rows", 1)]);
    assert_eq!(summarize::<TegraLinker>(&[]), [("used_tram_rows", 1)]);
    assert_eq!(
        program_json::<TegraLinker>(&w),
        concat!(
            r#"{"streams": {"tegra_linker": ["00000000", "000032dc", "03330438", "0000b694", "00000679", "#,
            r#""000e0def"]}, "settings": {"used_tram_rows": 4}}"#
        )
    );
}

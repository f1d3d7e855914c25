//! `.constants` sections (the specs' `table constants`) fill a table of 32-bit words, the
//! words grate's assemblers make: vertex constants are IEEE singles, four words per index
//! (vertex_asm.y); fragment constants are fp20, hex, or fx10 `.l`/`.h` halves of one word
//! (fragment_asm.y). Expected words are worked by hand from facts-tegra-agx.md A.3 and A.5.

use isa_generated::tegra_fs::TegraFs;
use isa_generated::tegra_vs::TegraVs;
use isa_runtime::table::{self, Filled};
use isa_runtime::target::Isa;

fn constants<T: Isa>(source: &str) -> Result<Vec<(u32, u32)>, Vec<isa_runtime::AsmError>> {
    let filled: Filled = table::read(source, &T::dialects()[0], T::tables())?;
    let (name, words) = &filled[0];
    assert_eq!(*name, "constants");
    Ok(words.iter().map(|(i, w)| (*i, *w)).collect())
}

/// Facts A.3: `[77].x = -1.5; [77].y = -3.3;` are stored as BFC00000 / C0533333, words 4·77
/// and 4·77+1; 0.1 is 0x3DCCCCCD (the nearest single, not truncated); hex and integers are
/// the word itself.
#[test]
fn vertex_constants_are_ieee_singles() {
    let source = "/* c */ .CONSTANTS [77].x = -1.5; [77].y = -3.3;\n[0].w = 0.1; [1].z = 0x12345678;\n[2].x = 7;\n.asm\n";
    assert_eq!(
        constants::<TegraVs>(source),
        Ok(vec![(3, 0x3dcc_cccd), (6, 0x1234_5678), (8, 7), (308, 0xbfc0_0000), (309, 0xc053_3333)])
    );
}

/// Facts A.5: the fx10 pair `[3].l = 0.5; [3].h = -1.0` is 0x000C0080 (0x080 in bits 9:0,
/// -1.0 = 0x300 in bits 19:10); `[0] = 0.5` is fp20 0x3C000 (exponent -1 + 31 = 30 at bit
/// 13); `[4] = 0x...` is the word; a later `.l` keeps the `.h` half.
#[test]
fn fragment_constants_are_fp20_fx10_halves_or_hex() {
    let source = ".asm\n.constants\n[0] = 0.5;\n[3].l = 0.5; [3].h = -1.0;\n[4] = 0x12345678; [5].h = 1.0; [5].L = 0x7ff;\n";
    assert_eq!(
        constants::<TegraFs>(source),
        Ok(vec![(0, 0x3c000), (3, 0x000c_0080), (4, 0x1234_5678), (5, 0x4_03ff)])
    );
}

/// Indices past the table, unknown parts and values no format holds are errors at their
/// column; statements outside the section are left alone.
#[test]
fn bad_entries_are_located_errors() {
    let errors = constants::<TegraFs>(".constants [32] = 1.0;\n[1].q = 1.0; [2] = abc;\n.asm\nEXEC ;")
        .expect_err("bad entries");
    let at: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(at, [(1, 13), (2, 5), (2, 20)]);
    assert!(errors[0].message.contains("32"), "{}", errors[0].message);
    let errors = constants::<TegraVs>(".constants [256].x = 1.0; [0] = 1.0;").expect_err("bad entries");
    assert_eq!(errors.len(), 2);
}

/// The JSON of a program gets the table as `constants`: word index → 32-bit hex word.
#[test]
fn constants_join_the_program_json() {
    let filled =
        table::read(".constants [3].l = 0.5; [3].h = -1.0;", &TegraFs::dialects()[0], TegraFs::tables())
            .expect("constants");
    let json = table::add_to_json("{\"streams\": {}, \"settings\": {}}", &filled);
    assert_eq!(json, "{\"streams\": {}, \"settings\": {}, \"constants\": {\"3\": \"000c0080\"}}");
}

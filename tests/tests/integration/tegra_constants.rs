//! `.constants` sections (the specs' `table constants`) fill a table of 32-bit words, the
//! words grate's assemblers make: vertex constants are IEEE singles, four words per index
//! (vertex_asm.y); fragment constants are fp20, hex, or fx10 `.l`/`.h` halves of one word
//! (fragment_asm.y). Expected words are worked by hand from facts-tegra-agx.md A.3 and A.5.

use isa_generated::tegra_fs::TegraFs;
use isa_generated::tegra_vs::TegraVs;
use isa_runtime::table::{self, Entries, Filled};
use isa_runtime::target::Isa;

fn constants<T: Isa>(source: &str) -> Result<Vec<(u32, u32)>, Vec<isa_runtime::AsmError>> {
    let filled: Filled = table::read(source, &T::dialects()[0], T::tables())?;
    let (name, words) = &filled[0];
    assert_eq!(*name, "constants");
    Ok(words.words().expect("a table of words").iter().map(|(i, w)| (*i, *w)).collect())
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
    assert_eq!(
        json,
        "{\"streams\": {}, \"settings\": {}, \"constants\": {\"3\": \"000c0080\"}, \"uniforms\": {}}"
    );
}

// ---- Tables of names: `.attributes`, `.exports`, `.uniforms` ---------------------------------

/// A table of names as the program's text writes it: (key, name) in the order written.
fn names<T: Isa>(source: &str, table: &str) -> Result<Vec<(String, String)>, Vec<isa_runtime::AsmError>> {
    let filled: Filled = table::read(source, &T::dialects()[0], T::tables())?;
    let (_, entries) = filled.iter().find(|(n, _)| *n == table).expect("the table");
    let Entries::Names(list) = entries else { panic!("`{table}` is a table of names") };
    Ok(list
        .iter()
        .map(|(i, part, name)| {
            (if part.is_empty() { i.to_string() } else { format!("{i}.{part}") }, name.clone())
        })
        .collect())
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// vertex_asm.y: `.attributes`, `.exports` and `.uniforms` entries `[i] = "name";` name
/// attributes 0..15, exports 0..15 and uniforms 0..255 (grate hands them to the driver with the
/// words); they are kept in the order written, after header settings or another section on
/// the same statement, and join the program's JSON by the section's name.
#[test]
fn vertex_names_are_kept_in_the_order_written() {
    let source = ".exports\n\t[7] = \"texcoord\";\n\t[0] = \"position\";\n.attributes [15] = \"last\";\n\
                  .asm\nEXEC_END(export[0]=vector) MOVv r63.xyzw, a[0].xyzw;\n.uniforms [255] = \"mvp\"; // [1] = \"x\";\n";
    assert_eq!(names::<TegraVs>(source, "exports"), Ok(pairs(&[("7", "texcoord"), ("0", "position")])));
    assert_eq!(names::<TegraVs>(source, "attributes"), Ok(pairs(&[("15", "last")])));
    assert_eq!(names::<TegraVs>(source, "uniforms"), Ok(pairs(&[("255", "mvp")])));
    let filled = table::read(source, &TegraVs::dialects()[0], TegraVs::tables()).expect("names");
    let json = table::add_to_json("{\"streams\": {}, \"settings\": {}}", &filled);
    assert_eq!(
        json,
        "{\"streams\": {}, \"settings\": {}, \"constants\": {}, \"attributes\": {\"15\": \"last\"}, \
         \"exports\": {\"7\": \"texcoord\", \"0\": \"position\"}, \"uniforms\": {\"255\": \"mvp\"}}"
    );
}

/// A name is what stands between its quotes, comment markers included (grate's lexers read
/// `"..."` as one token before any comment rule): `"a//b"` and `"c/*d"` are names, and a
/// `//` after the closing quote still starts a comment.
#[test]
fn names_may_hold_comment_markers() {
    let source = ".uniforms [1] = \"a//b\"; [2] = \"c/*d\"; // [3] = \"x\";\n.asm\nEXEC_END MOVv r63.xyzw, a[0].xyzw;\n";
    assert_eq!(names::<TegraVs>(source, "uniforms"), Ok(pairs(&[("1", "a//b"), ("2", "c/*d")])));
    let fs = ".uniforms [0].l = \"day//night\";\n.asm\nEXEC PSEQ: NOP; // \"not a name\"\n";
    assert_eq!(names::<TegraFs>(fs, "uniforms"), Ok(pairs(&[("0.l", "day//night")])));
}

/// fragment_asm.y: `[i].l` and `[i].h` name the fx10 halves of uniform i (0..31), `[i]` the
/// whole fp20 word, which names both halves; header settings may come before the section
/// with no `;` between (grate's fs_uniform.txt).
#[test]
fn fragment_uniforms_name_halves_or_the_word() {
    let source = "alu_buffer_size = 1\npseq_to_dw_exec_nb = 1\n\n.uniforms\n\t[0].l  = \"uniform_0_low\";\n\
                  \t[2]    = \"uniform_2\";\n\t[31].H = \"high\";\n\t[31].l = \"low\";\n.asm\nEXEC PSEQ: NOP;\n";
    assert_eq!(
        names::<TegraFs>(source, "uniforms"),
        Ok(pairs(&[("0.l", "uniform_0_low"), ("2", "uniform_2"), ("31.h", "high"), ("31.l", "low")]))
    );
}

/// grate's errors for names, each at its column: "Invalid attribute index" (16), "Invalid
/// export index" (16), "Invalid uniform index" (256; 32 for fragment programs), "Overriding
/// ... name" (an entry named twice; a fragment uniform's whole word after one of its halves),
/// a name longer than vertex_asm.l's 255 characters with its quotes, a name not in quotes.
#[test]
fn name_limits_are_located_errors() {
    let at = |e: Vec<isa_runtime::AsmError>| e.iter().map(|e| (e.line, e.column)).collect::<Vec<_>>();
    let e =
        names::<TegraVs>(".attributes [16] = \"a\";\n.exports\n [15] = \"e\"; [16] = \"f\";", "attributes")
            .expect_err("16");
    assert_eq!(at(e.clone()), [(1, 14), (3, 15)]);
    assert_eq!(e[0].message, "entry index 16 is out of range: `.attributes` has 16");
    let e = names::<TegraVs>(".uniforms [255] = \"u\"; [256] = \"v\";", "uniforms").expect_err("256");
    assert_eq!(at(e), [(1, 25)]);
    let e = names::<TegraFs>(".uniforms [31].h = \"u\"; [32].l = \"v\";", "uniforms").expect_err("32");
    assert_eq!(at(e), [(1, 26)]);
    let e = names::<TegraVs>(".exports [3] = \"a\";\n[3] = \"b\";", "exports").expect_err("twice");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (2, 1, "entry 3 is named `a` already"));
    let e = names::<TegraFs>(".uniforms [4].h = \"a\"; [4].l = \"b\"; [4] = \"c\";", "uniforms")
        .expect_err("word");
    assert_eq!((at(e.clone()), e[0].message.as_str()), (vec![(1, 37)], "entry 4 is named `a` already"));
    let long = format!(".attributes [0] = \"{}\"; [1] = \"{}\";", "a".repeat(253), "b".repeat(254));
    let e = names::<TegraVs>(&long, "attributes").expect_err("254 characters");
    assert_eq!((e.len(), e[0].message.as_str()), (1, "a name is at most 253 characters"));
    let e = names::<TegraVs>(".attributes [0] = position;", "attributes").expect_err("no quotes");
    assert_eq!(at(e), [(1, 19)]);
}

/// The listing of a program's JSON prints the names back as entries of their sections, which
/// read back to the same names; a name that would not read back is refused.
#[test]
fn names_list_back_from_the_json() {
    let source = ".uniforms [0].l = \"day\"; [0].h = \"night\"; [5] = \"fog\";\n.constants [3].l = 0.5;";
    let d = &TegraFs::dialects()[0];
    let filled = table::read(source, d, TegraFs::tables()).expect("tables");
    let json = table::add_to_json("{\"streams\": {}, \"settings\": {}}", &filled);
    let listing = table::listing(&json, d, TegraFs::tables()).expect("lists");
    assert_eq!(
        listing,
        ".constants\n[3] = 0x00000080;\n.uniforms\n[0].l = \"day\";\n[0].h = \"night\";\n[5] = \"fog\";\n"
    );
    assert_eq!(table::read(&listing, d, TegraFs::tables()), Ok(filled));
    for bad in
        [r#"{"uniforms": {"32": "x"}}"#, r#"{"uniforms": {"1.q": "x"}}"#, r#"{"uniforms": {"1": "a;b"}}"#]
    {
        assert!(table::listing(bad, d, TegraFs::tables()).is_err(), "{bad}");
    }
}

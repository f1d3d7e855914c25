//! Random words checked against grate's own assemblers (docs/research/tegra-grate-oracle.md):
//! random vertex words and random fragment programs were listed by `isa disasm`, and grate's
//! vertex and fragment parsers (grate-driver/grate 0d9208a, built locally, nothing of it
//! here) read each listing back. The files under tests/data/tegra hold the text and the words
//! grate made of it; here our assembler reads the same text and must make the same words, and
//! the words list and assemble back to themselves.
//!
//! - `grate_random_vertex.txt`: one instruction a line, `<grate's 128-bit word, part3 first> <text>`,
//!   the end-of-program bit set as grate's `grate_shader_parse_vertex_asm` sets it on the last
//!   instruction. The words are fields of grate's 15 programs' instructions with random bits
//!   in their swizzles, write masks, negate/abs flags, register and fetch indices, export
//!   index, predicate and condition-register bits.
//! - `grate_random_fragment.txt`: programs of one to three bundles of random unit words (MFU, ALU
//!   and ALU3 immediates, TEX, DW drawn among the values their syntax shows, PSEQ and ALU
//!   complement in hex), each `== grate` with grate's eight streams in `grate-asm.c`'s upload
//!   order, then `== text` with the listing grate read.

use isa_generated::tegra_fs::TegraFs;
use isa_generated::tegra_vs::TegraVs;
use isa_runtime::bundle;
use isa_runtime::target::{assemble_program, disassemble_program, Isa};

fn data(name: &str) -> String {
    isa_tests::tegra_program(name)
}

#[test]
fn random_vertex_words_read_as_grate_reads_them() {
    let text = data("grate_random_vertex.txt");
    let mut n = 0;
    for line in text.lines() {
        let (hex, insn) = line.split_once(' ').expect("word and text");
        let word = u128::from_str_radix(hex, 16).expect("hex word");
        let ours = assemble_program::<TegraVs>(&format!(".asm\n{insn}\n"), 0);
        assert_eq!(ours, Ok(vec![word]), "{insn}");
        let listing: String =
            disassemble_program::<TegraVs>(&[word], 0).iter().map(|l| format!("{}\n", l.text)).collect();
        assert_eq!(assemble_program::<TegraVs>(&listing, 0), Ok(vec![word]), "{listing}");
        n += 1;
    }
    assert_eq!(n, 200);
}

#[test]
fn random_fragment_programs_read_as_grate_reads_them() {
    let text = data("grate_random_fragment.txt");
    let b = TegraFs::bundles().expect("tegra_fs is bundled");
    let mut n = 0;
    for record in text.split("== grate\n").skip(1) {
        let (words, program) = record.split_once("== text\n").expect("a text part");
        let p = bundle::assemble::<TegraFs>(program, 0).unwrap_or_else(|e| panic!("{e:?}\n{program}"));
        for line in words.lines() {
            let (name, ws) = line.split_once(':').expect("stream: words");
            let grate: Vec<u32> =
                ws.split_whitespace().map(|w| u32::from_str_radix(w, 16).expect("hex")).collect();
            let i =
                b.streams.iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no stream {name}"));
            assert_eq!(b.streams[i].parts(&p.streams[i]), grate, "{name}\n{program}");
        }
        let listing = bundle::disassemble::<TegraFs>(&p, 0).expect("lists");
        assert_eq!(bundle::assemble::<TegraFs>(&listing, 0), Ok(p), "{listing}");
        n += 1;
    }
    assert_eq!(n, 25);
}

/// A text handed over `n` lines at a time, as `isa asm` reads a file a piece at a time.
struct Lines<'a> {
    lines: Vec<&'a str>,
    n: usize,
    at: usize,
}

impl isa_runtime::directives::Source for Lines<'_> {
    fn rewind(&mut self) {
        self.at = 0;
    }
    fn piece(&mut self) -> Option<String> {
        let end = (self.at + self.n).min(self.lines.len());
        let piece = self.lines[self.at..end].concat();
        self.at = end;
        (!piece.is_empty()).then_some(piece)
    }
}

/// Issue 14: a bundled program read a piece at a time (each piece split up to where its
/// statements are certainly whole, the rest with the next: `bundle::statements`) is the program
/// read whole, for each of grate's random fragment programs given 1, 2, 5 and 40 lines at a
/// time: pieces end inside bundles, inside a unit's operands and after header settings.
#[test]
fn random_fragment_programs_read_in_pieces_are_read_whole() {
    let text = data("grate_random_fragment.txt");
    let mut n = 0;
    for record in text.split("== grate\n").skip(1) {
        let (_, program) = record.split_once("== text\n").expect("a text part");
        let whole = bundle::assemble::<TegraFs>(program, 0).expect("assembles");
        for lines in [1, 2, 5, 40] {
            let mut source = Lines { lines: program.split_inclusive('\n').collect(), n: lines, at: 0 };
            let mut errors = Vec::new();
            let pieces = bundle::assemble_files::<TegraFs>(
                "p",
                &mut source,
                0,
                &mut isa_runtime::directives::NoIncludes,
                &mut |e, _| errors.push(e.clone()),
            );
            assert_eq!(pieces.as_ref(), Some(&whole), "{lines} lines a piece: {errors:?}\n{program}");
        }
        n += 1;
    }
    assert_eq!(n, 25);
}

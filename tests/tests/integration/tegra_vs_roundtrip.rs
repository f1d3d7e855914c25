//! Property tests of the Tegra vertex target over random words, per encoding (`vpe_alu`,
//! `vpe_branch`): a random word forced into the encoding's pattern
//!
//! - decodes, or is a typed error (a scalar opcode without a name), never a panic, and
//!   `encode(decode(w)) == w` except on bit 127, the one don't-care bit;
//! - prints as grate's text that assembles back to the same word, or as the raw `.word`
//!   directive (a word grate's assembler cannot write, such as a source of type `a[]` with a
//!   non-zero register index).
//!
//! Most fields are set to their assembler default (all but one in 2, 8 or 32, chosen per word),
//! so that the short forms (no options, a left-out operation, unused sources) come up as often
//! as the long ones. Fixed seed.

use isa_generated::tegra_vs::{Instruction, TegraVs};
use isa_runtime::target::{assemble_one, disassemble_word, Isa};
use isa_tests::Rng;

const WORDS: usize = 20_000;

#[test]
fn every_encoding_round_trips_through_its_fields_and_its_text() {
    let mut rng = Rng(0x7e62_a000_0001_5eed);
    let dont_care = 1u128 << 127;
    let mut failures = Vec::new();
    let (mut decoded, mut printed) = (0usize, 0usize);
    for format in TegraVs::formats() {
        for _ in 0..WORDS {
            let mut w = (u128::from(rng.next()) << 64 | u128::from(rng.next())) & !dont_care;
            // One word in 2, 8 or 32 keeps a field's random value.
            let keep = [2, 8, 32][(rng.next() % 3) as usize];
            for f in format.fields.iter().filter(|f| !f.view) {
                if let Some(v) = f.fixed {
                    isa_runtime::bits::set(&mut w, f.pieces, v);
                } else if let Some(d) = f.default.filter(|_| !rng.next().is_multiple_of(keep)) {
                    isa_runtime::bits::set(&mut w, f.pieces, d);
                }
            }
            let Ok(insn) = Instruction::decode(w) else { continue };
            if TegraVs::match_format(w).map(|i| TegraVs::formats()[i].name) != Some(format.name) {
                continue;
            }
            decoded += 1;
            assert_eq!(TegraVs::encode(&insn), Ok(w), "{w:#034x}");
            let text = disassemble_word::<TegraVs>(w, 0, 0).expect("decodes");
            if text.starts_with(".word") {
                continue;
            }
            printed += 1;
            let back = assemble_one::<TegraVs>(&text, 0, 0, &|_| None, true).map(|i| TegraVs::encode(&i));
            if back != Ok(Ok(w)) && failures.len() < 10 {
                failures.push(format!("{w:#034x} `{text}` -> {back:x?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(decoded > WORDS / 2, "only {decoded} words decoded");
    assert!(printed > WORDS / 20, "only {printed} of {decoded} words printed as text");
}

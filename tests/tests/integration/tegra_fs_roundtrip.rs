//! Random Tegra fragment programs (`isa-specs/tegra_fs.isa`): streams made of random bundles,
//! each unit's word random (most fields at 0 or their reset value, so that grate's short forms
//! come up as often as the long ones), list as bundles that assemble back to the same eight
//! streams; a word no syntax shows lists as its hex parts, which grate also reads.
//! Fixed seed.

use isa_generated::tegra_fs::TegraFs;
use isa_runtime::bundle::{self, Program};
use isa_runtime::target::Isa;
use isa_tests::Rng;

const PROGRAMS: usize = 400;

/// A random word of `format`-shaped stream words: one field in 4 random, the rest 0 or the
/// reset word's bits.
fn word(rng: &mut Rng, formats: &[usize], bits: u32, reset: u128) -> u128 {
    let mut w = reset;
    let Some(&f) = formats.first() else {
        return u128::from(rng.next()) & ((1u128 << bits) - 1);
    };
    let format = TegraFs::formats()[f];
    for field in format.fields.iter().filter(|f| !f.view) {
        if rng.next().is_multiple_of(4) {
            isa_runtime::bits::set(&mut w, field.pieces, rng.next());
        }
    }
    w
}

#[test]
fn random_programs_list_and_assemble_back() {
    let b = TegraFs::bundles().expect("bundled");
    let mut rng = Rng(0x7e62_af50_0000_5eed);
    let mut hex_words = 0usize;
    for _ in 0..PROGRAMS {
        let bundles = 1 + (rng.next() % 4) as usize;
        let mut p = Program {
            streams: b.streams.iter().map(|_| Vec::new()).collect(),
            settings: Vec::new(),
            tables: Vec::new(),
        };
        let mut totals = vec![0u64; b.units.len()];
        for _ in 0..bundles {
            let mut counts = vec![0u64; b.units.len()];
            for (u, unit) in b.units.iter().enumerate() {
                let s = &b.streams[unit.stream];
                counts[u] = unit.max.map_or(1, |m| rng.next() % (u64::from(m) + 1));
                for _ in 0..counts[u] * unit.slots.len().max(1) as u64 {
                    let w = if rng.next().is_multiple_of(3) {
                        s.reset
                    } else {
                        word(&mut rng, s.formats, s.bits, s.reset)
                    };
                    p.streams[unit.stream].push(w);
                }
            }
            for (i, s) in b.streams.iter().enumerate() {
                let Some(bundle::Computed::Counts(f, fields)) = s.computed else { continue };
                let format = TegraFs::formats()[f];
                let mut values = vec![0u64; format.fields.len()];
                for c in fields {
                    let index = format.field(c.field).expect("computed field");
                    values[index] = match c.measure {
                        bundle::Measure::Count => counts[c.unit],
                        bundle::Measure::First if counts[c.unit] == 0 => 0,
                        bundle::Measure::First => totals[c.unit],
                    };
                }
                p.streams[i].push(format.pack(&values));
            }
            for (t, c) in totals.iter_mut().zip(&counts) {
                *t += c;
            }
        }
        let listing = bundle::disassemble::<TegraFs>(&p, 0).unwrap_or_else(|e| panic!("{e}"));
        hex_words += listing.matches(", 0x").count();
        let back = bundle::assemble::<TegraFs>(&listing, 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((&back.streams, &back.settings), (&p.streams, &p.settings), "{listing}");
    }
    // Most words have text: the hex fallback is the exception.
    assert!(hex_words > 0, "some random words have no syntax");
}

/// Streams the bundles cannot give are an error, not a wrong listing: a schedule word whose
/// address is not where the unit's words start, and a stream with a word too many.
#[test]
fn inconsistent_streams_are_errors() {
    let good = bundle::assemble::<TegraFs>("EXEC MFU: sfu: rcp r1 ; EXEC MFU: sfu: rcp r2 ;", 0).expect("ok");
    let b = TegraFs::bundles().expect("bundled");
    let sched = b.streams.iter().position(|s| s.name == "mfu_sched").expect("mfu_sched");
    assert_eq!(good.streams[sched], [1, 1 | 1 << 2]);
    let mut bad = good.clone();
    bad.streams[sched][1] = 1;
    let e = bundle::disassemble::<TegraFs>(&bad, 0).expect_err("address 0 twice");
    assert_eq!(e.0, "word 1 of stream `mfu_sched` is 0x1, but the bundles give 0x5");
    let mut long = good.clone();
    let mfu = b.streams.iter().position(|s| s.name == "mfu").expect("mfu");
    long.streams[mfu].push(0);
    let e = bundle::disassemble::<TegraFs>(&long, 0).expect_err("a word too many");
    assert_eq!(e.0, "stream `mfu` has 3 words, but the schedule words give 2");
}

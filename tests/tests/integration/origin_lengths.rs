//! `origin` where instructions differ in length (README §2's directives): what follows an
//! origin is at its address however long the instructions before it turn out to be, an origin
//! may go back, and `clone` finds its label among the lines after the label's own origin.

mod orig {
    isa_derive::target!("data/specs/origin_lengths.isa");
}

use isa_runtime::target::assemble_program;

/// Each instruction's word by hand from the spec: `movi` is 0x62 | dst << 8 | l << 15 | imm <<
/// 16 (`l` set where the immediate needs more than 16 bits: 6 bytes), `b` 0x20 | off << 16
/// (off = target - its own address, 16 bits), `halt` 0x88.
fn movi(dst: u128, imm: u128) -> u128 {
    0x62 | dst << 8 | u128::from(imm > 0xffff) << 15 | imm << 16
}

fn b(at: u64, target: u64) -> u128 {
    0x20 | u128::from(target.wrapping_sub(at) as u16) << 16
}

#[test]
fn an_origin_addresses_what_follows_whatever_the_lengths_before() {
    // Expansion counts each instruction 6 bytes (the longest): `movi r2, 5` is 4, so the
    // origin's line moves from 12 to 10, and what follows it stays at 0x12340. `lbl` is after
    // `halt` at 0x12348: 0x1234a, which takes `movi r1` 6 bytes. The second origin goes back to
    // 0x12340: `back` is there too, and `.clone back, 1` copies its `halt`, not `here`'s `b`.
    let source = "\
movi r2, 5
movi r1, lbl
.org 0x12340
here: b here
b there
there: halt
lbl:
.org 0x12340
back: halt
b back
.clone here, 1
.clone back, 1
";
    let words = assemble_program::<orig::Orig>(source, 0).unwrap_or_else(|e| panic!("{e:?}"));
    let want = [
        movi(2, 5),
        movi(1, 0x1234a),
        b(0x12340, 0x12340),
        b(0x12344, 0x12348),
        0x88,
        0x88,
        b(0x12342, 0x12340),
        b(0x12346, 0x12340),
        0x88,
    ];
    assert_eq!(words, want);
    assert_eq!(want[..4], [0x0005_0262, 0x0001_234a_8162, 0x0000_0020, 0x0004_0020]);
    assert_eq!(want[6..8], [0xfffe_0020, 0xfffa_0020]);
}

#[test]
fn an_origin_that_is_no_address_is_an_error_at_it() {
    let source = "halt\n.org 0x11\n.org -2\nhalt\n";
    let errors = assemble_program::<orig::Orig>(source, 0).expect_err("odd and negative origins");
    let got: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(got, [(2, 6), (3, 6)], "{errors:?}");
    assert!(errors[0].message.contains("0x11 is not a whole number of 2 bytes"), "{}", errors[0].message);
    assert!(errors[1].message.contains("not negative"), "{}", errors[1].message);
}

mod packets {
    isa_derive::target!("data/specs/origin_bundles.isa");
}

/// A bundled program has no addresses (its statements name no labels, its words go to several
/// streams): an origin there is an error at its address, and the bundles around it assemble.
#[test]
fn an_origin_in_a_bundled_program_is_an_error_at_it() {
    let source = "PACKET ALU: add r1;\n.org 0x100;\nPACKET MEM: load r2;\n";
    let errors = isa_runtime::bundle::assemble::<packets::Packets>(source, 0).expect_err("an origin");
    let got: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(got, [(2, 6)], "{errors:?}");
    assert!(errors[0].message.contains("a bundled program has no addresses"), "{}", errors[0].message);
    let fine =
        isa_runtime::bundle::assemble::<packets::Packets>("PACKET ALU: add r1;\nPACKET MEM: load r2;\n", 0);
    assert!(fine.is_ok(), "{:?}", fine.err());
}

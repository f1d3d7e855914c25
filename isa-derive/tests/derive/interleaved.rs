//! An interleaved stream (isa-specs/README.md §2) on a small spec (`tests/specs/paired.isa`):
//! a control word before every two instructions, slot `i` (16 bits at `16 * i`) written
//! before instruction `i`, a line without one the slot's defaults, the last pair filled with
//! the `pad` instruction; listings read back.

mod paired {
    isa_derive::target!("tests/specs/paired.isa");
}

use isa_runtime::bundle;
use isa_runtime::target::{assemble_program, disassemble_program, Isa};
use paired::Paired;

#[test]
fn control_words_come_before_each_pair() {
    let words = assemble_program::<Paired>("[3] add r1\nadd r2\n[1] add r3\n", 0).expect("assembles");
    // Pair 1: slots 3 and 0 (`cycles` has no default); pair 2: slot 1, then the pad `nop`.
    assert_eq!(words, [0x0000_0003, 0x0100_0001, 0x0100_0002, 0x0000_0001, 0x0100_0003, 0x0000_0000]);
    let listing: Vec<String> =
        disassemble_program::<Paired>(&words, 0).iter().map(|l| l.to_string()).collect();
    assert_eq!(listing, ["[3]  add r1", "[0]  add r2", "[1]  add r3", "[0]  nop"]);
    assert_eq!(assemble_program::<Paired>(&listing.join("\n"), 0), Ok(words));
}

#[test]
fn addresses_count_the_control_words() {
    let s = Paired::schedule().expect("interleaved");
    assert_eq!((s.slots, s.slot_bits, s.pad, s.default_slot), (2, 16, 0, 0));
    // Instruction 2 is the second pair's first: word 4, byte 16.
    assert_eq!(bundle::address::<Paired>(2), 16);
    assert_eq!(bundle::index::<Paired>(16), 2);
    // A control word with bits set past its two slots is no control word.
    assert!(!s.is_control(0x1_0000_0000));
}

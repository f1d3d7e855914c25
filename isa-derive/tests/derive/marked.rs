//! Listing marks (isa-specs/README.md §2) on a small spec (`tests/specs/marked.isa`, a copy
//! of the reference's example): the slot's reuse flags shown after the operands they mark, a
//! pair in the dialect's marks, addresses and word comments laid out as the dialect says.

mod spec {
    isa_derive::target!("tests/specs/marked.isa");
}

use isa_runtime::target::{align_listing, listing_from, Isa};
use spec::Marked;

#[test]
fn the_reference_example_lists_as_it_says() {
    let words = [0x0000_0010u128, 0x0100_0102, 0x0000_0000];
    let mut lines = Vec::new();
    let mut paired = false;
    listing_from::<Marked>(&words, 0, true, 0, &mut paired, &mut |l| lines.push(l));
    let style = Marked::dialects()[0].listing.expect("a listing layout");
    let mut text = Vec::new();
    align_listing(&lines, style, 32, &mut |l| text.push(l.to_string()));
    assert_eq!(
        text,
        [
            "                                      /* 0x00000010 */",
            "    /*0004*/ {      add r1.reuse, r2  /* 0x01000102 */",
            "    /*0008*/        nop  }",
            // The longest text with a word is 36 characters: the comments at column 38.
            "                                      /* 0x00000000 */",
        ]
    );
    assert!(!paired, "the pair closed");
}

//! Pieces of syntax passed to templates and a format's `let` read by a file template
//! (data/specs/template_pieces.isa): each word prints the text its fields make and that text
//! assembles back to it. The words are worked by hand from the spec's bit positions.

mod pieces {
    isa_derive::target!("data/specs/template_pieces.isa");
}

use isa_runtime::target::{assemble_program, disassemble_word};
use pieces::TemplatePieces;

#[test]
fn pieces_print_where_the_template_names_them_and_read_back() {
    // op 31:28, sat 27, off 19:12, ra 11:8, rb 7:4, rd 3:0.
    let rows: [(u128, &str); 6] = [
        (0x1000_0321, "add r1, r3, r2"),
        (0x1800_0321, "add.sat r1, r3, r2"),
        (0x1000_0551, "add r1, r5, r5 ; same"),
        (0x2000_0704, "neg r4, r7"),
        (0x3002_a602, "ld r2, [r6+42]"),
        (0x3000_0303, "ld r3, [r3+0] ; same"),
    ];
    for (word, text) in rows {
        assert_eq!(disassemble_word::<TemplatePieces>(word, 0, 0).as_deref(), Ok(text), "{word:#x}");
        match assemble_program::<TemplatePieces>(text, 0) {
            Ok(words) => assert_eq!(words, [word], "{text}"),
            Err(e) => panic!("{text}: {e:?}"),
        }
    }
}

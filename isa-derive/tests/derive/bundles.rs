//! Streams and bundles (isa-specs/README.md §2) on a small spec (`tests/specs/packets.isa`):
//! each unit's word goes to its own stream, the computed header word counts the packet's ALU
//! words, a unit a packet leaves out is its stream's reset word, and listings read back.

mod packets {
    isa_derive::target!("tests/specs/packets.isa");
}

mod wide_packets {
    isa_derive::target!("tests/specs/wide_packets.isa");
}

use isa_runtime::bundle;
use packets::Packets;

#[test]
fn packets_fill_their_streams() {
    let p = bundle::assemble::<Packets>("PACKET ALU: add r1 ALU: add r2 ; PACKET MEM: load r3 ;", 0)
        .expect("assembles");
    // Streams in declaration order: head, alu, mem.
    assert_eq!(p.streams, [vec![2, 0], vec![0x0100_0001, 0x0100_0002], vec![0, 0x0200_0003]]);
    let listing = bundle::disassemble::<Packets>(&p, 0).expect("lists");
    assert_eq!(listing, "PACKET\n\tALU: add r1\n\tALU: add r2\n;\nPACKET\n\tMEM: load r3\n;\n");
    assert_eq!(bundle::assemble::<Packets>(&listing, 0), Ok(p));
}

#[test]
fn packet_limits_are_errors() {
    let e =
        bundle::assemble::<Packets>("PACKET ALU: add r1 ALU: add r2 ALU: add r3 ;", 0).expect_err("3 ALU");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (1, 32, "at most 2 `ALU:` in a bundle"));
    let e = bundle::assemble::<Packets>("PACKET MEM: add r1 ;", 0).expect_err("add is no MEM word");
    assert_eq!((e[0].line, e[0].column), (1, 13));
    let e = bundle::assemble::<Packets>("ALU: add r1 ;", 0).expect_err("no keyword");
    assert_eq!(e[0].message, "expected `PACKET` to start a bundle");
}

#[test]
fn packets_take_the_directive_core() {
    // A symbol in an operand's expression and a repetition of a whole packet: `add r4` is
    // op 1 at bits 31:24 and rd 4 at 7:0, each packet's head counting its one ALU word.
    let p =
        bundle::assemble::<Packets>(".set R, 4; .rep 2; PACKET ALU: add r(R); .endr;", 0).expect("assembles");
    assert_eq!(p.streams, [vec![1, 1], vec![0x0100_0004, 0x0100_0004], vec![0, 0]]);
    assert_eq!(bundle::assemble::<Packets>("PACKET ALU: add r4 ; PACKET ALU: add r4 ;", 0), Ok(p));
    // An open `.rep` is an error at it; data has no place among the streams (said at its values).
    let e = bundle::assemble::<Packets>(".rep 2; PACKET MEM: load r1 ;", 0).expect_err("open rep");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (1, 1, "`.rep` without its end"));
    let e = bundle::assemble::<Packets>("PACKET MEM: load r1 ;\n  .int 1, 2;", 0).expect_err("data");
    assert_eq!(
        (e[0].line, e[0].column, e[0].message.as_str()),
        (2, 7, "data has no place among a bundled program's streams")
    );
}

/// A 32-bit header stream beside 64-bit big-endian ALU words: `add r1` is op 1 at bits 63:56
/// and rd 1 at 7:0; the header counts the packet's two ALU words; the listing reads back.
#[test]
fn narrower_streams_beside_big_endian_words() {
    use wide_packets::WidePackets;
    let p = bundle::assemble::<WidePackets>("PACKET ALU: add r1 ALU: add r2 ;", 0).expect("assembles");
    assert_eq!(p.streams, [vec![2], vec![0x0100_0000_0000_0001, 0x0100_0000_0000_0002]]);
    let listing = bundle::disassemble::<WidePackets>(&p, 0).expect("lists");
    assert_eq!(listing, "PACKET\n\tALU: add r1\n\tALU: add r2\n;\n");
    assert_eq!(bundle::assemble::<WidePackets>(&listing, 0), Ok(p));
}

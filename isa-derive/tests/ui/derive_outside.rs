// Bits beyond the declared width, a fixed value that does not fit, a range written low to high.
#[derive(isa_derive::Bitfield)]
#[bits(width = 16)]
struct Insn {
    #[bits(17:12)]
    opcode: u8,
    #[bits(11:9, is = 9)]
    class: u8,
    #[bits(0:8)]
    imm: u16,
}

fn main() {}

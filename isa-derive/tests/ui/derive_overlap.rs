// Two fields on bit 5: the error is on the second field's attribute.
#[derive(isa_derive::Bitfield)]
#[bits(width = 16)]
struct Insn {
    #[bits(15:12, is = 3)]
    opcode: u8,
    #[bits(7:4)]
    rd: u8,
    #[bits(5:0)]
    imm: u8,
}

fn main() {}

//! A synthetic spec of `n` encodings for scaling measurements: 32-bit words, a 14-bit opcode
//! (bits 31:18) numbering the encodings, two 5-bit registers and an 8-bit immediate, each with
//! its own mnemonic. Shared by the scaling test and `benches/scaling.rs`.

/// The spec's source text; `n` is at most 16,384 (the opcode's values).
pub fn spec(n: usize) -> String {
    let mut out = String::from(
        "target synthetic {\n    title \"Synthetic\"\n    word 32\n    byte_order little\n    dialect asm { comment \";\" raw \".word\" }\n}\n\n\
         /// Registers r0 to r31.\nenum Reg : u5 {\n    r(0..=31) \"r{v}\"\n}\n",
    );
    for i in 0..n {
        out.push_str(&format!(
            "\nformat op{i} {{\n    opcode: u14 @ 31:18 is {i}\n    rd: Reg @ 17:13\n    rs: Reg @ 12:8\n    imm: u8 @ 7:0\n\n    \
             syntax asm {{ \"op{i} \" {{rd}} \", \" {{rs}} \", \" {{imm}} }}\n}}\n"
        ));
    }
    out
}

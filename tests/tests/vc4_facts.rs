use isa_generated::vc4::*;
#[test]
fn explore() {
    for w in [0xd14059e5_20820df7u64, 0xe2020827_0000ffff, 0xe6020827_00010003, 0xe80009e7_00000019, 0xe80009e7_00000001, 0xf0f80127_000000c8, 0xf0f509e7_00000000, 0xf00809e7_000003f8, 0x100009e7_009e7000, 0xd0020867_0c9c41c0, 0xe0020827_00000100] {
        let i = Instruction::decode(w);
        println!("{w:016x} {:?}", i);
        if let Ok(i) = i { println!("  fields {:?}", i.fields()); }
        println!("  vc4asm: {:?}", disassemble(w, None));
        println!("  mesa: {:?}", disassemble(w, Some("mesa")));
    }
    println!("{:?}", assemble(".long 0xd14059e520820df7", None));
    println!("{:?}", assemble("nop; fmul r5quad.8asf, unif, 1.0\nmov tlbc, r5\nnop; nop; thrend\nnop\nnop", None));
    println!("{:?}", Instruction::decode(0x10000000_09000000));
}

use isa_generated::vc4;
fn main() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut fails = std::collections::BTreeMap::<String, (usize, u64, String, String)>::new();
    let mut total = 0;
    let mut decodable = 0;
    for _ in 0..200000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let w = seed;
        total += 1;
        let Ok(insn) = vc4::Instruction::decode(w) else { continue };
        decodable += 1;
        let canon = insn.encode().unwrap();
        let text = match vc4::disassemble(w, Some("vc4asm")) {
            Ok(t) => t,
            Err(e) => {
                let e = fails.entry(format!("{}: disasm error", insn.name())).or_insert((
                    0,
                    w,
                    format!("{e}"),
                    String::new(),
                ));
                e.0 += 1;
                continue;
            }
        };
        match vc4::assemble(&text, Some("vc4asm")) {
            Ok(v) if v.len() == 1 && v[0].encode().unwrap() == canon => {}
            Ok(v) => {
                let e = fails.entry(format!("{}: mismatch", insn.name())).or_insert((
                    0,
                    w,
                    text.clone(),
                    format!("{:016x} vs {:016x}", v[0].encode().unwrap(), canon),
                ));
                e.0 += 1;
            }
            Err(errs) => {
                let e = fails.entry(format!("{}: asm error", insn.name())).or_insert((
                    0,
                    w,
                    text.clone(),
                    errs[0].message.clone(),
                ));
                e.0 += 1;
            }
        }
    }
    println!("total {total} decodable {decodable}");
    for (k, (n, w, t, m)) in fails {
        println!("{k}: {n}  e.g. {w:016x} `{t}` -> {m}");
    }
}

//! Compiles every spec in `isa-specs/` into `$OUT_DIR/<target>.rs`, plus `targets.rs` with one
//! module per target and the list of targets. Reruns when a spec changes.

use std::path::{Path, PathBuf};

fn main() {
    let specs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../isa-specs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed={}", specs.display());
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&specs) {
        Ok(dir) => dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "isa"))
            .collect(),
        Err(e) => fail(&format!("cannot read {}: {e}", specs.display())),
    };
    files.sort();
    let mut modules = String::new();
    let mut list = Vec::new();
    let mut data = Vec::new();
    let mut abi = Vec::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let source =
            std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("cannot read {name}: {e}")));
        let target = match isa_compiler::check_source(&source) {
            Ok(t) => t,
            Err(d) => fail(&isa_compiler::diag::render(&format!("isa-specs/{name}"), &source, &d)),
        };
        let code = isa_compiler::backend::rust::generate_compact_from(&target, &format!("isa-specs/{name}"));
        let file = out.join(format!("{}.rs", target.name));
        if let Err(e) = std::fs::write(&file, code) {
            fail(&format!("cannot write {}: {e}", file.display()));
        }
        let unit = isa_compiler::backend::rust::target_type_name(&target);
        modules.push_str(&format!(
            "#[doc = {title:?}]\npub mod {m} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{m}.rs\"));\n}}\n",
            title = format!(" {} (from `isa-specs/{name}`).", target.title),
            m = target.name
        ));
        if let Some(unit) = unit {
            list.push(format!("&{}::{unit}", target.name));
        }
        if let Some(root) = isa_compiler::backend::rust::data_target_name(&target) {
            data.push(format!("&{}::{root}", target.name));
        }
        if let Some(layouts) = isa_compiler::backend::rust::abi_target_name(&target) {
            abi.push(format!("&{}::{layouts}", target.name));
        }
    }
    modules.push_str(&format!(
        "/// Every built-in target.\npub static TARGETS: &[&dyn isa_runtime::target::Target] = &[{}];\n",
        list.join(", ")
    ));
    modules.push_str(&format!(
        "/// Every built-in target whose root is a data layout.\npub static DATA_TARGETS: &[&dyn isa_runtime::layout::DataTarget] = &[{}];\n",
        data.join(", ")
    ));
    modules.push_str(&format!(
        "/// Every built-in target with ABI layouts.\npub static ABI_TARGETS: &[&isa_runtime::abi::AbiTarget] = &[{}];\n",
        abi.join(", ")
    ));
    if let Err(e) = std::fs::write(out.join("targets.rs"), modules) {
        fail(&format!("cannot write targets.rs: {e}"));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1)
}

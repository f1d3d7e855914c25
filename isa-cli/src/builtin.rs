//! The built-in targets (every spec under `isa-specs/`, compiled into `isa-generated`) and
//! lookup of a target or dialect by the name given on the command line (with the `targets`
//! feature only: without it every name is unknown, `main.rs`).

use crate::error::{Error, Result};
use isa_runtime::abi::AbiTarget;
use isa_runtime::layout::DataTarget;
use isa_runtime::target::Target;

/// Every target built into this `isa`.
pub fn builtin_targets() -> &'static [&'static dyn Target] {
    isa_generated::targets()
}

/// Every built-in target whose root is a data layout (a header).
pub fn data_targets() -> &'static [&'static dyn DataTarget] {
    isa_generated::data_targets()
}

/// Every built-in target with ABI layouts.
pub fn abi_targets() -> &'static [&'static AbiTarget] {
    isa_generated::abi_targets()
}

/// The built-in data-layout target called `name` (ASCII case ignored), if there is one.
pub fn find_data_target(name: &str) -> Option<&'static dyn DataTarget> {
    data_targets().iter().copied().find(|t| t.name().eq_ignore_ascii_case(name))
}

/// The built-in target called `name` (ASCII case ignored).
pub fn find_target(name: &str) -> Result<&'static dyn Target> {
    let targets = builtin_targets();
    if let Some(t) = targets.iter().find(|t| t.name().eq_ignore_ascii_case(name)) {
        return Ok(*t);
    }
    if find_data_target(name).is_some() {
        return Err(Error::Usage(format!(
            "target `{name}` is a data layout: it has `decode`, `validate` and `encode`, no instructions"
        )));
    }
    let mut known: Vec<&str> = targets.iter().map(|t| t.name()).collect();
    known.extend(data_targets().iter().map(|t| t.name()));
    Err(Error::Usage(format!("unknown target `{name}`; known targets: {}", known.join(", "))))
}

/// The index of dialect `name` of `target` (ASCII case ignored), or of the default dialect.
pub fn find_dialect(target: &dyn Target, name: Option<&str>) -> Result<usize> {
    let Some(name) = name else {
        return Ok(0);
    };
    isa_runtime::target::find_dialect(target.name(), target.dialects(), name)
        .map_err(|e| Error::Usage(e.to_string()))
}

//! `isa layout`: the ABI layouts and data layouts of a target. Without a layout name, lists
//! them with their parameters; with one and `name=value` arguments, prints each member's offset and width in
//! bits (and the registers it occupies) and the total size, or the same as JSON.

use crate::builtin;
use crate::error::{Error, Outcome, Result};
use isa_runtime::abi::{AbiLayout, AbiTarget, Placed};
use isa_runtime::value::write_json_string;
use std::io::Write;

/// Lists the layouts of `target`, or places `layout` for `args` (`name=value`).
pub fn run(target: &str, layout: Option<&str>, args: &[String], json: bool) -> Result<Outcome> {
    let abi = find(target)?;
    let Some(name) = layout else {
        return list(abi);
    };
    let Some(layout) = abi.layouts.iter().copied().find(|l| l.name().eq_ignore_ascii_case(name)) else {
        let known: Vec<&str> = abi.layouts.iter().map(|l| l.name()).collect();
        return Err(Error::Usage(format!(
            "target {} has no layout `{name}`; its layouts: {}",
            abi.name,
            known.join(", ")
        )));
    };
    let values = args.iter().map(|a| parse_arg(layout, a)).collect::<Result<Vec<_>>>()?;
    let named: Vec<(&str, i64)> = values.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let placed = layout.place_named(&named).map_err(|e| Error::Usage(e.to_string()))?;
    if json {
        print_json(layout, &placed)
    } else {
        print_table(layout, &named, &placed)
    }
}

/// The target's ABI and data layouts: a built-in target without any is a usage error naming
/// those with.
fn find(name: &str) -> Result<&'static AbiTarget> {
    if let Some(t) = crate::builtin::abi_targets().iter().copied().find(|t| t.name.eq_ignore_ascii_case(name))
    {
        return Ok(t);
    }
    let with: Vec<&str> = crate::builtin::abi_targets().iter().map(|t| t.name).collect();
    let with = if with.is_empty() { "none".to_string() } else { with.join(", ") };
    let known = builtin::builtin_targets().iter().any(|t| t.name().eq_ignore_ascii_case(name))
        || builtin::find_data_target(name).is_some();
    Err(Error::Usage(if known {
        format!("target `{name}` has no layouts; targets with them: {with}")
    } else {
        format!("unknown target `{name}`; targets with layouts: {with}")
    }))
}

/// `n=3`, `compute=true`, `sph_type=PS`: a name and an integer (decimal or `0x` hex), a boolean
/// or the name of one of the parameter's values.
fn parse_arg(layout: &dyn AbiLayout, arg: &str) -> Result<(String, i64)> {
    let bad =
        || Error::Usage(format!("`{arg}` is not `name=value` (a number, `true`, `false` or a value's name)"));
    let (name, value) = arg.split_once('=').ok_or_else(bad)?;
    let (name, value) = (name.trim(), value.trim());
    let param = layout.params().iter().find(|p| p.name == name);
    let v = match param.and_then(|p| p.value_named(value)) {
        Some(v) => v,
        None => match value {
            "true" => 1,
            "false" => 0,
            _ => match value.strip_prefix("0x") {
                Some(hex) => i64::from_str_radix(hex, 16).map_err(|_| bad())?,
                None => value.parse().map_err(|_| bad())?,
            },
        },
    };
    Ok((name.to_string(), v))
}

fn list(abi: &AbiTarget) -> Result<Outcome> {
    let rows: Vec<[String; 3]> = abi
        .layouts
        .iter()
        .map(|l| {
            let params: Vec<String> = l.params().iter().map(|p| p.to_string()).collect();
            let summary = first_sentence(l.doc());
            [format!("{}({})", l.name(), params.join(", ")), l.unit().name.to_string(), summary]
        })
        .collect();
    let width = |col: usize| rows.iter().map(|r| r[col].len()).max().unwrap_or(0);
    let (w0, w1) = (width(0), width(1));
    let mut out = super::stdout();
    for [head, unit, summary] in &rows {
        writeln!(out, "{head:w0$}  {unit:w1$}  {summary}").map_err(Error::output)?;
    }
    out.flush().map_err(Error::output)?;
    Ok(Outcome::Success)
}

fn print_table(layout: &dyn AbiLayout, args: &[(&str, i64)], placed: &Placed) -> Result<Outcome> {
    let unit = layout.unit();
    let values: Vec<String> = layout
        .params()
        .iter()
        .filter_map(|p| args.iter().find(|(n, _)| *n == p.name).map(|(_, v)| (p, *v)))
        .map(|(p, v)| format!("{} = {}", p.name, p.show(v)))
        .collect();
    let mut out = super::stdout();
    let w = placed.members.iter().map(|m| m.name.len()).max().unwrap_or(0).max("member".len());
    // A layout counted in bits says its size once.
    let units = if unit.bits == 1 {
        String::new()
    } else {
        format!(" ({} {} units)", placed.size / unit.bits, unit.name)
    };
    writeln!(out, "{}({}): {} bits{units}", layout.name(), values.join(", "), placed.size)
        .map_err(Error::output)?;
    writeln!(out, "{:w$}  {:>6}  {:>5}  place", "member", "offset", "width").map_err(Error::output)?;
    for m in &placed.members {
        let name = if m.reserved { format!("{} (reserved)", m.name) } else { m.name.clone() };
        writeln!(out, "{name:w$}  {:>6}  {:>5}  {}", m.place.offset, m.place.width, unit.name(m.place))
            .map_err(Error::output)?;
    }
    out.flush().map_err(Error::output)?;
    Ok(Outcome::Success)
}

/// `{"layout": NAME, "size": BITS, "fields": [{"name": ..., "offset": BITS, "width": BITS}, ...]}`
fn print_json(layout: &dyn AbiLayout, placed: &Placed) -> Result<Outcome> {
    let mut s = String::from("{\"layout\": ");
    write_json_string(&mut s, layout.name());
    s.push_str(&format!(", \"size\": {}, \"fields\": [", placed.size));
    for (i, m) in placed.members.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str("{\"name\": ");
        write_json_string(&mut s, &m.name);
        s.push_str(&format!(", \"offset\": {}, \"width\": {}}}", m.place.offset, m.place.width));
    }
    s.push_str("]}");
    super::say(format_args!("{s}"))?;
    Ok(Outcome::Success)
}

/// The doc comment's first sentence, on one line.
fn first_sentence(doc: &str) -> String {
    let text = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.find(". ") {
        Some(end) => text[..=end].to_string(),
        None => text,
    }
}

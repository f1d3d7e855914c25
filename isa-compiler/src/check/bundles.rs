//! `stream` and `bundle` target settings: a program made of several word streams, written as
//! bundles of units (VLIW packets, clauses), some streams computed from what each bundle holds.

use super::Checker;
use crate::ast;
use crate::ir;
use isa_runtime::bundle::Measure;

const STREAM_SETTINGS: &str =
    "stream settings: `bits 32`, `formats a, b`, `reset 0x...`, `computed fmt`, `count field, unit`, `first field, unit`";
const UNIT_SETTINGS: &str =
    "unit settings: `label \"MFU:\"`, `max 3`, `slots \"A0:\", \"A1:\"`, `alternative \"A3:\", format`";

/// Reads the target's `stream` and `bundle` settings into `t.bundles`.
pub fn extract(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    let Some(target) =
        file.items.iter().find_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })
    else {
        return;
    };
    let streams: Vec<&ast::Setting> = target.settings.iter().filter(|s| s.name.name == "stream").collect();
    let bundles: Vec<&ast::Setting> = target.settings.iter().filter(|s| s.name.name == "bundle").collect();
    if streams.is_empty() && bundles.is_empty() {
        return;
    }
    let Some(bundle) = bundles.first() else {
        cx.error(streams[0].name.span, "streams without a `bundle`").note(
            "`bundle exec { keyword \"EXEC\"; unit name { label \"NAME:\" } }` says how bundles fill them",
        );
        return;
    };
    for extra in &bundles[1..] {
        cx.error(extra.name.span, "a target declares one `bundle`")
            .with(bundle.name.span, "first declared here");
    }
    let format = |cx: &mut Checker, id: &ast::Ident| -> Option<ir::FormatId> {
        let found = t.formats.iter().position(|f| f.name == id.name).map(ir::FormatId);
        if found.is_none() {
            cx.error(id.span, format!("unknown format `{}`", id.name));
        }
        found
    };
    // Streams first (units name them), their computed fields after the units.
    let mut out =
        ir::Bundles { keyword: String::new(), streams: Vec::new(), units: Vec::new(), header: Vec::new() };
    let mut computed_settings = Vec::new();
    for s in &streams {
        let Some(ast::SettingValue::Name(name, nested)) = s.values.first() else {
            cx.error(s.name.span, "`stream` names the stream: `stream alu { bits 64; formats alu }`");
            continue;
        };
        if out.streams.iter().any(|x| x.name == name.name) {
            cx.error(name.span, format!("stream `{}` declared twice", name.name));
            continue;
        }
        let mut stream =
            ir::Stream { name: name.name.clone(), bits: 0, formats: Vec::new(), reset: 0, computed: None };
        let mut reset_span = None;
        for n in nested {
            match (n.name.name.as_str(), n.values.first()) {
                ("bits", Some(ast::SettingValue::Int(v, sp))) => {
                    if *v == 0 || *v > 128 || v % 32 != 0 {
                        cx.error(*sp, "a stream's words are 32, 64, 96 or 128 bits (listed as 32-bit parts)");
                    } else {
                        stream.bits = *v as u32;
                    }
                }
                ("formats", _) => {
                    for v in &n.values {
                        match v {
                            ast::SettingValue::Name(id, _) => stream.formats.extend(format(cx, id)),
                            _ => {
                                cx.error(n.name.span, "`formats` lists format names");
                            }
                        }
                    }
                }
                ("reset", Some(ast::SettingValue::Int(v, sp))) => {
                    stream.reset = u128::from(*v);
                    reset_span = Some(*sp);
                }
                ("computed", Some(ast::SettingValue::Name(id, _))) => {
                    if let Some(f) = format(cx, id) {
                        stream.computed = Some((f, Vec::new()));
                    }
                }
                ("count" | "first", _) => computed_settings.push((out.streams.len(), n)),
                _ => {
                    cx.error(n.name.span, format!("unknown stream setting `{}`", n.name.name))
                        .note(STREAM_SETTINGS);
                }
            }
        }
        if stream.bits == 0 {
            cx.error(name.span, format!("stream `{}` needs its word size: `bits 32`", name.name));
            continue;
        }
        for f in stream.formats.iter().chain(stream.computed.as_ref().map(|(f, _)| f)) {
            let fmt = &t.formats[f.0];
            if fmt.width != stream.bits {
                cx.error(name.span, format!("stream `{}` has {}-bit words", name.name, stream.bits))
                    .with(fmt.span, format!("format `{}` is {} bits", fmt.name, fmt.width));
            }
        }
        if stream.bits < 128 && stream.reset >> stream.bits != 0 {
            if let Some(sp) = reset_span {
                cx.error(sp, format!("the reset word does not fit the stream's {} bits", stream.bits));
            }
        }
        out.streams.push(stream);
    }
    let Some(ast::SettingValue::Name(_, nested)) = bundle.values.first() else {
        cx.error(bundle.name.span, "`bundle` names the bundle: `bundle exec { keyword \"EXEC\"; unit ... }`");
        return;
    };
    for n in nested {
        match (n.name.name.as_str(), n.values.first()) {
            ("keyword", Some(ast::SettingValue::Str(v, _))) => out.keyword = v.clone(),
            ("header", _) => {
                for v in &n.values {
                    match v {
                        ast::SettingValue::Name(id, _) => out.header.push(id.name.clone()),
                        _ => {
                            cx.error(n.name.span, "`header` lists the names of header settings");
                        }
                    }
                }
            }
            ("unit", Some(ast::SettingValue::Name(id, unit_settings))) => {
                let Some(stream) = out.streams.iter().position(|s| s.name == id.name) else {
                    cx.error(id.span, format!("unknown stream `{}`", id.name))
                        .note("a unit names the stream its words go to");
                    continue;
                };
                if out.units.iter().any(|u| u.stream == stream) {
                    cx.error(id.span, format!("two units of stream `{}`", id.name));
                    continue;
                }
                if out.streams[stream].computed.is_some() {
                    cx.error(id.span, format!("stream `{}` is computed: no unit writes it", id.name));
                    continue;
                }
                let mut unit = ir::BundleUnit {
                    label: String::new(),
                    stream,
                    max: None,
                    slots: Vec::new(),
                    alternatives: Vec::new(),
                };
                for u in unit_settings {
                    match (u.name.name.as_str(), u.values.first()) {
                        ("label", Some(ast::SettingValue::Str(v, _))) => unit.label = v.clone(),
                        ("max", Some(ast::SettingValue::Int(v, sp))) => {
                            if *v == 0 || *v > 64 {
                                cx.error(*sp, "`max` is 1 to 64");
                            } else {
                                unit.max = Some(*v as u32);
                            }
                        }
                        ("slots", _) => {
                            for v in &u.values {
                                match v {
                                    ast::SettingValue::Str(s, _) => unit.slots.push(s.clone()),
                                    _ => {
                                        cx.error(u.name.span, "`slots` lists the slots' labels");
                                    }
                                }
                            }
                        }
                        ("alternative", Some(ast::SettingValue::Str(slot, sp))) => {
                            let Some(index) = unit.slots.iter().position(|s| s == slot) else {
                                cx.error(*sp, format!("no slot `{slot}` (declare `slots` first)"));
                                continue;
                            };
                            match u.values.get(1) {
                                Some(ast::SettingValue::Name(f, _)) => {
                                    if let Some(f) = format(cx, f) {
                                        unit.alternatives.push((index, f));
                                    }
                                }
                                _ => {
                                    cx.error(u.name.span, "`alternative \"SLOT:\", format`");
                                }
                            }
                        }
                        _ => {
                            cx.error(u.name.span, format!("unknown unit setting `{}`", u.name.name))
                                .note(UNIT_SETTINGS);
                        }
                    }
                }
                if unit.label.is_empty() {
                    cx.error(id.span, format!("unit `{}` needs its `label`", id.name));
                }
                out.units.push(unit);
            }
            _ => {
                cx.error(n.name.span, format!("unknown bundle setting `{}`", n.name.name))
                    .note("bundle settings: `keyword \"EXEC\"`, `header name, ...`, `unit stream { ... }`");
            }
        }
    }
    if out.keyword.is_empty() {
        cx.error(bundle.name.span, "the bundle needs its `keyword` (what starts one: `keyword \"EXEC\"`)");
    }
    for (stream, n) in computed_settings {
        let measure = if n.name.name == "count" { Measure::Count } else { Measure::First };
        let (Some(ast::SettingValue::Name(field, _)), Some(ast::SettingValue::Name(unit, _))) =
            (n.values.first(), n.values.get(1))
        else {
            cx.error(n.name.span, format!("`{} field, unit`", n.name.name));
            continue;
        };
        let unit_index = out.units.iter().position(|x| out.streams[x.stream].name == unit.name);
        let Some((format, fields)) = out.streams[stream].computed.as_mut() else {
            cx.error(n.name.span, "only a `computed` stream has computed fields");
            continue;
        };
        let fmt = &t.formats[format.0];
        if !fmt.fields.iter().any(|f| f.name == field.name && f.array.is_none()) {
            cx.error(field.span, format!("format `{}` has no field `{}`", fmt.name, field.name));
            continue;
        }
        let Some(u) = unit_index else {
            cx.error(unit.span, format!("no unit of stream `{}`", unit.name));
            continue;
        };
        fields.push(ir::ComputedField { field: field.name.clone(), measure, unit: u });
    }
    // The disassembler learns how many of a counted unit each bundle holds from its count.
    for u in &out.units {
        let counted = out.streams.iter().filter_map(|s| s.computed.as_ref()).any(|(_, f)| {
            f.iter().any(|c| c.measure == Measure::Count && out.units[c.unit].label == u.label)
        });
        if u.max.is_some() && !counted {
            cx.error(bundle.name.span, format!("no computed stream counts the unit `{}`", u.label))
                .note("a unit with `max` needs a `count field, unit` in some computed stream");
        }
    }
    t.bundles = Some(out);
}

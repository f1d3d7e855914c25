//! `table` target settings: tables a program's data sections fill, of 32-bit words (grate's
//! `.constants`), each entry writing one part of an entry in a declared number format, or of
//! names (`names 253`: grate's `.attributes`, `.exports`, `.uniforms`), kept and printed back.

use super::Checker;
use crate::ast;
use crate::ir;

const TABLE_SETTINGS: &str =
    "table settings: `section \".constants\"`, `entries 32`, `part l { word 0; lsb 0; bits 10; number fx10 }`, `plain l`; a table of names: `names 253` (the longest name), `part l` (a part an entry may name alone)";
const PART_SETTINGS: &str = "part settings: `word 0`, `lsb 0`, `bits 10`, `number fx10`";

/// Reads the target's `table` settings into `t.tables`.
pub fn extract(cx: &mut Checker, file: &ast::File, t: &mut ir::Target) {
    let Some(target) =
        file.items.iter().find_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })
    else {
        return;
    };
    for s in target.settings.iter().filter(|s| s.name.name == "table") {
        let Some(ast::SettingValue::Name(name, nested)) = s.values.first() else {
            cx.error(
                s.name.span,
                "`table` names the table: `table constants { section \".constants\"; entries 32 }`",
            );
            continue;
        };
        if t.tables.iter().any(|x| x.name == name.name) {
            cx.error(name.span, format!("table `{}` declared twice", name.name));
            continue;
        }
        let mut table = ir::Table {
            name: name.name.clone(),
            section: String::new(),
            entries: 0,
            words: 1,
            parts: Vec::new(),
            names: None,
        };
        let mut plain = None;
        for n in nested {
            match (n.name.name.as_str(), n.values.first()) {
                ("section", Some(ast::SettingValue::Str(v, _))) => table.section = v.clone(),
                ("entries", Some(ast::SettingValue::Int(v, sp))) => match u32::try_from(*v) {
                    Ok(v) if v > 0 => table.entries = v,
                    _ => {
                        cx.error(*sp, "a table has 1 to 2^32-1 entries");
                    }
                },
                ("plain", Some(ast::SettingValue::Name(p, _))) => plain = Some(p.clone()),
                ("names", Some(ast::SettingValue::Int(v, sp))) => match u32::try_from(*v) {
                    Ok(v) if v > 0 => table.names = Some(v),
                    _ => {
                        cx.error(*sp, "`names N`: names of 1 to 2^32-1 characters");
                    }
                },
                // A table of names: a part is only a selector (`[i].l = "name"`).
                ("part", Some(ast::SettingValue::Name(p, settings)))
                    if settings.is_empty() && is_names(nested) =>
                {
                    if table.parts.iter().any(|x| x.name == p.name) {
                        cx.error(p.span, format!("part `{}` declared twice", p.name));
                    }
                    table.parts.push(ir::TablePart {
                        name: p.name.clone(),
                        word: 0,
                        lsb: 0,
                        bits: 0,
                        number: None,
                    });
                }
                ("part", Some(ast::SettingValue::Name(p, _))) if is_names(nested) => {
                    cx.error(p.span, "a part of a table of names is its selector alone: `part l`");
                }
                ("part", Some(ast::SettingValue::Name(p, settings))) => {
                    if let Some(part) = part(cx, t, p, settings) {
                        if table.parts.iter().any(|x| x.name == part.name) {
                            cx.error(p.span, format!("part `{}` declared twice", p.name));
                        }
                        table.words = table.words.max(part.word + 1);
                        table.parts.push(part);
                    }
                }
                _ => {
                    cx.error(n.name.span, format!("unknown or malformed table setting `{}`", n.name.name))
                        .note(TABLE_SETTINGS);
                }
            }
        }
        if table.section.is_empty() || table.entries == 0 {
            cx.error(name.span, format!("table `{}` needs its `section` and `entries`", name.name))
                .note(TABLE_SETTINGS);
        }
        if !t.dialects.iter().all(|d| d.data_sections.contains(&table.section)) {
            cx.error(name.span, format!("`{}` is not a `data_section` of every dialect", table.section));
        }
        // A whole entry of names is named by `[i] = "name"`: a part with no selector.
        if table.names.is_some() {
            if let Some(p) = &plain {
                cx.error(
                    p.span,
                    "a table of names has no `plain` part: `[i] = \"name\"` names the whole entry",
                );
            }
            table
                .parts
                .insert(0, ir::TablePart { name: String::new(), word: 0, lsb: 0, bits: 0, number: None });
        }
        // The part `[i] = v` writes has no selector.
        if let Some(p) = plain.filter(|_| table.names.is_none()) {
            match table.parts.iter_mut().find(|x| x.name == p.name) {
                Some(part) => part.name.clear(),
                None => {
                    cx.error(p.span, format!("table `{}` has no part `{}`", name.name, p.name));
                }
            }
        }
        t.tables.push(table);
    }
}

/// Whether a table's settings make it a table of names.
fn is_names(settings: &[ast::Setting]) -> bool {
    settings.iter().any(|s| s.name.name == "names")
}

/// One `part name { ... }` of a table.
fn part(
    cx: &mut Checker,
    t: &ir::Target,
    name: &ast::Ident,
    settings: &[ast::Setting],
) -> Option<ir::TablePart> {
    let mut part = ir::TablePart { name: name.name.clone(), word: 0, lsb: 0, bits: 0, number: None };
    let mut ok = true;
    for n in settings {
        match (n.name.name.as_str(), n.values.first()) {
            ("word", Some(ast::SettingValue::Int(v, sp))) => match u32::try_from(*v) {
                Ok(v) if v < 1 << 16 => part.word = v,
                _ => {
                    cx.error(*sp, "an entry has at most 65536 words");
                    ok = false;
                }
            },
            ("lsb", Some(ast::SettingValue::Int(v, _))) => part.lsb = u32::try_from(*v).unwrap_or(u32::MAX),
            ("bits", Some(ast::SettingValue::Int(v, _))) => part.bits = u32::try_from(*v).unwrap_or(u32::MAX),
            ("number", Some(ast::SettingValue::Name(v, _))) => {
                match t.numbers.iter().find(|x| x.name == v.name) {
                    Some(f) => part.number = Some(f.kind),
                    None => {
                        cx.error(v.span, format!("unknown number format `{}`", v.name));
                        ok = false;
                    }
                }
            }
            _ => {
                cx.error(n.name.span, format!("unknown or malformed part setting `{}`", n.name.name))
                    .note(PART_SETTINGS);
                ok = false;
            }
        }
    }
    // Without `bits`, a part is as wide as its number format.
    if part.bits == 0 {
        part.bits = part.number.map_or(0, |k| k.width());
    }
    if part.bits == 0 || part.lsb.saturating_add(part.bits) > 32 {
        cx.error(
            name.span,
            format!("part `{}` must lie within its 32-bit word (lsb + bits <= 32, bits >= 1)", name.name),
        );
        ok = false;
    }
    ok.then_some(part)
}

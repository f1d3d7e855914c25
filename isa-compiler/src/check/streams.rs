//! Words that travel beside the instructions: the `stream` and `bundle` target settings.
//! A program is either bundles of units (VLIW packets, clauses) filling several word streams,
//! some computed from what each bundle holds (Tegra's fragment `EXEC`), or its instructions
//! grouped by a count, each group behind a control word made of the slots its instructions
//! give (`stream control { every 3; slot sched_slot; pad 0x... }`: Maxwell's scheduling
//! words). The slot format is not an instruction: [`finish`] moves it out of the formats.

use super::Checker;
use crate::ast;
use crate::ir;
use isa_runtime_base::Measure;

const STREAM_SETTINGS: &str = "stream settings: `bits 32`, `formats a, b`, `reset 0x...`, `computed fmt`, `count field, unit`, `first field, unit`; interleaved: `every 3`, `slot fmt`, `pad 0x...`, `raw_control \".control\"`, `mark flags { text \".reuse\"; operands ra, rb }`, `pair when { stall 0 }`";
const UNIT_SETTINGS: &str =
    "unit settings: `label \"MFU:\"`, `max 3`, `total 64`, `slots \"A0:\", \"A1:\"`, `alternative \"A3:\", format`";

/// An interleaved stream read by [`extract`], completed by [`finish`] once the slot format's
/// syntax is lowered.
pub struct Pending {
    /// The slot format (still among the instruction formats).
    slot: ir::FormatId,
    every: u32,
    pad: u128,
    marks: Vec<ir::SlotMark>,
    pair: Vec<(usize, u64)>,
    raw_control: Option<String>,
}

/// The name of the slot format of an interleaved stream (`slot sched_slot`), if any.
pub fn slot_name(file: &ast::File) -> Option<String> {
    let target = file.items.iter().find_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })?;
    target.settings.iter().filter(|s| s.name.name == "stream").find_map(|s| match s.values.first() {
        Some(ast::SettingValue::Name(_, nested)) => nested.iter().find_map(|n| match n.values.first() {
            Some(ast::SettingValue::Name(id, _)) if n.name.name == "slot" => Some(id.name.clone()),
            _ => None,
        }),
        _ => None,
    })
}

/// Moves the slot format of an interleaved stream out of the instruction formats into its
/// stream.
pub fn finish(pending: Option<Pending>, t: &mut ir::Target) {
    let Some(p) = pending else { return };
    let slot = t.formats.remove(p.slot.0);
    let Some(streams) = t.streams.as_mut() else { return };
    // Format ids after the slot move down by one (only an interleaved stream is declared
    // with one, but ids are never left pointing at the wrong format).
    for s in &mut streams.streams {
        for f in &mut s.formats {
            if f.0 > p.slot.0 {
                f.0 -= 1;
            }
        }
    }
    if let Some(stream) = streams.streams.first_mut() {
        stream.computed = Some(ir::Computed::Slots(Box::new(ir::Slots {
            slot,
            every: p.every,
            pad: p.pad,
            marks: p.marks,
            pair: p.pair,
            raw_control: p.raw_control,
        })));
    }
}

/// Reads the target's `stream` and `bundle` settings into `t.streams`; an interleaved stream
/// is returned to be completed by [`finish`].
pub fn extract(
    cx: &mut Checker,
    file: &ast::File,
    origins: &super::fields::Origins,
    t: &mut ir::Target,
) -> Option<Pending> {
    let target = file.items.iter().find_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })?;
    if let Some(s) = target.settings.iter().find(|s| s.name.name == "schedule") {
        cx.error(s.name.span, "`schedule` is a stream interleaved with the instructions")
            .note("write `stream control { every 3; slot sched_slot; pad 0x... }`");
    }
    let streams: Vec<&ast::Setting> = target.settings.iter().filter(|s| s.name.name == "stream").collect();
    let bundles: Vec<&ast::Setting> = target.settings.iter().filter(|s| s.name.name == "bundle").collect();
    if streams.is_empty() && bundles.is_empty() {
        return None;
    }
    let interleaved = streams.iter().find(|s| match s.values.first() {
        Some(ast::SettingValue::Name(_, nested)) => nested.iter().any(|n| n.name.name == "every"),
        _ => false,
    });
    if let Some(first) = interleaved {
        // One way of grouping: a count, or bundles, never both (a program is read as groups
        // behind control words or as bundles; no reader does both at once).
        let others = streams.iter().filter(|s| !core::ptr::eq(**s, *first)).chain(&bundles);
        let mut clash = false;
        for other in others {
            clash = true;
            cx.error(
                other.name.span,
                "a program is either instructions grouped behind control words or bundles, not both",
            )
            .with(first.name.span, "the instructions are grouped here (`every`)")
            .note("a target with an interleaved stream (`every N`) declares no other stream and no `bundle`");
        }
        if clash {
            return None;
        }
        return interleaved_stream(cx, first, origins, t);
    }
    let Some(bundle) = bundles.first() else {
        cx.error(streams[0].name.span, "streams without a `bundle`").note(
            "`bundle exec { keyword \"EXEC\"; unit name { label \"NAME:\" } }` says how bundles fill them; \
             `every N` interleaves a stream with the instructions",
        );
        return None;
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
    let mut out = ir::Bundle { keyword: String::new(), units: Vec::new(), header: Vec::new(), max: None };
    let mut all: Vec<ir::Stream> = Vec::new();
    let mut computed_settings = Vec::new();
    for s in &streams {
        let Some(ast::SettingValue::Name(name, nested)) = s.values.first() else {
            cx.error(s.name.span, "`stream` names the stream: `stream alu { bits 64; formats alu }`");
            continue;
        };
        if all.iter().any(|x| x.name == name.name) {
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
                ("reset", Some(v @ (ast::SettingValue::Int(..) | ast::SettingValue::Wide(..)))) => {
                    let (word, sp) = word_value(v);
                    stream.reset = word;
                    reset_span = Some(sp);
                }
                ("computed", Some(ast::SettingValue::Name(id, _))) => {
                    if let Some(f) = format(cx, id) {
                        stream.computed = Some(ir::Computed::Counts { format: f, fields: Vec::new() });
                    }
                }
                ("count" | "first", _) => computed_settings.push((all.len(), n)),
                ("slot" | "pad" | "raw_control", _) => {
                    cx.error(n.name.span, format!("`{}` belongs to an interleaved stream", n.name.name))
                        .note("`every N; slot fmt; pad 0x...`: a control word before every N instructions");
                }
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
        let counted = match &stream.computed {
            Some(ir::Computed::Counts { format, .. }) => Some(format),
            _ => None,
        };
        for f in stream.formats.iter().chain(counted) {
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
        all.push(stream);
    }
    let Some(ast::SettingValue::Name(_, nested)) = bundle.values.first() else {
        cx.error(bundle.name.span, "`bundle` names the bundle: `bundle exec { keyword \"EXEC\"; unit ... }`");
        return None;
    };
    for n in nested {
        match (n.name.name.as_str(), n.values.first()) {
            ("keyword", Some(ast::SettingValue::Str(v, _))) => out.keyword = v.clone(),
            ("max", Some(ast::SettingValue::Int(v, sp))) => match u32::try_from(*v) {
                Ok(v) if v > 0 => out.max = Some(v),
                _ => {
                    cx.error(*sp, "a program holds `max` 1 to 2^32-1 bundles");
                }
            },
            ("header", _) => {
                for v in &n.values {
                    match v {
                        ast::SettingValue::Name(id, limits) => {
                            let mut max = None;
                            for l in limits {
                                match (l.name.name.as_str(), l.values.first()) {
                                    ("max", Some(ast::SettingValue::Int(v, _))) => max = Some(*v),
                                    _ => {
                                        cx.error(l.name.span, "a header setting's limit is `max N`")
                                            .note("`header alu_buffer_size { max 4 }, pseq_to_dw_exec_nb`");
                                    }
                                }
                            }
                            out.header.push((id.name.clone(), max));
                        }
                        _ => {
                            cx.error(n.name.span, "`header` lists the names of header settings");
                        }
                    }
                }
            }
            ("unit", Some(ast::SettingValue::Name(id, unit_settings))) => {
                let Some(stream) = all.iter().position(|s| s.name == id.name) else {
                    cx.error(id.span, format!("unknown stream `{}`", id.name))
                        .note("a unit names the stream its words go to");
                    continue;
                };
                if out.units.iter().any(|u| u.stream == stream) {
                    cx.error(id.span, format!("two units of stream `{}`", id.name));
                    continue;
                }
                if all[stream].computed.is_some() {
                    cx.error(id.span, format!("stream `{}` is computed: no unit writes it", id.name));
                    continue;
                }
                let mut unit = ir::BundleUnit {
                    label: String::new(),
                    stream,
                    max: None,
                    total: None,
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
                        ("total", Some(ast::SettingValue::Int(v, sp))) => match u32::try_from(*v) {
                            Ok(v) if v > 0 => unit.total = Some(v),
                            _ => {
                                cx.error(*sp, "`total` is 1 to 2^32-1");
                            }
                        },
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
                    .note("bundle settings: `keyword \"EXEC\"`, `max 64`, `header name { max 4 }, ...`, `unit stream { ... }`");
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
        let unit_index = out.units.iter().position(|x| all[x.stream].name == unit.name);
        let Some(ir::Computed::Counts { format, fields }) = all[stream].computed.as_mut() else {
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
        let counted = all.iter().filter_map(|s| s.computed.as_ref()).any(|c| match c {
            ir::Computed::Counts { fields, .. } => {
                fields.iter().any(|c| c.measure == Measure::Count && out.units[c.unit].label == u.label)
            }
            ir::Computed::Slots(_) => false,
        });
        if u.max.is_some() && !counted {
            cx.error(bundle.name.span, format!("no computed stream counts the unit `{}`", u.label))
                .note("a unit with `max` needs a `count field, unit` in some computed stream");
        }
    }
    t.streams = Some(ir::Streams { streams: all, bundle: Some(out) });
    None
}

/// `stream control { every 3; slot sched_slot; pad 0x... }`: a control word of the
/// instruction word's size before every 3 instructions, slot `i` of it given by instruction
/// `i` of the group; the last group is filled with the `pad` instruction.
fn interleaved_stream(
    cx: &mut Checker,
    s: &ast::Setting,
    origins: &super::fields::Origins,
    t: &mut ir::Target,
) -> Option<Pending> {
    let Some(ast::SettingValue::Name(name, nested)) = s.values.first() else {
        cx.error(s.name.span, "`stream` names the stream: `stream control { every 3; slot sched_slot }`");
        return None;
    };
    let (mut every, mut slot, mut pad) = (None, None, None);
    let (mut marks, mut pair, mut raw_control) = (Vec::new(), None, None);
    for n in nested {
        match (n.name.name.as_str(), n.values.first()) {
            ("mark", Some(ast::SettingValue::Name(flags, inner))) => marks.push((flags, inner)),
            ("pair", Some(ast::SettingValue::Name(_, inner))) => pair = Some(inner),
            ("every", Some(ast::SettingValue::Int(v, sp))) => every = Some((*v, *sp)),
            ("slot", Some(ast::SettingValue::Name(id, _))) => slot = Some(id),
            ("raw_control", Some(ast::SettingValue::Str(text, sp))) => {
                if text.is_empty() || text.contains(char::is_whitespace) {
                    cx.error(*sp, "`raw_control` names a directive: one word, such as `\".control\"`");
                } else {
                    raw_control = Some(text.clone());
                }
            }
            ("raw_control", _) => {
                cx.error(
                    n.name.span,
                    "`raw_control` takes the directive's spelling: `raw_control \".control\"`",
                );
            }
            ("pad", Some(v @ (ast::SettingValue::Int(..) | ast::SettingValue::Wide(..)))) => {
                pad = Some(word_value(v))
            }
            ("bits", Some(ast::SettingValue::Int(v, sp))) => {
                if *v != u64::from(t.word_bits) {
                    cx.error(
                        *sp,
                        format!(
                            "an interleaved stream's words are the {}-bit instruction words",
                            t.word_bits
                        ),
                    );
                }
            }
            ("formats" | "reset" | "computed" | "count" | "first", _) => {
                cx.error(n.name.span, format!("`{}` is not a setting of an interleaved stream", n.name.name))
                    .note("its words are made of the slots its instructions give: `every N; slot fmt; pad 0x...`");
            }
            _ => {
                cx.error(n.name.span, format!("unknown stream setting `{}`", n.name.name))
                    .note(STREAM_SETTINGS);
            }
        }
    }
    let Some(id) = slot else {
        cx.error(
            name.span,
            format!("stream `{}` needs the format of its slots: `slot sched_slot`", name.name),
        );
        return None;
    };
    let Some(index) = t.formats.iter().position(|f| f.name == id.name) else {
        cx.error(id.span, format!("unknown format `{}`", id.name))
            .label("`slot` names the format of one control-word slot");
        return None;
    };
    // The width must be declared: a slot is narrower than the word.
    let declared = origins.iter().any(|(f, l)| *f == ir::FormatId(index) && l.width.is_some());
    let width = match t.formats[index].width {
        w if declared && w < 64 => w,
        _ => {
            cx.error(
                id.span,
                format!("slot format `{}` must declare its width (`format {} : 21`)", id.name, id.name),
            );
            return None;
        }
    };
    let Some(every) = every.map(|(v, _)| v).filter(|n| *n > 0 && *n <= u64::from(t.word_bits / width)) else {
        let at = every.map_or(name.span, |(_, sp)| sp);
        cx.error(
            at,
            format!("`every N` must fit N slots of {width} bits in the {}-bit control word", t.word_bits),
        );
        return None;
    };
    let (pad, pad_span) = pad.map_or((0, name.span), |(v, sp)| (v, sp));
    let matches = |f: &ir::Format| f.pattern.iter().any(|(mask, value)| pad & mask == *value);
    let instructions = t.formats.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, f)| f);
    if pad.checked_shr(t.word_bits).unwrap_or(0) != 0 || !instructions.clone().any(matches) {
        cx.error(pad_span, format!("the pad word {pad:#x} is no instruction of this target"))
            .note("`pad` is the instruction that fills a program's last group (a NOP)");
    }
    let stream = ir::Stream {
        name: name.name.clone(),
        bits: t.word_bits,
        formats: Vec::new(),
        reset: 0,
        computed: None,
    };
    let marks =
        marks.into_iter().filter_map(|(flags, inner)| slot_mark(cx, t, index, flags, inner)).collect();
    let pair = pair.map_or(Vec::new(), |inner| slot_values(cx, &t.formats[index], inner));
    t.streams = Some(ir::Streams { streams: vec![stream], bundle: None });
    Some(Pending { slot: ir::FormatId(index), every: every as u32, pad, marks, pair, raw_control })
}

/// `mark reuse { text ".reuse"; operands ra, rb, rc }` (or `mnemonic ".T", ".P"` and
/// `formats tex, tld`): the elements of slot array field `reuse` shown on the text in a listing.
fn slot_mark(
    cx: &mut Checker,
    t: &ir::Target,
    slot: usize,
    flags: &ast::Ident,
    inner: &[ast::Setting],
) -> Option<ir::SlotMark> {
    let f = &t.formats[slot];
    let indices: Vec<usize> = f
        .slots()
        .iter()
        .enumerate()
        .filter(|(_, s)| f.field(s.field).name == flags.name)
        .map(|(i, _)| i)
        .collect();
    if indices.is_empty() {
        cx.error(flags.span, format!("slot format `{}` has no field `{}`", f.name, flags.name))
            .label("`mark` names the slot's flags (an array of bools, one per mark)");
        return None;
    }
    let mut mark = ir::SlotMark {
        flags: indices,
        texts: Vec::new(),
        operands: Vec::new(),
        formats: Vec::new(),
        when: Vec::new(),
    };
    let mut wheres = Vec::new();
    let names = |n: &ast::Setting| -> Vec<(String, ast::Span)> {
        n.values
            .iter()
            .filter_map(|v| match v {
                ast::SettingValue::Name(id, _) => Some((id.name.clone(), id.span)),
                _ => None,
            })
            .collect()
    };
    let strings = |n: &ast::Setting| -> Vec<String> {
        n.values
            .iter()
            .filter_map(|v| match v {
                ast::SettingValue::Str(s, _) => Some(s.clone()),
                _ => None,
            })
            .collect()
    };
    // A format, or a family: its forms are `name_form`.
    let instructions = |name: &str| {
        t.formats.iter().enumerate().any(|(i, g)| {
            i != slot && (g.name == name || g.name.strip_prefix(name).is_some_and(|r| r.starts_with('_')))
        })
    };
    let with_field = |name: &str| {
        t.formats.iter().enumerate().any(|(i, g)| i != slot && g.fields.iter().any(|x| x.name == name))
    };
    let mut texts_span = flags.span;
    for n in inner {
        match n.name.name.as_str() {
            "text" | "mnemonic" => {
                mark.texts = strings(n);
                texts_span = n.name.span;
                if n.name.name == "mnemonic" {
                    mark.operands.clear();
                }
            }
            "operands" => {
                for (name, span) in names(n) {
                    if name != "_" && !with_field(&name) {
                        cx.error(span, format!("no instruction has a field `{name}`"));
                    }
                    mark.operands.push(name);
                }
            }
            "formats" => {
                for (name, span) in names(n) {
                    if !instructions(&name) {
                        cx.error(span, format!("no format or family `{name}`"));
                    }
                    mark.formats.push(name);
                }
            }
            "only" => match n.values.as_slice() {
                [ast::SettingValue::Name(when, conditions)] if when.name == "when" => {
                    for c in conditions {
                        let values: Vec<u64> = c
                            .values
                            .iter()
                            .filter_map(
                                |v| if let ast::SettingValue::Int(x, _) = v { Some(*x) } else { None },
                            )
                            .collect();
                        if values.is_empty() || values.len() != c.values.len() {
                            cx.error(c.name.span, "`only when { field 1, 2 }` gives each field its values");
                            continue;
                        }
                        wheres.push((c.name.clone(), values));
                    }
                }
                _ => {
                    cx.error(
                        n.name.span,
                        "`only when { a_sel 6, 7 }` names fields of the mark's formats and their values",
                    );
                }
            },
            _ => {
                cx.error(n.name.span, format!("unknown mark setting `{}`", n.name.name)).note(
                    "mark settings: `text \".reuse\"` with `operands ra, rb`, or `mnemonic \".T\", \".P\"`; `formats a, b`; `only when { field 1, 2 }`",
                );
            }
        }
    }
    // A condition is on fields every encoding the mark names has.
    for (field, values) in wheres {
        if mark.formats.is_empty() {
            cx.error(field.span, "`only when` needs the formats it chooses among (`formats vmad`)");
            continue;
        }
        let named = |g: &ir::Format| {
            mark.formats
                .iter()
                .any(|n| g.name == *n || g.name.strip_prefix(n.as_str()).is_some_and(|r| r.starts_with('_')))
        };
        let lacking = t.formats.iter().find(|g| named(g) && !g.fields.iter().any(|x| x.name == field.name));
        if let Some(g) = lacking {
            cx.error(field.span, format!("format `{}` has no field `{}`", g.name, field.name))
                .label("`only when` tests a field of every format the mark names");
            continue;
        }
        mark.when.push((field.name, values));
    }
    // A mark without text hides the flags on the formats it names.
    if mark.texts.is_empty() && mark.formats.is_empty() {
        cx.error(texts_span, "a mark needs its text (`text \".reuse\"`, `mnemonic \".T\"`) or the formats that show none (`formats ld, st`)");
        return None;
    }
    if mark.operands.is_empty() && !mark.texts.is_empty() && !mark.texts.len().is_power_of_two() {
        cx.error(texts_span, "`mnemonic` gives one text per value of the first flags: 2, 4, 8... texts");
        return None;
    }
    if !mark.operands.is_empty() && mark.operands.len() != mark.flags.len() {
        cx.error(
            flags.span,
            format!(
                "`{}` has {} flags but the mark names {} operands",
                flags.name,
                mark.flags.len(),
                mark.operands.len()
            ),
        );
        return None;
    }
    Some(mark)
}

/// `pair when { stall 0; yield_flag 1 }`: slot field values, each a field of the slot format.
fn slot_values(cx: &mut Checker, f: &ir::Format, inner: &[ast::Setting]) -> Vec<(usize, u64)> {
    let slots = f.slots();
    let mut out = Vec::new();
    for n in inner {
        let index = slots.iter().position(|s| s.element.is_none() && f.field(s.field).name == n.name.name);
        match (index, n.values.as_slice()) {
            (Some(i), [ast::SettingValue::Int(v, _)]) => out.push((i, *v)),
            (None, _) => {
                cx.error(n.name.span, format!("slot format `{}` has no field `{}`", f.name, n.name.name));
            }
            _ => {
                cx.error(n.name.span, "`pair when { field value; ... }` gives each slot field a number");
            }
        }
    }
    out
}

/// A word setting's value ([`ast::WORD_SETTINGS`]) and where it is.
fn word_value(v: &ast::SettingValue) -> (u128, ast::Span) {
    match v {
        ast::SettingValue::Int(v, sp) => (u128::from(*v), *sp),
        ast::SettingValue::Wide(v, sp) => (*v, *sp),
        ast::SettingValue::Str(_, sp) => (0, *sp),
        ast::SettingValue::Name(id, _) => (0, id.span),
    }
}

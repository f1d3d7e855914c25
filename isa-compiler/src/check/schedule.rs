//! Scheduling control words (`schedule sched_slot { slots 3 pad 0x50b0000000070f00 }`): the
//! named format is the slot, not an instruction; it leaves the formats for `Target::schedule`.

use super::Checker;
use crate::ast;
use crate::ir;

/// The `schedule` setting of the file's target, if any.
fn setting(file: &ast::File) -> Option<(&ast::Ident, &[ast::Setting])> {
    let target = file.items.iter().find_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })?;
    let s = target.settings.iter().find(|s| s.name.name == "schedule")?;
    match s.values.first() {
        Some(ast::SettingValue::Name(id, nested)) => Some((id, nested.as_slice())),
        _ => None,
    }
}

/// The name of the slot format.
pub fn slot_name(file: &ast::File) -> Option<String> {
    setting(file).map(|(id, _)| id.name.clone())
}

/// Moves the slot format out of the instructions into `t.schedule`, checking the setting.
pub fn extract(cx: &mut Checker, file: &ast::File, origins: &super::fields::Origins, t: &mut ir::Target) {
    let Some(target) =
        file.items.iter().find_map(|i| if let ast::Item::Target(t) = i { Some(t) } else { None })
    else {
        return;
    };
    let Some(s) = target.settings.iter().find(|s| s.name.name == "schedule") else { return };
    let Some((id, nested)) = setting(file) else {
        cx.error(s.name.span, "`schedule` names the slot format: `schedule slot { slots 3 pad 0x... }`");
        return;
    };
    let Some(index) = t.formats.iter().position(|f| f.name == id.name) else {
        cx.error(id.span, format!("unknown format `{}`", id.name))
            .label("`schedule` names the format of one control-word slot");
        return;
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
            return;
        }
    };
    let (mut slots, mut pad) = (None, None);
    for n in nested {
        match (n.name.name.as_str(), n.values.first()) {
            ("slots", Some(ast::SettingValue::Int(v, _))) => slots = Some(*v),
            ("pad", Some(ast::SettingValue::Int(v, _))) => pad = Some(*v),
            _ => {
                cx.error(n.name.span, format!("unknown schedule setting `{}`", n.name.name))
                    .note("schedule settings: `slots 3` (instructions per control word), `pad 0x...` (the filler instruction)");
            }
        }
    }
    let Some(slots) = slots.filter(|n| *n > 0 && *n <= u64::from(t.word_bits / width)) else {
        cx.error(
            id.span,
            format!("`slots N` must fit N slots of {width} bits in the {}-bit control word", t.word_bits),
        );
        return;
    };
    let slot = t.formats.remove(index);
    let pad = u128::from(pad.unwrap_or(0));
    let matches = |f: &ir::Format| f.pattern.iter().any(|(mask, value)| pad & mask == *value);
    if pad >> t.word_bits != 0 || !t.formats.iter().any(matches) {
        cx.error(s.name.span, format!("the pad word {pad:#x} is no instruction of this target"))
            .note("`pad` is the instruction that fills a program's last group (a NOP)");
    }
    t.schedule = Some(ir::Schedule { slot, slots: slots as u32, pad });
}

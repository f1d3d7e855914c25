//! Field values for generic tools: every decoded field by its spec name, as JSON.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// The value of one field, typed as the spec declares it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A `bool` field.
    Bool(bool),
    /// An unsigned integer field.
    Uint(u64),
    /// A signed integer field.
    Int(i64),
    /// A number-format field (fp20, fx10, ...), decoded.
    Float(f64),
    /// An enumerated field: the value's spec name.
    Enum(&'static str),
    /// A value of a range variant of an enum (`ra` holding 5): printed `"ra(5)"`.
    Variant(&'static str, u64),
    /// A nested layout: its fields in declaration order.
    Struct(Vec<(&'static str, Value)>),
    /// An array field.
    Array(Vec<Value>),
}

impl Value {
    /// Appends this value as JSON to `out`.
    pub fn write_json(&self, out: &mut String) {
        match self {
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Uint(v) => {
                let _ = write!(out, "{v}");
            }
            Value::Int(v) => {
                let _ = write!(out, "{v}");
            }
            Value::Float(v) if v.is_finite() => {
                let _ = write!(out, "{v:?}");
            }
            Value::Float(_) => out.push_str("null"),
            Value::Enum(name) => write_json_string(out, name),
            Value::Variant(name, v) => write_json_string(out, &alloc::format!("{name}({v})")),
            Value::Struct(fields) => write_json_object(out, fields),
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_json(out);
                }
                out.push(']');
            }
        }
    }
}

/// Appends `{"name":value,...}` to `out`.
pub fn write_json_object(out: &mut String, fields: &[(&str, Value)]) {
    out.push('{');
    for (i, (name, v)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, name);
        out.push(':');
        v.write_json(out);
    }
    out.push('}');
}

/// Appends `s` as a JSON string literal to `out`.
pub fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn json_shape() {
        let mut s = String::new();
        write_json_object(
            &mut s,
            &[("sig", Value::Enum("small_imm")), ("ws", Value::Bool(true)), ("imm", Value::Int(-8))],
        );
        assert_eq!(s, r#"{"sig":"small_imm","ws":true,"imm":-8}"#);
        let mut s = String::new();
        Value::Array(vec![Value::Uint(1), Value::Float(0.5)]).write_json(&mut s);
        assert_eq!(s, "[1,0.5]");
    }
}

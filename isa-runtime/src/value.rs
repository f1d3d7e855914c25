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
    /// A string read from JSON: an enum value's name, checked when the value is encoded.
    Text(String),
    /// An object read from JSON: a layout's fields by name, checked when it is encoded.
    Object(Vec<(String, Value)>),
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
            Value::Text(text) => write_json_string(out, text),
            Value::Object(fields) => {
                let fields: Vec<(&str, Value)> =
                    fields.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                write_json_object(out, &fields);
            }
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

impl Value {
    /// The fields of a layout value (`Struct` or `Object`), by name.
    pub fn entries(&self) -> Option<Vec<(&str, &Value)>> {
        match self {
            Value::Struct(fields) => Some(fields.iter().map(|(k, v)| (*k, v)).collect()),
            Value::Object(fields) => Some(fields.iter().map(|(k, v)| (k.as_str(), v)).collect()),
            _ => None,
        }
    }

    /// The elements of an array value.
    pub fn items(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The field `name` of a layout value.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Struct(fields) => fields.iter().find(|(k, _)| *k == name).map(|(_, v)| v),
            Value::Object(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at a dotted path of field names (`common_word0.sph_type`).
    pub fn path(&self, path: &str) -> Option<&Value> {
        path.split('.').try_fold(self, |v, name| v.get(name))
    }

    /// A name (`Enum` or `Text`).
    pub fn as_name(&self) -> Option<&str> {
        match self {
            Value::Enum(name) => Some(name),
            Value::Text(text) => Some(text),
            _ => None,
        }
    }

    /// A non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::Uint(v) => Some(v),
            Value::Int(v) => u64::try_from(v).ok(),
            Value::Float(v) if (0.0..18446744073709551616.0).contains(&v) && (v as u64) as f64 == v => {
                Some(v as u64)
            }
            _ => None,
        }
    }

    /// A number that is an integer, exactly, whatever its sign and size: what a field that it
    /// does not fit reports (JSON's `17`, `-1`, `1e3`).
    pub fn as_integer(&self) -> Option<i128> {
        match *self {
            Value::Uint(v) => Some(i128::from(v)),
            Value::Int(v) => Some(i128::from(v)),
            // An integral f64 below 10^30 converts to i128 exactly; no field holds a larger one.
            Value::Float(v) if (-1.0e30..1.0e30).contains(&v) && (v as i128) as f64 == v => Some(v as i128),
            _ => None,
        }
    }

    /// An integer.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Uint(v) => i64::try_from(v).ok(),
            Value::Int(v) => Some(v),
            _ => None,
        }
    }

    /// A boolean (`true`/`false`, or the numbers 0 and 1).
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            Value::Uint(0) | Value::Int(0) => Some(false),
            Value::Uint(1) | Value::Int(1) => Some(true),
            _ => None,
        }
    }
}

/// Splits a value name as [`Value::Variant`] prints it: `"ra(5)"` is `("ra", Some(5))`,
/// `"nop"` is `("nop", None)`.
pub fn split_variant(text: &str) -> (&str, Option<u64>) {
    if let Some(open) = text.find('(') {
        if let Some(inner) = text[open + 1..].strip_suffix(')') {
            let v = match inner.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => inner.parse().ok(),
            };
            if v.is_some() {
                return (&text[..open], v);
            }
        }
    }
    (text, None)
}

/// Why JSON text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What was expected.
    pub message: &'static str,
}

impl core::fmt::Display for JsonError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "JSON at byte {}: {}", self.offset, self.message)
    }
}

impl core::error::Error for JsonError {}

/// Reads JSON text as a [`Value`]: objects become `Object`, strings `Text`, integers `Uint` or
/// `Int`, other numbers `Float`; `null` is not a field value and is an error.
pub fn parse_json(text: &str) -> Result<Value, JsonError> {
    let mut p = JsonParser { s: text.as_bytes(), i: 0, depth: 0 };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("unexpected text after the value"));
    }
    Ok(v)
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
    depth: u32,
}

impl JsonParser<'_> {
    fn err(&self, message: &'static str) -> JsonError {
        JsonError { offset: self.i, message }
    }

    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        self.ws();
        self.depth += 1;
        if self.depth > 128 {
            return Err(self.err("nesting too deep"));
        }
        let v = match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.ws();
                        let key = self.string()?;
                        if !self.eat(b':') {
                            return Err(self.err("expected `:`"));
                        }
                        fields.push((key, self.value()?));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.err("expected `,` or `}`"));
                        }
                    }
                }
                Value::Object(fields)
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value()?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return Err(self.err("expected `,` or `]`"));
                        }
                    }
                }
                Value::Array(items)
            }
            Some(b'"') => Value::Text(self.string()?),
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Value::Bool(true)
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Value::Bool(false)
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => self.number()?,
            _ => return Err(self.err("expected a value (object, array, string, number, true or false)")),
        };
        self.depth -= 1;
        Ok(v)
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_digit() || b"+-.eE".contains(c)) {
            self.i += 1;
        }
        let text = core::str::from_utf8(&self.s[start..self.i]).map_err(|_| self.err("bad number"))?;
        if let Ok(v) = text.parse::<u64>() {
            return Ok(Value::Uint(v));
        }
        if let Ok(v) = text.parse::<i64>() {
            return Ok(Value::Int(v));
        }
        // An integer no 64-bit field holds is an error, never rounded to a float that might.
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(JsonError {
                offset: start,
                message: "integer wider than 64 bits (no field holds it)",
            });
        }
        text.parse::<f64>().map(Value::Float).map_err(|_| JsonError { offset: start, message: "bad number" })
    }

    fn string(&mut self) -> Result<String, JsonError> {
        if self.s.get(self.i) != Some(&b'"') {
            return Err(self.err("expected a string"));
        }
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.s.get(self.i).is_some_and(|c| *c != b'"' && *c != b'\\') {
                self.i += 1;
            }
            out.push_str(core::str::from_utf8(&self.s[start..self.i]).map_err(|_| self.err("bad UTF-8"))?);
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(_) => {
                    self.i += 1;
                    let c = match self.s.get(self.i) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'n') => '\n',
                        Some(b't') => '\t',
                        Some(b'r') => '\r',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'u') => {
                            let hex =
                                self.s.get(self.i + 1..self.i + 5).ok_or(self.err("short \\u escape"))?;
                            let hex = core::str::from_utf8(hex).map_err(|_| self.err("bad \\u escape"))?;
                            let code =
                                u32::from_str_radix(hex, 16).map_err(|_| self.err("bad \\u escape"))?;
                            self.i += 4;
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.err("bad escape")),
                    };
                    self.i += 1;
                    out.push(c);
                }
                None => return Err(self.err("unterminated string")),
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
    fn json_reads_back() {
        let v = parse_json(r#" {"a": [1, -2, 0.5], "b": {"c": "VTG", "d": true}, "e": "x\"y"} "#);
        assert_eq!(
            v,
            Ok(Value::Object(vec![
                ("a".into(), Value::Array(vec![Value::Uint(1), Value::Int(-2), Value::Float(0.5)])),
                (
                    "b".into(),
                    Value::Object(vec![
                        ("c".into(), Value::Text("VTG".into())),
                        ("d".into(), Value::Bool(true))
                    ])
                ),
                ("e".into(), Value::Text("x\"y".into())),
            ]))
        );
        let v = v.unwrap_or(Value::Bool(false));
        assert_eq!(v.path("b.c").and_then(Value::as_name), Some("VTG"));
        assert_eq!(parse_json("{\"a\" 1}").map_err(|e| e.offset), Err(5));
        assert!(parse_json("[1,").is_err());
        assert!(parse_json("null").is_err());
        assert!(parse_json(&"[".repeat(1000)).is_err());
    }

    #[test]
    fn integers_are_read_exactly_or_not_at_all() {
        // 2^40 and -1 are exact; 2^64 is no u64 and no i64: an error, not the float 1.8e19.
        assert_eq!(parse_json("1099511627776").map(|v| v.as_integer()), Ok(Some(1 << 40)));
        assert_eq!(parse_json("-1").map(|v| v.as_integer()), Ok(Some(-1)));
        assert_eq!(parse_json("1e3").map(|v| v.as_integer()), Ok(Some(1000)));
        assert_eq!(parse_json("0.5").map(|v| v.as_integer()), Ok(None));
        assert_eq!(
            parse_json("[18446744073709551616]"),
            Err(JsonError { offset: 1, message: "integer wider than 64 bits (no field holds it)" })
        );
        assert_eq!(parse_json("-9223372036854775809").map_err(|e| e.offset), Err(0));
        assert_eq!(parse_json("18446744073709551615").map(|v| v.as_integer()), Ok(Some(u64::MAX.into())));
    }

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

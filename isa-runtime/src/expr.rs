//! Integer and float expressions of assembly source, with C's operator precedence and the
//! extra operators of vc4asm's expression language (its doc/expressions.html): power `**`,
//! logical shifts `<<<` `>>>`, rotates `><<` `>><` (32 bits) and `><<<` `>>><` (64 bits),
//! three-way comparison `<=>`, identity `===` `!==`, and the negated `!^` `!^^`.
//!
//! Integers are 64-bit two's complement; a label's address keeps its kind through `+` and `-`
//! with integers (a branch takes it as a target), and the difference of two addresses is an
//! integer. Where the dialect lets bare names stand for themselves (registers), an expression
//! may also be such a name: `ra0 + 1` is `ra1`, and names compare as text ([`Term`]).
//! Functions are called as `f(a, b)`: the caller's ([`Names::call`]) or a built-in one.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The value of an expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A floating-point number (a literal with a `.` or an exponent).
    Float(f64),
    /// A label's byte address, possibly offset.
    Address(i64),
}

impl Value {
    /// The value as an integer (an address is its number; a float is not an integer).
    pub fn int(self) -> Option<i64> {
        match self {
            Value::Int(v) | Value::Address(v) => Some(v),
            Value::Float(_) => None,
        }
    }

    /// Whether the value counts as true (`.if`, `.assert`): non-zero.
    pub fn truth(self) -> bool {
        match self {
            Value::Int(v) | Value::Address(v) => v != 0,
            Value::Float(f) => f != 0.0,
        }
    }

    fn float(self) -> f64 {
        match self {
            Value::Int(v) | Value::Address(v) => v as f64,
            Value::Float(f) => f,
        }
    }
}

/// A name that stands for itself (a register: `ra3`, `vpm`), kept inline so that terms stay
/// `Copy`; names longer than [`Name::MAX`] bytes are not values.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Name {
    bytes: [u8; Name::MAX],
    len: u8,
}

impl Name {
    /// The longest name a term holds.
    pub const MAX: usize = 23;

    /// `text` as a name, if it is short enough.
    pub fn new(text: &str) -> Option<Name> {
        let mut bytes = [0; Name::MAX];
        bytes.get_mut(..text.len())?.copy_from_slice(text.as_bytes());
        Some(Name { bytes, len: text.len() as u8 })
    }

    /// The name's text.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }

    /// The name with its trailing number moved by `by` (`ra3` + 2 = `ra5`), if it ends in one
    /// and the result is not negative.
    fn renumbered(&self, by: i64) -> Option<Name> {
        let text = self.as_str();
        let stem = text.trim_end_matches(|c: char| c.is_ascii_digit());
        let number: i64 = text[stem.len()..].parse().ok()?;
        let moved = number.checked_add(by).filter(|n| *n >= 0)?;
        Name::new(&format!("{stem}{moved}"))
    }
}

impl core::fmt::Debug for Name {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "`{}`", self.as_str())
    }
}

/// What an expression evaluates to where names may stand for themselves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Term {
    /// A number or an address.
    Value(Value),
    /// A name nothing defines as a number: a register.
    Name(Name),
}

impl From<Value> for Term {
    fn from(v: Value) -> Term {
        Term::Value(v)
    }
}

/// Why an expression could not be read or evaluated, at a byte range of the text.
#[derive(Debug, Clone, PartialEq)]
pub struct ExprError {
    /// Byte offset of the token the error is about.
    pub pos: usize,
    /// Its length in bytes (0: the end of the text).
    pub length: usize,
    /// What went wrong.
    pub message: String,
    /// The error is a name nothing defines (yet): a label defined later, or a register name
    /// that is not a number at all.
    pub undefined: bool,
    /// For an undefined name: where the expression would end if the name were defined.
    pub end: Option<usize>,
}

impl core::fmt::Display for ExprError {
    /// The column (from 1, counting bytes) and the message.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.pos + 1, self.message)
    }
}

impl core::error::Error for ExprError {}

/// An expression read: its value and where it ends, or why not.
pub type Reading = Result<(Value, usize), ExprError>;

/// A function the caller defines: `None` if there is none of that name, else its result for the
/// arguments or why there is none.
pub type Call<'a> = &'a dyn Fn(&str, &[Term]) -> Option<Result<Term, String>>;

/// What names mean while evaluating.
pub struct Names<'a> {
    /// The value of a symbol (`.set`, a macro argument, a loop counter).
    pub symbol: &'a dyn Fn(&str) -> Option<Term>,
    /// The address of a label.
    pub label: &'a dyn Fn(&str) -> Option<i64>,
    /// What a label reference may start with (vc4asm's `:` in `:loop`, and `r:`); a bare
    /// name is then a symbol only. Without any, a bare name that is no symbol is looked up as a
    /// label.
    pub label_prefixes: &'a [&'a str],
    /// Functions besides the built-in ones (`abs`, `ceil`, `floor`).
    pub call: Option<Call<'a>>,
    /// Whether a bare name nothing defines is a [`Term::Name`] (a register) rather than an
    /// undefined symbol.
    pub bare_names: bool,
}

/// Reads the expression starting at byte `start` of `text`: its value and the offset where it
/// ends (before a `,`, `;`, unmatched `)` or anything else that cannot continue it).
pub fn evaluate(text: &str, start: usize, names: &Names) -> Reading {
    let (term, end) = evaluate_term(text, start, names)?;
    match term {
        Term::Value(v) => Ok((v, end)),
        Term::Name(n) => Err(ExprError {
            pos: start,
            length: end - start,
            message: format!("{n:?} is not a number"),
            undefined: false,
            end: None,
        }),
    }
}

/// Like [`evaluate`], where the value may be a name standing for itself.
pub fn evaluate_term(text: &str, start: usize, names: &Names) -> Result<(Term, usize), ExprError> {
    let mut p = Reader { text, pos: start, names, undefined: None, depth: 0 };
    let v = p.binary().map_err(|e| *e);
    // An undefined name is the error, whatever its stand-in value (0) did afterwards.
    if let Some(e) = p.undefined {
        return Err(ExprError { end: Some(p.pos), ..e });
    }
    Ok((v?, p.pos))
}

/// Whether an expression's text may hold byte `b` (blanks aside) outside its label prefixes:
/// a name's or a number's, an operator's, a parenthesis, the `,` between a call's arguments.
pub fn may_hold(b: u8) -> bool {
    is_name_byte(b)
        || b == b'.'
        || b"(),~!".contains(&b)
        || OPERATORS.iter().any(|(s, ..)| s.as_bytes().contains(&b))
}

/// Whether an expression's text may start with byte `b` (blanks aside) outside its label
/// prefixes: a prefix operator, a parenthesis, a number or a name.
pub fn may_start(b: u8) -> bool {
    is_name_byte(b) || b"+-~!(".contains(&b)
}

/// Whether `b` may appear in a name.
pub fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The length of the name at the start of `s` (0 if none: a name does not start with a digit).
pub fn name_len(s: &str) -> usize {
    if s.as_bytes().first().is_none_or(|b| b.is_ascii_digit()) {
        return 0;
    }
    s.bytes().take_while(|b| is_name_byte(*b)).count()
}

/// The length of a label's name after its prefix at the start of `s` (0 if none). Unlike
/// other names it may start with a digit (vc4asm's GPU_FFT writes `:0_pass`), so long as it is
/// not digits alone, a numeric label (`:1`), nor digits and a direction, a reference to one
/// (`:1f`, `:1b`): in vc4asm's src/Parser.cpp a name after `:` that starts with a digit is
/// read to the next delimiter, and only the all-digit names are numeric labels.
pub fn label_name_len(s: &str) -> usize {
    let len = s.bytes().take_while(|b| is_name_byte(*b)).count();
    let name = &s.as_bytes()[..len];
    let digits = name.iter().take_while(|b| b.is_ascii_digit()).count();
    let numeric = digits == len || (digits + 1 == len && matches!(name[digits], b'f' | b'b'));
    if digits > 0 && numeric {
        return 0;
    }
    len
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Op {
    Pow,
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    LogicShl,
    LogicShr,
    Rotl32,
    Rotr32,
    Rotl64,
    Rotr64,
    Lt,
    Le,
    Gt,
    Ge,
    Cmp,
    Eq,
    Ne,
    Same,
    NotSame,
    And,
    Xor,
    Xnor,
    Or,
    LogicAnd,
    LogicXor,
    LogicXnor,
    LogicOr,
}

/// Binary operators, longest spelling first so that `>>><` is not read as `>>>` then `<`, with
/// their precedences: 3 (`**`) binds tightest, 14 (`||`) loosest.
const OPERATORS: &[(&str, Op, u8)] = &[
    (">>><", Op::Rotr64, 6),
    ("><<<", Op::Rotl64, 6),
    ("<<<", Op::LogicShl, 6),
    (">>>", Op::LogicShr, 6),
    ("><<", Op::Rotl32, 6),
    (">><", Op::Rotr32, 6),
    ("<=>", Op::Cmp, 7),
    ("===", Op::Same, 8),
    ("!==", Op::NotSame, 8),
    ("!^^", Op::LogicXnor, 13),
    ("**", Op::Pow, 3),
    ("<<", Op::Shl, 6),
    (">>", Op::Shr, 6),
    ("<=", Op::Le, 7),
    (">=", Op::Ge, 7),
    ("==", Op::Eq, 8),
    ("!=", Op::Ne, 8),
    ("!^", Op::Xnor, 10),
    ("&&", Op::LogicAnd, 12),
    ("^^", Op::LogicXor, 13),
    ("||", Op::LogicOr, 14),
    ("*", Op::Mul, 4),
    ("/", Op::Div, 4),
    ("%", Op::Rem, 4),
    ("+", Op::Add, 5),
    ("-", Op::Sub, 5),
    ("<", Op::Lt, 7),
    (">", Op::Gt, 7),
    ("&", Op::And, 9),
    ("^", Op::Xor, 10),
    ("|", Op::Or, 11),
];

/// Whether some operator of [`OPERATORS`] starts with byte `b`.
fn starts_operator(b: u8) -> bool {
    matches!(b, b'<' | b'>' | b'=' | b'!' | b'*' | b'/' | b'%' | b'+' | b'-' | b'&' | b'^' | b'|')
}

/// A reading error, boxed: the reader's results stay as small as a [`Term`], and so do the
/// frames of its recursion (see `Reader::binary`).
type Failed = Box<ExprError>;

struct Reader<'t, 'n> {
    text: &'t str,
    pos: usize,
    names: &'n Names<'n>,
    /// The first name nothing defines: reading goes on past it (as 0) to find the end.
    undefined: Option<ExprError>,
    /// How many parentheses, prefix operators and calls deep the reading is.
    depth: u32,
}

/// How deeply an expression may nest (parentheses, prefix operators, calls): reading recurses,
/// and 100,000 `(` or `-` overflowed the stack and aborted the assembler.
const MAX_DEPTH: u32 = 256;

impl<'t> Reader<'t, '_> {
    fn skip_blanks(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start_matches([' ', '\t']).len();
    }

    fn error(&self, pos: usize, length: usize, message: String) -> Failed {
        Box::new(ExprError { pos, length, message, undefined: false, end: None })
    }

    /// The token at `pos` for an error: up to the next blank or separator.
    fn token_len(&self, pos: usize) -> usize {
        let rest = &self.text[pos..];
        rest.find([' ', '\t', ',', ';', ')']).unwrap_or(rest.len()).max(usize::from(!rest.is_empty()))
    }

    // Reading recurses only into parentheses, prefix operators and calls, each counted against
    // `MAX_DEPTH`: a chain of binary operators is read in a loop, whatever their precedences
    // (read by recursion per precedence level, `1 || 1 ^^ 1 && ... 1 ** (` nested a dozen frames
    // per parenthesis, uncounted). What is not on the way down (finding and applying an
    // operator, every error) is in helpers of its own, so that at opt-level 0, where every local
    // of a function has its own stack slot, a level of nesting takes a few hundred bytes to 2 KiB
    // and `MAX_DEPTH` levels fit well inside a thread of Rust's default 2 MiB beside the
    // assembler's own frames.

    /// Binary operators between operands, each applied once the next operator binds looser
    /// (left-associative: `**` and `*` before `+`, `1 - 2 - 3` as `(1 - 2) - 3`).
    fn binary(&mut self) -> Result<Term, Failed> {
        // Operands waiting for their right-hand side, with the operator (operator, precedence,
        // position, length): precedences loosen towards the bottom.
        let mut waiting: Vec<(Term, Op, u8, usize, usize)> = Vec::new();
        let mut right = self.unary()?;
        loop {
            let next = self.operator();
            let looser = next.map_or(u8::MAX, |(_, prec, _, _)| prec);
            while let Some((left, op, _, at, len)) = waiting.pop_if(|w| w.2 <= looser) {
                right = self.applied(op, left, right, at, len)?;
            }
            let Some((op, prec, at, len)) = next else { return Ok(right) };
            waiting.push((right, op, prec, at, len));
            right = self.unary()?;
        }
    }

    /// The next binary operator, the reader past it (operator, precedence, position, length);
    /// or none, the reader where the expression ends (before the blanks that follow it).
    fn operator(&mut self) -> Option<(Op, u8, usize, usize)> {
        let end = self.pos;
        self.skip_blanks();
        let rest = &self.text[self.pos..];
        // Most expressions end at a byte no operator starts with (`,`, the end).
        let found = match rest.as_bytes().first().is_some_and(|b| starts_operator(*b)) {
            true => OPERATORS.iter().find(|(s, _, _)| rest.starts_with(s)),
            false => None,
        };
        let Some(&(spelling, op, prec)) = found else {
            self.pos = end;
            return None;
        };
        let at = self.pos;
        self.pos += spelling.len();
        Some((op, prec, at, spelling.len()))
    }

    /// `left op right`, or an error at the operator.
    fn applied(&self, op: Op, left: Term, right: Term, at: usize, len: usize) -> Result<Term, Failed> {
        apply_term(op, left, right).map_err(|m| self.error(at, len, m))
    }

    fn unary(&mut self) -> Result<Term, Failed> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.depth += 1;
        let term = self.operand();
        self.depth -= 1;
        term
    }

    /// The error at the first token past [`MAX_DEPTH`] levels.
    fn too_deep(&mut self) -> Failed {
        self.skip_blanks();
        let len = self.token_len(self.pos);
        self.error(self.pos, len, format!("expression nested deeper than {MAX_DEPTH} levels"))
    }

    /// A prefix operator and its operand, a parenthesized expression, a number, a name or a
    /// call.
    fn operand(&mut self) -> Result<Term, Failed> {
        self.skip_blanks();
        let at = self.pos;
        match self.text.as_bytes().get(at) {
            Some(&c @ (b'+' | b'-' | b'~' | b'!')) => {
                self.pos += 1;
                let term = self.unary()?;
                self.prefix(c, term, at)
            }
            Some(b'(') => {
                self.pos += 1;
                let term = self.binary()?;
                self.closed(term)
            }
            Some(b'0'..=b'9') => self.number().map(Term::Value),
            Some(_) => match self.name()? {
                Named::Term(term) => Ok(term),
                Named::Call(name) => self.call(name, at),
            },
            None => Err(self.error(at, 0, "expected an expression, found end of line".into())),
        }
    }

    /// Prefix operator `c` (at `at`) applied to `term`.
    fn prefix(&self, c: u8, term: Term, at: usize) -> Result<Term, Failed> {
        let c = char::from(c);
        let v = match term {
            Term::Value(v) => v,
            Term::Name(n) if c == '+' => return Ok(Term::Name(n)),
            Term::Name(n) => return Err(self.error(at, 1, format!("`{c}` takes a number, not {n:?}"))),
        };
        let v = match (c, v) {
            ('+', v) => Ok(v),
            ('-', Value::Float(f)) => Ok(Value::Float(-f)),
            ('-', v) => Ok(Value::Int(v.int().unwrap_or(0).wrapping_neg())),
            ('!', v) => Ok(Value::Int(i64::from(!v.truth()))),
            (_, v) => match v.int() {
                Some(i) => Ok(Value::Int(!i)),
                None => Err(self.error(at, 1, "`~` takes an integer".into())),
            },
        };
        v.map(Term::Value)
    }

    /// `term` after its closing `)`, the reader past it.
    fn closed(&mut self, term: Term) -> Result<Term, Failed> {
        self.skip_blanks();
        if !self.text[self.pos..].starts_with(')') {
            let len = self.token_len(self.pos);
            return Err(self.error(self.pos, len, "expected `)`".into()));
        }
        self.pos += 1;
        Ok(term)
    }

    fn number(&mut self) -> Result<Value, Failed> {
        let at = self.pos;
        let b = self.text.as_bytes();
        let rest = &self.text[at..];
        let radix = match rest.as_bytes().get(1) {
            Some(b'x' | b'X') if rest.starts_with('0') => 16,
            Some(b'b' | b'B') if rest.starts_with('0') => 2,
            _ => 10,
        };
        let digits_at = if radix == 10 { at } else { at + 2 };
        let mut end = digits_at;
        while end < b.len() && (b[end] as char).is_digit(radix) {
            end += 1;
        }
        // A decimal literal with a fraction or an exponent is a float.
        if radix == 10 {
            let mut f = end;
            if b.get(f) == Some(&b'.') {
                f += 1;
                while f < b.len() && b[f].is_ascii_digit() {
                    f += 1;
                }
            }
            if matches!(b.get(f), Some(b'e' | b'E')) {
                let mut g = f + 1;
                if matches!(b.get(g), Some(b'+' | b'-')) {
                    g += 1;
                }
                if b.get(g).is_some_and(u8::is_ascii_digit) {
                    while g < b.len() && b[g].is_ascii_digit() {
                        g += 1;
                    }
                    f = g;
                }
            }
            if f > end {
                self.pos = f;
                return match self.text[at..f].parse::<f64>() {
                    Ok(v) => Ok(Value::Float(v)),
                    Err(_) => Err(self.error(at, f - at, format!("`{}` is not a number", &self.text[at..f]))),
                };
            }
        }
        let len = end + b[end..].iter().take_while(|c| is_name_byte(**c)).count() - at;
        if end == digits_at || end - at != len {
            return Err(self.error(at, len, format!("`{}` is not a number", &self.text[at..at + len])));
        }
        self.pos = end;
        match u64::from_str_radix(&self.text[digits_at..end], radix) {
            Ok(v) => Ok(Value::Int(v as i64)),
            Err(_) => Err(self.error(at, len, format!("`{}` does not fit in 64 bits", &self.text[at..end]))),
        }
    }

    /// A name's value, or a call of the name (the reader at its `(`).
    fn name(&mut self) -> Result<Named<'t>, Failed> {
        let at = self.pos;
        let text = self.text;
        let rest = &text[at..];
        let prefix = self.names.label_prefixes.iter().copied().find(|p| rest.starts_with(*p));
        let skip = prefix.map_or(0, str::len);
        let len = if prefix.is_some() { label_name_len(&rest[skip..]) } else { name_len(&rest[skip..]) };
        if len == 0 {
            let len = self.token_len(at);
            let message = format!("expected an expression, found `{}`", &rest[..len]);
            return Err(self.error(at, len, message));
        }
        let name = &rest[skip..skip + len];
        self.pos = at + skip + len;
        if prefix.is_none() && self.text[self.pos..].starts_with('(') {
            return Ok(Named::Call(name));
        }
        let label = || (self.names.label)(name).map(|a| Term::Value(Value::Address(a)));
        let value = match prefix {
            Some(_) => label(),
            None if !self.names.label_prefixes.is_empty() => (self.names.symbol)(name),
            None => (self.names.symbol)(name).or_else(label),
        };
        if let Some(v) = value {
            return Ok(Named::Term(v));
        }
        if prefix.is_none() && self.names.bare_names {
            if let Some(n) = Name::new(name) {
                return Ok(Named::Term(Term::Name(n)));
            }
        }
        let what = if prefix.is_some() { "label" } else { "symbol" };
        let message = format!("undefined {what} `{}`", &rest[..skip + len]);
        let e = ExprError { undefined: true, ..*self.error(at, skip + len, message) };
        self.undefined.get_or_insert(e);
        Ok(Named::Term(Term::Value(Value::Int(0))))
    }

    /// `name(args)`, the reader at the `(`: the caller's function or a built-in one.
    fn call(&mut self, name: &str, at: usize) -> Result<Term, Failed> {
        let mut args = Vec::new();
        if !self.no_arguments() {
            args.push(self.binary()?);
            while self.another_argument()? {
                args.push(self.binary()?);
            }
        }
        self.called(name, &args, at)
    }

    /// Whether the call's `(` is followed by its `)`: the reader past either.
    fn no_arguments(&mut self) -> bool {
        self.pos += 1;
        self.skip_blanks();
        let empty = self.text[self.pos..].starts_with(')');
        self.pos += usize::from(empty);
        empty
    }

    /// After an argument: whether a `,` (another argument) or the `)` follows, the reader past
    /// it; an error otherwise.
    fn another_argument(&mut self) -> Result<bool, Failed> {
        self.skip_blanks();
        let rest = &self.text[self.pos..];
        if rest.starts_with(')') || rest.starts_with(',') {
            self.pos += 1;
            return Ok(rest.starts_with(','));
        }
        let len = self.token_len(self.pos);
        Err(self.error(self.pos, len, "expected `,` or `)`".into()))
    }

    /// The value of the call of `name` (at `at`) with `args`, the reader past its `)`.
    fn called(&self, name: &str, args: &[Term], at: usize) -> Result<Term, Failed> {
        let result = match self.names.call.and_then(|call| call(name, args)) {
            Some(r) => r,
            None => built_in(name, args),
        };
        result.map_err(|message| self.error(at, self.pos - at, message))
    }
}

/// What a name reads as: a term, or the name of a call (the reader at its `(`).
enum Named<'t> {
    Term(Term),
    Call(&'t str),
}

/// The built-in functions of vc4asm's expressions: `abs`, `ceil`, `floor` and the elementary
/// functions (`exp`, `log`, `sin`, ... of [`crate::elementary`]), each of one number.
fn built_in(name: &str, args: &[Term]) -> Result<Term, String> {
    let known = matches!(name, "abs" | "ceil" | "floor") || crate::elementary::by_name(name).is_some();
    let [Term::Value(x)] = args else {
        return Err(match args {
            [_] if known => format!("`{name}` takes a number"),
            _ if known => format!("`{name}` takes one argument"),
            _ => format!("unknown function `{name}`"),
        });
    };
    if let Some(f) = crate::elementary::by_name(name) {
        return Ok(Term::Value(Value::Float(f(x.float()))));
    }
    // Whole floats are exact as i64 below 2^53; larger ones have no fraction to round.
    let round = |f: f64, up: bool| -> Result<Term, String> {
        if f.is_nan() || f.abs() >= 9.007_199_254_740_992e15 {
            return Err(format!("`{name}` of {f} is not an integer"));
        }
        let t = f as i64;
        let t = if up && (t as f64) < f {
            t + 1
        } else if !up && (t as f64) > f {
            t - 1
        } else {
            t
        };
        Ok(Term::Value(Value::Int(t)))
    };
    match (name, *x) {
        ("abs", Value::Float(f)) => Ok(Term::Value(Value::Float(if f < 0.0 { -f } else { f }))),
        ("abs", v) => Ok(Term::Value(Value::Int(v.int().unwrap_or(0).wrapping_abs()))),
        ("ceil", v) => round(v.float(), true),
        ("floor", v) => round(v.float(), false),
        _ => Err(format!("unknown function `{name}`")),
    }
}

/// `left op right` where either may be a name: a register moves by an integer (`ra0 + 1`),
/// names compare as text; anything else takes numbers.
fn apply_term(op: Op, left: Term, right: Term) -> Result<Term, String> {
    let name = match (left, right) {
        (Term::Value(l), Term::Value(r)) => return apply(op, l, r).map(Term::Value),
        (Term::Name(n), _) | (_, Term::Name(n)) => n,
    };
    let (l, r) = (left, right);
    let int = |t: Term| match t {
        Term::Value(Value::Int(i)) => Some(i),
        _ => None,
    };
    let moved = |n: Name, by: i64| {
        n.renumbered(by).map(Term::Name).ok_or_else(|| format!("{n:?} has no register {by:+} from it"))
    };
    let truth = |b: bool| Ok(Term::Value(Value::Int(i64::from(b))));
    match (op, l, r) {
        (Op::Add, Term::Name(n), t) | (Op::Add, t, Term::Name(n)) if int(t).is_some() => {
            moved(n, int(t).unwrap_or(0))
        }
        (Op::Sub, Term::Name(n), t) if int(t).is_some() => moved(n, int(t).unwrap_or(0).wrapping_neg()),
        (Op::Eq | Op::Same, l, r) => truth(l == r),
        (Op::Ne | Op::NotSame, l, r) => truth(l != r),
        (Op::LogicAnd | Op::LogicOr, _, _) => Err("a register is not a condition".into()),
        _ => Err(format!("this operator takes numbers, not the register {name:?}")),
    }
}

/// `left op right`, or why not.
fn apply(op: Op, left: Value, right: Value) -> Result<Value, String> {
    use Value::{Address, Float, Int};
    let bool_int = |b: bool| Ok(Int(i64::from(b)));
    // Addresses keep their kind through offsets; everything else reads them as numbers.
    match (op, left, right) {
        (Op::Add, Address(a), Int(b)) | (Op::Add, Int(b), Address(a)) => {
            return Ok(Address(a.wrapping_add(b)))
        }
        (Op::Sub, Address(a), Int(b)) => return Ok(Address(a.wrapping_sub(b))),
        _ => {}
    }
    match op {
        Op::LogicAnd => return bool_int(left.truth() && right.truth()),
        Op::LogicOr => return bool_int(left.truth() || right.truth()),
        Op::LogicXor => return bool_int(left.truth() != right.truth()),
        Op::LogicXnor => return bool_int(left.truth() == right.truth()),
        Op::Same => return bool_int(same(left, right)),
        Op::NotSame => return bool_int(!same(left, right)),
        _ => {}
    }
    if let (Some(a), Some(b)) = (left.int(), right.int()) {
        let shift = |a: i64, b: i64, left: bool, logical: bool| -> i64 {
            // A negative count shifts the other way (vc4asm).
            let (left, n) = if b < 0 { (!left, b.unsigned_abs()) } else { (left, b as u64) };
            match (left, logical) {
                (true, _) if n >= 64 => 0,
                (true, _) => a << n,
                (false, true) if n >= 64 => 0,
                (false, true) => ((a as u64) >> n) as i64,
                (false, false) => a >> n.min(63),
            }
        };
        let r = match op {
            Op::Pow if b < 0 => return Err("an integer power needs a non-negative exponent".into()),
            Op::Pow => a.wrapping_pow(u32::try_from(b).unwrap_or(u32::MAX)),
            Op::Mul => a.wrapping_mul(b),
            Op::Div | Op::Rem if b == 0 => return Err("division by zero".into()),
            Op::Div => a.wrapping_div(b),
            Op::Rem => a.wrapping_rem(b),
            Op::Add => a.wrapping_add(b),
            Op::Sub => a.wrapping_sub(b),
            Op::Shl => shift(a, b, true, false),
            Op::Shr => shift(a, b, false, false),
            Op::LogicShl => shift(a, b, true, true),
            Op::LogicShr => shift(a, b, false, true),
            Op::Rotl32 => i64::from((a as u32).rotate_left(b.rem_euclid(32) as u32)),
            Op::Rotr32 => i64::from((a as u32).rotate_right(b.rem_euclid(32) as u32)),
            Op::Rotl64 => (a as u64).rotate_left(b.rem_euclid(64) as u32) as i64,
            Op::Rotr64 => (a as u64).rotate_right(b.rem_euclid(64) as u32) as i64,
            Op::Lt => i64::from(a < b),
            Op::Le => i64::from(a <= b),
            Op::Gt => i64::from(a > b),
            Op::Ge => i64::from(a >= b),
            Op::Cmp => a.cmp(&b) as i64,
            Op::Eq => i64::from(a == b),
            Op::Ne => i64::from(a != b),
            Op::And => a & b,
            Op::Xor => a ^ b,
            Op::Xnor => !(a ^ b),
            Op::Or => a | b,
            Op::LogicAnd | Op::LogicOr | Op::LogicXor | Op::LogicXnor | Op::Same | Op::NotSame => 0,
        };
        return Ok(Int(r));
    }
    // At least one float: arithmetic and comparisons in floating point.
    let (a, b) = (left.float(), right.float());
    let r = match op {
        Op::Pow => crate::elementary::pow(a, b),
        Op::Mul => a * b,
        Op::Div => a / b,
        Op::Add => a + b,
        Op::Sub => a - b,
        Op::Lt => return bool_int(a < b),
        Op::Le => return bool_int(a <= b),
        Op::Gt => return bool_int(a > b),
        Op::Ge => return bool_int(a >= b),
        Op::Eq => return bool_int(a == b),
        Op::Ne => return bool_int(a != b),
        Op::Cmp => {
            return Ok(Int(a.partial_cmp(&b).map_or(-0x8000_0000, |o| o as i64)));
        }
        _ => return Err("this operator takes integers".into()),
    };
    Ok(Float(r))
}

/// vc4asm's `===`: the same kind and the same value (`1.0 !== 1`).
fn same(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (Value::Int(x), Value::Int(y)) | (Value::Address(x), Value::Address(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operator_starts_with_a_byte_that_starts_operators() {
        for (spelling, ..) in OPERATORS {
            assert!(starts_operator(spelling.as_bytes()[0]), "{spelling}");
        }
        assert!(!starts_operator(b','));
        assert!(!starts_operator(b' '));
    }

    fn eval(text: &str) -> Result<Value, ExprError> {
        let symbol = |n: &str| match n {
            "a" => Some(Term::Value(Value::Int(7))),
            "half" => Some(Term::Value(Value::Float(0.5))),
            _ => None,
        };
        let label = |n: &str| match n {
            "start" => Some(0x10),
            "end" => Some(0x48),
            "0_pass" => Some(0x28),
            _ => None,
        };
        let names = Names {
            symbol: &symbol,
            label: &label,
            label_prefixes: &[":", "r:"],
            call: None,
            bare_names: false,
        };
        let (v, end) = evaluate(text, 0, &names)?;
        assert_eq!(end, text.len(), "{text}: stopped early");
        Ok(v)
    }

    fn int(text: &str) -> i64 {
        match eval(text) {
            Ok(Value::Int(v)) => v,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn a_label_name_may_start_with_a_digit_unless_it_is_a_numeric_label() {
        // vc4asm's GPU_FFT: `.byte (:0_pass - :0_start - 4) / 4`; `:1`, `:1f`, `:1b` are
        // numeric labels and references, no names.
        assert_eq!(label_name_len("0_pass - :start"), 6);
        assert_eq!(label_name_len("2nd"), 3);
        assert_eq!(label_name_len("1bar"), 4);
        assert_eq!(label_name_len("start"), 5);
        assert_eq!(label_name_len("12 "), 0);
        assert_eq!(label_name_len("1f,"), 0);
        assert_eq!(label_name_len("1b"), 0);
        assert_eq!(name_len("0_pass"), 0, "elsewhere a name starts with no digit");
        assert_eq!(int(":0_pass - :start"), 0x18);
        assert_eq!(int("(r:0_pass - :start - 4) / 4"), 5);
        let e = eval(":12 + 1").unwrap_err();
        assert_eq!(e.message, "expected an expression, found `:12`");
    }

    #[test]
    fn c_precedence() {
        assert_eq!(int("1 + 2 * 3"), 7);
        assert_eq!(int("(1 + 2) * 3"), 9);
        assert_eq!(int("7 - 2 - 1"), 4);
        assert_eq!(int("1 << 2 + 1"), 8);
        assert_eq!(int("1 | 6 & 3"), 3);
        assert_eq!(int("1 ^ 3 | 8"), 10);
        assert_eq!(int("2 < 3 == 1"), 1);
        assert_eq!(int("0 || 1 && 0"), 0);
        assert_eq!(int("-a * 2"), -14);
        assert_eq!(int("10 % 3 + 16 / 5"), 4);
        // vc4asm evaluates `**` left to right: (2 ** 3) ** 2.
        assert_eq!(int("2 ** 3 ** 2"), 64);
        assert_eq!(int("-2 ** 2"), 4);
    }

    #[test]
    fn vc4asm_operators() {
        assert_eq!(int("!0 + ~0"), 0);
        assert_eq!(int("-16 >> 2"), -4);
        assert_eq!(int("0x100 >>> 4"), 16);
        assert_eq!(int("-16 >>> 60"), 15);
        assert_eq!(int("1 << -1"), 0);
        assert_eq!(int("16 << -2"), 4);
        assert_eq!(int("1 ><< 4"), 0x10);
        assert_eq!(int("0x80000001 >>< 4"), 0x1800_0000);
        assert_eq!(int("0x8000000000000001 >>>< 4"), 0x1800_0000_0000_0000);
        assert_eq!(int("1 ><<< 63"), i64::MIN);
        assert_eq!(int("3 <=> 4"), -1);
        assert_eq!(int("4 <=> 4"), 0);
        assert_eq!(int("1 !^ 3"), -3);
        assert_eq!(int("1 ^^ 1"), 0);
        assert_eq!(int("1 !^^ 0"), 0);
        assert_eq!(int("1.0 === 1"), 0);
        assert_eq!(int("1.0 == 1"), 1);
        assert_eq!(int("1.0 !== 1.0"), 0);
        assert_eq!(int("0x7fffffff + 1"), 0x8000_0000);
        assert_eq!(int("0b101 + 0XfF"), 260);
    }

    #[test]
    fn floats_and_addresses() {
        assert_eq!(eval("1.5 * 2"), Ok(Value::Float(3.0)));
        assert_eq!(eval("half + 1e1"), Ok(Value::Float(10.5)));
        assert_eq!(eval("2.0 ** -1"), Ok(Value::Float(0.5)));
        assert_eq!(eval(":start + 8"), Ok(Value::Address(0x18)));
        assert_eq!(eval("r:start"), Ok(Value::Address(0x10)));
        assert_eq!(eval(":end - :start"), Ok(Value::Int(0x38)));
        assert_eq!(eval("3.0 > 2"), Ok(Value::Int(1)));
    }

    #[test]
    fn an_expression_ends_where_it_cannot_go_on() {
        let names =
            Names { symbol: &|_| None, label: &|_| None, label_prefixes: &[], call: None, bare_names: false };
        assert_eq!(evaluate("ldi r0, 1 + 2, x", 8, &names), Ok((Value::Int(3), 13)));
        assert_eq!(evaluate("(4); nop", 0, &names).map(|(_, e)| e), Ok(3));
        assert_eq!(evaluate("2 ]", 0, &names).map(|(_, e)| e), Ok(1));
    }

    #[test]
    fn errors_point_at_their_token() {
        let e = eval("1 + nothing * 2").unwrap_err();
        assert_eq!((e.pos, e.length, e.undefined, e.end), (4, 7, true, Some(15)));
        assert_eq!(e.message, "undefined symbol `nothing`");
        let e = eval(":nowhere").unwrap_err();
        assert_eq!((e.pos, e.length, e.message.as_str()), (0, 8, "undefined label `:nowhere`"));
        let e = eval("4 / (2 - 2)").unwrap_err();
        assert_eq!((e.pos, e.length, e.message.as_str()), (2, 1, "division by zero"));
        let e = eval("(1 + 2").unwrap_err();
        assert_eq!((e.pos, e.message.as_str()), (6, "expected `)`"));
        let e = eval("1 +").unwrap_err();
        assert_eq!((e.pos, e.length), (3, 0));
        let e = eval("12ab").unwrap_err();
        assert_eq!((e.pos, e.length, e.message.as_str()), (0, 4, "`12ab` is not a number"));
        let e = eval("99999999999999999999").unwrap_err();
        assert!(e.message.contains("64 bits"), "{e:?}");
        let e = eval("~half").unwrap_err();
        assert_eq!(e.pos, 0);
    }

    /// Nesting past `MAX_DEPTH` is an error at the first token past it; before, 100,000 `(` or
    /// `-` overflowed the stack (as a few thousand did the assembler's main thread). 256 levels
    /// read, on a thread of Rust's default size (2 MiB: what `std::thread::spawn` gives, and the
    /// main thread some users have) at this package's opt-level 0, also where each level holds
    /// an operator of every precedence: read by recursion per precedence, that took a dozen
    /// uncounted frames a level, more than a 4 MiB thread held (256 levels of `abs(` took 1.3
    /// MiB, of `(` 0.8 MiB, of the operators over 4 MiB; now 0.5, 0.4 and 0.4 MiB).
    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        extern crate std;
        const CHAIN: &str = "1 || 1 ^^ 1 && 1 | 1 ^ 1 & 1 == 1 < 1 << 1 + 1 * 1 ** (";
        let deep = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| {
                let parens = alloc::format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
                let minus = alloc::format!("{}1", "-".repeat(100_000));
                let calls = alloc::format!("{}1{}", "abs(".repeat(100_000), ")".repeat(100_000));
                let chains = alloc::format!("{}1{}", CHAIN.repeat(100_000), ")".repeat(100_000));
                let fine = alloc::format!("{}1{}", CHAIN.repeat(255), ")".repeat(255));
                [parens, minus, calls, chains, fine].map(|t| eval(&t).map_err(|e| (e.pos, e.message)))
            })
            .expect("thread")
            .join()
            .expect("no stack overflow");
        let message = alloc::format!("expression nested deeper than {MAX_DEPTH} levels");
        assert_eq!(deep[0], Err((256, message.clone())));
        assert_eq!(deep[1], Err((256, message.clone())));
        assert!(matches!(&deep[2], Err((_, m)) if *m == message), "{:?}", deep[2]);
        // The operand after the 256th `(`.
        assert_eq!(deep[3], Err((256 * CHAIN.len(), message.clone())));
        assert_eq!(deep[4], Ok(Value::Int(1)));
        let ok = alloc::format!("{}7{}", "(".repeat(255), ")".repeat(255));
        assert_eq!(eval(&ok), Ok(Value::Int(7)));
        assert_eq!(eval(&alloc::format!("{}7", "-".repeat(254))), Ok(Value::Int(7)));
    }
}

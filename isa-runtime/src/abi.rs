//! ABI layouts: where a calling convention puts values in registers or uniform slots, for
//! parameters known only at run time (how many vertex attributes, whether the shader runs as a
//! compute shader). Generated code computes every member's [`Place`] from checked parameters;
//! this module names places after registers (`r3h`, `u6_u7`) and reads `name=value` arguments,
//! so tools handle every target's ABI layouts alike through [`AbiLayout`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// How the registers of a unit are named: `prefix` and the register number, and for a register
/// wider than the unit, one suffix per part (`l`, `h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registers {
    /// The register file's prefix (`r`, `u`).
    pub prefix: &'static str,
    /// Units per register.
    pub units: u32,
    /// The suffix of each unit of a register, lowest first (empty when a register is one unit).
    pub parts: &'static [&'static str],
}

/// What an ABI layout counts in: 16-bit uniform slots, 16-bit halves of 32-bit registers, bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    /// The unit's name in the spec.
    pub name: &'static str,
    /// Bits per unit.
    pub bits: u32,
    /// Register names, if the unit lives in registers.
    pub registers: Option<Registers>,
}

impl Unit {
    /// One bit, unnamed: the unit of a layout that declares none.
    pub const BIT: Unit = Unit { name: "bit", bits: 1, registers: None };

    /// The registers `place` occupies (`r3h`, `u6_u7`, `r8_r9_r10_r11`), or its units
    /// (`bits 40..47`) when the unit has no register names or the place splits a unit.
    pub fn name(&self, place: Place) -> String {
        let (offset, width) = (place.offset / self.bits, place.width / self.bits);
        match self.registers {
            Some(r) if place.offset.is_multiple_of(self.bits) && place.width.is_multiple_of(self.bits) => {
                register_names(r.prefix, r.units, r.parts, offset.into(), width.into())
            }
            _ if place.width == 1 => format!("{} {}", self.name, place.offset / self.bits),
            _ => format!("{}s {}..{}", self.name, offset, offset + width.max(1) - 1),
        }
    }
}

pub use isa_runtime_base::register_names;

/// Where a member lies: `width` bits from bit `offset` of the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// First bit.
    pub offset: u32,
    /// Width in bits.
    pub width: u32,
}

impl Place {
    /// The first unit, counted in `unit`s.
    pub fn offset_in(&self, unit: &Unit) -> u32 {
        self.offset / unit.bits
    }

    /// The width, counted in `unit`s.
    pub fn width_in(&self, unit: &Unit) -> u32 {
        self.width / unit.bits
    }
}

/// One member of an ABI layout for given parameters: an array element is one member
/// (`attrib_base[2]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The member's name, with the element index for arrays.
    pub name: String,
    /// Where it lies.
    pub place: Place,
    /// Reserved units (padding) rather than a value.
    pub reserved: bool,
}

/// An ABI layout's members and total size for one choice of parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// Total size in bits.
    pub size: u32,
    /// Members present for these parameters, in spec order.
    pub members: Vec<Member>,
}

/// The values a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `true`/`false` (`1`/`0` through [`AbiLayout::place`]).
    Bool,
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
    /// One of named values (a union's tag: `sph_type: VTG | PS`), given by name or number.
    Enum {
        /// (name, value) pairs, in the spec's order.
        values: &'static [(&'static str, u32)],
    },
}

/// A parameter of an ABI layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// Name in the spec.
    pub name: &'static str,
    /// Its values.
    pub kind: ParamKind,
}

impl Param {
    /// The range of values, booleans as `0..=1`.
    pub fn range(&self) -> (i64, i64) {
        match self.kind {
            ParamKind::Bool => (0, 1),
            ParamKind::Int { min, max } => (min.into(), max.into()),
            ParamKind::Enum { values } => {
                let all = values.iter().map(|&(_, v)| i64::from(v));
                (all.clone().min().unwrap_or(0), all.max().unwrap_or(-1))
            }
        }
    }

    /// Whether `value` is one of the parameter's values.
    pub fn admits(&self, value: i64) -> bool {
        match self.kind {
            ParamKind::Enum { values } => values.iter().any(|&(_, v)| i64::from(v) == value),
            _ => {
                let (min, max) = self.range();
                (min..=max).contains(&value)
            }
        }
    }

    /// The value named `name` (an enum parameter's value, ASCII case ignored).
    pub fn value_named(&self, name: &str) -> Option<i64> {
        match self.kind {
            ParamKind::Enum { values } => {
                values.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|&(_, v)| i64::from(v))
            }
            ParamKind::Bool => match name {
                "true" => Some(1),
                "false" => Some(0),
                _ => None,
            },
            ParamKind::Int { .. } => None,
        }
    }

    /// How `value` is written: `true`, `3`, `PS`.
    pub fn show(&self, value: i64) -> String {
        match self.kind {
            ParamKind::Bool => format!("{}", value != 0),
            ParamKind::Int { .. } => format!("{value}"),
            ParamKind::Enum { values } => match values.iter().find(|&&(_, v)| i64::from(v) == value) {
                Some((name, _)) => String::from(*name),
                None => format!("{value}"),
            },
        }
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ParamKind::Bool => write!(f, "{}: bool", self.name),
            ParamKind::Int { min, max } => write!(f, "{} in {min}..={max}", self.name),
            ParamKind::Enum { values } => {
                write!(f, "{}:", self.name)?;
                for (k, (name, value)) in values.iter().enumerate() {
                    write!(f, "{} {name} ({value})", if k == 0 { "" } else { " |" })?;
                }
                Ok(())
            }
        }
    }
}

/// Parameters an ABI layout cannot be placed for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamError {
    /// A value outside the parameter's range.
    OutOfRange {
        /// The layout.
        layout: &'static str,
        /// The parameter.
        param: Param,
        /// The value given.
        value: i64,
    },
    /// A parameter without a value.
    Missing {
        /// The layout.
        layout: &'static str,
        /// The parameter.
        param: Param,
    },
    /// A value for a parameter the layout does not have.
    Unknown {
        /// The layout.
        layout: &'static str,
        /// The name given.
        name: String,
    },
    /// Two values for one parameter.
    Repeated {
        /// The layout.
        layout: &'static str,
        /// The parameter.
        param: Param,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::OutOfRange { layout, param, value } => match param.kind {
                ParamKind::Bool => write!(f, "{layout}: `{}` is a bool (0 or 1), not {value}", param.name),
                ParamKind::Int { min, max } => {
                    write!(f, "{layout}: `{}` = {value} is out of range {min}..={max}", param.name)
                }
                ParamKind::Enum { .. } => write!(f, "{layout}: `{value}` is not a value of `{param}`"),
            },
            ParamError::Missing { layout, param } => write!(f, "{layout}: no value for `{param}`"),
            ParamError::Unknown { layout, name } => write!(f, "{layout} has no parameter `{name}`"),
            ParamError::Repeated { layout, param } => {
                write!(f, "{layout}: `{}` is given more than once", param.name)
            }
        }
    }
}

impl core::error::Error for ParamError {}

/// Checks `value` against `param` (generated constructors call this for every parameter).
pub fn check_param(layout: &'static str, param: Param, value: i64) -> Result<(), ParamError> {
    if param.admits(value) {
        Ok(())
    } else {
        Err(ParamError::OutOfRange { layout, param, value })
    }
}

/// Why a view of an ABI layout's values cannot be made, read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewError {
    /// The buffer is shorter than the layout for its parameters.
    TooShort {
        /// The layout.
        layout: &'static str,
        /// The layout's size in bytes.
        needed: usize,
        /// The buffer's length in bytes.
        available: usize,
    },
    /// The member is absent for the layout's parameters.
    Absent {
        /// The layout.
        layout: &'static str,
        /// The member.
        member: &'static str,
    },
    /// An element past the member's last for the layout's parameters.
    NoElement {
        /// The layout.
        layout: &'static str,
        /// The member.
        member: &'static str,
        /// The index given.
        index: u32,
        /// How many elements there are.
        count: u32,
    },
    /// A value wider than the member's type.
    TooWide {
        /// The layout.
        layout: &'static str,
        /// The member (with its element index for an array).
        member: String,
        /// The value.
        value: u128,
        /// The type's width in bits.
        bits: u32,
    },
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::TooShort { layout, needed, available } => {
                write!(f, "{layout}: {available} bytes hold less than the layout's {needed}")
            }
            ViewError::Absent { layout, member } => {
                write!(f, "{layout}: `{member}` is absent for these parameters")
            }
            ViewError::NoElement { layout, member, index, count } => {
                write!(f, "{layout}: `{member}[{index}]` is past the last of its {count} elements")
            }
            ViewError::TooWide { layout, member, value, bits } => {
                write!(f, "{layout}: `{member}` = {value:#x} does not fit its {bits} bits")
            }
        }
    }
}

impl core::error::Error for ViewError {}

/// The bits of `place` in `data` (byte `b` holds bits `8b` to `8b + 7`), up to 128 of them;
/// bits past the buffer read as zero.
pub fn read_bits(data: &[u8], place: Place) -> u128 {
    let mut value = 0u128;
    for k in 0..place.width.min(128) {
        let bit = place.offset as usize + k as usize;
        let set = data.get(bit / 8).is_some_and(|b| b >> (bit % 8) & 1 != 0);
        value |= u128::from(set) << k;
    }
    value
}

/// Writes `value` into the bits of `place` in `data` (the place's bits above 128 cleared);
/// bits past the buffer are not written.
pub fn write_bits(data: &mut [u8], place: Place, value: u128) {
    for k in 0..place.width {
        let bit = place.offset as usize + k as usize;
        let set = k < 128 && value >> k & 1 != 0;
        if let Some(b) = data.get_mut(bit / 8) {
            let mask = 1u8 << (bit % 8);
            *b = if set { *b | mask } else { *b & !mask };
        }
    }
}

/// Whether `value` fits `bits` bits.
pub fn fits(value: u128, bits: u32) -> bool {
    bits >= 128 || value >> bits == 0
}

/// An ABI layout, for tools that handle every target's layouts alike.
pub trait AbiLayout: Sync {
    /// The layout's name in the spec.
    fn name(&self) -> &'static str;
    /// Its doc comment.
    fn doc(&self) -> &'static str;
    /// What positions and sizes count in.
    fn unit(&self) -> &'static Unit;
    /// Its parameters, in order.
    fn params(&self) -> &'static [Param];
    /// Members and size for parameter values in [`AbiLayout::params`] order (booleans as 0/1).
    fn place(&self, values: &[i64]) -> Result<Placed, ParamError>;

    /// Members and size for `name = value` pairs, every parameter given once.
    fn place_named(&self, args: &[(&str, i64)]) -> Result<Placed, ParamError> {
        let layout = self.name();
        if let Some((name, _)) = args.iter().find(|(name, _)| !self.params().iter().any(|p| p.name == *name))
        {
            return Err(ParamError::Unknown { layout, name: String::from(*name) });
        }
        let mut values = Vec::new();
        for &param in self.params() {
            let mut given = args.iter().filter(|(name, _)| *name == param.name);
            match (given.next(), given.next()) {
                (Some(&(_, value)), None) => values.push(value),
                (None, _) => return Err(ParamError::Missing { layout, param }),
                (Some(_), Some(_)) => return Err(ParamError::Repeated { layout, param }),
            }
        }
        self.place(&values)
    }
}

/// A member of a [`DataLayout`]: bits fixed by the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedMember {
    /// Dotted path (`common_word0.sph_type`, `imap_generic_vector[3].x`), reserved bits by
    /// their name in the layout's value (`common_word0.reserved_25_21`).
    pub name: &'static str,
    /// First bit.
    pub offset: u32,
    /// Width in bits.
    pub width: u32,
    /// Reserved bits rather than a value.
    pub reserved: bool,
}

/// A data layout (a table of a header) as an [`AbiLayout`] measured in bits: its leaves, nested
/// layouts flattened. A union (a layout chosen by a tag) has one parameter, the tag, and one
/// list of members per arm.
#[derive(Debug, Clone, Copy)]
pub struct DataLayout {
    /// The layout's name in the spec.
    pub name: &'static str,
    /// Its doc comment.
    pub doc: &'static str,
    /// Width in bits.
    pub size: u32,
    /// No parameter, or a union's tag.
    pub params: &'static [Param],
    /// Per tag value (0 when there is no tag), the members, lowest bit first.
    pub variants: &'static [(i64, &'static [FixedMember])],
}

impl AbiLayout for DataLayout {
    fn name(&self) -> &'static str {
        self.name
    }
    fn doc(&self) -> &'static str {
        self.doc
    }
    fn unit(&self) -> &'static Unit {
        &Unit::BIT
    }
    fn params(&self) -> &'static [Param] {
        self.params
    }
    fn place(&self, values: &[i64]) -> Result<Placed, ParamError> {
        let tag = match self.params.first() {
            Some(&param) => {
                let value =
                    values.first().copied().ok_or(ParamError::Missing { layout: self.name, param })?;
                check_param(self.name, param, value)?;
                value
            }
            None => 0,
        };
        let members = self.variants.iter().find(|(v, _)| *v == tag).map_or(&[][..], |(_, m)| *m);
        Ok(Placed {
            size: self.size,
            members: members
                .iter()
                .map(|m| Member {
                    name: String::from(m.name),
                    place: Place { offset: m.offset, width: m.width },
                    reserved: m.reserved,
                })
                .collect(),
        })
    }
}

/// The ABI layouts of one target, for tools that list them.
#[derive(Clone, Copy)]
pub struct AbiTarget {
    /// Short name (`agx`).
    pub name: &'static str,
    /// Full name.
    pub title: &'static str,
    /// Its ABI layouts, in spec order.
    pub layouts: &'static [&'static dyn AbiLayout],
}

impl AbiTarget {
    /// The layout called `name`.
    pub fn layout(&self, name: &str) -> Option<&'static dyn AbiLayout> {
        self.layouts.iter().copied().find(|l| l.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF: Unit = Unit {
        name: "gpr_half",
        bits: 16,
        registers: Some(Registers { prefix: "r", units: 2, parts: &["l", "h"] }),
    };

    #[test]
    fn register_names_follow_applegpu() {
        let name = |offset: u32, width: u32| HALF.name(Place { offset: offset * 16, width: width * 16 });
        assert_eq!(name(7, 1), "r3h");
        assert_eq!(name(6, 1), "r3l");
        assert_eq!(name(4, 2), "r2");
        assert_eq!(name(16, 8), "r8_r9_r10_r11");
        // A 48-bit span starting on a high half.
        assert_eq!(name(23, 3), "r11h_r12");
        assert_eq!(Unit::BIT.name(Place { offset: 40, width: 8 }), "bits 40..47");
        assert_eq!(register_names("u", 1, &[], 6, 2), "u6_u7");
    }
}

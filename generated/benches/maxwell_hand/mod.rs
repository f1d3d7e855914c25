//! A hand-written Maxwell decoder and nvdisasm-syntax printer, as a benchmark baseline only:
//! the generated code of `isa-specs/maxwell.isa` is measured against it on the same words.
//!
//! It covers the encodings of the golden corpus's commonest instructions — MOV (register,
//! constant-buffer and immediate B), MOV32I, FADD, FMUL (register, constant-buffer and `f20`
//! immediate B), FFMA (register, constant-buffer B, constant-buffer C and immediate B), FSETP,
//! ISETP (three forms each), BRA and EXIT — written from the facts nvdisasm's output shows
//! (docs/research/maxwell-sm5x-encodings.md, the bit positions of `maxwell.isa`), the way one
//! would write it by hand: one `match` on the opcode bits, plain structs of raw fields, the
//! bits nvdisasm 11.8 ignores left unread, static name tables, and the text written into a `String`.
//! Other words are `None`.

use std::fmt::Write;

/// Operand B (and C) of the three-form ALU instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    /// A register.
    Reg(u8),
    /// `c[bank][offset]`, the offset in words.
    Cbuf { bank: u8, offset: u16 },
    /// A raw immediate: 20 bits, the top one bit 56 of the word.
    Imm(u32),
}

/// The fields every instruction of the subset shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guard {
    pub pred: u8,
    pub neg: bool,
}

/// One decoded word of the subset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Insn {
    Mov {
        g: Guard,
        rd: u8,
        b: Src,
        quad_mask: u8,
    },
    Mov32i {
        g: Guard,
        rd: u8,
        imm: u32,
        quad_mask: u8,
    },
    Fadd {
        g: Guard,
        rd: u8,
        ra: u8,
        b: Src,
        ftz: bool,
        rnd: u8,
        sat: bool,
        cc: bool,
        neg_a: bool,
        abs_a: bool,
        neg_b: bool,
        abs_b: bool,
    },
    Fmul {
        g: Guard,
        rd: u8,
        ra: u8,
        b: Src,
        fmz: u8,
        scale: u8,
        rnd: u8,
        sat: bool,
        cc: bool,
        neg: bool,
    },
    /// `c_form`: B is a register and C the constant buffer (`b` the register, `c` the cbuf).
    Ffma {
        g: Guard,
        rd: u8,
        ra: u8,
        b: Src,
        c: Src,
        fmz: u8,
        rnd: u8,
        sat: bool,
        cc: bool,
        neg_ab: bool,
        neg_c: bool,
    },
    Fsetp {
        g: Guard,
        pd: u8,
        npd: u8,
        ra: u8,
        b: Src,
        cmp: u8,
        ftz: bool,
        bop: u8,
        neg_a: bool,
        abs_a: bool,
        neg_b: bool,
        abs_b: bool,
        pa: u8,
        pa_not: bool,
    },
    Isetp {
        g: Guard,
        pd: u8,
        npd: u8,
        ra: u8,
        b: Src,
        cmp: u8,
        signed: bool,
        x: bool,
        bop: u8,
        pa: u8,
        pa_not: bool,
    },
    Bra {
        g: Guard,
        imm: i32,
        uniform: bool,
        lmt: bool,
        cc: u8,
    },
    Exit {
        g: Guard,
        keep_ref_count: bool,
        cc: u8,
    },
}

#[inline]
fn bits(w: u64, lo: u32, width: u32) -> u64 {
    (w >> lo) & ((1 << width) - 1)
}

#[inline]
fn bit(w: u64, pos: u32) -> bool {
    (w >> pos) & 1 != 0
}

#[inline]
fn guard(w: u64) -> Guard {
    Guard { pred: bits(w, 16, 3) as u8, neg: bit(w, 19) }
}

/// `0x1c`-class immediate: bits 38:20 and the sign in bit 56.
#[inline]
fn imm20(w: u64) -> u32 {
    (bits(w, 20, 19) | (bits(w, 56, 1) << 19)) as u32
}

/// B of the register (`0x5c`), constant-buffer (`0x4c`) and immediate (`0x38`/`0x39`) forms
/// by the top byte (nvdisasm ignores the register form's bits 38:28).
#[inline]
fn src_b(w: u64, top: u64) -> Option<Src> {
    match top >> 4 {
        0x5 => Some(Src::Reg(bits(w, 20, 8) as u8)),
        0x4 => Some(Src::Cbuf { bank: bits(w, 34, 5) as u8, offset: bits(w, 20, 14) as u16 }),
        _ => Some(Src::Imm(imm20(w))),
    }
}

/// Decodes a word of the subset.
pub fn decode(w: u64) -> Option<Insn> {
    let g = guard(w);
    let rd = bits(w, 0, 8) as u8;
    let ra = bits(w, 8, 8) as u8;
    let top = w >> 56;
    // The opcode is the top 13 bits (the immediate forms' bit 56 is the immediate's sign).
    match w >> 51 {
        // MOV: 0x5c98, 0x4c98, 0x3898/fef8.
        0xb93 | 0x993 | 0x713 | 0x733 => {
            Some(Insn::Mov { g, rd, b: src_b(w, top)?, quad_mask: bits(w, 39, 4) as u8 })
        }
        // FADD: 0x5c58, 0x4c58, 0x3858/fef8.
        0xb8b | 0x98b | 0x70b | 0x72b => Some(Insn::Fadd {
            g,
            rd,
            ra,
            b: src_b(w, top)?,
            ftz: bit(w, 44),
            rnd: bits(w, 39, 2) as u8,
            sat: bit(w, 50),
            cc: bit(w, 47),
            neg_a: bit(w, 48),
            abs_a: bit(w, 46),
            neg_b: bit(w, 45),
            abs_b: bit(w, 49),
        }),
        // FMUL: 0x5c68, 0x4c68, 0x3868/fef8.
        0xb8d | 0x98d | 0x70d | 0x72d => Some(Insn::Fmul {
            g,
            rd,
            ra,
            b: src_b(w, top)?,
            fmz: bits(w, 44, 2) as u8,
            scale: bits(w, 41, 3) as u8,
            rnd: bits(w, 39, 2) as u8,
            sat: bit(w, 50),
            cc: bit(w, 47),
            neg: bit(w, 48),
        }),
        _ => decode_rest(w, g, rd, ra),
    }
}

fn decode_rest(w: u64, g: Guard, rd: u8, ra: u8) -> Option<Insn> {
    let rc = bits(w, 39, 8) as u8;
    let cbuf = Src::Cbuf { bank: bits(w, 34, 5) as u8, offset: bits(w, 20, 14) as u16 };
    // FFMA: 0x5980, 0x4980, 0x5180/ff80 and 0x3280/fe80: the top 9 bits.
    let ffma = match w >> 55 {
        0xb3 => Some((Src::Reg(bits(w, 20, 8) as u8), Src::Reg(rc))),
        0x93 => Some((cbuf, Src::Reg(rc))),
        0xa3 => Some((Src::Reg(rc), cbuf)),
        0x65 | 0x67 => Some((Src::Imm(imm20(w)), Src::Reg(rc))),
        _ => None,
    };
    if let Some((b, c)) = ffma {
        return Some(Insn::Ffma {
            g,
            rd,
            ra,
            b,
            c,
            fmz: bits(w, 53, 2) as u8,
            rnd: bits(w, 51, 2) as u8,
            sat: bit(w, 50),
            cc: bit(w, 47),
            neg_ab: bit(w, 48),
            neg_c: bit(w, 49),
        });
    }
    let top = w >> 56;
    match w >> 52 {
        // FSETP: 0x5bb0, 0x4bb0, 0x36b0/fef0.
        0x5bb | 0x4bb | 0x36b | 0x37b => Some(Insn::Fsetp {
            g,
            pd: bits(w, 3, 3) as u8,
            npd: bits(w, 0, 3) as u8,
            ra,
            b: src_b(w, top)?,
            cmp: bits(w, 48, 4) as u8,
            ftz: bit(w, 47),
            bop: bits(w, 45, 2) as u8,
            neg_a: bit(w, 43),
            abs_a: bit(w, 7),
            neg_b: bit(w, 6),
            abs_b: bit(w, 44),
            pa: bits(w, 39, 3) as u8,
            pa_not: bit(w, 42),
        }),
        // ISETP: 0x5b60, 0x4b60, 0x3660/fef0.
        0x5b6 | 0x4b6 | 0x366 | 0x376 => Some(Insn::Isetp {
            g,
            pd: bits(w, 3, 3) as u8,
            npd: bits(w, 0, 3) as u8,
            ra,
            b: src_b(w, top)?,
            cmp: bits(w, 49, 3) as u8,
            signed: bit(w, 48),
            x: bit(w, 43),
            bop: bits(w, 45, 2) as u8,
            pa: bits(w, 39, 3) as u8,
            pa_not: bit(w, 42),
        }),
        // MOV32I: 0x0100/fff0.
        0x010 => Some(Insn::Mov32i { g, rd, imm: bits(w, 20, 32) as u32, quad_mask: bits(w, 12, 4) as u8 }),
        // BRA: 0xe240/fff0; CA (bit 5) is another class.
        0xe24 => {
            if bit(w, 5) {
                return None;
            }
            let imm = ((bits(w, 20, 24) as i32) << 8) >> 8;
            Some(Insn::Bra { g, imm, uniform: bit(w, 7), lmt: bit(w, 6), cc: bits(w, 0, 5) as u8 })
        }
        // EXIT: 0xe300/fff0.
        0xe30 => Some(Insn::Exit { g, keep_ref_count: bit(w, 5), cc: bits(w, 0, 5) as u8 }),
        _ => None,
    }
}

// ---- nvdisasm-syntax printer ---------------------------------------------------------------

/// R0-R254 and RZ.
static REG: [&str; 256] = [
    "R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
    "R16", "R17", "R18", "R19", "R20", "R21", "R22", "R23", "R24", "R25", "R26", "R27", "R28", "R29", "R30",
    "R31", "R32", "R33", "R34", "R35", "R36", "R37", "R38", "R39", "R40", "R41", "R42", "R43", "R44", "R45",
    "R46", "R47", "R48", "R49", "R50", "R51", "R52", "R53", "R54", "R55", "R56", "R57", "R58", "R59", "R60",
    "R61", "R62", "R63", "R64", "R65", "R66", "R67", "R68", "R69", "R70", "R71", "R72", "R73", "R74", "R75",
    "R76", "R77", "R78", "R79", "R80", "R81", "R82", "R83", "R84", "R85", "R86", "R87", "R88", "R89", "R90",
    "R91", "R92", "R93", "R94", "R95", "R96", "R97", "R98", "R99", "R100", "R101", "R102", "R103", "R104",
    "R105", "R106", "R107", "R108", "R109", "R110", "R111", "R112", "R113", "R114", "R115", "R116", "R117",
    "R118", "R119", "R120", "R121", "R122", "R123", "R124", "R125", "R126", "R127", "R128", "R129", "R130",
    "R131", "R132", "R133", "R134", "R135", "R136", "R137", "R138", "R139", "R140", "R141", "R142", "R143",
    "R144", "R145", "R146", "R147", "R148", "R149", "R150", "R151", "R152", "R153", "R154", "R155", "R156",
    "R157", "R158", "R159", "R160", "R161", "R162", "R163", "R164", "R165", "R166", "R167", "R168", "R169",
    "R170", "R171", "R172", "R173", "R174", "R175", "R176", "R177", "R178", "R179", "R180", "R181", "R182",
    "R183", "R184", "R185", "R186", "R187", "R188", "R189", "R190", "R191", "R192", "R193", "R194", "R195",
    "R196", "R197", "R198", "R199", "R200", "R201", "R202", "R203", "R204", "R205", "R206", "R207", "R208",
    "R209", "R210", "R211", "R212", "R213", "R214", "R215", "R216", "R217", "R218", "R219", "R220", "R221",
    "R222", "R223", "R224", "R225", "R226", "R227", "R228", "R229", "R230", "R231", "R232", "R233", "R234",
    "R235", "R236", "R237", "R238", "R239", "R240", "R241", "R242", "R243", "R244", "R245", "R246", "R247",
    "R248", "R249", "R250", "R251", "R252", "R253", "R254", "RZ",
];

static PRED: [&str; 8] = ["P0", "P1", "P2", "P3", "P4", "P5", "P6", "PT"];
static ROUND: [&str; 4] = ["", ".RM", ".RP", ".RZ"];
static FMZ: [&str; 4] = ["", ".FTZ", ".FMZ", ".INVALIDFMZ3"];
/// Scale 7 is reserved; nvdisasm 11.8 names it.
static SCALE: [&str; 8] = ["", ".D2", ".D4", ".D8", ".M8", ".M4", ".M2", ".INVALIDSCALE37"];
static BOP: [&str; 4] = [".AND", ".OR", ".XOR", ".INVALIDBOP3"];
static FCMP: [&str; 16] = [
    ".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".NUM", ".NAN", ".LTU", ".EQU", ".LEU", ".GTU", ".NEU",
    ".GEU", ".T",
];
static ICMP: [&str; 8] = [".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".T"];
static CC: [&str; 32] = [
    "CC.F",
    "CC.LT",
    "CC.EQ",
    "CC.LE",
    "CC.GT",
    "CC.NE",
    "CC.GE",
    "CC.NUM",
    "CC.NAN",
    "CC.LTU",
    "CC.EQU",
    "CC.LEU",
    "CC.GTU",
    "CC.NEU",
    "CC.GEU",
    "CC.T",
    "CC.OFF",
    "CC.LO",
    "CC.SFF",
    "CC.LS",
    "CC.HI",
    "CC.SFT",
    "CC.HS",
    "CC.OFT",
    "CC.CSM_TA",
    "CC.CSM_TR",
    "CC.CSM_MX",
    "CC.FCSM_TA",
    "CC.FCSM_TR",
    "CC.FCSM_MX",
    "CC.RLE",
    "CC.RGT",
];
/// CC.T: the test that always holds, not printed.
const CC_T: u8 = 15;

fn guard_text(out: &mut String, g: Guard) {
    if g.pred == 7 && !g.neg {
        return;
    }
    out.push('@');
    if g.neg {
        out.push('!');
    }
    out.push_str(PRED[g.pred as usize]);
    out.push(' ');
}

fn src(out: &mut String, r: u8, neg: bool, abs: bool) {
    if neg {
        out.push('-');
    }
    if abs {
        out.push('|');
    }
    out.push_str(REG[r as usize]);
    if abs {
        out.push('|');
    }
}

/// `c[0x3][0x10]`: the word offset printed as a signed 16-bit byte offset.
fn cbuf(out: &mut String, bank: u8, offset: u16) {
    let bytes = (((offset as i32) << 18) >> 18) * 4;
    let _ = write!(out, "c[{bank:#x}][");
    hex_signed(out, bytes as i64);
    out.push(']');
}

fn hex_signed(out: &mut String, v: i64) {
    if v < 0 {
        let _ = write!(out, "-{:#x}", v.unsigned_abs());
    } else {
        let _ = write!(out, "{v:#x}");
    }
}

/// An `f20` immediate as nvdisasm 11.8 prints it: infinities, NaNs (any payload) and the
/// negative zero as words followed by a blank (`+INF , PT`), `%.20e` from 2^30 and `%.20g`
/// below (integral values as integers). Always shown.
fn fimm20(out: &mut String, raw: u32) -> bool {
    let exp = (raw >> 11) & 0xff;
    match raw {
        0x7f800 => out.push_str("+INF "),
        0xff800 => out.push_str("-INF "),
        0x80000 => out.push_str("-0.0 "),
        _ if exp == 0xff && raw < 0x80000 => out.push_str("+QNAN "),
        _ if exp == 0xff => out.push_str("-QNAN "),
        _ => {
            let v = f64::from(f32::from_bits(raw << 12));
            if exp >= 157 {
                c_e20(out, v);
            } else {
                c_g20(out, v);
            }
        }
    }
    true
}

/// A few digits on the stack.
struct Stack {
    b: [u8; 64],
    n: usize,
}

impl Write for Stack {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let d = self.b.get_mut(self.n..self.n + s.len()).ok_or(std::fmt::Error)?;
        d.copy_from_slice(s.as_bytes());
        self.n += s.len();
        Ok(())
    }
}

impl Stack {
    fn text(&self) -> &str {
        std::str::from_utf8(&self.b[..self.n]).unwrap_or("")
    }
}

/// C's `%.20e`.
fn c_e20(out: &mut String, v: f64) {
    let mut s = Stack { b: [0; 64], n: 0 };
    let _ = write!(s, "{v:.20e}");
    let (m, e) = s.text().split_once('e').unwrap_or((s.text(), "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let _ = write!(out, "{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.unsigned_abs());
}

/// C's `%.20g`.
fn c_g20(out: &mut String, v: f64) {
    let mut s = Stack { b: [0; 64], n: 0 };
    let _ = write!(s, "{v:.19e}");
    let e: i32 = s.text().split_once('e').map_or(0, |(_, e)| e.parse().unwrap_or(0));
    let strip = |t: &str| -> usize {
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').len()
        } else {
            t.len()
        }
    };
    if !(-4..20).contains(&e) {
        let m = s.text().split_once('e').map_or("", |(m, _)| m);
        out.push_str(&m[..strip(m)]);
        let _ = write!(out, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.unsigned_abs());
    } else {
        let mut f = Stack { b: [0; 64], n: 0 };
        let _ = write!(f, "{v:.p$}", p = (19 - e) as usize);
        let t = f.text();
        out.push_str(&t[..strip(t)]);
    }
}

/// B of FADD and FSETP (`neg`/`abs` prefix a register or constant buffer, and suffix an
/// immediate as `.NEG` and `.ABS`).
fn float_b(out: &mut String, b: Src, neg: bool, abs: bool) -> bool {
    match b {
        Src::Reg(r) => src(out, r, neg, abs),
        Src::Cbuf { bank, offset } => {
            if neg {
                out.push('-');
            }
            if abs {
                out.push('|');
            }
            cbuf(out, bank, offset);
            if abs {
                out.push('|');
            }
        }
        Src::Imm(i) => {
            if !fimm20(out, i) {
                return false;
            }
            if neg {
                out.push_str(".NEG");
            }
            if abs {
                out.push_str(".ABS");
            }
        }
    }
    true
}

fn int_b(out: &mut String, b: Src) {
    match b {
        Src::Reg(r) => out.push_str(REG[r as usize]),
        Src::Cbuf { bank, offset } => cbuf(out, bank, offset),
        Src::Imm(i) => hex_signed(out, i64::from(((i as i32) << 12) >> 12)),
    }
}

fn dst(out: &mut String, rd: u8, cc: bool) {
    out.push_str(REG[rd as usize]);
    if cc {
        out.push_str(".CC");
    }
}

/// Appends the nvdisasm text of `insn` (at address `pc`); `false` when nvdisasm's text is not
/// known (the generated printer's `Unshown`).
pub fn print_into(insn: &Insn, pc: u64, out: &mut String) -> bool {
    match *insn {
        Insn::Mov { g, rd, b, quad_mask } => {
            guard_text(out, g);
            out.push_str("MOV ");
            out.push_str(REG[rd as usize]);
            out.push_str(", ");
            int_b(out, b);
            if quad_mask != 0xf {
                let _ = write!(out, ", {quad_mask:#x}");
            }
        }
        Insn::Mov32i { g, rd, imm, quad_mask } => {
            guard_text(out, g);
            out.push_str("MOV32I ");
            out.push_str(REG[rd as usize]);
            let _ = write!(out, ", {imm:#x}");
            if quad_mask != 0xf {
                let _ = write!(out, ", {quad_mask:#x}");
            }
        }
        Insn::Fadd { g, rd, ra, b, ftz, rnd, sat, cc, neg_a, abs_a, neg_b, abs_b } => {
            guard_text(out, g);
            out.push_str("FADD");
            if ftz {
                out.push_str(".FTZ");
            }
            out.push_str(ROUND[rnd as usize]);
            if sat {
                out.push_str(".SAT");
            }
            out.push(' ');
            dst(out, rd, cc);
            out.push_str(", ");
            src(out, ra, neg_a, abs_a);
            out.push_str(", ");
            return float_b(out, b, neg_b, abs_b);
        }
        Insn::Fmul { g, rd, ra, b, fmz, scale, rnd, sat, cc, neg } => {
            guard_text(out, g);
            out.push_str("FMUL");
            out.push_str(FMZ[fmz as usize]);
            out.push_str(SCALE[scale as usize]);
            out.push_str(ROUND[rnd as usize]);
            if sat {
                out.push_str(".SAT");
            }
            out.push(' ');
            dst(out, rd, cc);
            out.push_str(", ");
            out.push_str(REG[ra as usize]);
            out.push_str(", ");
            return float_b(out, b, neg, false);
        }
        Insn::Ffma { g, rd, ra, b, c, fmz, rnd, sat, cc, neg_ab, neg_c } => {
            guard_text(out, g);
            out.push_str("FFMA");
            out.push_str(FMZ[fmz as usize]);
            out.push_str(ROUND[rnd as usize]);
            if sat {
                out.push_str(".SAT");
            }
            out.push(' ');
            dst(out, rd, cc);
            out.push_str(", ");
            out.push_str(REG[ra as usize]);
            out.push_str(", ");
            match b {
                Src::Imm(i) => {
                    if !fimm20(out, i) {
                        return false;
                    }
                    if neg_ab {
                        out.push_str(".NEG");
                    }
                }
                Src::Reg(_) | Src::Cbuf { .. } => {
                    if neg_ab {
                        out.push('-');
                    }
                    int_b(out, b);
                }
            }
            out.push_str(", ");
            if neg_c {
                out.push('-');
            }
            int_b(out, c);
        }
        Insn::Fsetp { g, pd, npd, ra, b, cmp, ftz, bop, neg_a, abs_a, neg_b, abs_b, pa, pa_not } => {
            guard_text(out, g);
            out.push_str("FSETP");
            out.push_str(FCMP[cmp as usize]);
            if ftz {
                out.push_str(".FTZ");
            }
            out.push_str(BOP[bop as usize]);
            out.push(' ');
            out.push_str(PRED[pd as usize]);
            out.push_str(", ");
            out.push_str(PRED[npd as usize]);
            out.push_str(", ");
            src(out, ra, neg_a, abs_a);
            out.push_str(", ");
            if !float_b(out, b, neg_b, abs_b) {
                return false;
            }
            out.push_str(if pa_not { ", !" } else { ", " });
            out.push_str(PRED[pa as usize]);
        }
        Insn::Isetp { g, pd, npd, ra, b, cmp, signed, x, bop, pa, pa_not } => {
            guard_text(out, g);
            out.push_str("ISETP");
            out.push_str(ICMP[cmp as usize]);
            if !signed {
                out.push_str(".U32");
            }
            if x {
                out.push_str(".X");
            }
            out.push_str(BOP[bop as usize]);
            out.push(' ');
            out.push_str(PRED[pd as usize]);
            out.push_str(", ");
            out.push_str(PRED[npd as usize]);
            out.push_str(", ");
            out.push_str(REG[ra as usize]);
            out.push_str(", ");
            int_b(out, b);
            out.push_str(if pa_not { ", !" } else { ", " });
            out.push_str(PRED[pa as usize]);
        }
        Insn::Bra { g, imm, uniform, lmt, cc } => {
            guard_text(out, g);
            out.push_str("BRA");
            if uniform {
                out.push_str(".U");
            }
            if lmt {
                out.push_str(".LMT");
            }
            out.push(' ');
            if cc != CC_T {
                out.push_str(CC[cc as usize]);
                out.push_str(", ");
            }
            // Relative to the next instruction word.
            hex_signed(out, pc as i64 + 8 + i64::from(imm));
        }
        Insn::Exit { g, keep_ref_count, cc } => {
            guard_text(out, g);
            out.push_str("EXIT");
            if keep_ref_count {
                out.push_str(".KEEPREFCOUNT");
            }
            if cc != CC_T {
                out.push(' ');
                out.push_str(CC[cc as usize]);
            }
        }
    }
    true
}

//! Syntaxes and name tables the unit tests of several files share.

use super::names::{Entry, Table};
use super::tree::{Arm, Expr, Item, Show, Syntax};

pub(super) static FADD: Syntax = Syntax {
    name: "fadd",
    arms: &[
        Arm { guard: None, items: &[Item::Lit("FADD.FTZ "), Item::Lit(" , ")], alias: false },
        Arm {
            guard: None,
            items: &[Item::Lit("FADD "), Item::Opt(&Expr::Int(1), &[Item::Lit(".SAT")])],
            alias: false,
        },
    ],
};

pub(super) static REG: Table = Table {
    name: "Reg",
    entries: &[Entry::Range { prefix: "R", suffix: "", lo: 0, hi: 254, shift: 0 }, Entry::Name("RZ", 255)],
};

pub(super) static OP: Table = Table { name: "Op", entries: &[Entry::Name("fadd", 0), Entry::Name("add", 1)] };

pub(super) static IDLE: Table = Table { name: "Idle", entries: &[Entry::Name("", 0), Entry::Name("nop", 1)] };

/// `@P0 ` or nothing, as a guard before a mnemonic.
pub(super) static GUARD: Syntax = Syntax {
    name: "guard",
    arms: &[
        Arm { guard: None, items: &[], alias: false },
        Arm {
            guard: None,
            items: &[Item::Lit("@"), Item::Show(&Expr::Int(0), Show::Table(&REG)), Item::Lit(" ")],
            alias: false,
        },
    ],
};

pub(super) static LINE: Syntax = Syntax {
    name: "line",
    arms: &[
        Arm {
            guard: None,
            items: &[Item::Call(&GUARD, &[]), Item::Lit("MOV "), Item::Lit(", ")],
            alias: false,
        },
        Arm {
            guard: None,
            items: &[Item::Show(&Expr::Int(0), Show::Table(&IDLE)), Item::Lit("read ")],
            alias: false,
        },
        Arm {
            guard: None,
            items: &[Item::Show(&Expr::Int(0), Show::Table(&OP)), Item::Lit(" ")],
            alias: false,
        },
        Arm {
            guard: None,
            items: &[Item::Show(&Expr::Int(0), Show::Table(&REG)), Item::Lit(" = ")],
            alias: false,
        },
    ],
};

/// An optional guard, an operation name, a register.
pub(super) static OP_REG: Syntax = Syntax {
    name: "op_reg",
    arms: &[Arm {
        guard: None,
        items: &[
            Item::Call(&GUARD, &[]),
            Item::Show(&Expr::Int(0), Show::Table(&OP)),
            Item::Lit(" "),
            Item::Show(&Expr::Int(0), Show::Table(&REG)),
        ],
        alias: false,
    }],
};

//! Tests of single pieces of the compiler (names, operators, the IR of small specs), once unit
//! tests in its sources: here they share the compiler's one test binary instead of costing a
//! second build of the library with `cfg(test)`.

/// How spec names become Rust names.
mod names {
    use isa_compiler::backend::rust::names::{camel, ident, snake, upper};

    #[test]
    fn names() {
        assert_eq!(camel("alu_small_imm"), "AluSmallImm");
        assert_eq!(camel("f1_256"), "F1_256");
        assert_eq!(camel("p8888"), "P8888");
        assert_eq!(snake("AddOp"), "add_op");
        // An acronym is one word; a capital after a digit or a lower-case letter starts one.
        assert_eq!(snake("VectorOpNOP"), "vector_op_nop");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("ICondN"), "i_cond_n");
        assert_eq!(snake("F32Add"), "f32_add");
        assert_eq!(snake("RCP"), "rcp");
        assert_eq!(snake("read_a"), "read_a");
        assert_eq!(snake("Read_A"), "read_a");
        assert_eq!(upper("alu"), "ALU");
        assert_eq!(ident("type").to_string(), "r#type");
    }
}

/// The checker maps each spec operator to the IR operator that means the same.
mod operators {
    use isa_compiler::ast;
    use isa_compiler::check::{bin_op, un_op};
    use isa_compiler::ir::{ArithOp, BinOp, UnOp};

    /// Every spec operator maps to the IR operator that means the same: `7 op 3` by hand.
    #[test]
    fn operators_keep_their_meaning() {
        use ast::BinOp as A;
        let cmp =
            [(A::Eq, false), (A::Ne, true), (A::Lt, false), (A::Le, false), (A::Gt, true), (A::Ge, true)];
        for (op, want) in cmp {
            let BinOp::Cmp(c) = bin_op(op) else { panic!("{} is a comparison", op.symbol()) };
            assert_eq!(c.holds(7, 3), want, "7 {} 3", op.symbol());
        }
        let arith = [
            (A::Add, 10),
            (A::Sub, 4),
            (A::Mul, 21),
            (A::Div, 2),
            (A::Rem, 1),
            (A::BitAnd, 3),
            (A::BitOr, 7),
            (A::BitXor, 4),
            (A::Shl, 56),
            (A::Shr, 0),
        ];
        for (op, want) in arith {
            let BinOp::Arith(a) = bin_op(op) else { panic!("{} is arithmetic", op.symbol()) };
            assert_eq!(a.apply(7, 3), Some(want), "7 {} 3", op.symbol());
        }
        assert_eq!(bin_op(A::And), BinOp::And);
        assert_eq!(bin_op(A::Or), BinOp::Or);
        assert_eq!(un_op(ast::UnOp::Neg), UnOp::Neg);
        assert_eq!(un_op(ast::UnOp::Not), UnOp::Not);
        // What folding must not do: divide by zero or shift past the width.
        assert_eq!(ArithOp::Div.apply(1, 0), None);
        assert_eq!(ArithOp::Shl.apply(1, 64), None);
        assert_eq!(ArithOp::Shr.apply(1, -1), None);
    }
}

/// Enum spellings in the IR.
mod spellings {
    use isa_compiler::ir::{Spelling, ValueText};

    /// The checker parses a range's `{v}` once; backends read the parts.
    #[test]
    fn range_spellings_are_parsed_into_the_ir() {
        let src = r##"
target t { word 32  dialect vc4asm { comment "#" }  dialect mesa { comment "#" } }
enum ReadA : u6 {
    ra(0..=31) "ra{v}"
    acc(32..=35) "r{v-32}"
    ra_33(36..=37) vc4asm "<{v+4}>" mesa "???"
    raw(38..=39)
    unif = 40 "unif{v}"
}
"##;
        let t = isa_compiler::check_source(src).unwrap_or_else(|d| panic!("{d:?}"));
        let spelled =
            |variant: usize, dialect: usize| t.enums[0].variants[variant].spellings[dialect].clone();
        let value = |prefix: &str, shift: i64, suffix: &str| {
            Some(ValueText { prefix: prefix.into(), shift, suffix: suffix.into() })
        };
        assert_eq!(spelled(0, 0), vec![Spelling { text: "ra{v}".into(), value: value("ra", 0, "") }]);
        assert_eq!(spelled(1, 1), vec![Spelling { text: "r{v-32}".into(), value: value("r", -32, "") }]);
        assert_eq!(spelled(2, 0), vec![Spelling { text: "<{v+4}>".into(), value: value("<", 4, ">") }]);
        // Printed for every value alike, never parsed back.
        assert_eq!(spelled(2, 1), vec![Spelling { text: "???".into(), value: None }]);
        // A range without spellings is spelled `name{v}`.
        assert_eq!(spelled(3, 0), vec![Spelling { text: "raw{v}".into(), value: value("raw", 0, "") }]);
        // One value: the text is a name, `{v}` or not.
        assert_eq!(spelled(4, 1), vec![Spelling { text: "unif{v}".into(), value: None }]);
    }

    #[test]
    fn a_malformed_placeholder_is_a_located_error() {
        let src =
            "target t { word 32  dialect a { comment \"#\" } }\nenum E : u4 {\n    r(0..=3) \"r{v*2}\"\n}\n";
        let Err(d) = isa_compiler::check_source(src) else { panic!("`{{v*2}}` must not check") };
        let text = isa_compiler::diag::render("bad.isa", src, &d);
        assert!(text.contains("bad.isa:3:14"), "{text}");
        assert!(text.contains("expected `{v}`, `{v+N}`, `{v-N}` or `{v/N}`"), "{text}");
    }
}

/// Format widths in the IR.
mod widths {
    /// A format's width is in the IR: the declared one, else the target's word.
    #[test]
    fn format_widths_are_in_the_ir() {
        let src = "target t {\n    word 64\n    dialect asm { comment \"#\" }\n    stream control { every 3; slot slot; pad 0x5000000000000000 }\n}\n\
            format slot : 21 {\n    stall: u4 @ 3:0\n    syntax asm { {stall} }\n}\n\
            format nop {\n    op: u8 @ 63:56 is 0x50\n    syntax asm { \"nop\" }\n}\n\
            format wide : 64 {\n    op: u8 @ 63:56 is 0x51\n    x: u8 @ 7:0\n    syntax asm { \"wide \" {x} }\n}\n";
        let t = isa_compiler::check_source(src)
            .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("t.isa", src, &d)));
        let widths: Vec<(&str, u32)> = t.formats.iter().map(|f| (f.name.as_str(), f.width)).collect();
        assert_eq!(widths, [("nop", 64), ("wide", 64)]);
        let slot = t.interleaved().map(|s| (s.slot.name.as_str(), s.slot.width, s.every));
        assert_eq!(slot, Some(("slot", 21, 3)));
    }
}

/// Typed ids in the IR.
mod ids {
    use isa_compiler::ir::{CmpOp, CondExpr, FieldId, PropertyId, SemKind, SemStmt, Slot, SlotId};

    /// Slots, fields and properties are named by ids: an array's elements are slots of their
    /// own, so the field after a 3-element array is slot 4 and field 2.
    #[test]
    fn references_are_typed_ids() {
        let src = "target t {\n    word 16\n    dialect asm { comment \"#\" }\n}\n\
            property first: bool = false\nproperty second: int = 0\n\
            machine {\n    r: u32\n}\n\
            format f {\n    op: u4 @ 15:12 is 1\n    x[3]: u2 @ 2 * i +: 2\n    b: u4 @ 11:8\n\
            syntax asm { \"f \" {x[0]} \" \" {x[1]} \" \" {x[2]} \" \" {b} }\n\
            property second = b\n\
            constraint c \"x[2] is 1 when b is 0\": x[2] == 1 || b != 0\n\
            execute {\n        r = b;\n    }\n}\n";
        let t = isa_compiler::check_source(src)
            .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("t.isa", src, &d)));
        let f = &t.formats[0];
        let slots = f.slots();
        assert_eq!(slots[3], Slot { field: FieldId(1), element: Some(2) });
        assert_eq!(slots[4], Slot { field: FieldId(2), element: None });
        assert_eq!(f.properties, [(PropertyId(1), CondExpr::Field(SlotId(4)))]);
        let c = &f.constraints[0];
        assert_eq!(c.reads, ["x[2]", "b"]);
        let field = |s: usize| Box::new(CondExpr::Field(SlotId(s)));
        assert_eq!(
            c.expr,
            CondExpr::Or(vec![
                CondExpr::Cmp(CmpOp::Eq, field(3), Box::new(CondExpr::Int(1))),
                CondExpr::Cmp(CmpOp::Ne, field(4), Box::new(CondExpr::Int(0))),
            ])
        );
        let stmts = &f.execute.as_ref().map(|b| b.stmts.clone()).unwrap_or_default();
        assert!(
            matches!(stmts.as_slice(), [SemStmt::Assign(0, None, e)] if matches!(e.kind, SemKind::Field(FieldId(2))))
        );
    }
}

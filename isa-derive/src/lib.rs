//! Proc macros of isa (being written).

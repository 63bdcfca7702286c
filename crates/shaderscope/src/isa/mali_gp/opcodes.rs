//! The GP's operation and source tables: the enumerations of Mesa's `codegen.h`
//! (`gpir_codegen_src`, `gpir_codegen_acc_op`, `gpir_codegen_complex_op`,
//! `gpir_codegen_mul_op`, `gpir_codegen_pass_op`, `gpir_codegen_store_src`,
//! `gpir_codegen_load_off`) with the names Mesa's disassembler prints.

/// The six units, in the order their results are numbered (`^K`: K = 6 × instruction +
/// unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Unit {
    /// Adder 0 (`.a0`).
    Acc0 = 0,
    /// Adder 1 (`.a1`).
    Acc1 = 1,
    /// Multiplier 0 (`.m0`; the two-unit operations `.m01` are numbered by it).
    Mul0 = 2,
    /// Multiplier 1 (`.m1`).
    Mul1 = 3,
    /// The pass unit (`.p`).
    Pass = 4,
    /// The complex unit (`.c`).
    Complex = 5,
}

/// Results numbered per instruction.
pub(crate) const UNITS: i64 = 6;

impl Unit {
    /// The value `store*_src_*` names the unit by (`gpir_codegen_store_src`).
    pub fn store_src(self) -> u16 {
        match self {
            Unit::Acc0 => STORE_SRC_ACC_0,
            Unit::Acc1 => 1,
            Unit::Mul0 => 2,
            Unit::Mul1 => 3,
            Unit::Pass => 4,
            Unit::Complex => STORE_SRC_COMPLEX,
        }
    }
}

/// `gpir_codegen_store_src_acc_0`.
pub(crate) const STORE_SRC_ACC_0: u16 = 0;
/// `gpir_codegen_store_src_unknown`: no unit.
pub(crate) const STORE_SRC_UNKNOWN: u16 = 5;
/// `gpir_codegen_store_src_complex`.
pub(crate) const STORE_SRC_COMPLEX: u16 = 6;

/// Source mux values (`gpir_codegen_src`).
pub mod src {
    /// `attrib_x`: the register-0 port (an attribute or a register), `.x` … `.w` at 0–3.
    pub const ATTRIB_X: u16 = 0;
    /// `register_x`: the register-1 port, `.x` … `.w` at 4–7.
    pub const REGISTER_X: u16 = 4;
    /// `unknown_0` … `unknown_3` at 8–11.
    pub const UNKNOWN_0: u16 = 8;
    /// `load_x`: the load unit (uniform or temporary), `.x` … `.w` at 12–15.
    pub const LOAD_X: u16 = 12;
    /// `load_y`.
    pub const LOAD_Y: u16 = 13;
    /// `p1_acc_0`: the previous instruction's acc0; 17 acc1, 18 mul0, 19 mul1, 20 pass.
    pub const P1_ACC_0: u16 = 16;
    /// `unused`: the unit is idle.
    pub const UNUSED: u16 = 21;
    /// `ident` / `p1_complex`: 0 as an adder's second source, 1 as a multiplier's,
    /// otherwise the previous instruction's complex result.
    pub const IDENT: u16 = 22;
    /// `p2_pass`: the pass result two instructions back.
    pub const P2_PASS: u16 = 23;
    /// `p2_acc_0`: 24 acc0, 25 acc1, 26 mul0, 27 mul1 two instructions back.
    pub const P2_ACC_0: u16 = 24;
    /// `p1_attrib_x`: the previous instruction's register-0 port, `.x` … `.w` at 28–31.
    pub const P1_ATTRIB_X: u16 = 28;
}

/// `gpir_codegen_load_off`: `load_offset` 1–3 add address register 1–3, 7 adds nothing.
pub(crate) const LOAD_OFF_NONE: u16 = 7;

/// `gpir_codegen_acc_op` names and source counts, by value (`None`: undefined, printed
/// `opN`, with one source).
pub(crate) const ACC_OPS: [Option<(&str, u8)>; 8] = [
    Some(("add", 2)),
    Some(("floor", 1)),
    Some(("sign", 1)),
    None,
    Some(("ge", 2)),
    Some(("lt", 2)),
    Some(("min", 2)),
    Some(("max", 2)),
];

/// `gpir_codegen_mul_op` values.
pub mod mul_op {
    /// `mul`: two independent multiplies.
    pub const MUL: u16 = 0;
    /// `complex1`: one operation over both multipliers' four sources.
    pub const COMPLEX1: u16 = 1;
    /// `complex2`: multiplier 0 only changes its name.
    pub const COMPLEX2: u16 = 3;
    /// `select`: both multipliers.
    pub const SELECT: u16 = 4;
}

/// `gpir_codegen_complex_op` values.
pub mod complex_op {
    /// `nop`: the unit is idle even with a source.
    pub const NOP: u16 = 0;
    /// `exp2`.
    pub const EXP2: u16 = 2;
    /// `log2`.
    pub const LOG2: u16 = 3;
    /// `rsqrt`.
    pub const RSQRT: u16 = 4;
    /// `rcp`.
    pub const RCP: u16 = 5;
    /// `pass`.
    pub const PASS: u16 = 9;
    /// `temp_store_addr`: a move that also sets address register 0 (`/addr0`).
    pub const TEMP_STORE_ADDR: u16 = 12;
    /// `temp_load_addr_0` … `_2` (13–15): a move that sets address register 1–3.
    pub const TEMP_LOAD_ADDR_0: u16 = 13;
}

/// The complex unit's operation name (`None`: undefined, printed `unkN.c`).
pub(crate) fn complex_name(op: u16) -> Option<&'static str> {
    Some(match op {
        complex_op::EXP2 => "exp2.c",
        complex_op::LOG2 => "log2.c",
        complex_op::RSQRT => "rsqrt.c",
        complex_op::RCP => "rcp.c",
        complex_op::PASS | 12..=15 => "mov.c",
        _ => return None,
    })
}

/// `gpir_codegen_pass_op` values.
pub(crate) mod pass_op {
    /// `pass`: a move.
    pub const PASS: u16 = 2;
    /// `clamp`: between the load unit's `.x` and `.y`.
    pub const CLAMP: u16 = 6;
}

/// The pass unit's operation name (`None`: undefined, printed `unkN.p`).
pub(crate) fn pass_name(op: u16) -> Option<&'static str> {
    Some(match op {
        pass_op::PASS => "mov.p",
        4 => "preexp2.p",
        5 => "postlog2.p",
        pass_op::CLAMP => "clamp.p",
        _ => return None,
    })
}

/// Component letters.
pub(crate) const XYZW: [&str; 4] = ["x", "y", "z", "w"];

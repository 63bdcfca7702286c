//! Files built with the project's own builders for the cases real files showed, shared by the
//! tests that check them (included with `#[path]`; `common/mod.rs` stays free of the crate,
//! which its unit tests include it into).
#![allow(dead_code)]

use shaderscope::format::shbin::tables::LabelEntry;
use shaderscope::format::shbin::{Dvlb, build};
use shaderscope::isa::pica::{Instruction, Op};

/// samples/vshader.shbin's model with `endmain` and the used-register masks 0, as nihstro
/// writes its DVLE header (it never fills those fields).
pub fn endmain_0() -> Dvlb {
    let mut dvlb = build::example_vertex_dvlb();
    let dvle = std::sync::Arc::make_mut(&mut dvlb.dvles[0]);
    (dvle.endmain, dvle.input_mask, dvle.output_mask) = (0, 0, 0);
    dvlb
}

/// [`endmain_0`] whose colour move is a subroutine after main's end instruction: main calls
/// it (word 6: `call 0x008, 1`; word 7: `end`; word 8: `mov o1, v1`).
pub fn endmain_0_calling() -> Dvlb {
    let mut dvlb = endmain_0();
    let code = &mut dvlb.dvlp.code;
    let (mov_color, end) = (code[6], code[7]);
    let call = Instruction { op: Op::Call, target: 8, num: 1, ..Instruction::default() };
    code.truncate(6);
    code.extend([call.encode(), end, mov_color]);
    dvlb
}

/// [`endmain_0`] with two subroutines after main's end instruction and nihstro's label table:
/// every label in declaration order, each routine's return label (`call first until
/// end_first`) at the address of the routine that follows (word 6: `call 0x009, 1`; word 7:
/// `call 0x00a, 1`; word 8: `end`; word 9: `mov o1, v1`; word 10: `mov r0.xyz, v0`).
pub fn endmain_0_return_labels() -> Dvlb {
    let mut dvlb = endmain_0();
    let code = &mut dvlb.dvlp.code;
    let (mov_r0, mov_color, end) = (code[0], code[6], code[7]);
    let call = |target: u16| Instruction { op: Op::Call, target, num: 1, ..Instruction::default() }.encode();
    code.truncate(6);
    code.extend([call(9), call(10), end, mov_color, mov_r0]);
    let dvle = std::sync::Arc::make_mut(&mut dvlb.dvles[0]);
    for (name, address) in
        [("main", 0), ("endmain", 9), ("first", 9), ("end_first", 10), ("second", 10), ("end_second", 11)]
    {
        let name_offset = dvle.add_symbol(name);
        dvle.labels.push(LabelEntry { id: 0, address, length: 0, name_offset });
    }
    dvlb
}

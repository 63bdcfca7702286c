//! `info --json` and `disasm --json` for 3DS shader files: the same facts as `info`'s text,
//! as serde types.

use super::tables::{mask_text, output_semantic_name};
use super::{Dvlb, Dvle, DvleRef, Payload, ShaderFile, dvlb, producer, split_strings, summary};
use crate::container::DisasmOptions;
use crate::error::{Error, Result};
use crate::isa::pica;
use crate::json::{DisasmSink, Program};
use serde::Serialize;

#[derive(Debug, Serialize)]
struct Geometry {
    mode: &'static str,
    mode_value: u8,
    fixed_start_register: u8,
    variable_vertex_count: u8,
    fixed_vertex_count: u8,
}

#[derive(Debug, Serialize)]
struct IntConstant {
    count: u8,
    start: u8,
    step: u8,
    w: u8,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum ConstantValue {
    Bool(bool),
    Int(IntConstant),
    Float([f64; 4]),
}

#[derive(Debug, Serialize)]
struct ConstantInfo {
    register: String,
    #[serde(rename = "type")]
    kind: u16,
    value: Option<ConstantValue>,
    raw: [u32; 4],
}

#[derive(Debug, Serialize)]
struct LabelInfo {
    name: String,
    address: u32,
    id: u32,
    length: u32,
}

#[derive(Debug, Serialize)]
struct OutputInfo {
    register: String,
    semantic: Option<&'static str>,
    semantic_value: u16,
    mask: String,
}

#[derive(Debug, Serialize)]
struct UniformInfo {
    name: String,
    registers: String,
    first: u16,
    last: u16,
}

#[derive(Debug, Serialize)]
struct DvleInfo {
    index: usize,
    offset: Option<u64>,
    version: u16,
    #[serde(rename = "type")]
    kind: String,
    stage: Option<&'static str>,
    merge_outmaps: bool,
    flags: u8,
    main: u32,
    endmain: u32,
    /// `endmain`, or where that is 0 the word after main's end instruction.
    entry_end: u32,
    input_mask: u16,
    output_mask: u16,
    /// The input registers the code reads (the header's mask may leave them out); `None`
    /// past the work allowed for the file's code.
    inputs_read: Option<u16>,
    geometry: Geometry,
    constants: Vec<ConstantInfo>,
    labels: Vec<LabelInfo>,
    outputs: Vec<OutputInfo>,
    uniforms: Vec<UniformInfo>,
}

#[derive(Debug, Serialize)]
struct DvlpInfo {
    offset: u64,
    code_offset: u64,
    version: u32,
    header_size: Option<u32>,
    instructions: usize,
    opdescs: usize,
    line_numbers: usize,
    filenames: Vec<String>,
}

#[derive(Debug, Serialize)]
struct DvlbInfo {
    offset: u64,
    size: usize,
    producer: &'static str,
    dvlp: DvlpInfo,
    dvles: Vec<DvleEntry>,
}

/// A DVLE in `info --json`: described, or (its offset repeating an earlier DVLE's) referred to.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum DvleEntry {
    Full(Box<DvleInfo>),
    Same(DvleSame),
}

/// A DVLE whose header offset repeats an earlier DVLE's.
#[derive(Debug, Serialize)]
struct DvleSame {
    index: usize,
    offset: Option<u64>,
    same_as: usize,
}

#[derive(Debug, Serialize)]
struct LineInfo {
    file: String,
    line: u32,
}

#[derive(Debug, Serialize)]
struct DvojInfo {
    instructions: usize,
    opdescs: usize,
    code_offset: u64,
    line_numbers: Vec<LineInfo>,
    relocations: Vec<[u32; 3]>,
    dvle: DvleInfo,
}

#[derive(Debug, Serialize)]
struct CgfxInfo {
    endian: &'static str,
    revision: u32,
    blocks: u32,
    file_size: u32,
}

/// What `info --json` says about a 3DS shader file.
#[derive(Debug, Serialize)]
struct Info {
    summary: String,
    dvlbs: Vec<DvlbInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dvoj: Option<DvojInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cgfx: Option<CgfxInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    decoded_size: Option<usize>,
}

/// DVLE `i` (at `offset`) of a DVLB whose code blob's executables are `runs`.
fn dvle_info(offset: Option<u64>, i: usize, e: &Dvle, runs: &mut pica::Executables) -> DvleInfo {
    DvleInfo {
        index: i,
        offset,
        version: e.version,
        kind: e.type_name(),
        stage: pica::ShaderType::from_byte(e.shader_type).stage().map(crate::model::Stage::name),
        merge_outmaps: e.flags & 1 != 0,
        flags: e.flags,
        main: e.main,
        endmain: e.endmain,
        entry_end: runs.entry_end(e.main, e.endmain),
        input_mask: e.input_mask,
        output_mask: e.output_mask,
        inputs_read: runs.inputs_read(e.main, e.endmain),
        geometry: Geometry {
            mode: dvlb::geometry_mode_name(e.geometry[0]),
            mode_value: e.geometry[0],
            fixed_start_register: e.geometry[1],
            variable_vertex_count: e.geometry[2],
            fixed_vertex_count: e.geometry[3],
        },
        constants: e
            .constants
            .iter()
            .map(|c| {
                let value = c.decode().map(|c| match c.value {
                    pica::ConstantValue::Bool(v) => ConstantValue::Bool(v),
                    pica::ConstantValue::Int(v) => {
                        ConstantValue::Int(IntConstant { count: v[0], start: v[1], step: v[2], w: v[3] })
                    }
                    pica::ConstantValue::Float(v) => {
                        ConstantValue::Float(v.map(|f| f64::from(pica::float24::to_f32(f))))
                    }
                });
                let register = match c.kind {
                    0 => format!("b{}", c.register),
                    1 => format!("i{}", c.register),
                    2 => format!("c{}", c.register),
                    _ => c.register.to_string(),
                };
                ConstantInfo { register, kind: c.kind, value, raw: c.payload }
            })
            .collect(),
        labels: e
            .labels
            .iter()
            .map(|l| LabelInfo {
                name: e.symbol(l.name_offset),
                address: l.address,
                id: l.id,
                length: l.length,
            })
            .collect(),
        outputs: e
            .outputs
            .iter()
            .map(|o| OutputInfo {
                register: format!("o{}", o.register),
                semantic: output_semantic_name(o.semantic),
                semantic_value: o.semantic,
                mask: mask_text(o.mask),
            })
            .collect(),
        uniforms: e
            .uniforms
            .iter()
            .map(|u| UniformInfo {
                name: e.symbol(u.name_offset),
                registers: dvlb::register_range(u.first, u.last),
                first: u.first,
                last: u.last,
            })
            .collect(),
    }
}

fn dvlb_info(d: &Dvlb, base: u64) -> DvlbInfo {
    let program = d.program();
    let mut runs = pica::Executables::new(&program);
    DvlbInfo {
        offset: base,
        size: d.size(),
        producer: producer(d),
        dvlp: DvlpInfo {
            offset: base + u64::from(d.dvlp_offset()),
            code_offset: base + d.code_offset(),
            version: d.dvlp.version,
            header_size: d.layout.as_ref().map(|l| l.dvlp_header),
            instructions: d.dvlp.code.len(),
            opdescs: d.dvlp.opdescs.len(),
            line_numbers: d.dvlp.line_numbers.len(),
            filenames: split_strings(&d.dvlp.filenames),
        },
        dvles: d
            .dvles
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let offset =
                    d.layout.as_ref().and_then(|l| l.dvle_offsets.get(i)).map(|o| base + u64::from(*o));
                match d.same_as(i) {
                    Some(same_as) => DvleEntry::Same(DvleSame { index: i, offset, same_as }),
                    None => DvleEntry::Full(Box::new(dvle_info(offset, i, e, &mut runs))),
                }
            })
            .collect(),
    }
}

/// `info --json`, written to `out`.
pub fn write_info_json(f: &ShaderFile, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let info = Info {
        summary: summary(f),
        dvlbs: f.dvlbs().iter().map(|(b, d)| dvlb_info(d, *b)).collect(),
        dvoj: match &f.payload {
            Payload::Dvoj(o) => Some(DvojInfo {
                instructions: o.code.len(),
                opdescs: o.opdescs.len(),
                code_offset: o.code_offset(),
                line_numbers: o
                    .line_numbers
                    .iter()
                    .map(|l| LineInfo { file: o.symbol(l.file_offset), line: l.line })
                    .collect(),
                relocations: o.relocations.clone(),
                dvle: dvle_info(None, 0, &o.as_dvle(), &mut pica::Executables::new(&o.program())),
            }),
            _ => None,
        },
        cgfx: match &f.payload {
            Payload::Cgfx(c) => Some(CgfxInfo {
                endian: c.endian.name(),
                revision: c.revision,
                blocks: c.blocks,
                file_size: c.file_size,
            }),
            _ => None,
        },
        decoded_size: f.csdr.as_ref().map(|c| c.decoded.len()),
    };
    crate::json::write_info(out, &info)
}

fn printer_failed(_: std::fmt::Error) -> Error {
    Error::invalid(0, "listing", "the printer failed")
}

/// One DVLE as a program: its entry range and picasso source, then its records; a DVLE whose
/// offset repeats an earlier one's only names that one.
fn dvle_program(
    k: usize,
    p: &DvleRef<'_>,
    program: &pica::Program<'_>,
    opts: &DisasmOptions,
    out: &mut dyn DisasmSink,
) -> Result<()> {
    let code = &p.dvlb.dvlp.code;
    let head = Program::new(format!("DVLE {k}"), "pica", p.code_offset(), 4 * code.len() as u64)
        .with_stage(p.stage(), None)
        .with_extra("dvle", k)
        .with_extra("dvle_offset", p.offset());
    if let Some(first) = p.same_as().filter(|_| opts.program.is_none()) {
        out.program(head.with_extra("same_as", first));
        return Ok(());
    }
    let mut source = crate::print::TextBuf::default();
    p.write_source_in(program, opts, &mut source).map_err(printer_failed)?;
    out.program(
        head.with_extra("main", p.dvle.main)
            .with_extra("endmain", p.dvle.endmain)
            .with_extra("entry_end", p.entry_end_in(program))
            .with_extra("source", source.into_string()),
    );
    p.each_record_in(program, |r| out.instruction(r));
    Ok(())
}

/// `disasm --json`: the listing, then every DVLE (or the DVOJ object) as a program of
/// PICA200 instruction records.
pub fn write_disasm_json(f: &ShaderFile, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
    // One decode of each code blob for the listing and the records alike.
    let programs = f.code_programs();
    let none = pica::Program::default();
    f.write_listing(&programs, opts, out.listing())?;
    if let Payload::Dvoj(o) = &f.payload {
        let names = o.names();
        let opdescs = o.opdesc_words();
        let ctx = f.dvoj_context(o, programs.first().unwrap_or(&none), &names, &opdescs, opts);
        out.program(
            Program::new("DVOJ", "pica", o.code_offset(), 4 * o.code.len() as u64)
                .with_stage(ctx.shader_type.stage(), None),
        );
        pica::each_record(&ctx, |r| out.instruction(r));
    }
    for (k, p) in f.dvles().iter().enumerate() {
        if opts.program.is_none_or(|n| n == k) {
            dvle_program(k, p, programs.get(p.dvlb_index).unwrap_or(&none), opts, out)?;
        }
    }
    Ok(())
}

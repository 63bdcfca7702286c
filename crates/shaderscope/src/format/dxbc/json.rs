//! `info` (text and JSON reflection) and `disasm --json` for DXBC.

use super::chunks::STAT_FIELDS;
use super::rdef::{Rdef, Type};
use super::reflect::{self, flag_names};
use super::signature::{Signature, format_name, system_value_name};
use super::{Dxbc, checksum, chunk_description};
use crate::error::Result;
use crate::model::DisasmOptions;
use crate::model::Stage;
use serde_json::{Map, Value, json};
use std::fmt::Write;

fn checksum_status(d: &Dxbc<'_>) -> &'static str {
    if d.checksum_ok() {
        "ok"
    } else if d.stored_checksum() == [0; 16] {
        "unsigned"
    } else {
        "bad"
    }
}

/// The text summary.
pub fn info_text(d: &Dxbc<'_>, s: &mut String) {
    let f = &d.frame;
    let _ = writeln!(s, "format:    DXBC container");
    let _ = writeln!(s, "size:      {} bytes (declared {})", f.data.len(), f.header.total_size.get());
    let stored = checksum::hex(&d.stored_checksum());
    match checksum_status(d) {
        "ok" => {
            let _ = writeln!(s, "checksum:  ok ({stored})");
        }
        st => {
            let _ = writeln!(
                s,
                "checksum:  {} (stored {stored}, computed {})",
                if st == "bad" { "BAD" } else { "unsigned (all zero)" },
                checksum::hex(&d.computed_checksum())
            );
        }
    }
    if let Some(p) = &d.program {
        let _ = writeln!(s, "program:   {} ({}, {} tokens)", p.version_text(), p.chunk.fourcc, p.length);
    } else if d.chunk(b"DXIL").is_some() {
        let _ = writeln!(s, "program:   DXIL (not disassembled)");
    }
    if let Some(c) = d.creator() {
        let _ = writeln!(s, "creator:   {c}");
    }
    if let Some(a) = &d.aon9 {
        let _ = writeln!(s, "level 9:   D3D9 program of {} bytes", a.program.len());
    }
    let _ = writeln!(s, "chunks:    {}", f.chunks.len());
    for (i, c) in f.chunks.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {:>2}  {:<6} offset 0x{:06x}  size {:>7}  {}",
            i,
            c.fourcc.name(),
            c.offset,
            c.data.len(),
            chunk_description(&c.fourcc.0)
        );
    }
    for (i, e) in &d.chunk_errors {
        let _ = writeln!(s, "  chunk {i}: {e}");
    }
}

fn type_json(r: &Rdef<'_>, ty: &Type<'_>, depth: usize, budget: &mut usize) -> Value {
    // Bounded like the listing: shared struct types could otherwise expand exponentially.
    let n = ty.members.len();
    let members: Vec<Value> = match budget.checked_sub(n) {
        Some(left) if depth < 16 => {
            *budget = left;
            ty.members
                .iter()
                .map(|m| {
                    let t = r.ty(m.ty).map(|t| type_json(r, t, depth + 1, budget)).unwrap_or(Value::Null);
                    // Built by moving, not with json!{} (which would deep-copy `t`).
                    let mut o = Map::new();
                    o.insert("name".into(), Value::String(m.name.text().into_owned()));
                    o.insert("offset".into(), m.start.into());
                    o.insert("type".into(), t);
                    Value::Object(o)
                })
                .collect()
        }
        _ => {
            *budget = 0;
            Vec::new()
        }
    };
    let name = if ty.class == 5 {
        ty.name.map(|n| n.text().into_owned()).unwrap_or_default()
    } else {
        super::listing::type_name(ty)
    };
    let mut o = Map::new();
    o.insert("name".into(), Value::String(name));
    o.insert("class".into(), ty.class.into());
    o.insert("class_name".into(), reflect::variable_class(u32::from(ty.class)).into());
    o.insert("type".into(), ty.ty.into());
    o.insert("type_name".into(), reflect::variable_type(u32::from(ty.ty)).into());
    o.insert("rows".into(), ty.rows.into());
    o.insert("columns".into(), ty.columns.into());
    o.insert("elements".into(), ty.elements.into());
    o.insert("members".into(), Value::Array(members));
    o.insert("offset".into(), ty.offset.into());
    Value::Object(o)
}

fn signature_json(sig: &Signature<'_>) -> Value {
    let elements: Vec<Value> = sig
        .elements
        .iter()
        .map(|e| {
            json!({
                "semantic_name": e.name.text(),
                "semantic_index": e.semantic_index,
                "register": e.register,
                "system_value": system_value_name(e.system_value).unwrap_or("unknown"),
                "system_value_id": e.system_value,
                "system_value_name": reflect::system_value(e.system_value),
                "component_type": format_name(e.component_type, 0),
                "component_type_name": reflect::component_type(e.component_type),
                "mask": e.mask,
                "read_write_mask": e.rw_mask,
                "stream": e.stream,
                "min_precision": e.min_precision,
                "min_precision_name": reflect::min_precision(e.min_precision),
                "offset": e.offset,
            })
        })
        .collect();
    json!({"kind": sig.kind, "elements": elements})
}

/// Reflection as complete as `ID3D11ShaderReflection` gives it, plus the container facts.
pub fn info_json(d: &Dxbc<'_>) -> Value {
    let f = &d.frame;
    let chunks: Vec<Value> = f
        .chunks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({"index": i, "fourcc": c.fourcc.name(), "offset": c.offset, "size": c.data.len(),
                   "description": chunk_description(&c.fourcc.0)})
        })
        .collect();
    let mut v = json!({
        "format": "dxbc",
        "summary": summary(d),
        "size": f.data.len(),
        "declared_size": f.header.total_size.get(),
        "checksum": {
            "status": checksum_status(d),
            "stored": checksum::hex(&d.stored_checksum()),
            "computed": checksum::hex(&d.computed_checksum()),
        },
        "chunks": chunks,
    });
    let Some(obj) = v.as_object_mut() else { return v };
    let (generation, source) = d.generation();
    obj.insert("fxc_generation".into(), json!({"generation": generation, "source": source}));
    if let Some(p) = &d.program {
        obj.insert(
            "program".into(),
            json!({"version": p.version_text(), "stage": p.stage, "major": p.major, "minor": p.minor,
                   "chunk": p.chunk.fourcc.name(), "tokens": p.length}),
        );
        if let Some(decl) = super::program::declarations(p) {
            let temps: u32 = decl.phases.iter().map(|ph| ph.temps).max().unwrap_or(0);
            obj.insert(
                "declarations".into(),
                json!({
                    "global_flags": decl.global_flags,
                    "temp_registers": temps,
                    "thread_group": decl.thread_group,
                    "gs_input_primitive": decl.gs_input_primitive,
                    "gs_output_topology": decl.gs_output_topology,
                    "gs_max_output_vertices": decl.gs_max_output_vertices,
                    "gs_instances": decl.gs_instances,
                    "gs_streams": decl.streams,
                    "input_control_points": decl.input_control_points,
                    "output_control_points": decl.output_control_points,
                    "tessellator_domain": decl.tess_domain,
                    "tessellator_partitioning": decl.tess_partitioning,
                    "tessellator_output_primitive": decl.tess_output_primitive,
                    "hs_max_tessfactor": decl.hs_max_tessfactor,
                    "immediate_constant_buffer_rows": decl.icb_rows,
                    "function_bodies": decl.function_bodies.len(),
                    "function_tables": decl.function_tables.len(),
                    "interfaces": decl.interfaces.len(),
                }),
            );
        }
    }
    if let Some(r) = &d.rdef {
        let mut budget = super::listing::type_budget(r);
        let cbs: Vec<Value> = r
            .constant_buffers
            .iter()
            .map(|cb| {
                let vars: Vec<Value> = cb
                    .variables
                    .iter()
                    .map(|v| {
                        let ty = r.ty(v.ty).map(|t| type_json(r, t, 0, &mut budget)).unwrap_or(Value::Null);
                        let default: Option<Vec<u32>> = v.default.map(|b| {
                            b.chunks_exact(4)
                                .filter_map(|w| <[u8; 4]>::try_from(w).ok())
                                .map(u32::from_le_bytes)
                                .collect()
                        });
                        let mut o = json!({"name": v.name.text(), "start_offset": v.start, "size": v.size,
                               "flags": v.flags, "flag_names": flag_names(v.flags, &reflect::VARIABLE_FLAGS), "used": v.used(), "default_value": default,
                               "texture_sampler": v.texture_sampler, "offset": v.offset});
                        if let Some(m) = o.as_object_mut() {
                            m.insert("type".into(), ty);
                        }
                        o
                    })
                    .collect();
                let mut o = json!({"name": cb.name.text(), "type": cb.kind, "type_name": reflect::cbuffer_type(cb.kind), "size": cb.size,
                       "flags": cb.flags, "flag_names": flag_names(cb.flags, &reflect::CBUFFER_FLAGS),
                       "offset": cb.offset});
                if let Some(m) = o.as_object_mut() {
                    m.insert("variables".into(), Value::Array(vars));
                }
                o
            })
            .collect();
        let binds: Vec<Value> = r
            .bindings
            .iter()
            .map(|b| {
                json!({"name": b.name.text(), "input_type": b.input_type,
                       "input_type_name": reflect::input_type(b.input_type), "return_type": b.return_type,
                       "return_type_name": reflect::return_type(b.return_type), "dimension": b.dimension,
                       "dimension_name": reflect::dimension(b.dimension), "num_samples": b.samples,
                       "bind_point": b.bind_point, "bind_count": b.bind_count, "flags": b.flags,
                       "flag_names": flag_names(b.flags, &reflect::INPUT_FLAGS),
                       "space": b.space_id.map(|s| s[0]), "id": b.space_id.map(|s| s[1]), "offset": b.offset})
            })
            .collect();
        obj.insert("creator".into(), json!(r.creator.text()));
        obj.insert(
            "rdef".into(),
            json!({"target": format!("{}.{}", r.major, r.minor), "program_type": r.program_type,
                   "compile_flags": r.flags, "layout": if r.rd11.is_some() { "RD11" } else { "SM4" }}),
        );
        obj.insert("constant_buffers".into(), Value::Array(cbs));
        obj.insert("bound_resources".into(), Value::Array(binds));
    }
    for (key, sig) in [
        ("input_signature", &d.input),
        ("output_signature", &d.output),
        ("patch_constant_signature", &d.patch_constant),
    ] {
        if let Some(s) = sig {
            obj.insert(key.into(), signature_json(s));
        }
    }
    if let Some(st) = &d.stat {
        let mut m = serde_json::Map::new();
        for (i, w) in st.words.iter().enumerate() {
            let name = STAT_FIELDS.get(i).map(|s| s.to_string()).unwrap_or_else(|| format!("word_{i}"));
            m.insert(name, json!(w));
        }
        obj.insert("stats".into(), Value::Object(m));
    }
    if let Some(sf) = &d.sfi0 {
        obj.insert("required_features".into(), json!({"flags": sf.flags, "names": sf.names()}));
    }
    if let Some(i) = &d.ifce {
        let types: Vec<Value> = i
            .class_types
            .iter()
            .map(|t| json!({"name": t.name.text(), "id": t.id, "cb_stride": t.cb_stride, "texture": t.texture, "sampler": t.sampler}))
            .collect();
        let inst: Vec<Value> = i
            .class_instances
            .iter()
            .map(|c| json!({"name": c.name.text(), "type": c.ty, "cb": c.cb, "cb_offset": c.cb_offset, "texture": c.texture, "sampler": c.sampler}))
            .collect();
        let slots: Vec<Value> = i
            .slots
            .iter()
            .map(|s| json!({"span": s.span, "type_ids": s.type_ids, "table_ids": s.table_ids}))
            .collect();
        obj.insert(
            "class_linkage".into(),
            json!({"interface_slots": i.slot_count, "class_types": types, "class_instances": inst, "slots": slots}),
        );
    }
    if let Some(a) = &d.aon9 {
        let cbm: Vec<Value> = a
            .cb_mappings
            .iter()
            .map(|m| json!({"target": m.target, "buffer": m.buffer, "start": m.start, "count": m.count}))
            .collect();
        let sm: Vec<Value> = a
            .sampler_mappings
            .iter()
            .map(|m| json!({"target": m.target, "sampler": m.sampler, "resource": m.resource}))
            .collect();
        let rc: Vec<Value> =
            a.runtime_constants.iter().map(|c| json!({"target": c.target, "kind": c.kind})).collect();
        obj.insert(
            "level9".into(),
            json!({"version": format!("0x{:08x}", a.version), "program_offset": a.program_position(),
                   "program_size": a.program.len(), "cb_mappings": cbm, "sampler_mappings": sm, "runtime_constants": rc}),
        );
    }
    if let Some(rs) = &d.root_signature {
        obj.insert("root_signature".into(), serde_json::to_value(rs).unwrap_or(Value::Null));
    }
    if let (Some(st), Some(p)) = (&d.stat, &d.program) {
        match p.stage {
            Stage::Geometry => {
                obj.insert(
                    "geometry_shader".into(),
                    json!({"input_primitive": st.get(23), "input_primitive_name": reflect::primitive(st.get(23)),
                           "output_topology": st.get(24), "output_topology_name": reflect::topology(st.get(24)),
                           "max_output_vertices": st.get(25)}),
                );
            }
            Stage::Hull | Stage::Domain => {
                obj.insert(
                    "tessellation".into(),
                    json!({"control_points": st.get(30), "output_primitive": st.get(31),
                           "output_primitive_name": reflect::tessellator_output_primitive(st.get(31)),
                           "partitioning": st.get(32),
                           "partitioning_name": reflect::tessellator_partitioning(st.get(32)),
                           "domain": st.get(33), "domain_name": reflect::tessellator_domain(st.get(33))}),
                );
            }
            _ => {}
        }
    }
    if !d.chunk_errors.is_empty() {
        let errs: Vec<Value> = d
            .chunk_errors
            .iter()
            .map(|(i, e)| json!({"chunk": i, "offset": e.offset(), "message": e.to_string()}))
            .collect();
        obj.insert("chunk_errors".into(), Value::Array(errs));
    }
    v
}

fn summary(d: &Dxbc<'_>) -> String {
    let prog = match &d.program {
        Some(p) => p.version_text(),
        None if d.chunk(b"DXIL").is_some() => "DXIL".to_string(),
        None => "no program".to_string(),
    };
    let tags: Vec<String> = d.frame.chunks.iter().map(|c| c.fourcc.name()).collect();
    let chunks = if tags.len() == 1 { "chunk" } else { "chunks" };
    format!("{prog}, {} {chunks} ({}), checksum {}", tags.len(), tags.join(","), checksum_status(d))
}

/// `disasm --json`: the listing text with the facts that chose its form.
pub fn disasm_json(d: &Dxbc<'_>, opts: &DisasmOptions) -> Result<Value> {
    let mut p = crate::print::TextBuf::default();
    super::listing::write_listing(d, &super::listing::ListingOptions::from_disasm(opts), &mut p)?;
    let (generation, source) = match opts.dxbc.generation {
        Some(g) => (g, super::GenerationSource::Option),
        None => d.generation(),
    };
    let program = d.program.map(
        |p| json!({"version": p.version_text(), "offset": p.chunk.data_offset(), "size": p.chunk.data.len()}),
    );
    Ok(json!({"format": "dxbc", "fxc_generation": generation, "generation_source": source,
              "program": program, "listing": p.into_string()}))
}

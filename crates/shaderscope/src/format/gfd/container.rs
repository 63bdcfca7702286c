//! [`Container`] for GFD: `info`, the listing, `dump` annotations, `validate`, `extract`.

use super::{
    Block, BlockHeader, BlockType, FileHeader, Gfd, GfdShader, HEADER_SIZE, RELOCATION_SIZE,
    RelocationHeader, Relocations,
};
use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::format::gx2;
use crate::format::gx2::{GFD_DATA_TAG, GFD_TEXT_TAG, Kind, PointerKind, ShaderInfo};
use crate::json::{Disasm, DisasmSink, Program};
use crate::model::{Finding, Part, Stage};
use crate::print::Printer;
use crate::toolkit::raw::{BigEndian, U32};
use serde::Serialize;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::mem::offset_of;

#[derive(Debug, Serialize)]
struct RelocationInfo {
    offset: u64,
    data_size: u32,
    data_offset: u32,
    text_size: u32,
    text_offset: u32,
    patch_count: u32,
    patch_offset: u32,
    patches: Vec<u32>,
}

#[derive(Debug, Serialize)]
struct BlockInfo {
    number: usize,
    offset: u64,
    header_size: u32,
    data_offset: u64,
    data_size: usize,
    #[serde(rename = "type")]
    ty: u32,
    type_name: String,
    version: String,
    id: u32,
    index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    relocations: Option<RelocationInfo>,
}

#[derive(Debug, Serialize)]
struct ProgramInfo {
    block: usize,
    offset: u64,
    size: usize,
}

#[derive(Debug, Serialize)]
struct ShaderEntry {
    stage: Stage,
    number: usize,
    header_block: Option<usize>,
    program: Option<ProgramInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    copy_program: Option<ProgramInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    gx2: Option<ShaderInfo>,
}

/// Everything `info` says about a GFD file (text and JSON alike).
#[derive(Debug, Serialize)]
struct Info {
    summary: String,
    size: usize,
    version: String,
    gpu_version: u32,
    align: u32,
    header_size: u32,
    reserved: [u32; 2],
    blocks: Vec<BlockInfo>,
    shaders: Vec<ShaderEntry>,
    trailing_bytes: u64,
}

impl Gfd<'_> {
    /// The programs `disasm --json` lists (the shaders `opts` chooses, each program and copy
    /// program), given to `out` with their instructions when `decode`.
    fn json_programs(&self, opts: &DisasmOptions, decode: bool, out: &mut dyn DisasmSink) {
        for (i, s) in self.shaders.iter().enumerate() {
            if !Self::chosen(opts, i) {
                continue;
            }
            for copy in [false, true] {
                let Some(b) = self.program(s, copy) else { continue };
                let name = if copy { format!("{} copy", s.title()) } else { s.title() };
                let mut p = Program::new(name, "latte", b.data_offset(), b.data.len() as u64)
                    .with_stage(Some(if copy { Stage::Vertex } else { s.kind.stage() }), None)
                    .with_extra("shader", i);
                if let Some(g) = s.gx2() {
                    p = p.with_extra("summary", g.summary());
                }
                out.program(p);
                if decode {
                    crate::isa::latte::each_record(b.data, b.data_offset(), |r| out.instruction(r));
                }
            }
        }
    }

    /// One line: `2 shaders (vertex, pixel) in 7 blocks`.
    pub fn summary(&self) -> String {
        let kinds: Vec<&str> = self.shaders.iter().map(|s| s.kind.name()).collect();
        let n = self.shaders.len();
        let b = self.blocks.len();
        format!(
            "{n} shader{} ({}) in {b} block{}",
            if n == 1 { "" } else { "s" },
            if kinds.is_empty() { "none".to_string() } else { kinds.join(", ") },
            if b == 1 { "" } else { "s" }
        )
    }

    fn program_info(&self, s: &GfdShader<'_>, copy: bool) -> Option<ProgramInfo> {
        let i = if copy { s.copy_program } else { s.program }?;
        let b = self.blocks.get(i)?;
        Some(ProgramInfo { block: i, offset: b.data_offset(), size: b.data.len() })
    }

    fn info(&self) -> Info {
        let h = &self.header;
        Info {
            summary: self.summary(),
            size: self.data.len(),
            version: format!("{}.{}", h.major_version.get(), h.minor_version.get()),
            gpu_version: h.gpu_version.get(),
            align: h.align.get(),
            header_size: h.header_size.get(),
            reserved: [h.unk1.get(), h.unk2.get()],
            blocks: self
                .blocks
                .iter()
                .enumerate()
                .map(|(i, b)| BlockInfo {
                    number: i,
                    offset: b.offset,
                    header_size: b.header_size(),
                    data_offset: b.data_offset(),
                    data_size: b.data.len(),
                    ty: b.kind().0,
                    type_name: b.kind().to_string(),
                    version: format!("{}.{}", b.header.major_version.get(), b.header.minor_version.get()),
                    id: b.header.id.get(),
                    index: b.header.index.get(),
                    relocations: b.relocations.as_ref().map(|r| RelocationInfo {
                        offset: r.at,
                        data_size: r.header.data_size.get(),
                        data_offset: r.header.data_offset.get(),
                        text_size: r.header.text_size.get(),
                        text_offset: r.header.text_offset.get(),
                        patch_count: r.header.patch_count.get(),
                        patch_offset: r.header.patch_offset.get(),
                        patches: r.patches.clone(),
                    }),
                })
                .collect(),
            shaders: self
                .shaders
                .iter()
                .map(|s| ShaderEntry {
                    stage: s.kind.stage(),
                    number: s.number,
                    header_block: s.header.as_ref().map(|(i, _)| *i),
                    program: self.program_info(s, false),
                    copy_program: self.program_info(s, true),
                    error: match &s.header {
                        Some((_, Err(e))) => Some(e.to_string()),
                        _ => None,
                    },
                    gx2: s.gx2().map(|g| {
                        let mut info = ShaderInfo::new(g);
                        info.cemu = crate::format::gx2::cemu_hash(g, self.program(s, false).map(|b| b.data));
                        info
                    }),
                })
                .collect(),
            trailing_bytes: self.data.len() as u64 - self.trailing_at.min(self.data.len() as u64),
        }
    }

    /// Whether `opts` asks for shader `i`.
    fn chosen(opts: &DisasmOptions, i: usize) -> bool {
        opts.program.is_none_or(|p| p == i)
    }

    /// The line a shader's listing starts with: its struct's summary, or why there is none.
    pub(crate) fn heading(s: &GfdShader<'_>) -> String {
        let k = s.kind.short();
        match &s.header {
            Some((_, Ok(g))) => g.summary(),
            Some((_, Err(e))) => format!("{k} header unreadable: {e}"),
            None => format!("{k} (no header block)"),
        }
    }

    /// The listing of shader `s` (see [`gx2::write_shader_listing`]).
    fn list_shader(&self, s: &GfdShader<'_>, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        let head = Self::heading(s);
        let at = s.header.as_ref().and_then(|(i, _)| self.blocks.get(*i)).map(|b| b.offset);
        let programs: Vec<_> = s
            .kind
            .programs()
            .iter()
            .map(|&(name, copy)| {
                let code = match self.program(s, copy) {
                    Some(b) => gx2::ProgramCode::Found(b.data, b.data_offset()),
                    None => gx2::ProgramCode::Missing("no program block"),
                };
                (name, code)
            })
            .collect();
        gx2::write_shader_listing(&head, at, &programs, opts, out)
    }

    fn annotate_block(&self, i: usize, b: &Block<'_>, a: &mut Annotations) {
        let h = &b.header;
        let (kind, header_size) = (b.kind(), b.header_size());
        let total = u64::from(header_size) + b.data.len() as u64;
        a.section(b.offset, total, format_args!("block {i}: {kind} (type {})", kind.0));
        let field = |a: &mut Annotations, at: usize, text: std::fmt::Arguments<'_>| {
            a.field(b.offset + at as u64, 4, text)
        };
        field(a, offset_of!(BlockHeader, magic), format_args!("magic \"BLK{{\""));
        field(a, offset_of!(BlockHeader, header_size), format_args!("header size: 0x{header_size:x}"));
        field(
            a,
            offset_of!(BlockHeader, major_version),
            format_args!("major version: {}", h.major_version.get()),
        );
        field(
            a,
            offset_of!(BlockHeader, minor_version),
            format_args!("minor version: {}", h.minor_version.get()),
        );
        field(a, offset_of!(BlockHeader, r#type), format_args!("type: {} ({kind})", kind.0));
        field(a, offset_of!(BlockHeader, data_size), format_args!("data size: {} bytes", b.data.len()));
        field(a, offset_of!(BlockHeader, id), format_args!("id: {}", h.id.get()));
        field(a, offset_of!(BlockHeader, index), format_args!("index: {}", h.index.get()));
        if header_size > HEADER_SIZE {
            a.fallback(
                b.offset + u64::from(HEADER_SIZE),
                u64::from(header_size - HEADER_SIZE),
                "block header: bytes past its 0x20 known bytes",
            );
        }
        let data = b.data_offset();
        let len = b.data.len() as u64;
        if kind.header_of().is_some() {
            a.fallback(data, len, "padding");
            let shader = b.shader.and_then(|k| self.shaders.get(k));
            if let Some(s) = shader {
                match &s.header {
                    Some((_, Ok(g))) => g.annotate(a, &s.title()),
                    Some((_, Err(e))) => {
                        a.fallback(data, len, format_args!("{} header (does not read)", s.title()));
                        a.error(e.offset(), e);
                    }
                    None => {}
                }
            }
            if let Some(r) = &b.relocations {
                annotate_relocations(r, data, a);
            }
        } else if kind.program_of().is_some() {
            crate::isa::latte::annotate(b.data, data, a);
        } else if kind == BlockType::PADDING {
            a.fallback(data, len, "padding");
        } else {
            a.fallback(data, len, format_args!("{kind} data (kept as bytes)"));
        }
    }

    /// Structural checks of the file, its blocks, relocations and structs.
    fn check(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let h = &self.header;
        let at = |o: usize| o as u64;
        if h.header_size.get() != HEADER_SIZE {
            out.push(Finding::warning(
                at(offset_of!(FileHeader, header_size)),
                format!("GFD header size is 0x{:x}, not 0x20", h.header_size.get()),
            ));
        }
        let (major, minor) = (h.major_version.get(), h.minor_version.get());
        if major != 7 {
            out.push(Finding::warning(
                at(offset_of!(FileHeader, major_version)),
                format!("GFD version {major}.{minor}; the GX2 structs read are those of 7.x"),
            ));
        }
        if h.gpu_version.get() != 2 {
            out.push(Finding::warning(
                at(offset_of!(FileHeader, gpu_version)),
                format!("GPU version {} is not 2 (GPU7)", h.gpu_version.get()),
            ));
        }
        if h.align.get() > 1 {
            out.push(Finding::warning(
                at(offset_of!(FileHeader, align)),
                format!("align flag {} is not 0 or 1", h.align.get()),
            ));
        }
        for (i, b) in self.blocks.iter().enumerate() {
            let field = |o: usize| b.offset + o as u64;
            let (kind, major, minor) = (b.kind(), b.header.major_version.get(), b.header.minor_version.get());
            if b.header_size() != HEADER_SIZE {
                out.push(Finding::warning(
                    field(offset_of!(BlockHeader, header_size)),
                    format!("block {i} header size is 0x{:x}, not 0x20", b.header_size()),
                ));
            }
            if kind.name().is_none() {
                out.push(Finding::warning(
                    field(offset_of!(BlockHeader, r#type)),
                    format!("block {i} has unknown type {}", kind.0),
                ));
            }
            if kind == BlockType::END_OF_FILE && !b.data.is_empty() {
                out.push(Finding::warning(
                    field(offset_of!(BlockHeader, data_size)),
                    format!("block {i}: the end-of-file block has {} bytes of data", b.data.len()),
                ));
            }
            let shader_block = kind.header_of().is_some() || kind.program_of().is_some();
            if shader_block && major != 1 && !(kind == BlockType::PIXEL_HEADER && major == 0) {
                out.push(Finding::warning(
                    field(offset_of!(BlockHeader, major_version)),
                    format!("block {i} has version {major}.{minor}; the structs read are those of 1.x"),
                ));
            }
        }
        if !self.blocks.iter().any(|b| b.kind() == BlockType::END_OF_FILE) {
            out.push(Finding::warning(self.trailing_at, "no end-of-file block"));
        }
        let trailing = self.trailing();
        if !trailing.is_empty() {
            out.push(Finding::warning(
                self.trailing_at,
                format!("{} bytes after the end-of-file block", trailing.len()),
            ));
        }
        for s in &self.shaders {
            self.check_shader(s, &mut out);
        }
        out
    }

    fn check_shader(&self, s: &GfdShader<'_>, out: &mut Vec<Finding>) {
        let title = s.title();
        let header = s.header.as_ref().and_then(|(i, _)| self.blocks.get(*i));
        let program = self.program(s, false);
        match (header, program) {
            (None, Some(p)) => out
                .push(Finding::warning(p.offset, format!("{title}: a program block without a header block"))),
            (Some(h), None) => out.push(Finding::error(h.offset, format!("{title}: no program block"))),
            _ => {}
        }
        let (Some(g), Some(h)) = (s.gx2(), header) else { return };
        g.check(&title, out);
        // The microcode is a block of its own: only the struct, arrays and names can share.
        g.check_sharing(&title, &[], out);
        if let Some(p) = program {
            g.check_program(&title, p.data, p.data_offset(), out);
        }
        let l = g.layout();
        if let Some(p) = program {
            if u64::from(g.size) != p.data.len() as u64 {
                out.push(Finding::error(
                    g.at + l.size as u64,
                    format!(
                        "{title}: the struct gives the program {} bytes but its block has {}",
                        g.size,
                        p.data.len()
                    ),
                ));
            }
        }
        if let (Some(c), Some(p)) = (l.copy, self.program(s, true)) {
            if u64::from(g.copy_size) != p.data.len() as u64 {
                out.push(Finding::error(
                    g.at + c as u64,
                    format!(
                        "{title}: the struct gives the copy program {} bytes but its block has {}",
                        g.copy_size,
                        p.data.len()
                    ),
                ));
            }
        }
        if g.program != 0 {
            out.push(Finding::warning(
                g.at + l.size as u64 + 4,
                format!("{title}: the program pointer is 0x{:x}, not 0", g.program),
            ));
        }
        let Some(r) = &h.relocations else {
            out.push(Finding::warning(
                h.data_offset(),
                format!(
                    "{title}: the header block has no relocation table, so its pointers are not relocated"
                ),
            ));
            return;
        };
        let base = h.data_offset();
        let patched: HashSet<u64> = r
            .patches
            .iter()
            .filter(|p| **p != 0)
            .map(|p| base + u64::from(p & crate::format::gx2::GFD_OFFSET_MASK))
            .collect();
        for (field, raw, text) in g.pointer_fields() {
            if raw == 0 {
                continue;
            }
            if !patched.contains(&field) {
                out.push(Finding::warning(
                    field,
                    format!("{title}: the pointer at 0x{field:x} is not in the relocation table"),
                ));
            }
            let want = if text { GFD_TEXT_TAG } else { GFD_DATA_TAG };
            if PointerKind::Tagged.tag(raw) != Some(want) {
                out.push(Finding::warning(
                    field,
                    format!("{title}: the pointer 0x{raw:08x} at 0x{field:x} is not tagged 0x{want:03x}"),
                ));
            }
        }
        let len = h.data.len() as u64;
        for (k, p) in r.patches.iter().enumerate() {
            if *p != 0 && u64::from(p & crate::format::gx2::GFD_OFFSET_MASK) + 4 > len {
                let at = r.patches_at.unwrap_or(r.at) + 4 * k as u64;
                out.push(Finding::warning(
                    at,
                    format!("{title}: relocation {k} (0x{p:08x}) is outside the block"),
                ));
            }
        }
        let inside = |o: U32<BigEndian>, n: U32<BigEndian>| {
            u64::from(o.get() & crate::format::gx2::GFD_OFFSET_MASK) + u64::from(n.get()) <= len
        };
        let t = &r.header;
        if !inside(t.data_offset, t.data_size) || !inside(t.text_offset, t.text_size) {
            out.push(Finding::warning(
                r.at + offset_of!(RelocationHeader, data_size) as u64,
                format!("{title}: the relocation trailer's data or text range is outside the block"),
            ));
        }
    }
}

fn annotate_relocations(r: &Relocations, data: u64, a: &mut Annotations) {
    let (at, t) = (r.at, &r.header);
    a.section(at, u64::from(RELOCATION_SIZE), "relocation trailer");
    let field =
        |a: &mut Annotations, o: usize, text: std::fmt::Arguments<'_>| a.field(at + o as u64, 4, text);
    let tagged = |v: U32<BigEndian>| {
        format!(
            "0x{:08x} (at 0x{:x})",
            v.get(),
            data + u64::from(v.get() & crate::format::gx2::GFD_OFFSET_MASK)
        )
    };
    field(a, offset_of!(RelocationHeader, magic), format_args!("magic \"}}BLK\""));
    field(
        a,
        offset_of!(RelocationHeader, header_size),
        format_args!("trailer size: 0x{:x}", t.header_size.get()),
    );
    field(a, offset_of!(RelocationHeader, unk1), format_args!("unknown: {}", t.unk1.get()));
    field(a, offset_of!(RelocationHeader, data_size), format_args!("data size: 0x{:x}", t.data_size.get()));
    field(
        a,
        offset_of!(RelocationHeader, data_offset),
        format_args!("data offset: {}", tagged(t.data_offset)),
    );
    field(a, offset_of!(RelocationHeader, text_size), format_args!("text size: 0x{:x}", t.text_size.get()));
    field(
        a,
        offset_of!(RelocationHeader, text_offset),
        format_args!("text offset: {}", tagged(t.text_offset)),
    );
    field(a, offset_of!(RelocationHeader, patch_base), format_args!("patch base: {}", t.patch_base.get()));
    field(a, offset_of!(RelocationHeader, patch_count), format_args!("patch count: {}", t.patch_count.get()));
    field(
        a,
        offset_of!(RelocationHeader, patch_offset),
        format_args!("patch offset: {}", tagged(t.patch_offset)),
    );
    let text = data + u64::from(t.text_offset.get() & crate::format::gx2::GFD_OFFSET_MASK);
    if t.text_size.get() > 0 {
        a.fallback(text, u64::from(t.text_size.get()), "text (names), padding");
    }
    if let Some(t) = r.patches_at {
        fn patch(d: &[u8], i: u64, at: u64, out: &mut String) {
            let k = at as usize;
            let v =
                d.get(k..).and_then(|b| b.first_chunk::<4>()).map(|b| u32::from_be_bytes(*b)).unwrap_or(0);
            let kind = match v >> 20 {
                _ if v == 0 => "none",
                GFD_DATA_TAG => "data",
                GFD_TEXT_TAG => "text",
                _ => "untagged",
            };
            let _ = write!(
                out,
                "relocation {i}: 0x{v:08x} ({kind}, field +0x{:x})",
                v & crate::format::gx2::GFD_OFFSET_MASK
            );
        }
        a.section(
            t,
            4 * r.patches.len() as u64,
            format_args!("relocation table ({} entries)", r.patches.len()),
        );
        a.table(t, 4, r.patches.len() as u64, patch);
    }
}

impl Container for Gfd<'_> {
    fn format(&self) -> Format {
        Format::Gfd
    }

    fn write_info_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let i = self.info();
        writeln!(s, "format: {}", Format::Gfd.description())?;
        writeln!(s, "summary: {}", i.summary)?;
        writeln!(
            s,
            "version: {} (GPU version {}), align flag {}, {} bytes",
            i.version, i.gpu_version, i.align, i.size
        )?;
        writeln!(s, "blocks: {}", i.blocks.len())?;
        for b in &i.blocks {
            writeln!(
                s,
                "  block {} at 0x{:x}: {} (type {}, version {}, id {}, index {}), data at 0x{:x}, {} bytes",
                b.number, b.offset, b.type_name, b.ty, b.version, b.id, b.index, b.data_offset, b.data_size
            )?;
            if let Some(r) = &b.relocations {
                writeln!(
                    s,
                    "    relocation trailer at 0x{:x}: data 0x{:x} bytes, text 0x{:x} bytes at 0x{:08x}, {} patches at 0x{:08x}",
                    r.offset, r.data_size, r.text_size, r.text_offset, r.patch_count, r.patch_offset
                )?;
            }
        }
        for sh in &i.shaders {
            write!(s, "{} shader {}:", sh.stage.name(), sh.number)?;
            match sh.header_block {
                Some(h) => {
                    write!(s, " header block {h}")?;
                }
                None => s.write_str(" no header block")?,
            }
            for (title, p) in [("program", &sh.program), ("copy program", &sh.copy_program)] {
                if let Some(p) = p {
                    write!(s, ", {title} block {} ({} bytes at 0x{:x})", p.block, p.size, p.offset)?;
                }
            }
            if sh.program.is_none() {
                s.write_str(", no program block")?;
            }
            s.write_char('\n')?;
            if let Some(e) = &sh.error {
                writeln!(s, "  header unreadable: {e}")?;
            }
            if let Some(g) = &sh.gx2 {
                g.write_text(s, "  ")?;
            }
        }
        if i.trailing_bytes > 0 {
            writeln!(s, "after the end-of-file block: {} bytes", i.trailing_bytes)?;
        }
        Ok(())
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        crate::json::write_info(out, &self.info())
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        // A shader whose program does not decode leaves the others listed.
        let mut first = None;
        for (i, s) in self.shaders.iter().enumerate() {
            if Self::chosen(opts, i) {
                if let Err(e) = self.list_shader(s, opts, out) {
                    first.get_or_insert(e);
                }
            }
        }
        first.map_or(Ok(()), Err)
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
        self.disasm(opts, out.listing())?;
        self.json_programs(opts, true, out);
        Ok(())
    }

    fn program_heads(&self) -> Vec<Program> {
        let heads = Disasm::heads(|out| {
            self.json_programs(&DisasmOptions::default(), false, out);
            Ok(())
        });
        heads.unwrap_or_default()
    }

    fn annotate(&self, a: &mut Annotations) {
        a.section(0, u64::from(HEADER_SIZE), "GFD file header");
        let h = &self.header;
        let field = |a: &mut Annotations, o: usize, text: std::fmt::Arguments<'_>| a.field(o as u64, 4, text);
        field(a, offset_of!(FileHeader, magic), format_args!("magic \"Gfx2\""));
        field(
            a,
            offset_of!(FileHeader, header_size),
            format_args!("header size: 0x{:x}", h.header_size.get()),
        );
        field(
            a,
            offset_of!(FileHeader, major_version),
            format_args!("major version: {}", h.major_version.get()),
        );
        field(
            a,
            offset_of!(FileHeader, minor_version),
            format_args!("minor version: {}", h.minor_version.get()),
        );
        field(a, offset_of!(FileHeader, gpu_version), format_args!("GPU version: {}", h.gpu_version.get()));
        field(a, offset_of!(FileHeader, align), format_args!("align: {}", h.align.get()));
        field(a, offset_of!(FileHeader, unk1), format_args!("reserved: {}", h.unk1.get()));
        field(a, offset_of!(FileHeader, unk2), format_args!("reserved: {}", h.unk2.get()));
        let header_size = h.header_size.get();
        if header_size > HEADER_SIZE {
            a.fallback(
                u64::from(HEADER_SIZE),
                u64::from(header_size - HEADER_SIZE),
                "file header: bytes past its 0x20 known bytes",
            );
        }
        for (i, b) in self.blocks.iter().enumerate() {
            self.annotate_block(i, b, a);
        }
        // (In a partial reading, what follows the last block read is what did not read.)
        let rest = self.data.len() as u64 - self.trailing_at.min(self.data.len() as u64);
        let ended = self.blocks.last().is_some_and(|b| b.kind() == BlockType::END_OF_FILE);
        if rest > 0 && ended {
            a.fallback(self.trailing_at, rest, "after the end-of-file block");
        }
    }

    fn validate(&self) -> Vec<Finding> {
        let mut out = self.check();
        for (s, copy) in self.shaders.iter().flat_map(|s| [(s, false), (s, true)]) {
            if let Some(b) = self.program(s, copy) {
                out.extend(crate::isa::latte::check(b.data, b.data_offset()));
            }
        }
        out
    }

    /// Headers whose struct does not read, and microcode that does not decode.
    fn damage(&self) -> Vec<Error> {
        let mut out: Vec<Error> = self
            .shaders
            .iter()
            .filter_map(|s| match &s.header {
                Some((_, Err(e))) => Some(e.clone()),
                _ => None,
            })
            .collect();
        for (s, copy) in self.shaders.iter().flat_map(|s| [(s, false), (s, true)]) {
            if let Some(b) = self.program(s, copy) {
                out.extend(crate::isa::latte::problems(b.data, b.data_offset()));
            }
        }
        out
    }

    fn programs(&self) -> Option<usize> {
        Some(self.shaders.len())
    }

    fn write(&self) -> Result<Vec<u8>> {
        Ok(self.write_bytes())
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let mut v = Vec::new();
        let mut used = HashSet::new();
        for s in &self.shaders {
            let stem = format!("{}{}", s.kind.name(), s.number);
            if let Some((i, _)) = &s.header {
                if let Some(b) = self.blocks.get(*i) {
                    used.insert(*i);
                    v.push(Part::new(
                        format!("{stem}.header"),
                        b.data_offset(),
                        b.data,
                        format!(
                            "the {} header block's data: the {} struct, its arrays, names and relocations",
                            s.title(),
                            struct_name(s.kind)
                        ),
                    ));
                }
            }
            for (copy, suffix, what) in
                [(false, "program", "microcode"), (true, "copy", "copy program's microcode")]
            {
                let i = if copy { s.copy_program } else { s.program };
                if let Some(b) = i.and_then(|i| self.blocks.get(i)) {
                    used.extend(i);
                    v.push(Part::new(
                        format!("{stem}.{suffix}"),
                        b.data_offset(),
                        b.data,
                        format!(
                            "the {}'s {what} (Latte, little-endian words; `disasm --format latte`)",
                            s.title()
                        ),
                    ));
                }
            }
        }
        for (i, b) in self.blocks.iter().enumerate() {
            if !used.contains(&i) && !b.data.is_empty() {
                v.push(Part::new(
                    format!("block{i}"),
                    b.data_offset(),
                    b.data,
                    format!("block {i}'s data ({})", b.kind()),
                ));
            }
        }
        v
    }
}

fn struct_name(k: Kind) -> &'static str {
    match k {
        Kind::Vertex => "GX2VertexShader",
        Kind::Pixel => "GX2PixelShader",
        Kind::Geometry => "GX2GeometryShader",
    }
}

/// Annotate what can be read of a GFD file that does not parse: the header and every block
/// before the one that fails.
pub fn annotate_damaged(data: &[u8], a: &mut Annotations) {
    if let Ok((g, _)) = Gfd::parse_partial(data) {
        g.annotate(a);
    } else if data.len() >= 4 {
        a.field(0, 4, "magic \"Gfx2\"");
    }
}

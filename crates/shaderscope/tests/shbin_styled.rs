//! The SHBIN listing through the printer sinks: every token has its kind, every line says which
//! input bytes it shows (an instruction its code word, a declaration its table entry, the
//! header comment the DVLE header), and instruction records come from the same printer.

mod common;

use shaderscope::format::shbin::{ShaderFile, build};
use shaderscope::isa::pica;
use shaderscope::print::{Html, Printer, Style};
use shaderscope::toolkit::{Endian, Reader};
use shaderscope::{Container, DisasmOptions, File};
use std::fmt;

/// One output line as a recording sink sees it.
#[derive(Debug, Default, Clone, PartialEq)]
struct Line {
    /// The offset `start_line` gave.
    offset: Option<u64>,
    /// The text in runs of one style.
    tokens: Vec<(Option<Style>, String)>,
    /// The text of each operand.
    operands: Vec<String>,
}

impl Line {
    fn text(&self) -> String {
        self.tokens.iter().map(|t| t.1.as_str()).collect()
    }

    /// The text of the first token of `style`.
    fn first(&self, style: Style) -> Option<&str> {
        self.tokens.iter().find(|t| t.0 == Some(style)).map(|t| t.1.as_str())
    }
}

/// A sink that records lines, tokens and operands, and counts what a printer must not do:
/// text on a line no `start_line` began, a line break inside a styled token.
#[derive(Debug, Default)]
struct Recorder {
    lines: Vec<Line>,
    open: bool,
    style: Option<Style>,
    depth: usize,
    unstarted: usize,
    broken_tokens: usize,
}

impl fmt::Write for Recorder {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for (i, part) in s.split('\n').enumerate() {
            if i > 0 {
                if self.style.is_some() {
                    self.broken_tokens += 1;
                }
                self.open = false;
            }
            if part.is_empty() {
                continue;
            }
            if !self.open {
                self.unstarted += 1;
                self.lines.push(Line::default());
                self.open = true;
            }
            let line = self.lines.last_mut().unwrap();
            match line.tokens.last_mut() {
                Some((style, text)) if *style == self.style => text.push_str(part),
                _ => line.tokens.push((self.style, part.to_string())),
            }
            if self.depth > 0 {
                line.operands.last_mut().unwrap().push_str(part);
            }
        }
        Ok(())
    }
}

impl Printer for Recorder {
    fn start_line(&mut self, offset: Option<u64>) {
        self.lines.push(Line { offset, ..Line::default() });
        self.open = true;
    }
    fn style(&mut self, style: Style) {
        self.style = Some(style);
    }
    fn reset(&mut self) {
        self.style = None;
    }
    fn start_operand(&mut self) {
        if self.depth == 0 {
            self.lines.last_mut().unwrap().operands.push(String::new());
        }
        self.depth += 1;
    }
    fn end_operand(&mut self) {
        self.depth -= 1;
    }
}

fn shbin(bytes: &[u8]) -> Box<ShaderFile> {
    match shaderscope::parse(bytes).unwrap() {
        File::Shbin(f) => f,
        _ => panic!("not a SHBIN"),
    }
}

fn record(file: &ShaderFile, opts: &DisasmOptions) -> Recorder {
    let mut r = Recorder::default();
    file.disasm(opts, &mut r).unwrap();
    assert_eq!((r.unstarted, r.broken_tokens, r.depth), (0, 0, 0), "{:?}", r.lines);
    r
}

use Style::{Comment as Cm, Directive as Dir, Label as Lbl, Literal as Lit, Mnemonic as Mn, Register as Reg};

fn tokens(t: &[(Option<Style>, &str)]) -> Vec<(Option<Style>, String)> {
    t.iter().map(|(s, x)| (*s, x.to_string())).collect()
}

#[test]
fn every_token_of_the_sample_has_its_kind_and_every_line_its_bytes() {
    let bytes = build::example_vertex_shader();
    let file = shbin(&bytes);
    let r = Reader::new(&bytes, Endian::Little);
    let dvle = u64::from(r.u32_at(8, "DVLE offset").unwrap());
    let table = |k: usize| dvle + u64::from(r.u32_at(dvle as usize + 0x18 + 8 * k, "table").unwrap());
    let code = file.dvles()[0].code_offset();
    let lines = record(&file, &DisasmOptions::default()).lines;
    let want: Vec<Line> = [
        (Some(dvle), vec![(Some(Cm), "; DVLE 0: vertex shader, main 0x0, endmain 0x8")], vec![]),
        (
            Some(dvle),
            vec![(Some(Cm), "; vertex shader: entry 0x000..0x008 of 8 code words, 7 operand descriptors")],
            vec![],
        ),
        (
            Some(table(3)),
            vec![
                (Some(Dir), ".fvec"),
                (None, " "),
                (Some(Reg), "projection"),
                (None, "["),
                (Some(Lit), "4"),
                (None, "] "),
                (Some(Cm), "; c0"),
            ],
            vec!["projection"],
        ),
        (
            Some(table(0)),
            vec![
                (Some(Dir), ".constf"),
                (None, " "),
                (Some(Reg), "const_c95"),
                (None, "("),
                (Some(Lit), "0.0"),
                (None, ", "),
                (Some(Lit), "1.0"),
                (None, ", "),
                (Some(Lit), "-1.0"),
                (None, ", "),
                (Some(Lit), "0.09999943"),
                (None, ") "),
                (Some(Cm), "; c95"),
            ],
            vec!["const_c95"],
        ),
        (
            Some(table(2)),
            vec![
                (Some(Dir), ".out"),
                (None, " "),
                (Some(Reg), "outpos"),
                (None, " "),
                (Some(Lit), "position"),
                (None, " "),
                (Some(Reg), "o0"),
            ],
            vec!["outpos", "o0"],
        ),
        (
            Some(table(2) + 8),
            vec![
                (Some(Dir), ".out"),
                (None, " "),
                (Some(Reg), "outclr"),
                (None, " "),
                (Some(Lit), "color"),
                (None, " "),
                (Some(Reg), "o1"),
            ],
            vec!["outclr", "o1"],
        ),
        (Some(dvle), vec![(Some(Dir), ".entry"), (None, " "), (Some(Lbl), "main")], vec![]),
        (None, vec![], vec![]),
        (None, vec![(Some(Dir), ".proc"), (None, " "), (Some(Lbl), "main")], vec![]),
        (
            Some(code),
            vec![
                (None, "\t"),
                (Some(Mn), "mov"),
                (None, " "),
                (Some(Reg), "r0.xyz"),
                (None, ", "),
                (Some(Reg), "v0"),
            ],
            vec!["r0.xyz", "v0"],
        ),
        (
            Some(code + 4),
            vec![
                (None, "\t"),
                (Some(Mn), "mov"),
                (None, " "),
                (Some(Reg), "r0.w"),
                (None, ", "),
                (Some(Reg), "const_c95.y"),
            ],
            vec!["r0.w", "const_c95.y"],
        ),
        (
            Some(code + 8),
            vec![
                (None, "\t"),
                (Some(Mn), "dp4"),
                (None, " "),
                (Some(Reg), "outpos.x"),
                (None, ", "),
                (Some(Reg), "projection[0]"),
                (None, ", "),
                (Some(Reg), "r0"),
            ],
            vec!["outpos.x", "projection[0]", "r0"],
        ),
    ]
    .into_iter()
    .map(|(offset, t, o)| Line {
        offset,
        tokens: tokens(&t),
        operands: o.into_iter().map(String::from).collect(),
    })
    .collect();
    assert_eq!(lines[..want.len()], want[..]);
    let end = &lines[lines.len() - 2..];
    assert_eq!(
        end[0],
        Line {
            offset: Some(code + 28),
            tokens: tokens(&[(None, "\t"), (Some(Mn), "end")]),
            operands: vec![]
        }
    );
    assert_eq!(end[1], Line { offset: None, tokens: tokens(&[(Some(Dir), ".end")]), operands: vec![] });

    // The offsets point at the bytes the lines show: the uniform entry names `projection` on
    // c0-c3 (unified 0x10-0x13), the constant entry is a vec4 for c95, the output entries hold
    // o0 and o1, the instruction lines' words are the code.
    let u = lines[2].offset.unwrap() as usize;
    let symbols = dvle as usize + r.u32_at(dvle as usize + 0x38, "symbols").unwrap() as usize;
    let name = r.cstr_at(symbols + r.u32_at(u, "name").unwrap() as usize, "name").unwrap();
    assert_eq!(
        (name.text().as_ref(), r.u16_at(u + 4, "").unwrap(), r.u16_at(u + 6, "").unwrap()),
        ("projection", 0x10, 0x13)
    );
    let c = lines[3].offset.unwrap() as usize;
    assert_eq!((r.u16_at(c, "").unwrap(), r.u16_at(c + 2, "").unwrap()), (2, 95));
    for (line, reg) in [(&lines[4], 0), (&lines[5], 1)] {
        assert_eq!(r.u16_at(line.offset.unwrap() as usize + 2, "").unwrap(), reg);
    }
    let dvlb = &file.dvlbs()[0].1;
    for line in lines.iter().filter(|l| l.first(Mn).is_some()) {
        let at = line.offset.unwrap();
        let word = r.u32_at(at as usize, "word").unwrap();
        assert_eq!(word, dvlb.dvlp.code[((at - code) / 4) as usize]);
        assert_eq!(line.first(Mn), Some(pica::decode(word).info().mnemonic));
    }
}

#[test]
fn the_html_sink_shows_kinds_and_offsets() {
    let bytes = build::example_vertex_shader();
    let file = shbin(&bytes);
    let mut html = Html::default();
    file.disasm(&DisasmOptions::default().with_offsets(true).with_raw(true), &mut html).unwrap();
    let html = html.finish();
    for line in [
        "<div data-offset=\"140\"><span class=\"cm\">; DVLE 0: vertex shader, main 0x0, endmain 0x8</span></div>\n",
        "<div data-offset=\"240\"><span class=\"dir\">.fvec</span> <span class=\"reg\">projection</span>[<span class=\"lit\">4</span>] <span class=\"cm\">; c0</span></div>\n",
        "<div data-offset=\"224\"><span class=\"dir\">.out</span> <span class=\"reg\">outpos</span> <span class=\"lit\">position</span> <span class=\"reg\">o0</span></div>\n",
        "<div data-offset=\"60\">\t<span class=\"mn\">dp4</span> <span class=\"reg\">outpos.x</span>, <span class=\"reg\">projection[0]</span>, <span class=\"reg\">r0</span> <span class=\"addr\">; 0x00003c 08020802</span></div>\n",
        "<div data-offset=\"80\">\t<span class=\"mn\">end</span> <span class=\"addr\">; 0x000050 88000000</span></div>\n",
    ] {
        assert!(html.contains(line), "{line}\n{html}");
    }
}

#[test]
fn flow_tokens_and_comments() {
    // mova, cmp, ifc, setemit, jmpu, an unknown opcode and an empty write mask, in a geometry
    // shader built in code.
    let mut d = build::example_vertex_dvlb();
    let ins = |op: pica::Op| pica::Instruction { op, ..pica::Instruction::default() };
    d.dvlp.code = vec![
        pica::Instruction { dst: 0x10, src: [0x25, 0, 0], desc: 0, ..ins(pica::Op::Mova) }.encode(),
        pica::Instruction { cmp: [2, 5], src: [0x25, 0x10, 0], desc: 6, ..ins(pica::Op::Cmp) }.encode(),
        pica::Instruction { refs: [true, false], condop: 1, target: 4, num: 0, ..ins(pica::Op::Ifc) }
            .encode(),
        pica::Instruction { vertex: 1, primitive: true, invert: true, ..ins(pica::Op::Setemit) }.encode(),
        pica::Instruction { uniform: 3, negate: true, target: 7, ..ins(pica::Op::Jmpu) }.encode(),
        0x4000_1234,
        pica::Instruction { dst: 0x10, src: [0x11, 0, 0], desc: 7, ..ins(pica::Op::Mov) }.encode(),
        ins(pica::Op::End).encode(),
    ];
    d.dvlp.opdescs.push([0, 0]); // opdesc 7: writes nothing
    let dvle = std::sync::Arc::make_mut(&mut d.dvles[0]);
    dvle.shader_type = 1;
    dvle.endmain = 8;
    let bytes = d.write().unwrap();
    let file = shbin(&bytes);
    let lines = record(&file, &DisasmOptions::default()).lines;
    let code = file.dvles()[0].code_offset();
    let at = |k: u64| lines.iter().find(|l| l.offset == Some(code + 4 * k)).unwrap();
    assert_eq!(
        at(0).tokens,
        tokens(&[
            (None, "\t"),
            (Some(Mn), "mova"),
            (None, " "),
            (Some(Reg), "a0.xy"),
            (None, ", "),
            (Some(Reg), "c5")
        ])
    );
    assert_eq!(
        at(1).tokens,
        tokens(&[
            (None, "\t"),
            (Some(Mn), "cmp"),
            (None, " "),
            (Some(Reg), "c5"),
            (None, ", "),
            (Some(Lit), "lt"),
            (None, ", "),
            (Some(Lit), "ge"),
            (None, ", "),
            (Some(Reg), "r0"),
        ])
    );
    assert_eq!(at(1).operands, ["c5", "lt", "ge", "r0"]);
    assert_eq!(
        at(2).tokens,
        tokens(&[
            (None, "\t"),
            (Some(Mn), "ifc"),
            (None, " "),
            (Some(Reg), "cmp.x"),
            (None, " && "),
            (Some(Reg), "!cmp.y")
        ])
    );
    assert_eq!(at(2).operands, ["cmp.x && !cmp.y"]);
    assert_eq!(
        at(3).tokens,
        tokens(&[
            (None, "\t\t"),
            (Some(Mn), "setemit"),
            (None, " "),
            (Some(Lit), "1"),
            (None, ", "),
            (Some(Lit), "prim"),
            (None, " "),
            (Some(Lit), "inv")
        ])
    );
    assert_eq!(at(3).operands, ["1", "prim inv"]);
    assert_eq!(
        at(4).tokens,
        tokens(&[
            (None, "\t"),
            (Some(Mn), "jmpu"),
            (None, " "),
            (Some(Reg), "!b3"),
            (None, ", "),
            (Some(Lbl), "l_007")
        ])
    );
    // Lines that are comments are one token.
    assert_eq!(at(5).tokens, tokens(&[(None, "\t"), (Some(Cm), "; unknown opcode: unk10 0x40001234")]));
    assert_eq!(
        at(6).tokens,
        tokens(&[(None, "\t"), (Some(Mn), "nop"), (None, " "), (Some(Cm), "; mov with an empty write mask")])
    );
    let label = lines.iter().find(|l| l.text() == "l_007:").unwrap();
    assert_eq!(label.tokens, tokens(&[(Some(Lbl), "l_007"), (None, ":")]));

    // Records: the same printer, comments and indentation left out.
    let records = file.dvles()[0].records();
    let texts: Vec<&str> = records.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "mova a0.xy, c5",
            "cmp c5, lt, ge, r0",
            "ifc cmp.x && !cmp.y",
            "setemit 1, prim inv",
            "jmpu !b3, l_007",
            "unk10 0x40001234",
            "nop",
            "end"
        ]
    );
    assert_eq!(records[1].operands, ["c5", "lt", "ge", "r0"]);
    assert_eq!(records[5].mnemonic, "unk10");
    assert_eq!((records[7].offset, &records[7].words[..]), (code + 28, &[0x8800_0000][..]));
}

#[test]
fn records_are_the_listing_instructions_with_their_words() {
    let bytes = build::example_vertex_shader();
    let file = shbin(&bytes);
    let dvle = file.dvles()[0];
    let code = dvle.code_offset();
    let records = dvle.records();
    let got: Vec<(u64, u32, &str, Vec<&str>, &str)> = records
        .iter()
        .map(|r| {
            (
                r.offset,
                r.words[0],
                r.mnemonic.as_str(),
                r.operands.iter().map(String::as_str).collect(),
                r.text.as_str(),
            )
        })
        .collect();
    let words = &file.dvlbs()[0].1.dvlp.code;
    let want: Vec<(u64, u32, &str, Vec<&str>, &str)> = vec![
        (code, words[0], "mov", vec!["r0.xyz", "v0"], "mov r0.xyz, v0"),
        (code + 4, words[1], "mov", vec!["r0.w", "const_c95.y"], "mov r0.w, const_c95.y"),
        (
            code + 8,
            words[2],
            "dp4",
            vec!["outpos.x", "projection[0]", "r0"],
            "dp4 outpos.x, projection[0], r0",
        ),
        (
            code + 12,
            words[3],
            "dp4",
            vec!["outpos.y", "projection[1]", "r0"],
            "dp4 outpos.y, projection[1], r0",
        ),
        (
            code + 16,
            words[4],
            "dp4",
            vec!["outpos.z", "projection[2]", "r0"],
            "dp4 outpos.z, projection[2], r0",
        ),
        (
            code + 20,
            words[5],
            "dp4",
            vec!["outpos.w", "projection[3]", "r0"],
            "dp4 outpos.w, projection[3], r0",
        ),
        (code + 24, words[6], "mov", vec!["outclr", "v1"], "mov outclr, v1"),
        (code + 28, words[7], "end", vec![], "end"),
    ];
    assert_eq!(got, want);
    // The code blob without DVLE names: the text of the byte dump.
    let opdescs = file.dvlbs()[0].1.opdesc_words();
    let bare = pica::code_records(&pica::Program::new(words), &opdescs, code);
    assert_eq!(bare[2].text, "dp4 o0.x, c0, r0 [opdesc 0x02]");
    assert_eq!(bare[2].operands, ["o0.x", "c0", "r0"]);
    for (r, w) in bare.iter().zip(words) {
        assert_eq!(r.text, pica::describe_word(*w, &opdescs));
    }
}

/// Over the corpus: every line that names input bytes names the right ones. Instruction lines
/// show their code word; declaration lines show the table entry they declare; the other lines
/// with an offset show the DVLE header.
#[test]
fn corpus_lines_point_at_the_bytes_they_show() {
    let Some(dir) = common::corpus_dir() else { return };
    let mut checked = 0;
    for row in common::manifest(&dir, "shbin").into_iter().filter(|r| r.kind == "shbin") {
        let bytes = std::fs::read(dir.join("shbin").join(&row.path)).unwrap();
        let file = shbin(&bytes);
        let r = Reader::new(&bytes, Endian::Little);
        for dvle in file.dvles() {
            let at = format!("{} DVLE {}", row.path, dvle.index);
            let mut rec = Recorder::default();
            dvle.write_source(&DisasmOptions::default(), &mut rec).unwrap();
            assert_eq!((rec.unstarted, rec.broken_tokens), (0, 0), "{at}");
            let header = dvle.offset().unwrap();
            let code = dvle.code_offset()..dvle.code_offset() + 4 * dvle.dvlb.dvlp.code.len() as u64;
            let symbols = header as usize
                + dvle.dvlb.layout.as_ref().unwrap().dvle_offsets_tables[dvle.index][4] as usize;
            let symbol =
                |at: usize| r.cstr_at(symbols + r.u32_at(at, "name").unwrap() as usize, "symbol").unwrap();
            let records = dvle.records();
            for line in rec.lines.iter().filter(|l| l.offset.is_some()) {
                let o = line.offset.unwrap();
                let u = o as usize;
                let directive = line.first(Style::Directive).unwrap_or("");
                if code.contains(&o) {
                    let record = records.iter().find(|x| x.offset == o).unwrap();
                    assert_eq!(record.words, [r.u32_at(u, "word").unwrap()], "{at}");
                    assert!(line.text().trim_start().starts_with(&record.text), "{at}: {line:?}");
                } else if o == header {
                    assert!(
                        directive.is_empty() || [".entry", ".gsh"].contains(&directive),
                        "{at}: {line:?}"
                    );
                } else {
                    match directive {
                        ".out" => {
                            let reg =
                                line.tokens.iter().rev().find(|t| t.0 == Some(Style::Register)).unwrap();
                            let o_reg = format!("o{}", r.u16_at(u + 2, "").unwrap());
                            assert!(
                                reg.1 == o_reg || reg.1.starts_with(&format!("{o_reg}.")),
                                "{at}: {line:?}"
                            );
                        }
                        ".fvec" | ".ivec" | ".bool" | ".in" => {
                            let name = symbol(u).text().replace('.', "$");
                            let declared = line.operands[0].trim_start_matches("u_");
                            assert!(
                                name.ends_with(declared) || declared.starts_with(&name),
                                "{at}: {name} {line:?}"
                            );
                        }
                        ".constf" | ".setf" | ".consti" | ".seti" | ".setb" | ".constfa" => {
                            let (kind, reg) = (r.u16_at(u, "").unwrap(), r.u16_at(u + 2, "").unwrap());
                            let file_letter = ["b", "i", "c"][kind as usize];
                            let text = line.text();
                            assert!(
                                text.contains(&format!("{file_letter}{reg}")) || directive == ".constfa",
                                "{at}: {line:?}"
                            );
                        }
                        ".proc" => {
                            let name = symbol(u + 12);
                            assert!(line.text().contains(name.text().as_ref()), "{at}: {line:?}");
                        }
                        "" if line.first(Style::Label).is_some() => {
                            let name = symbol(u + 12);
                            assert_eq!(line.first(Style::Label), Some(name.text().as_ref()), "{at}");
                        }
                        _ => panic!("{at}: unexpected line with an offset: {line:?}"),
                    }
                }
                checked += 1;
            }
        }
    }
    println!("{checked} lines checked");
}

#[test]
fn dvoj_lines_point_at_its_tables() {
    use shaderscope::format::shbin::Dvoj;
    use shaderscope::format::shbin::tables::{OutputEntry, UniformEntry};
    let vs = build::example_vertex_dvlb();
    let mut o = Dvoj::new(*b"DVOJ");
    o.code = vs.dvlp.code.clone();
    o.opdescs = vs.dvlp.opdescs.clone();
    o.outputs = vec![OutputEntry { semantic: 0, register: 0, mask: 0xf, pad: 0 }];
    o.uniforms = vec![UniformEntry { name_offset: 0, first: 0x10, last: 0x13 }];
    o.symbols = b"projection\0".to_vec();
    let bytes = o.write().unwrap();
    let file = shbin(&bytes);
    let lines = record(&file, &DisasmOptions::default()).lines;
    let r = Reader::new(&bytes, Endian::Little);
    let table = |k: usize| u64::from(r.u32_at(0x10 + 8 * k, "table").unwrap());
    let line = |start: &str| lines.iter().find(|l| l.text().starts_with(start)).unwrap().offset;
    assert_eq!(line("; vertex shader"), Some(0));
    assert_eq!(line(".fvec projection"), Some(table(7)));
    assert_eq!(line(".out outpos"), Some(table(6)));
    assert_eq!(line("\tmov r0.xyz, v0"), Some(table(2)));
    assert_eq!(line("\tend"), Some(table(2) + 28));
}

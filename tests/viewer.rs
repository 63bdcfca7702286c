//! The pages: `shaderscope view` and `disasm --html` write complete standalone documents for
//! every format, whose listing lines carry the bytes they show; and, in a real browser (headless
//! Chromium driven through chromedriver's WebDriver protocol), clicking an instruction
//! highlights exactly its bytes, clicking a byte highlights its field and its instruction, each
//! byte's tooltip is its `dump` annotation, and a screenshot shows the page.
//!
//! Corpus files come from `SHADERSCOPE_CORPUS` (default `../shared/corpus`). Without Chromium
//! or chromedriver the browser test names what is missing (`skipped: chromedriver not found`,
//! `skipped: chromium and chromedriver not found`) and passes, unless
//! `SHADERSCOPE_REQUIRE_BROWSER` is set (CI sets it).

use base64::Engine;
use serde_json::{Value, json};
use shaderscope::Container;
use shaderscope::dump::{Annotations, Row};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A line on the terminal even when the test harness captures output.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn corpus() -> Option<PathBuf> {
    let p = match std::env::var_os("SHADERSCOPE_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    if p.is_dir() {
        return Some(p);
    }
    assert!(
        std::env::var_os("SHADERSCOPE_REQUIRE_CORPUS").is_none(),
        "corpus not found at {} and SHADERSCOPE_REQUIRE_CORPUS is set",
        p.display()
    );
    say(&format!("skipped: corpus not found at {}", p.display()));
    None
}

/// The instruction set of a listing line, which says how long an instruction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Isa {
    Sm4,
    D3d9,
    Pica,
}

/// A file to show, and which instruction set its listing lines use at an offset.
struct Sample {
    label: &'static str,
    path: PathBuf,
    data: Vec<u8>,
}

impl Sample {
    fn isa_at(&self, offset: u64) -> Isa {
        match &self.data[..4] {
            b"DXBC" if dxbc_chunk(&self.data, b"Aon9").is_some_and(|r| r.contains(&offset)) => Isa::D3d9,
            b"DXBC" => Isa::Sm4,
            b"DVLB" => Isa::Pica,
            _ => Isa::D3d9,
        }
    }

    /// The length in bytes of the instruction at `o`, from its own length field.
    fn instruction_len(&self, o: u64) -> u64 {
        let word = |at: u64| u32::from_le_bytes(self.data[at as usize..at as usize + 4].try_into().unwrap());
        let token = word(o);
        match self.isa_at(o) {
            // customdata (dcl_immediateConstantBuffer) has its length in the next token.
            Isa::Sm4 if token & 0x7ff == 0x35 => 4 * u64::from(word(o + 4)),
            Isa::Sm4 => 4 * u64::from((token >> 24) & 0x7f),
            Isa::D3d9 => 4 * (u64::from((token >> 24) & 0xf) + 1),
            Isa::Pica => 4,
        }
    }
}

/// The byte range of a DXBC chunk's whole (header and data).
fn dxbc_chunk(data: &[u8], tag: &[u8; 4]) -> Option<std::ops::Range<u64>> {
    let u32_at = |at: usize| data.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as usize);
    (0..u32_at(28)?).find_map(|i| {
        let at = u32_at(32 + 4 * i)?;
        let end = at + 8 + u32_at(at + 4)?;
        (data.get(at..at + 4)? == tag).then_some(at as u64..end as u64)
    })
}

/// One file of each kind the tool reads that the corpus has: DXBC with an SM4/5 program,
/// DXBC with an Aon9 (Direct3D 9) program beside it, standalone Direct3D 9 (SM2+), SHBIN;
/// and the shipped base64 `.csdr` sample.
fn samples(corpus: &Path) -> Vec<Sample> {
    let manifest = |format: &str, kind: &str| -> Vec<PathBuf> {
        browser::manifest(corpus, format, kind).into_iter().map(|p| corpus.join(p)).collect()
    };
    let first = |label: &'static str, paths: Vec<PathBuf>, fits: &dyn Fn(&[u8]) -> bool| {
        let path = paths
            .into_iter()
            .find(|p| {
                let data = std::fs::read(p).unwrap();
                fits(&data) && shaderscope::parse(&data).is_ok()
            })
            .unwrap_or_else(|| panic!("no {label} file in the corpus"));
        Sample { label, data: std::fs::read(&path).unwrap(), path }
    };
    let has = |data: &[u8], tag: &[u8; 4]| dxbc_chunk(data, tag).is_some();
    vec![
        first("dxbc", manifest("dxbc", "dxbc-binary"), &|d| {
            has(d, b"ISGN") && (has(d, b"SHDR") || has(d, b"SHEX")) && !has(d, b"Aon9")
        }),
        first("aon9", manifest("dxbc", "dxbc-binary"), &|d| has(d, b"Aon9")),
        first("d3d9", manifest("dxbc", "d3dbc-binary"), &|d| d.len() > 4 && d[1] >= 2),
        first("shbin", manifest("shbin", "shbin"), &|_| true),
        {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/vshader.csdr");
            let data = std::fs::read(&path).unwrap();
            Sample { label: "csdr", path, data }
        },
    ]
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_shaderscope")).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// A listing line of a viewer page: `<div class="l" data-offset=… data-len=… data-k=…>TEXT</div>`.
#[derive(Debug, Clone)]
struct Line {
    offset: u64,
    len: Option<u64>,
    /// Its text as the page holds it (HTML-escaped).
    text: String,
    /// Its styled runs (`data-k`): GAP CLASS LEN, in UTF-16 units.
    runs: String,
}

impl Line {
    fn of(line: &str) -> Line {
        Line {
            offset: attr(line, "data-offset").and_then(|v| v.parse().ok()).unwrap_or(0),
            len: attr(line, "data-len").and_then(|v| v.parse().ok()),
            text: line[line.find('>').unwrap() + 1..line.len() - "</div>".len()].to_string(),
            runs: attr(line, "data-k").unwrap_or_default().to_string(),
        }
    }

    fn is_instruction(&self) -> bool {
        self.runs.split(' ').any(|r| r.trim_matches(|c: char| c.is_ascii_digit()) == "mn")
    }

    /// The line's markup with the spans its runs give: what the listing page's line holds.
    fn markup(&self) -> String {
        let text = self.text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        let units: Vec<u16> = text.encode_utf16().collect();
        let piece = |from: usize, to: usize| {
            String::from_utf16(&units[from..to])
                .unwrap()
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let (mut at, mut out) = (0, String::new());
        for run in self.runs.split(' ').filter(|r| !r.is_empty()) {
            let class_at = run.find(|c: char| c.is_ascii_alphabetic()).unwrap();
            let class_end = run.rfind(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
            let start = at + run[..class_at].parse::<usize>().unwrap();
            let end = start + run[class_end..].parse::<usize>().unwrap();
            out += &piece(at, start);
            out += &format!("<span class=\"{}\">{}</span>", &run[class_at..class_end], piece(start, end));
            at = end;
        }
        out + &piece(at, units.len())
    }
}

/// The value of attribute `name` in the start tag of `line`.
fn attr<'l>(line: &'l str, name: &str) -> Option<&'l str> {
    let tag = &line[..line.find('>')?];
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[at..].split('"').next()
}

/// The listing lines of a viewer page.
fn all_page_lines(page: &str) -> Vec<Line> {
    page.lines().filter(|l| l.starts_with("<div class=\"l\"")).map(Line::of).collect()
}

/// The listing lines of a viewer page that show bytes.
fn page_lines(page: &str) -> Vec<Line> {
    page.lines().filter(|l| l.starts_with("<div class=\"l\" data-offset=")).map(Line::of).collect()
}

/// The data a viewer page embeds.
fn page_data(page: &str) -> Value {
    let start = page.find("<script type=\"application/json\" id=\"ss-data\">").unwrap();
    let json = &page[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    assert!(!json.contains('<'), "the embedded data must not contain '<'");
    serde_json::from_str(json).unwrap()
}

/// A page is a whole document that needs nothing from the network.
fn assert_standalone(page: &str, what: &str) {
    assert!(
        page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"),
        "{what}"
    );
    assert!(page.ends_with("</body>\n</html>\n"), "{what}");
    assert!(page.contains("white-space: pre;") && page.contains("monospace"), "{what}");
    for external in ["http:", "https:", "//fonts", " src=", "@import", "url(", "<link", "<iframe", "<img"] {
        assert!(!page.contains(external), "{what}: the page refers to something outside it ({external})");
    }
}

#[test]
fn view_writes_a_standalone_page_whose_lines_carry_their_bytes() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    for s in samples(&corpus) {
        let out = dir.path().join(format!("{}.html", s.label));
        let (code, stdout, err) = run(&["view", s.path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!((code, stdout.as_str(), err.as_str()), (0, "", ""), "{}", s.path.display());
        let page = std::fs::read_to_string(&out).unwrap();
        assert_standalone(&page, s.label);
        // The page holds the bytes it shows (a .csdr's decoded binary) and their annotations.
        let data = page_data(&page);
        let bytes = base64::engine::general_purpose::STANDARD.decode(data["data"].as_str().unwrap()).unwrap();
        let file = if s.label == "csdr" {
            let f = shaderscope::parse(&s.data).unwrap();
            f.part("decoded").unwrap().bytes.into_owned()
        } else {
            s.data.clone()
        };
        assert_eq!(bytes, file, "{}", s.label);
        assert_eq!(data["size"], bytes.len());
        let mut notes = Annotations::new();
        shaderscope::parse(&bytes).unwrap().annotate(&mut notes);
        // Every row `dump` shows with bytes or a title is in the page, with its meaning.
        let mut rows = (0, Vec::new());
        notes
            .rows(&bytes, 0..u64::MAX, |row| {
                match row {
                    Row::Section { .. } => rows.0 += 1,
                    Row::Field { start, len, .. } => rows.1.push((start, start + len)),
                    _ => {}
                }
                Ok::<(), ()>(())
            })
            .unwrap();
        assert_eq!(data["sections"].as_array().unwrap().len(), rows.0, "{}", s.label);
        let fields: Vec<(u64, u64)> = data["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f[0].as_u64().unwrap(), f[1].as_u64().unwrap()))
            .collect();
        assert_eq!(fields, rows.1, "{}", s.label);

        // Every line that shows bytes stays in the file; each instruction covers its encoding
        // exactly, as its own length field gives it, wherever another instruction follows it
        // (the last of a program reaches the end of its structure, or its record's words).
        let lines = page_lines(&page);
        let size = bytes.len() as u64;
        assert!(lines.iter().all(|l| l.len.is_some_and(|n| n > 0 && l.offset + n <= size)), "{}", s.label);
        let sample = Sample { label: s.label, path: s.path.clone(), data: bytes.clone() };
        let starts: HashSet<u64> = lines.iter().filter(|l| l.is_instruction()).map(|l| l.offset).collect();
        let mut exact = 0;
        for l in lines.iter().filter(|l| l.is_instruction()) {
            let want = sample.instruction_len(l.offset);
            let got = l.len.unwrap();
            if starts.contains(&(l.offset + want)) {
                assert_eq!(got, want, "{}: instruction at {:#x}: {}", s.label, l.offset, l.text);
                exact += 1;
            } else {
                assert!(got >= want, "{}: last instruction at {:#x}: {}", s.label, l.offset, l.text);
            }
        }
        assert!(exact >= 3, "{}: {exact} instructions checked", s.label);
    }
}

#[test]
fn disasm_html_is_a_complete_page_with_a_section_per_file() {
    let samples_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let a = samples_dir.join("ps_color.dxbc");
    let b = samples_dir.join("vshader.shbin");
    let (code, page, err) = run(&["disasm", "--html", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_standalone(&page, "disasm --html");
    assert_eq!(page.matches("<section class=\"file\">").count(), 2);
    assert!(page.contains(&format!("<h2>{}</h2>", a.display())));
    // The listing's lines and tokens, as the HTML sink writes them.
    assert!(page.contains(
        "<div data-offset=\"52\">\t<span class=\"mn\">mov</span> <span class=\"reg\">r0.xyz</span>"
    ));
    let (code, one, _) = run(&["disasm", "--html", b.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(one.contains(&format!("<title>{} · shaderscope</title>", b.display())));
    assert_eq!(one.matches("<section class=\"file\">").count(), 1);
}

#[test]
fn view_reports_what_it_cannot_show() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"not a shader at all").unwrap();
    let out = dir.path().join("page.html");
    let (code, _, err) = run(&["view", junk.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with(&format!("error: {}: ", junk.display())), "{err}");
    assert!(!out.exists());
    let (code, _, err) = run(&["view", dir.path().join("missing").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

/// `view` takes the listing options `disasm` takes, with the same checks: its listing is line
/// for line the one `disasm --html` writes with the same options.
#[test]
fn view_takes_the_listing_options_of_disasm() {
    let samples_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let dxbc = samples_dir.join("ps_color.dxbc");
    let shbin = samples_dir.join("vshader.shbin");
    let (dxbc, shbin) = (dxbc.to_str().unwrap(), shbin.to_str().unwrap());
    let markup = |line: &str| line[line.find('>').unwrap() + 1..line.len() - "</div>".len()].to_string();
    // The viewer's lines carry their runs; the spans they give are the listing page's.
    for (options, file) in [
        (&["--raw"][..], dxbc),
        (&["--fxc", "9.29", "--numbering"], dxbc),
        (&["--file-offsets", "--no-header"], dxbc),
        (&["--dvle", "0", "--raw"], shbin),
    ] {
        let args: Vec<&str> = ["view"].iter().chain(options).chain([&file]).copied().collect();
        let (code, page, err) = run(&args);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        let viewed: Vec<String> = all_page_lines(&page).iter().map(Line::markup).collect();
        let args: Vec<&str> = ["disasm", "--html"].iter().chain(options).chain([&file]).copied().collect();
        let (code, page, _) = run(&args);
        assert_eq!(code, 0, "{args:?}");
        let body =
            &page[page.find("<div class=\"listing\">\n").unwrap()..page.find("</div>\n</section>").unwrap()];
        // Its lines, in blocks of 256 (`<div class="k">` … `</div>`).
        let listed: Vec<String> = body
            .lines()
            .filter(|l| l.starts_with("<div>") || l.starts_with("<div data-offset"))
            .map(markup)
            .collect();
        assert_eq!(body.matches("<div class=\"k\">\n").count(), listed.len().div_ceil(256), "{args:?}");
        assert!(!viewed.is_empty());
        assert_eq!(viewed, listed, "{args:?}");
    }
    let (code, _, err) = run(&["view", "--fxc", "9.30", shbin]);
    assert_eq!(
        (code, err),
        (
            2,
            format!(
                "error: {shbin}: --fxc applies only to DXBC containers and the effects that hold them (this file: Nintendo 3DS shader binary (DVLB))\n"
            )
        )
    );
    let (code, _, err) = run(&["view", "--dvle", "4", shbin]);
    assert_eq!(
        (code, err),
        (2, format!("error: {shbin}: --dvle 4 is out of range: the file has 1 DVLE (--dvle 0)\n"))
    );
    let (code, _, err) = run(&["view", "--numbering", shbin]);
    assert_eq!(code, 2, "{err}");
}

// ---------------------------------------------------------------------------------------------
// The browser.

mod browser;
use browser::{Driver, Session};

/// What the viewer says of byte `b`: the meaning of the innermost field holding it and the
/// path of structures around it, from the library's own annotations.
fn annotation_of(notes: &Annotations, b: u64) -> (std::ops::Range<u64>, String, String) {
    let field = notes
        .fields()
        .filter(|(r, _)| r.contains(&b))
        .min_by_key(|(r, _)| (r.end - r.start, std::cmp::Reverse(r.start)))
        .map(|(r, t)| (r, t.to_string()))
        .unwrap_or((b..b + 1, "(unclaimed)".to_string()));
    let mut sections: Vec<_> = notes.sections().filter(|(r, _)| r.contains(&b)).collect();
    sections.sort_by(|x, y| x.0.start.cmp(&y.0.start).then(y.0.end.cmp(&x.0.end)));
    let path: Vec<&str> = sections.iter().map(|(_, t)| *t).collect();
    (field.0, field.1, path.join(" › "))
}

#[test]
fn the_viewer_links_listing_and_bytes_in_a_real_browser() {
    let Some((driver_exe, browser)) = browser::find() else { return };
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let driver = Driver::start(&driver_exe);
    let session = Session::new(&driver, &browser);
    let mut screenshot_taken = false;
    for s in samples(&corpus).into_iter().filter(|s| ["dxbc", "aon9", "d3d9", "shbin"].contains(&s.label)) {
        let page_path = dir.path().join(format!("{}.html", s.label));
        let (code, _, err) = run(&["view", s.path.to_str().unwrap(), "-o", page_path.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let page = std::fs::read_to_string(&page_path).unwrap();
        let lines = page_lines(&page);
        let digits = format!("{:x}", s.data.len().max(2) - 1).len().max(4);
        let mut notes = Annotations::new();
        shaderscope::parse(&s.data).unwrap().annotate(&mut notes);
        session.open(&page_path);

        // The first block's lines have their spans when the page is ready: the script makes
        // from each line's runs the spans the listing page's line has.
        let shown = session.js(
            "return Array.from(document.querySelectorAll('#listing > .k:first-child > .l'), e => e.innerHTML)",
            json!([]),
        );
        let shown: Vec<&str> = shown.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let all = all_page_lines(&page);
        assert_eq!(shown.len(), all.len().min(256), "{}", s.label);
        let want: Vec<String> = all.iter().take(shown.len()).map(Line::markup).collect();
        assert_eq!(shown, want, "{}", s.label);
        assert!(shown.iter().any(|l| l.contains("<span class=\"mn\">")), "{}", s.label);

        // An instruction in the middle of the program, followed by another.
        let starts: HashSet<u64> = lines.iter().filter(|l| l.is_instruction()).map(|l| l.offset).collect();
        let inner: Vec<&Line> = lines
            .iter()
            .filter(|l| l.is_instruction() && starts.contains(&(l.offset + s.instruction_len(l.offset))))
            .collect();
        let ins = inner[inner.len() / 2];
        let (o, len) = (ins.offset, s.instruction_len(ins.offset));
        session.click(&format!(".l[data-offset=\"{o}\"][data-k*=\"mn\"]"));
        let want: Vec<u64> = (o..o + len).collect();
        assert_eq!(session.cells("b", "sel"), want, "{}: bytes of the instruction at {o:#x}", s.label);
        assert_eq!(session.cells("c", "sel"), want, "{}: text of the instruction at {o:#x}", s.label);
        assert_eq!(session.current_lines(), [o], "{}", s.label);
        let status = session.text("return document.getElementById('status').textContent");
        assert!(
            status.starts_with(&format!("0x{o:0digits$x}..0x{:0digits$x} ({len} bytes)  ", o + len)),
            "{status}"
        );

        if !screenshot_taken {
            check_screenshot(&session);
            screenshot_taken = true;
        }

        // A byte of it: its field, its instruction, the structures around it.
        let b = o + len - 1;
        session.click(&format!(".b[data-o=\"{b}\"]"));
        let (field, meaning, path) = annotation_of(&notes, b);
        assert_eq!(session.current_lines(), [o], "{}: the line of byte {b:#x}", s.label);
        assert_eq!(session.cells("b", "sel"), want, "{}", s.label);
        assert_eq!(
            session.cells("b", "fld"),
            field.collect::<Vec<_>>(),
            "{}: the field of byte {b:#x}",
            s.label
        );
        assert_eq!(session.cells("b", "hit"), [b], "{}", s.label);
        let status = session.text("return document.getElementById('status').textContent");
        let byte = s.data[b as usize];
        assert_eq!(status, format!("0x{b:0digits$x} = 0x{byte:02x}  {meaning}  · in {path}"), "{}", s.label);
        assert!(!path.is_empty(), "{}: byte {b:#x} is in no structure", s.label);

        // Its tooltip is its dump annotation.
        let tip = session
            .js("return document.querySelector(arguments[0]).title", json!([format!(".b[data-o=\"{b}\"]")]));
        assert_eq!(tip, format!("0x{b:0digits$x}: {meaning}\nin {path}"), "{}", s.label);

        // A table row (a comment table's, a directive's): its bytes.
        if let Some(row) = lines.iter().find(|l| !l.is_instruction()) {
            let css = format!(".l[data-offset=\"{}\"]", row.offset);
            session.click(&css);
            let want: Vec<u64> = (row.offset..row.offset + row.len.unwrap()).collect();
            let shown = session.cells("b", "sel");
            // Long ranges are drawn where the view is; the part drawn is the range's start.
            assert_eq!(shown, want[..shown.len()], "{}: table row at {:#x}", s.label, row.offset);
            assert!(!shown.is_empty(), "{}", s.label);
        }
    }
    assert!(screenshot_taken);
}

/// A long listing (a `.gsh` of the corpus with more than four blocks of 256 lines): its blocks
/// come with their heights, so the listing scrolls its whole length before it is laid out;
/// lines far down get their spans when scrolled to (the spans their runs give), and a click
/// there selects the line's bytes.
#[test]
fn a_long_listing_gets_its_spans_where_it_is_scrolled_to() {
    let Some((driver_exe, browser)) = browser::find() else { return };
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let page_path = dir.path().join("long.html");
    let (page, lines) = browser::manifest(&corpus, "gx2", "gsh")
        .into_iter()
        .find_map(|rel| {
            let file = corpus.join(rel);
            let (code, _, _) = run(&["view", file.to_str().unwrap(), "-o", page_path.to_str().unwrap()]);
            let page = std::fs::read_to_string(&page_path).ok().filter(|_| code == 0)?;
            let lines = all_page_lines(&page);
            (lines.len() > 4 * 256).then_some((page, lines))
        })
        .expect("a .gsh in the corpus with a long listing");
    assert_eq!(page.matches("<div class=\"k\" ").count(), lines.len().div_ceil(256));
    let driver = Driver::start(&driver_exe);
    let session = Session::new(&driver, &browser);
    session.open(&page_path);
    // Each line 18 pixels high, laid out or not (the listing's padding besides).
    let height =
        session.js("return document.getElementById('listing').scrollHeight", json!([])).as_u64().unwrap();
    let all = 18 * lines.len() as u64;
    assert!((all..all + 20).contains(&height), "{height} pixels for {} lines", lines.len());
    let first = session
        .js("return document.querySelector('#listing > .k').getBoundingClientRect().height", json!([]));
    assert_eq!(first.as_f64(), Some(256.0 * 18.0), "the first block, laid out");
    // The last line with runs, scrolled to: its spans come.
    let (last, line) = lines.iter().enumerate().rfind(|(_, l)| l.is_instruction()).unwrap();
    let css = format!("#listing > .k:nth-child({}) > .l:nth-child({})", last / 256 + 1, last % 256 + 1);
    let unpainted = session.js("return document.querySelector(arguments[0]).innerHTML", json!([css]));
    assert_eq!(unpainted, line.text.as_str(), "a line far down has no spans before it is seen");
    session.js("document.querySelector(arguments[0]).scrollIntoView()", json!([css]));
    let painted = format!("return document.querySelector({css:?}).innerHTML.includes('<span')");
    session.wait(&painted, "the spans of a line scrolled to");
    let shown = session.js("return document.querySelector(arguments[0]).innerHTML", json!([css]));
    assert_eq!(shown, line.markup().as_str());
    session.click(&css);
    let len = line.len.unwrap();
    let shown = session.cells("b", "sel");
    assert_eq!(shown, (line.offset..line.offset + len).collect::<Vec<_>>()[..shown.len()]);
    assert!(!shown.is_empty());
    assert_eq!(session.current_lines(), [line.offset]);
}

/// The page as the browser shows it: a PNG of the window's size, not blank, with the selected
/// bytes and line in their highlight colours.
fn check_screenshot(session: &Session) {
    let shot = browser::screenshot(session);
    let size =
        session.js("return [innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]", json!([]));
    assert_eq!(json!([shot.width, shot.height]), size, "screenshot size");
    assert!(shot.width >= 800 && shot.height >= 400, "{}x{}", shot.width, shot.height);
    // Not blank: many colours, none covering nearly everything.
    let histogram = shot.histogram();
    let total = (shot.width * shot.height) as usize;
    let top = histogram.values().max().copied().unwrap_or(0);
    assert!(histogram.len() >= 32, "{} colours", histogram.len());
    assert!(top * 10 < total * 9, "one colour covers {top} of {total} pixels");
    // The colour that covers most of an element's box.
    let dominant = |css: &str| -> [u8; 3] {
        let r = session.js(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]",
            json!([css]),
        );
        let r: Vec<f64> = r.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let mut counts: BTreeMap<[u8; 3], usize> = BTreeMap::new();
        for y in r[1].ceil() as u32..r[3].floor() as u32 {
            for x in r[0].ceil() as u32..r[2].floor() as u32 {
                *counts.entry(shot.pixel(x, y)).or_default() += 1;
            }
        }
        counts.into_iter().max_by_key(|(_, n)| *n).map(|(c, _)| c).unwrap()
    };
    assert_eq!(dominant(".b.sel"), [0xff, 0xc8, 0x57], "a selected byte is drawn in the selection colour");
    assert_eq!(dominant(".l.cur"), [0xff, 0xe8, 0xa3], "the current line is drawn in its colour");
    assert_eq!(dominant("header"), [0xf6, 0xf8, 0xfa], "the header");
}

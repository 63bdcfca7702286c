//! The page in the browser (`web/`, built into `web/dist` by `bash web/build.sh`), served from
//! 127.0.0.1 and driven in headless Chromium: for corpus files of every format its listing is
//! the listing of the page `shaderscope view` writes for the same file; a click on an
//! instruction highlights its bytes; a switch changes the listing as the CLI's switch does; a
//! file that is no shader binary gets the CLI's message and the shader binaries `scan` finds
//! in it, each openable; a screenshot shows the page. A SHARCFB variation picked and opened is
//! the `.gsh` `extract --set` writes; `--dvle 1` picked is `view --dvle 1`; each download link
//! saves (through `<a download>` and a blob URL, caught in the page) what the CLI writes:
//! `info --json`, `disasm --json`, `validate --json`, `disasm`, each part `extract` lists; a
//! `?src=` of another server or of a missing file is refused with its message.
//!
//! Without `web/dist` the test says `skipped: web/dist not built (bash web/build.sh)`, and
//! fails where `SHADERSCOPE_REQUIRE_WEB` is set (CI sets it after building the site); without
//! Chromium or chromedriver it says what is missing, as `tests/viewer.rs` does.

mod browser;

use browser::{Driver, Session};
use serde_json::json;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;

fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> Option<PathBuf> {
    let p =
        std::env::var_os("SHADERSCOPE_CORPUS").map_or_else(|| repo().join("../shared/corpus"), PathBuf::from);
    if p.is_dir() {
        return Some(p);
    }
    assert!(std::env::var_os("SHADERSCOPE_REQUIRE_CORPUS").is_none(), "corpus not found at {}", p.display());
    say(&format!("skipped: corpus not found at {}", p.display()));
    None
}

/// A static file server on 127.0.0.1 for the test: `/` is `web/dist`, `/files/PATH` a file
/// under `files` (the corpus, the samples, the test's own). One request per connection.
fn serve(dist: PathBuf, files: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = answer(stream, &dist, &files);
        }
    });
    port
}

/// `%XX` escapes decoded.
fn unescape(path: &str) -> Vec<u8> {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let hex = b.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (b[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

fn answer(mut stream: TcpStream, dist: &Path, files: &Path) -> std::io::Result<()> {
    let mut request = String::new();
    BufReader::new(&stream).read_line(&mut request)?;
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split('?').next().unwrap_or("/");
    let path = String::from_utf8_lossy(&unescape(path)).into_owned();
    let file = match path.strip_prefix("/files/") {
        Some(rest) => files.join(rest),
        None => dist.join(path.trim_start_matches('/')),
    };
    let file = if path == "/" { dist.join("index.html") } else { file };
    let (status, body) = match std::fs::read(&file) {
        Ok(b) if !path.contains("..") => ("200 OK", b),
        _ => ("404 Not Found", b"not found".to_vec()),
    };
    let kind = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("css") => "text/css",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)
}

/// The first corpus file of each format the page must open (by manifest kind), with the
/// format's name, as a path below the corpus.
fn corpus_files(corpus: &Path) -> Vec<(&'static str, PathBuf)> {
    let first = |folder: &str, kind: &str| -> PathBuf {
        browser::manifest(corpus, folder, kind)
            .into_iter()
            .find(|p| std::fs::read(corpus.join(p)).is_ok_and(|d| shaderscope::parse(&d).is_ok()))
            .unwrap_or_else(|| panic!("no {kind} file in the corpus"))
    };
    vec![
        ("dxbc", first("dxbc", "dxbc-binary")),
        ("d3d9", first("dxbc", "d3dbc-binary")),
        ("shbin", first("shbin", "shbin")),
        ("gfd", first("gx2", "gsh")),
        ("sharcfb", first("gx2", "sharcfb")),
        ("mbs", first("mbs", "mbs")),
    ]
}

/// The text of the `#listing` of the viewer page `shaderscope view ARGS FILE` writes, as the
/// browser reads it.
fn cli_listing(session: &Session, dir: &Path, file: &Path, args: &[&str]) -> String {
    let page = dir.join("cli.html");
    let out = Command::new(env!("CARGO_BIN_EXE_shaderscope"))
        .arg("view")
        .args(args)
        .arg(file)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success() || page.is_file(), "{}", String::from_utf8_lossy(&out.stderr));
    session.open(&page);
    session
        .js("return document.getElementById('listing').textContent", json!([]))
        .as_str()
        .unwrap()
        .to_string()
}

/// The page is ready and its viewer frame has run its script.
const READY: &str = "const f = document.getElementById('view'); \
    return document.body.dataset.state === 'ready' && !!f && !!f.contentDocument \
    && !!f.contentDocument.body && f.contentDocument.body.dataset.ready === '1'";

/// The listing text of the page's viewer frame.
fn page_listing(session: &Session) -> String {
    let script =
        "return document.getElementById('view').contentDocument.getElementById('listing').textContent";
    session.js(script, json!([])).as_str().unwrap().to_string()
}

#[test]
fn the_page_opens_every_format_as_view_shows_it() {
    let Some((driver_exe, browser)) = browser::find() else { return };
    let dist = repo().join("web/dist");
    if !dist.join("index.html").is_file() || !dist.join("shaderscope_web_bg.wasm").is_file() {
        assert!(
            std::env::var_os("SHADERSCOPE_REQUIRE_WEB").is_none(),
            "web/dist is not built and SHADERSCOPE_REQUIRE_WEB is set"
        );
        say("skipped: web/dist not built (bash web/build.sh)");
        return;
    }
    let Some(corpus) = corpus() else { return };
    // What the server offers below /files/: the corpus and this test's own files.
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir(&files).unwrap();
    std::os::unix::fs::symlink(&corpus, files.join("corpus")).unwrap();
    std::os::unix::fs::symlink(repo().join("samples"), files.join("samples")).unwrap();
    let port = serve(dist, files.clone());
    let driver = Driver::start(&driver_exe);
    let session = Session::new(&driver, &browser);
    let site = Site { session: &session, port, dir: dir.path() };
    let open = |rel: &str| site.open(rel);

    // Every format: the listing is view's.
    for (format, rel) in corpus_files(&corpus) {
        let want = cli_listing(&session, dir.path(), &corpus.join(&rel), &[]);
        open(&format!("corpus/{}", rel.display()));
        assert_eq!(page_listing(&session), want, "{format}: {}", rel.display());
        assert!(!want.trim().is_empty(), "{format}");
        let title = session.js("return document.getElementById('title').textContent", json!([]));
        let size = std::fs::metadata(corpus.join(&rel)).unwrap().len();
        let name = rel.file_name().unwrap().to_string_lossy();
        assert_eq!(title, format!("{name}: {format}, {size} bytes"));
    }

    // A click on an instruction (in the DXBC file) highlights exactly its bytes.
    let (_, dxbc) = &corpus_files(&corpus)[0];
    open(&format!("corpus/{}", dxbc.display()));
    let clicked = session.js(
        "const d = document.getElementById('view').contentDocument; \
         const l = Array.from(d.querySelectorAll('.l[data-len]')).filter(e => /mn/.test(e.dataset.k))[1]; \
         l.click(); \
         return [+l.dataset.offset, +l.dataset.len, Array.from(d.querySelectorAll('.b.sel')).map(e => +e.dataset.o)]",
        json!([]),
    );
    let (o, len) = (clicked[0].as_u64().unwrap(), clicked[1].as_u64().unwrap());
    let selected: Vec<u64> = clicked[2].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(selected, (o..o + len).collect::<Vec<_>>(), "the bytes of the instruction at {o:#x}");

    // A switch re-renders the listing as the CLI's switch does.
    for (switch, value, args) in
        [("offsets", json!(true), vec!["--offsets"]), ("fxc", json!("9.29"), vec!["--fxc", "9.29"])]
    {
        open(&format!("corpus/{}", dxbc.display()));
        site.mark_shown();
        session.js(
            "const c = document.querySelector(`#controls [name=\"${arguments[0]}\"]`); \
             if (c.type === 'checkbox') c.checked = arguments[1]; else c.value = arguments[1]; \
             c.dispatchEvent(new Event('change', {bubbles: true}));",
            json!([switch, value]),
        );
        // The listing of the frame shown before the switch is no answer: wait for the next.
        session.wait(READY_AGAIN, switch);
        let shown = page_listing(&session);
        assert_eq!(shown, cli_listing(&session, dir.path(), &corpus.join(dxbc), &args), "{switch}");
    }

    // A file that is no shader binary: the CLI's message, and the shader binaries inside it.
    let sample = std::fs::read(repo().join("samples/ps_color.dxbc")).unwrap();
    let mut packed = b"not a shader: a pack with one inside\n".to_vec();
    let at = packed.len();
    packed.extend(&sample);
    std::fs::write(files.join("pack.bin"), &packed).unwrap();
    let cli = Command::new(env!("CARGO_BIN_EXE_shaderscope"))
        .arg("info")
        .arg(files.join("pack.bin"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&cli.stderr).into_owned();
    let message =
        said.lines().next().unwrap().replace(&files.join("pack.bin").display().to_string(), "pack.bin");
    session.open_url(
        &format!("http://127.0.0.1:{port}/index.html?src=/files/pack.bin"),
        "return document.body.dataset.state === 'ready'",
    );
    let shown = session.js("return document.getElementById('message').textContent", json!([]));
    assert_eq!(shown, message);
    let finds = session.js(
        "return Array.from(document.querySelectorAll('#findlist li')).map(l => l.firstChild.textContent)",
        json!([]),
    );
    assert_eq!(finds.as_array().unwrap().len(), 1, "{finds}");
    assert!(finds[0].as_str().unwrap().starts_with(&format!("{at:#x} dxbc pixel 208 bytes")), "{finds}");
    session.js(
        "document.body.dataset.state = 'busy'; document.querySelector('#findlist button').click()",
        json!([]),
    );
    session.wait(READY, "the find opened");
    let listing = page_listing(&session);
    assert_eq!(listing, cli_listing(&session, dir.path(), &repo().join("samples/ps_color.dxbc"), &[]));

    // What the page looks like: a real picture, not a blank one.
    open(&format!("corpus/{}", dxbc.display()));
    let shot = browser::screenshot(&session);
    assert!(shot.colours() >= 32, "{} colours", shot.colours());

    variation(&site, &corpus);
    dvle(&site, &corpus);
    downloads(&site, &corpus);
    refusals(&site);
}

/// The page served on a port, in a browser session, with a folder for the CLI's outputs.
struct Site<'a> {
    session: &'a Session<'a>,
    port: u16,
    dir: &'a Path,
}

/// `text` with every byte but the unreserved ones and `/` as `%XX`, for a query's value.
fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl Site<'_> {
    /// The page with `?src=/files/REL`, waited for until its viewer frame is shown.
    fn open(&self, rel: &str) {
        let url = format!("http://127.0.0.1:{}/index.html?src=/files/{}", self.port, escape(rel));
        self.session.open_url(&url, READY);
    }

    fn listing(&self, file: &Path, args: &[&str]) -> String {
        cli_listing(self.session, self.dir, file, args)
    }

    /// Mark the document in the viewer frame as the old one; `READY_AGAIN` then waits for the
    /// next one to be shown.
    fn mark_shown(&self) {
        self.session.js(
            "const f = document.getElementById('view'); f.contentDocument.body.dataset.old = '1'; \
             document.body.dataset.state = 'busy';",
            json!([]),
        );
    }

    fn text(&self, id: &str) -> String {
        self.session
            .js("return document.getElementById(arguments[0]).textContent", json!([id]))
            .as_str()
            .unwrap()
            .into()
    }
}

/// [`READY`], and the frame shows a document that [`Site::mark_shown`] did not mark.
const READY_AGAIN: &str = "const f = document.getElementById('view'); \
    return document.body.dataset.state === 'ready' && !!f && !!f.contentDocument \
    && !!f.contentDocument.body && f.contentDocument.body.dataset.ready === '1' \
    && f.contentDocument.body.dataset.old !== '1'";

/// What `shaderscope ARGS` writes on stdout, run in `cwd` (so a file named there by its bare
/// name is named as the page names it).
fn cli_out(cwd: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_shaderscope")).current_dir(cwd).args(args).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "shaderscope {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A SHARCFB program with a variation macro of two values or more.
struct Variable {
    /// The archive, below the served folder (`corpus/...` or `samples/...`).
    served: String,
    path: PathBuf,
    /// The program's index among the archive's programs, and its name.
    index: usize,
    program: String,
    /// Its macros: name, values, the value the page picks first (the default, else the first).
    macros: Vec<(String, Vec<String>, String)>,
}

/// The first SHARCFB archive with a program that has a macro of two values or more: of the
/// corpus's (in its manifest's order), else of the samples.
fn variable(corpus: &Path) -> Variable {
    let from_corpus = browser::manifest(corpus, "gx2", "sharcfb")
        .into_iter()
        .map(|rel| (format!("corpus/{}", rel.display()), corpus.join(rel)));
    let mut samples: Vec<PathBuf> = std::fs::read_dir(repo().join("samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sharcfb"))
        .collect();
    samples.sort();
    let from_samples =
        samples.into_iter().map(|p| (format!("samples/{}", p.file_name().unwrap().to_string_lossy()), p));
    from_corpus
        .chain(from_samples)
        .find_map(|(served, path)| {
            let data = std::fs::read(&path).ok()?;
            let Ok(shaderscope::any::File::Sharcfb(archive)) = shaderscope::parse(&data) else { return None };
            let info = shaderscope::format::sharcfb::info::Info::new(&archive);
            let p = info.programs.into_iter().find(|p| p.macros.iter().any(|m| m.values.len() >= 2))?;
            let macros = p
                .macros
                .into_iter()
                .map(|m| {
                    let first = m.default.clone().unwrap_or_else(|| m.values[0].clone());
                    (m.name, m.values, first)
                })
                .collect();
            Some(Variable { served, path, index: p.index, program: p.name, macros })
        })
        .expect("no SHARCFB archive with a macro of two values in the corpus or the samples")
}

/// A variation picked in the SHARCFB controls and opened: the `.gsh` `extract --set` writes
/// for it, shown as `view` shows that file, and the title names the variation.
fn variation(site: &Site, corpus: &Path) {
    let v = variable(corpus);
    let (name, values, first) = v.macros.iter().find(|(_, values, _)| values.len() >= 2).unwrap();
    let value = values.iter().find(|x| *x != first).unwrap();
    say(&format!("variation: {} program {} {name}={value}", v.served, v.program));
    site.open(&v.served);
    let span = format!("#controls span.variation:nth-of-type({})", v.index + 1);
    let label =
        site.session.js("return document.querySelector(arguments[0]).firstChild.textContent", json!([span]));
    assert_eq!(label, format!("program \"{}\": ", v.program));
    site.session.click(&format!("{span} select[name=\"{name}\"] option[value=\"{value}\"]"));
    let picked = site.session.js(
        "return document.querySelector(arguments[0]).value",
        json!([format!("{span} select[name=\"{name}\"]")]),
    );
    assert_eq!(picked, json!(value));
    site.mark_shown();
    site.session.click(&format!("{span} button"));
    site.session.wait(READY_AGAIN, "the variation opened");
    let (shown, title) = (page_listing(site.session), site.text("title"));

    let gsh = site.dir.join("variation.gsh");
    let set = format!("{name}={value}");
    let path = v.path.display().to_string();
    cli_out(site.dir, &["extract", &path, &v.program, "--set", &set, "-o", &gsh.display().to_string()]);
    let want = site.listing(&gsh, &[]);
    assert_eq!(shown, want, "{} {} --set {set}", v.served, v.program);
    // The default variation is another listing: the page did not open that one.
    let default = site.dir.join("default.gsh");
    cli_out(site.dir, &["extract", &path, &v.program, "-o", &default.display().to_string()]);
    assert_ne!(want, site.listing(&default, &[]), "{} {}: the variations look alike", v.served, v.program);

    let settings: Vec<String> = v
        .macros
        .iter()
        .map(|(m, _, first)| format!("{m}={}", if m == name { value } else { first }))
        .collect();
    let size = std::fs::metadata(&gsh).unwrap().len();
    let file = v.path.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(title, format!("{file}:{} ({}).gsh: gfd, {size} bytes", v.program, settings.join(" ")));
}

/// A program chosen in a SHBIN file of two DVLEs or more: `view --dvle 1`'s listing.
fn dvle(site: &Site, corpus: &Path) {
    use shaderscope::Container;
    let programs = |p: &Path| std::fs::read(p).ok().and_then(|d| shaderscope::parse(&d).ok()?.programs());
    let rel = browser::manifest(corpus, "shbin", "shbin")
        .into_iter()
        .find(|p| programs(&corpus.join(p)).is_some_and(|n| n >= 2))
        .expect("no SHBIN file of two DVLEs in the corpus");
    say(&format!("--dvle 1: {}", rel.display()));
    let file = corpus.join(&rel);
    let want = site.listing(&file, &["--dvle", "1"]);
    assert_ne!(want, site.listing(&file, &[]), "{}: --dvle 1 lists what the whole file does", rel.display());

    site.open(&format!("corpus/{}", rel.display()));
    let choices = site.session.js(
        "return Array.from(document.querySelectorAll('#controls select[name=dvle] option')).map(o => o.textContent)",
        json!([]),
    );
    let n = programs(&file).unwrap();
    let names: Vec<String> =
        std::iter::once("all programs".to_string()).chain((0..n).map(|i| format!("--dvle {i}"))).collect();
    assert_eq!(choices, json!(names), "{}", rel.display());
    site.mark_shown();
    site.session.click("#controls select[name=dvle] option[value=\"1\"]");
    site.session.wait(READY_AGAIN, "--dvle 1");
    assert_eq!(page_listing(site.session), want, "{} --dvle 1", rel.display());
}

/// In the page, every Blob given to `URL.createObjectURL` kept by its URL, and what a click on
/// a link with `download` would save kept in `window.saves` (name, URL) instead of saved.
const CATCH_SAVES: &str = "const made = new Map(); window.made = made; window.saves = []; \
    const create = URL.createObjectURL.bind(URL); \
    URL.createObjectURL = (blob) => { const url = create(blob); made.set(url, blob); return url; }; \
    const click = HTMLAnchorElement.prototype.click; \
    HTMLAnchorElement.prototype.click = function () { \
      if (this.hasAttribute('download')) window.saves.push({name: this.download, url: this.href}); \
      else click.call(this); \
    };";

/// What the last click saved: its name, its type, its bytes in base64, and how many saves there
/// were in all.
const LAST_SAVE: &str = "const s = window.saves[window.saves.length - 1]; \
    if (!s) return null; \
    const blob = window.made.get(s.url); \
    if (!blob) return {name: s.name, url: s.url, count: window.saves.length}; \
    return blob.arrayBuffer().then((b) => { \
      const bytes = new Uint8Array(b); let text = ''; \
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000)); \
      return {name: s.name, url: s.url, type: blob.type, base64: btoa(text), count: window.saves.length}; \
    });";

/// How what the page saved differs from what the CLI wrote: both texts, or for bytes that are
/// no text their sizes and the first offset where they differ.
fn difference(saved: &[u8], cli: &[u8]) -> String {
    let text = |b: &[u8]| {
        std::str::from_utf8(b)
            .ok()
            .filter(|t| !t.chars().any(|c| c.is_control() && c != '\n' && c != '\t'))
            .map(str::to_string)
    };
    match (text(saved), text(cli)) {
        (Some(a), Some(b)) => format!("the page saved\n{a}\nthe CLI wrote\n{b}"),
        _ => {
            let at = saved.iter().zip(cli).position(|(a, b)| a != b).unwrap_or(saved.len().min(cli.len()));
            format!(
                "the page saved {} bytes, the CLI wrote {}; they differ from {at:#x}",
                saved.len(),
                cli.len()
            )
        }
    }
}

/// Click download link `index` (counted from 0) and return what it saved: name, type, bytes.
fn save(site: &Site, index: usize) -> (String, String, Vec<u8>) {
    use base64::Engine;
    let before = site.session.js("return window.saves.length", json!([])).as_u64().unwrap();
    site.session.click(&format!("#downloads a:nth-of-type({})", index + 1));
    let s = site.session.js(LAST_SAVE, json!([]));
    assert_eq!(s["count"], json!(before + 1), "one save for one click: {s}");
    assert!(s["url"].as_str().unwrap().starts_with("blob:"), "{s}");
    let bytes = base64::engine::general_purpose::STANDARD.decode(s["base64"].as_str().unwrap()).unwrap();
    (s["name"].as_str().unwrap().into(), s["type"].as_str().unwrap().into(), bytes)
}

/// The download links: each saves through an `<a download>` and a blob URL what the CLI
/// writes for the same file (`info --json`, `disasm --json`, `validate --json`, `disasm`, the
/// parts `extract` lists), for the first corpus file of every format; the listing's two follow
/// a switch as the CLI's.
fn downloads(site: &Site, corpus: &Path) {
    for (format, rel) in corpus_files(corpus) {
        let path = corpus.join(&rel);
        let cwd = path.parent().unwrap();
        let name = rel.file_name().unwrap().to_string_lossy().into_owned();
        say(&format!("downloads: {format}: {}", rel.display()));
        site.open(&format!("corpus/{}", rel.display()));
        site.session.js(CATCH_SAVES, json!([]));
        let list = String::from_utf8(cli_out(cwd, &["extract", &name])).unwrap();
        let parts: Vec<&str> = list.lines().skip(1).filter_map(|l| l.split_whitespace().next()).collect();
        let mut want: Vec<(String, String, Vec<u8>)> = vec![
            ("info.json".into(), "application/json".into(), cli_out(cwd, &["info", "--json", &name])),
            ("disasm.json".into(), "application/json".into(), cli_out(cwd, &["disasm", "--json", &name])),
            ("validate.json".into(), "application/json".into(), cli_out(cwd, &["validate", "--json", &name])),
            ("listing.txt".into(), "text/plain".into(), cli_out(cwd, &["disasm", &name])),
        ];
        for part in &parts {
            let out = site.dir.join("part.bin");
            cli_out(cwd, &["extract", &name, part, "-o", &out.display().to_string()]);
            want.push((part.to_string(), "application/octet-stream".into(), std::fs::read(&out).unwrap()));
        }
        let labels = site.session.js(
            "return Array.from(document.querySelectorAll('#downloads a')).map(a => a.textContent)",
            json!([]),
        );
        let want_labels: Vec<&str> = want.iter().map(|(l, _, _)| l.as_str()).collect();
        assert_eq!(labels, json!(want_labels), "{format}: {}", rel.display());
        for (i, (label, kind, bytes)) in want.iter().enumerate() {
            let file = match label.as_str() {
                "listing.txt" => format!("{name}.txt"),
                _ => format!("{name}.{label}"),
            };
            let (saved, saved_kind, saved_bytes) = save(site, i);
            assert_eq!(
                (saved.as_str(), saved_kind.as_str()),
                (file.as_str(), kind.as_str()),
                "{format}: {label}"
            );
            assert!(
                saved_bytes == *bytes,
                "{format}: {label} of {}: {}",
                rel.display(),
                difference(&saved_bytes, bytes)
            );
        }
    }

    // With --offsets on, the listing and the disasm record are the CLI's with --offsets.
    let (_, rel) = &corpus_files(corpus)[0];
    let path = corpus.join(rel);
    let (cwd, name) = (path.parent().unwrap(), rel.file_name().unwrap().to_string_lossy().into_owned());
    site.open(&format!("corpus/{}", rel.display()));
    site.session.js(CATCH_SAVES, json!([]));
    site.mark_shown();
    site.session.click("#controls input[name=offsets]");
    site.session.wait(READY_AGAIN, "--offsets");
    let (_, _, record) = save(site, 1);
    assert_eq!(
        String::from_utf8(record).unwrap(),
        String::from_utf8(cli_out(cwd, &["disasm", "--offsets", "--json", &name])).unwrap()
    );
    let (_, _, listing) = save(site, 3);
    assert_eq!(
        String::from_utf8(listing).unwrap(),
        String::from_utf8(cli_out(cwd, &["disasm", "--offsets", &name])).unwrap()
    );
}

/// `?src=` that names no file of this server: a file elsewhere is not fetched, a missing one
/// is the server's status; either way no file is shown.
fn refusals(site: &Site) {
    for (src, want) in [
        (
            "http://example.invalid/x.dxbc",
            "?src=http://example.invalid/x.dxbc: only a file on this server is opened (nothing is fetched from elsewhere)",
        ),
        ("/files/nope.bin", "?src=/files/nope.bin: HTTP 404"),
    ] {
        say(&format!("refused: ?src={src}"));
        let url = format!("http://127.0.0.1:{}/index.html?src={}", site.port, escape(src));
        site.session.open_url(&url, "return document.body.dataset.state === 'ready'");
        assert_eq!(site.text("message"), want);
        let hidden = site.session.js(
            "return [document.getElementById('message').hidden, document.getElementById('file-panel').hidden]",
            json!([]),
        );
        assert_eq!(hidden, json!([false, true]), "{src}");
    }
}

//! The browser the page tests drive: Debian's Chromium through chromedriver's WebDriver
//! protocol (plain HTTP and JSON on a local port), shared by `tests/viewer.rs` and
//! `tests/web.rs`; and the corpus files those tests pick by manifest kind.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What the browser test lacks, by name: `chromium`, `chromedriver`, or both.
pub fn missing_browser_parts(have_browser: bool, have_driver: bool) -> &'static str {
    match (have_browser, have_driver) {
        (false, false) => "chromium and chromedriver",
        (false, true) => "chromium",
        (true, false) => "chromedriver",
        (true, true) => "nothing",
    }
}

#[test]
fn a_skipped_browser_test_names_what_is_missing() {
    assert_eq!(missing_browser_parts(false, false), "chromium and chromedriver");
    assert_eq!(missing_browser_parts(false, true), "chromium");
    assert_eq!(missing_browser_parts(true, false), "chromedriver");
}

/// The first of `names` found on `PATH`.
pub fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).flat_map(|d| names.iter().map(move |n| d.join(n))).find(|p| p.is_file())
}

/// chromedriver, started on a free local port; stopped when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    pub fn start(exe: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(exe)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(v) = driver.try_call("GET", "/status", None) {
                if v["ready"] == true {
                    return driver;
                }
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// One WebDriver call: the response's `value`, or why it failed.
    pub fn try_call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(Duration::from_secs(60))).map_err(|e| e.to_string())?;
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; charset=utf-8\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        s.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
        // Read the header, then as much body as it announces (the server may keep the
        // connection open after it).
        let mut response = Vec::new();
        let mut buf = [0u8; 1 << 16];
        let complete = |r: &[u8]| -> Option<usize> {
            let split = r.windows(4).position(|w| w == b"\r\n\r\n")?;
            let head = String::from_utf8_lossy(&r[..split]).to_ascii_lowercase();
            let body = &r[split + 4..];
            let header = |name: &str| {
                head.lines().find_map(|l| {
                    l.split_once(':').filter(|(n, _)| n.trim() == name).map(|(_, v)| v.trim().to_string())
                })
            };
            if header("transfer-encoding").is_some_and(|v| v == "chunked") {
                return body.ends_with(b"0\r\n\r\n").then_some(split);
            }
            let len: usize = header("content-length")?.parse().ok()?;
            (body.len() >= len).then_some(split)
        };
        let split = loop {
            if let Some(split) = complete(&response) {
                break split;
            }
            // A signal (the test harness's, a child's exit) may interrupt the read: read again.
            let n = match s.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                r => r.map_err(|e| e.to_string())?,
            };
            if n == 0 {
                return Err(format!("{method} {path}: the connection closed early"));
            }
            response.extend_from_slice(&buf[..n]);
        };
        let head = String::from_utf8_lossy(&response[..split]).to_ascii_lowercase();
        let mut content = response[split + 4..].to_vec();
        if head.contains("chunked") {
            content = dechunk(&content)?;
        }
        let v: Value = serde_json::from_slice(&content)
            .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&content)))?;
        let status = head.split_whitespace().nth(1).unwrap_or("");
        if status != "200" {
            return Err(format!("{method} {path}: HTTP {status}: {v}"));
        }
        Ok(v["value"].clone())
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The body of a chunked HTTP response.
fn dechunk(mut b: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n").ok_or("bad chunk")?;
        let size_text = String::from_utf8_lossy(&b[..eol]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|e| e.to_string())?;
        if size == 0 {
            return Ok(out);
        }
        let data = b.get(eol + 2..eol + 2 + size).ok_or("short chunk")?;
        out.extend_from_slice(data);
        b = b.get(eol + 4 + size..).ok_or("short chunk")?;
    }
}

/// A browser session; closed when dropped.
pub struct Session<'a> {
    driver: &'a Driver,
    id: String,
}

impl<'a> Session<'a> {
    pub fn new(driver: &'a Driver, browser: &Path) -> Session<'a> {
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": browser,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--force-device-scale-factor=1", "--window-size=1280,800", "--lang=en-US"]
            }
        }}});
        let v = driver.try_call("POST", "/session", Some(&caps)).unwrap();
        Session { driver, id: v["sessionId"].as_str().unwrap().to_string() }
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver.try_call(method, &format!("/session/{}{path}", self.id), body.as_ref()).unwrap()
    }

    pub fn open(&self, page: &Path) {
        let url = format!("file://{}", page.display());
        self.open_url(&url, "return document.body && document.body.dataset.ready === '1'");
    }

    /// Go to `url` and wait until the script `ready` returns true.
    pub fn open_url(&self, url: &str, ready: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
        self.wait(ready, url);
    }

    /// Wait (20 s at most) until the script `ready` returns true; `what` names it on failure.
    pub fn wait(&self, ready: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.js(ready, json!([])) != true {
            assert!(Instant::now() < deadline, "the page did not get ready: {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn js(&self, script: &str, args: Value) -> Value {
        self.call("POST", "/execute/sync", Some(json!({"script": script, "args": args})))
    }

    /// Click the element `css` selects, as a user would (WebDriver scrolls it into view).
    pub fn click(&self, css: &str) {
        let e = self.call("POST", "/element", Some(json!({"using": "css selector", "value": css})));
        let id = e.as_object().and_then(|m| m.values().next()).and_then(Value::as_str).unwrap().to_string();
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// The `data-o` of every hex cell (`.b`) or text cell (`.c`) with class `class`.
    pub fn cells(&self, kind: &str, class: &str) -> Vec<u64> {
        let script = "return Array.from(document.querySelectorAll(arguments[0])).map(e => +e.dataset.o)";
        let v = self.js(script, json!([format!(".{kind}.{class}")]));
        v.as_array().unwrap().iter().map(|o| o.as_u64().unwrap()).collect()
    }

    /// The offsets of the listing lines marked current.
    pub fn current_lines(&self) -> Vec<u64> {
        let v = self.js(
            "return Array.from(document.querySelectorAll('.l.cur')).map(e => +e.dataset.offset)",
            json!([]),
        );
        v.as_array().unwrap().iter().map(|o| o.as_u64().unwrap()).collect()
    }

    pub fn text(&self, script: &str) -> String {
        self.js(script, json!([])).as_str().unwrap_or_default().to_string()
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self.driver.try_call("DELETE", &format!("/session/{}", self.id), None);
    }
}

/// A screenshot of the browser's window, decoded.
pub struct Shot {
    pub width: u32,
    pub height: u32,
    channels: usize,
    pixels: Vec<u8>,
}

impl Shot {
    /// The colour at (`x`, `y`).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let at = (y as usize * self.width as usize + x as usize) * self.channels;
        [self.pixels[at], self.pixels[at + 1], self.pixels[at + 2]]
    }

    /// How many pixels of each colour.
    pub fn histogram(&self) -> std::collections::BTreeMap<[u8; 3], usize> {
        let mut h = std::collections::BTreeMap::new();
        for y in 0..self.height {
            for x in 0..self.width {
                *h.entry(self.pixel(x, y)).or_default() += 1;
            }
        }
        h
    }

    /// How many colours the picture has.
    pub fn colours(&self) -> usize {
        self.histogram().len()
    }
}

/// The window as a PNG, decoded (8-bit RGB or RGBA). To look at it:
/// `SHADERSCOPE_SCREENSHOT=page.png cargo test --test viewer`.
pub fn screenshot(session: &Session) -> Shot {
    use base64::Engine;
    let png = session.call("GET", "/screenshot", None);
    let png = base64::engine::general_purpose::STANDARD.decode(png.as_str().unwrap()).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    if let Some(path) = std::env::var_os("SHADERSCOPE_SCREENSHOT") {
        std::fs::write(path, &png).unwrap();
    }
    let decoder = png::Decoder::new(std::io::Cursor::new(&png));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let channels = info.color_type.samples();
    assert!(
        info.bit_depth == png::BitDepth::Eight && channels >= 3,
        "{:?} {:?}",
        info.color_type,
        info.bit_depth
    );
    Shot { width: info.width, height: info.height, channels, pixels }
}

/// chromedriver and a Chromium on `PATH`; where one is missing, `None` after saying
/// `skipped: … not found` (a failure where `SHADERSCOPE_REQUIRE_BROWSER` is set, as in CI).
pub fn find() -> Option<(PathBuf, PathBuf)> {
    let driver = which(&["chromedriver"]);
    let browser = which(&["chromium", "chromium-browser", "google-chrome"]);
    if let (Some(d), Some(b)) = (&driver, &browser) {
        return Some((d.clone(), b.clone()));
    }
    let missing = missing_browser_parts(browser.is_some(), driver.is_some());
    assert!(
        std::env::var_os("SHADERSCOPE_REQUIRE_BROWSER").is_none(),
        "{missing} not found on PATH and SHADERSCOPE_REQUIRE_BROWSER is set"
    );
    let _ = writeln!(std::io::stderr(), "skipped: {missing} not found");
    None
}

/// The files of manifest kind `kind` in the corpus folder `folder`, in the manifest's order, as
/// paths below the corpus.
pub fn manifest(corpus: &Path, folder: &str, kind: &str) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(corpus.join(folder).join("MANIFEST.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let k = header.iter().position(|h| *h == "kind").unwrap();
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c.get(k) == Some(&kind))
        .map(|c| Path::new(folder).join(c[0]))
        .collect()
}

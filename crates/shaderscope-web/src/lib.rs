//! shaderscope in the browser: the library compiled to WebAssembly through wasm-bindgen, for
//! the page in `web/` (`bash web/build.sh` builds it). Every answer is the library's own, made
//! by the calls the command line makes: the page `shaderscope view` writes, `info`'s text, the
//! JSON records of `info`, `disasm` and `validate`, the parts `extract` writes, the finds of
//! `scan`. Nothing here reads or sends a file: the page hands over the bytes the user opened,
//! and they stay in the page.
//!
//! Listing options come as a JSON object of the CLI's switch names (`{"offsets": true, "fxc":
//! "9.30", "dvle": 0}`), read by [`DisasmOptions::with_named`] and checked by
//! [`DisasmOptions::check`] as every front end does; errors are the CLI's messages.

use serde_json::{Value, json};
use shaderscope::model::Switch;
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions, Shader};
use wasm_bindgen::prelude::*;

/// A file the user opened, parsed once, with the name the page shows.
#[wasm_bindgen]
pub struct Opened {
    shader: Shader,
    name: String,
}

/// The listing options a JSON object of switch names gives.
fn options(json: &str) -> Result<DisasmOptions, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| format!("listing options: {e}"))?;
    let Some(map) = value.as_object() else {
        return Err("listing options: not a JSON object".into());
    };
    let mut opts = DisasmOptions::default();
    for (name, value) in map {
        let switch = match value {
            Value::Null => continue,
            Value::Bool(on) => Switch::On(*on),
            Value::String(text) => Switch::Name(text),
            Value::Number(n) => match n.as_u64().and_then(|n| usize::try_from(n).ok()) {
                Some(n) => Switch::Index(n),
                None => return Err(format!("{name} takes a program index")),
            },
            _ => return Err(format!("{name}: not a switch's value")),
        };
        opts = opts.with_named(name, switch).map_err(|e| e.to_string())?;
    }
    Ok(opts)
}

#[wasm_bindgen]
impl Opened {
    /// Parse `data`, a file's bytes, shown as `name`. The error is the CLI's message after
    /// `error: PATH: ` (a file that is no shader binary: `scan` may find some inside it).
    #[wasm_bindgen(constructor)]
    pub fn new(data: Vec<u8>, name: String) -> Result<Opened, String> {
        Shader::parse(data).map(|shader| Opened { shader, name }).map_err(|e| e.to_string())
    }

    fn file(&self) -> &shaderscope::File<'_> {
        self.shader.file()
    }

    /// The listing options of `json`, checked against this file.
    fn checked(&self, json: &str) -> Result<DisasmOptions, String> {
        let opts = options(json)?;
        opts.check(self.file()).map_err(|e| e.to_string())?;
        Ok(opts)
    }

    /// The format's name, as JSON records give it (`dxbc`, `shbin`, `gfd`, ...).
    pub fn format(&self) -> String {
        self.file().format().name().to_string()
    }

    /// The page `shaderscope view FILE` writes with these listing options.
    pub fn view(&self, options: &str) -> Result<String, String> {
        let opts = self.checked(options)?;
        Ok(shaderscope::page::viewer(self.file(), self.shader.bytes(), &self.name, &opts).html)
    }

    /// The text `shaderscope disasm FILE` prints with these options (up to where it fails,
    /// then `error: NAME: MESSAGE` as the CLI says it on stderr).
    pub fn listing(&self, options: &str) -> Result<String, String> {
        let opts = self.checked(options)?;
        let mut out = TextBuf::for_terminal();
        let done = self.file().disasm(&opts, &mut out);
        let mut text = out.into_string();
        if let Err(e) = done {
            text.push_str(&format!("error: {}: {e}\n", self.name));
        }
        Ok(text)
    }

    /// The text `shaderscope info FILE` prints.
    pub fn info(&self) -> String {
        let mut out = TextBuf::for_terminal();
        // A TextBuf never fails a write.
        let _ = self.file().write_info_text(&mut out);
        out.into_string()
    }

    /// The record `shaderscope info --json FILE` prints.
    pub fn info_record(&self) -> String {
        let mut out = Vec::new();
        // Writing into memory does not fail.
        let _ = self.file().write_info_record(&self.name, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The record `shaderscope disasm --json FILE` prints with these options.
    pub fn disasm_record(&self, options: &str) -> Result<String, String> {
        let opts = self.checked(options)?;
        let mut out = Vec::new();
        self.file().write_disasm_record(&self.name, &opts, &mut out).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// The records `shaderscope validate --json FILE` prints (JSON Lines): one per finding,
    /// then the closing record.
    pub fn validate_records(&self) -> String {
        self.file().validate_records(&self.name, false).iter().map(|r| r.to_line()).collect()
    }

    /// What `shaderscope extract FILE` lists, as a JSON array of `{name, offset, size,
    /// description}` (a SHARCFB program's size is null: it is built when asked for).
    pub fn parts(&self) -> String {
        let file = self.file();
        let mut list: Vec<Value> = file
            .parts()
            .into_iter()
            .map(|p| json!({"name": p.name, "offset": p.offset, "size": p.size(), "description": p.description}))
            .collect();
        list.extend(file.program_gshs().into_iter().map(|p| {
            json!({"name": p.name, "offset": p.offset, "size": p.size, "description": "program: its variation as a GFD .gsh"})
        }));
        Value::Array(list).to_string()
    }

    /// The bytes `shaderscope extract FILE NAME [--set MACRO=VALUE]...` writes; `settings` is
    /// a JSON object `{MACRO: VALUE}` (SHARCFB programs), or empty.
    pub fn part(&self, name: &str, settings: &str) -> Result<Vec<u8>, String> {
        let set: Vec<(String, String)> = match serde_json::from_str::<Value>(settings) {
            Ok(Value::Object(map)) => map
                .into_iter()
                .map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), String::from)))
                .collect(),
            _ => Vec::new(),
        };
        self.file().extract(name, &set).map_err(|e| e.to_string())
    }

    /// The listing switches that apply to this file, as the CLI decides it: a JSON object
    /// `{"switches": [names], "fxc": bool, "programs": N or null, "variations": [{program,
    /// macros: [{name, values, default}]}]}`, for the page's controls.
    pub fn switches(&self) -> String {
        let file = self.file();
        let applies = |o: DisasmOptions| o.check(file).is_ok();
        let switches: Vec<&str> = DisasmOptions::SWITCHES
            .into_iter()
            .filter(|s| DisasmOptions::default().with_switch(s, true).is_some_and(applies))
            .collect();
        let fxc = DisasmOptions::default().with_fxc("10").is_some_and(applies);
        let variations: Vec<Value> = file
            .variations()
            .into_iter()
            .map(|p| {
                let macros: Vec<Value> = p
                    .macros
                    .iter()
                    .map(|m| json!({"name": m.name, "values": m.values, "default": m.default}))
                    .collect();
                json!({"program": p.program, "macros": macros})
            })
            .collect();
        json!({"switches": switches, "fxc": fxc, "fxc_names": DisasmOptions::FXC_NAMES,
               "programs": file.programs(), "variations": variations})
        .to_string()
    }
}

/// The records `shaderscope scan --json NAME` prints for these bytes (JSON Lines), one per
/// shader binary found in them (whole, embedded by magic, in SARC archives, Yaz0 streams),
/// without the closing summary.
#[wasm_bindgen]
pub fn scan(data: &[u8], name: &str) -> String {
    let mut lines = String::new();
    shaderscope::find::each(data, &mut |f, _| lines.push_str(&f.record(name).to_line()));
    lines
}

/// The bytes of find `index` of [`scan`] (counted from 0), to open as a file of its own.
#[wasm_bindgen]
pub fn find_bytes(data: &[u8], index: usize) -> Option<Vec<u8>> {
    let mut seen = 0;
    let mut found = None;
    shaderscope::find::each(data, &mut |_, bytes| {
        if seen == index {
            found = Some(bytes.to_vec());
        }
        seen += 1;
    });
    found
}

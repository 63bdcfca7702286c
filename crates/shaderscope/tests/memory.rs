//! Heap bounds on hostile inputs: every output mode takes at most 64 MiB plus 20 times the
//! input (issue 22), and a JSON record a small multiple of its text. The allocator counts the
//! whole process, so the tests take turns ([`LOCK`]).

mod hostile;

use peakmem_alloc::{INSTRUMENTED_SYSTEM, PeakMemAlloc, PeakMemAllocTrait};
use shaderscope::DisasmOptions;
use std::alloc::System;
use std::sync::Mutex;

#[global_allocator]
static HEAP: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Held by each test while it measures: the counter sees every thread.
static LOCK: Mutex<()> = Mutex::new(());

/// What `f` returns, and the most heap it held beyond what was held before.
fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    HEAP.reset_peak_memory();
    let r = f();
    (r, HEAP.get_peak_memory())
}

/// The goal for every command and output mode: 64 MiB plus 20 times the input.
fn bound(input: usize) -> usize {
    (64 << 20) + 20 * input
}

/// `view` of `file` as the CLI writes it, here to a writer that drops it: the page's length.
fn view(file: &dyn shaderscope::Container, data: &[u8]) -> usize {
    let mut out = Counted(0);
    let written = shaderscope::page::write_viewer(file, data, "a.bin", &DisasmOptions::default(), &mut out);
    assert!(written.io.is_ok());
    out.0
}

/// `disasm --html` of `file` as the CLI writes it (its section of the page), to a writer
/// that drops it: the section's length.
fn disasm_html(file: &dyn shaderscope::Container) -> usize {
    let mut out = Counted(0);
    let written = shaderscope::page::write_listing_file(&mut out, "a.bin", |p| {
        file.disasm(&DisasmOptions::default(), p)
    });
    assert!(written.io.is_ok());
    out.0
}

/// `info` of `file` as the CLI writes it, to a writer that drops it: the text's length.
fn info_text(file: &dyn shaderscope::Container) -> usize {
    let mut out = Counted(0);
    file.write_info_text(&mut out).unwrap();
    out.0
}

/// [`std::io::sink`] that counts what it drops.
#[derive(Default)]
struct Counted(usize);

impl std::fmt::Write for Counted {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Each output mode of `data`, its heap peak checked against [`bound`] (`view` and `dump`
/// included: what the CLI prints, built here as the CLI builds it).
fn assert_every_output_bounded(name: &str, data: &[u8]) {
    use shaderscope::Container;
    let opts = DisasmOptions::default();
    let file = shaderscope::parse(data).unwrap();
    let outputs: [(&str, &dyn Fn() -> usize); 7] = [
        ("info", &|| info_text(&file)),
        ("info --json", &|| file.info_record("a.bin").to_line().len()),
        ("disasm", &|| {
            let mut t = shaderscope::print::TextBuf::default();
            let _ = file.disasm(&opts, &mut t);
            t.into_string().len()
        }),
        ("disasm --json", &|| file.disasm_record("a.bin", &opts).to_line().len()),
        ("dump", &|| {
            let mut a = shaderscope::dump::Annotations::new();
            file.annotate(&mut a);
            let mut s = String::new();
            a.render(data, &mut s).unwrap();
            s.len()
        }),
        ("disasm --html", &|| disasm_html(&file)),
        ("view", &|| view(&file, data)),
    ];
    for (what, f) in outputs {
        let (len, peak) = peak_during(f);
        println!("{name} {what}: {peak} bytes of heap, {len} bytes of output, {} bytes of input", data.len());
        assert!(
            peak <= bound(data.len()),
            "{name} {what}: {peak} bytes of heap for {} bytes of input (bound {})",
            data.len(),
            bound(data.len())
        );
    }
}

/// The pages are written as they are produced, never held: a listing line as the listing
/// prints it, the viewer's annotations as the dump's rows come, its base64 a block at a time.
/// Held whole, the viewer's page took (heap, here) 113 MB for an 80 000-instruction vs_3_0
/// (960 KB, a 29 MB page), 169 MB for an MBS of 30 000 uniforms (1.3 MB, 37 MB), 101 MB for
/// a DVLB naming one DVLE 100 000 times (400 KB, 30 MB), 234 MB for a SHARCFB of 20 000
/// programs (2.6 MB, 47 MB); `disasm --html` held three times its listing (29 MB for the
/// vs_3_0's 9.7 MB). Now a listing page takes less heap than its length (the listing's own
/// tables: a few MiB at most) and the viewer's stays within [`bound`].
#[test]
fn pages_are_written_as_they_are_produced() {
    let _turn = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for (name, data) in hostile::large_files() {
        let file = shaderscope::parse(&data).unwrap();
        let (len, peak) = peak_during(|| view(&file, &data));
        println!("{name} view: {peak} bytes of heap, {len} bytes of page, {} bytes of input", data.len());
        assert!(
            peak <= bound(data.len()),
            "{name} view: {peak} bytes of heap for {} bytes of input (bound {})",
            data.len(),
            bound(data.len())
        );
        let (len, peak) = peak_during(|| disasm_html(&file));
        println!("{name} disasm --html: {peak} bytes of heap, {len} bytes of page");
        assert!(peak < len.max(4 << 20), "{name} disasm --html: {peak} bytes of heap for a {len}-byte page");
    }
}

/// RDEF struct types that share one member table: each type is read once and each table once
/// (`Type::members` is one `Arc` per table), and the listing and JSON spell out at most one
/// declaration per 8 bytes of the chunk (`Rdef::expansion_budget`). With a type budget of
/// 8 per record, 2 000 variables whose members are structs of 20 floats took 170 MB here.
#[test]
fn struct_types_sharing_member_tables_expand_within_the_bound() {
    let _turn = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for nested in [false, true] {
        let data = hostile::shared_struct_rdef(2_000, 20, nested);
        assert_every_output_bounded(if nested { "nested" } else { "flat" }, &data);
    }
}

/// The JSON records of a file whose table names one structure 100 000 times are written
/// straight from the format's own structs, never through a `serde_json::Value` tree (which
/// took 30 to 50 times the record's text: 1.5 GB for the 46 MB `info` record of a 4 MB
/// DVLB). The heap a record takes stays within a few times its text, which is itself within
/// 64 times the input (tests/bounds.rs).
#[test]
fn json_records_take_a_small_multiple_of_their_text() {
    let _turn = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let opts = DisasmOptions::default();
    let files = [("DVLB", hostile::repeated_dvle(100_000)), ("DXBC", hostile::repeated_chunk(100_000))];
    for (name, data) in files {
        let file = shaderscope::parse(&data).unwrap();
        let (info, info_peak) = peak_during(|| file.info_record("a.bin").to_line());
        let (disasm, disasm_peak) = peak_during(|| file.disasm_record("a.bin", &opts).to_line());
        for (what, line, peak) in [("info", info, info_peak), ("disasm", disasm, disasm_peak)] {
            println!("{name} {what} --json: {peak} bytes of heap for a {}-byte record", line.len());
            assert!(
                peak <= 4 * line.len() + 64 * data.len() + (1 << 20),
                "{name} {what} --json: {peak} bytes of heap for a {}-byte record ({} bytes of input)",
                line.len(),
                data.len()
            );
        }
    }
}

/// The record writers write `info --json` and `disasm --json` field by field as the format
/// serialises its summary, the listing is printed and the instructions are decoded: nothing
/// of a record is held whole. Each writer's heap peak (beyond the parsed file) stays within
/// [`bound`], and within 4 MiB plus 16 times the input, which a record of these inputs (11 to
/// 31 times the input, SHARCFB's 3 times) does not fit in once, let alone twice as it was
/// held before (its fields' text, then the line): `disasm --json` of 80 000 `mov` (a 10.8 MB
/// record, its instruction records ~300 bytes of heap each) took 66 MiB of RSS, now 26; of
/// a DVLB naming one DVLE 100 000 times (21 MB) 76, now 13; `info --json` of 20 000 RDEF
/// struct types (25 MB) 84, now 16. What remains is the file's own tables (a DVLB's 100 000
/// entries) and the summary a format builds before serialising it (MBS: its symbols).
#[test]
fn records_are_written_field_by_field_within_the_bound() {
    let _turn = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let opts = DisasmOptions::default();
    for (name, data) in hostile::large_files() {
        let file = shaderscope::parse(&data).unwrap();
        let mut info = Counted::default();
        let (_, info_peak) = peak_during(|| file.write_info_record("a.bin", &mut info).unwrap());
        let mut disasm = Counted::default();
        let (_, disasm_peak) = peak_during(|| file.write_disasm_record("a.bin", &opts, &mut disasm).unwrap());
        for (what, len, peak) in [("info", info.0, info_peak), ("disasm", disasm.0, disasm_peak)] {
            println!(
                "{name} {what} --json: {peak} bytes of heap for a {len}-byte record ({} bytes of input)",
                data.len()
            );
            let most = bound(data.len()).min((4 << 20) + 16 * data.len());
            assert!(
                peak <= most,
                "{name} {what} --json: {peak} bytes of heap for a {len}-byte record ({} bytes of input; at most {most})",
                data.len()
            );
        }
    }
}

/// `info` writes its text summary line by line as it is made: held whole, the text of a 4 MB
/// DVLB naming one DVLE 1 000 000 times (52 MB) took 149 MiB of RSS, of a 4 MB DXBC whose
/// index names one chunk 1 000 000 times 200 MiB. Beyond the parsed file, the summary now
/// takes less heap than its text (held whole, it would take at least that): the DVLB's a few
/// hundred bytes, the DXBC's its index entries' repeats (8 times the input).
#[test]
fn info_text_is_written_as_it_is_made() {
    let _turn = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for (name, data) in
        [("DVLB", hostile::repeated_dvle(1_000_000)), ("DXBC", hostile::repeated_chunk(1_000_000))]
    {
        let file = shaderscope::parse(&data).unwrap();
        let (len, peak) = peak_during(|| info_text(&file));
        println!("{name} info: {peak} bytes of heap for {len} bytes of text ({} bytes of input)", data.len());
        assert!(len > 10 * data.len(), "{name} info: {len} bytes of text");
        assert!(peak < len, "{name} info: {peak} bytes of heap for {len} bytes of text");
        assert!(
            peak <= bound(data.len()),
            "{name} info: {peak} bytes of heap for {} bytes of input",
            data.len()
        );
    }
}

/// `scan`'s Yaz0 streams decode to at most 16 times the buffer together (at least 32 MiB):
/// a 3 MB stream of copies stating 256 MiB decoded all of it (264 MiB of RSS); now it decodes
/// 48 MiB of it, searches that, and says so.
#[test]
fn yaz0_streams_decode_to_a_multiple_of_the_input() {
    let _turn = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let data = hostile::yaz0_copies(256 << 20);
    let (cuts, peak) = peak_during(|| shaderscope::find::each(&data, &mut |_, _| {}));
    println!("scan: {peak} bytes of heap for {} bytes of input", data.len());
    assert!(peak <= bound(data.len()), "scan: {peak} bytes of heap for {} bytes of input", data.len());
    let cap = shaderscope::find::decode_cap(data.len()) as u64;
    assert_eq!(cap, 16 * data.len() as u64);
    assert_eq!(
        cuts,
        vec![shaderscope::find::Cut { within: Vec::new(), offset: 0, size: 256 << 20, decoded: cap }]
    );
}

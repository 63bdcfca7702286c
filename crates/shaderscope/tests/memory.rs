//! Heap bounds of the JSON records on hostile inputs. One test in its own binary: the
//! allocator counts the whole process, so nothing may run beside it.

mod hostile;

use peakmem_alloc::{INSTRUMENTED_SYSTEM, PeakMemAlloc, PeakMemAllocTrait};
use shaderscope::DisasmOptions;
use std::alloc::System;

#[global_allocator]
static HEAP: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// What `f` returns, and the most heap it held beyond what was held before.
fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    HEAP.reset_peak_memory();
    let r = f();
    (r, HEAP.get_peak_memory())
}

/// The JSON records of a file whose table names one structure 100 000 times are written
/// straight from the format's own structs, never through a `serde_json::Value` tree (which
/// took 30 to 50 times the record's text: 1.5 GB for the 46 MB `info` record of a 4 MB
/// DVLB). The heap a record takes stays within a few times its text, which is itself within
/// 64 times the input (tests/bounds.rs).
#[test]
fn json_records_take_a_small_multiple_of_their_text() {
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

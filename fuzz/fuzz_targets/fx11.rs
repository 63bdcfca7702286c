#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderscope_fuzz::fx11(data));

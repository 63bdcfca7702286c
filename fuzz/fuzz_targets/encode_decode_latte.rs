#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderscope_fuzz::encode_decode_latte(data));

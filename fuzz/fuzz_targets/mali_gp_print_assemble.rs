#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| shaderscope_fuzz::mali_gp_print_assemble(data));

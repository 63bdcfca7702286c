//! The hashes modding tools key shaders by (`format::dxbc::hash`), against values public tools
//! printed for corpus files, and what the bytecode hash is for: it stays the same when the
//! chunks it leaves out are dropped.

mod common;

use shaderscope::Container;
use shaderscope::format::dxbc::hash::{self, BYTECODE_CHUNKS, Hashes};
use shaderscope::format::dxbc::{Frame, write::Builder};

/// (corpus path under `dxbc/`, 3Dmigoto hash, bytecode hash, stored checksum).
///
/// Printed by DarkStarSword/3d-fixes at commit cef49cbe6b324dc7a2041c1928f9b41678b3c61e:
/// `dx11shaderanalyse.py -v --3dmigoto-hash --bytecode-hash FILE` (`3DMigoto hash:`,
/// `Bytecode hash:`, `Embedded hash:`). For the DXIL container (ps_dummy), on whose OSG1
/// chunk that script stops, the bytecode hash is what `generic_shader_extractor.py
/// --hash bytecode` computes: the same script's `calc_chunk_bytecode_hash` over each chunk of
/// the index. The bytecode hash is printed here as 3Dmigoto names files by it; 0 means
/// 3Dmigoto falls back to the 3Dmigoto hash (`None`).
const DXBC: &[(&str, u64, Option<u32>, &str)] = &[
    (
        "microsoft__DirectXTK12/Src/Shaders/Compiled/BasicEffect_PSBasicNoFog.dxbc",
        0x1a2e_0f4c_5317_f2df,
        Some(0x6d73_22f9),
        "0ac9961841ba235ac47ed15f620cd6e3",
    ),
    (
        "tgjones__slimshader/src/SlimShader.VirtualMachine.Tests/Shaders/PS/Simple.o",
        0x4dfd_a8d7_e036_5304,
        Some(0x9b11_766f),
        "7cb8ff3598620f2e521d54c15dc1289a",
    ),
    (
        "HansKristian-Work__vkd3d-proton/tests/shaders/pso/headers/hs_topology_line.h.extracted/hs_topology_line_code_dxbc.dxbc",
        0x90d0_c417_36c0_e8ce,
        Some(0xe19d_dbe2),
        "6ef8650fd53d3f0933b30918d36b66c2",
    ),
    (
        "James-Jones__HLSLCrossCompiler/tests/gs5/instance.o",
        0x6e63_ef35_03ad_2ae8,
        Some(0xe15d_fb79),
        "ed31555f53271de62b7250117b14abc6",
    ),
    (
        "James-Jones__HLSLCrossCompiler/tests/vs5/precision.o",
        0x00fd_bab4_e739_f892,
        Some(0x966a_10e8),
        "b03f969f6b50e0e0c2f951b03b455658",
    ),
    (
        "James-Jones__HLSLCrossCompiler/tests/ps5/interfaces_multifunc.o",
        0x74b1_2939_0c00_fbc4,
        Some(0xc773_a670),
        "2566f87c13e08a98e239a6a2e6b8271c",
    ),
    (
        "HansKristian-Work__vkd3d-proton/tests/shaders/pso/headers/gs_topology_line.h.extracted/gs_topology_line_code_dxbc.dxbc",
        0x05d1_b4c0_75a9_ed0b,
        Some(0x0d2d_f2e8),
        "31f7252672ee727e1364d7b1c99f3c65",
    ),
    (
        "HansKristian-Work__vkd3d-proton/tests/shaders/mesh_shader/headers/ps_dummy.h.extracted/ps_dummy_code_dxil.dxbc",
        0xf620_5163_aa43_2d0e,
        Some(0x3a56_2e7d),
        "c1e33f992e2998bf88ee396418115fbc",
    ),
    (
        "emtee40__wine-vkd3d/tests/d3d12.c.extracted/test_root_signature_byte_code__deny_ps_rootsig.dxbc",
        0x655a_f7aa_9ed0_3610,
        None,
        "cea4d3fa6e2846f276e1a9ea37518d27",
    ),
];

/// (corpus path under `dxbc/`, 3Dmigoto hash) of standalone Direct3D 9 programs: 3d-fixes'
/// `extract_unity_shaders.fnv_3Dmigoto_shader` (same commit as above) over the program's words
/// up to and including the first `0x0000ffff`, the length 3Dmigoto's DX9 `CreateShader` counts
/// (bo3b/3Dmigoto 4ce5f2f72b2777223d2e809dcdafec514ac98295,
/// `DirectX9/Direct3DDevice9Functions.h`). No published D3D9 (binary, name) pair was found,
/// so the length rule here is read from that source, not checked against 3Dmigoto's output.
const D3D9: &[(&str, u64)] = &[
    ("James-Jones__HLSLCrossCompiler/tests/apps/shaders/LambertLitDX9PS.o", 0x87a7_d48f_505b_2ad9),
    ("James-Jones__HLSLCrossCompiler/tests/ps3/fxaa.o", 0x367f_6c06_45a2_39cd),
    ("James-Jones__HLSLCrossCompiler/tests/vs2/loop.o", 0x5588_1db1_fb66_84b2),
];

#[test]
fn corpus_files_hash_as_3d_fixes_prints_them() {
    let Some(corpus) = common::corpus_dir() else { return };
    let dir = corpus.join("dxbc");
    for &(path, migoto, bytecode, checksum) in DXBC {
        let bytes = std::fs::read(dir.join(path)).unwrap();
        let h = Hashes::of_dxbc(&bytes);
        assert_eq!((h.migoto, h.bytecode), (migoto, bytecode), "{path}");
        assert_eq!(
            h.checksum.map(|c| shaderscope::format::dxbc::checksum::hex(&c)).as_deref(),
            Some(checksum)
        );
        // `info --json` carries them as 3Dmigoto prints them.
        let info = shaderscope::parse(&bytes).unwrap().info_json().to_value();
        assert_eq!(info["hashes"]["3dmigoto"], format!("{migoto:016x}"), "{path}");
        assert_eq!(
            info["hashes"]["bytecode"].as_str(),
            bytecode.map(|b| format!("00000000{b:08x}")).as_deref()
        );
        assert_eq!(info["hashes"]["checksum"], checksum);
    }
    for &(path, migoto) in D3D9 {
        let bytes = std::fs::read(dir.join(path)).unwrap();
        assert_eq!(Hashes::of_d3d9(&bytes).map(|h| h.migoto), Some(migoto), "{path}");
        let info = shaderscope::parse(&bytes).unwrap().info_json().to_value();
        assert_eq!(info["hashes"], serde_json::json!({"3dmigoto": format!("{migoto:016x}")}), "{path}");
    }
    println!("{} DXBC containers and {} D3D9 programs hash as published", DXBC.len(), D3D9.len());
}

/// Every corpus container rebuilt from the chunks the bytecode hash covers alone (RDEF,
/// STAT, SFI0, Aon9, debug information dropped) keeps its bytecode hash; its 3Dmigoto hash
/// changes wherever a chunk was dropped.
#[test]
fn the_bytecode_hash_ignores_every_other_chunk() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut kept, mut stripped, mut without) = (0, 0, 0);
    for row in common::manifest(&corpus, "dxbc") {
        if common::kind_format(&row.kind) != Some("dxbc") {
            continue;
        }
        let bytes = std::fs::read(corpus.join("dxbc").join(&row.path)).unwrap();
        let frame = Frame::parse(&bytes).unwrap();
        let mut b = Builder::new();
        let mut dropped = false;
        for c in &frame.chunks {
            if BYTECODE_CHUNKS.contains(&&c.fourcc.0) {
                b.push(c.fourcc.0, c.data);
            } else {
                dropped = true;
            }
        }
        let bare = b.finish().unwrap();
        let (whole, only) = (Hashes::of_dxbc(&bytes), Hashes::of_dxbc(&bare));
        assert_eq!(whole.bytecode, only.bytecode, "{}", row.path);
        if dropped {
            assert_ne!(whole.migoto, only.migoto, "{}", row.path);
        }
        assert_eq!(whole.migoto, hash::fnv0_64(&bytes));
        match whole.bytecode {
            None => without += 1,
            Some(_) if dropped => stripped += 1,
            Some(_) => kept += 1,
        }
    }
    println!(
        "bytecode hash: {stripped} containers with other chunks keep it without them, {kept} have no other chunk, {without} have none"
    );
    assert!(stripped > 500 && kept > 500 && without > 0, "{stripped} {kept} {without}");
}

"""The package's own behaviour on the repository's samples (no corpus needed): errors as the
CLI words them, switches that do not apply, assemble round trips, threads, and files that
outlive the bytes they were made from."""

import gc
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import shaderscope

from conftest import SAMPLES, run

SAMPLE_FILES = sorted(p for p in SAMPLES.iterdir() if p.suffix not in (".pica", ".asm"))


def test_version_is_the_workspace_version():
    cargo = (SAMPLES.parent / "Cargo.toml").read_text()
    assert f'version = "{shaderscope.__version__}"' in cargo
    assert issubclass(shaderscope.Error, ValueError)


def test_every_sample_answers_as_the_cli(cli):
    for path in SAMPLE_FILES:
        f = shaderscope.open(path)
        assert f.name == str(path)
        assert f.info() == run(cli, "info", path).stdout.decode()
        want = json.loads(run(cli, "info", "--json", path).stdout)
        assert f.format == want["format"]
        del want["path"]
        assert f.info_json() == want
        assert f.disasm() == run(cli, "disasm", path).stdout.decode()
        assert f.dump() == run(cli, "dump", path).stdout.decode()
        records = [json.loads(line) for line in run(cli, "disasm", "--json", path).stdout.splitlines()]
        assert f.instructions() == [i for p in records[0]["programs"] for i in p["instructions"]]
        # A SHARCFB's binaries give no instruction records in the library's JSON (yet).
        assert f.instructions() or f.format == "sharcfb", path


def test_switches_are_the_cli_switches(cli):
    dxbc = SAMPLES / "ps_color.dxbc"
    f = shaderscope.open(dxbc)
    for kw, args in [
        ({"offsets": True}, ["--offsets"]),
        ({"file_offsets": True, "raw": True}, ["--file-offsets", "--raw"]),
        ({"fxc": "9.30", "numbering": True}, ["--fxc", "9.30", "--numbering"]),
        ({"hex_literals": True, "no_header": True}, ["--hex-literals", "--no-header"]),
        ({"exact_floats": True, "instruction_only": True}, ["--exact-floats", "--instruction-only"]),
    ]:
        assert f.disasm(**kw) == run(cli, "disasm", *args, dxbc).stdout.decode(), kw
    shbin = SAMPLES / "vshader.shbin"
    assert shaderscope.open(shbin).disasm(dvle=0) == run(cli, "disasm", "--dvle", "0", shbin).stdout.decode()


def test_a_switch_that_does_not_apply_is_a_value_error_worded_as_the_cli_says_it(cli):
    shbin = SAMPLES / "vshader.shbin"
    f = shaderscope.open(shbin)
    for kw, args in [({"numbering": True}, ["--numbering"]), ({"dvle": 5}, ["--dvle", "5"]), ({"fxc": "10"}, ["--fxc", "10"])]:
        r = run(cli, "disasm", *args, shbin)
        assert r.returncode == 2
        with pytest.raises(ValueError) as e:
            f.disasm(**kw)
        assert not isinstance(e.value, shaderscope.Error)
        assert r.stderr.decode() == f"error: {shbin}: {e.value}\n"
    with pytest.raises(ValueError):
        f.instructions(numbering=True)
    with pytest.raises(ValueError, match="none of"):
        shaderscope.open(SAMPLES / "ps_color.dxbc").disasm(fxc="11")
    with pytest.raises(TypeError):
        f.disasm(colour=True)


def test_parts_and_part_bytes_are_extracts(cli, tmp_path):
    path = SAMPLES / "shaders.sharcfb"
    f = shaderscope.open(path)
    listed = run(cli, "extract", path).stdout.decode().splitlines()[1:]
    assert [line.split()[0] for line in listed] == f.parts()
    for name in f.parts():
        out = tmp_path / "part"
        assert run(cli, "extract", path, name, "-o", out).returncode == 0
        assert f.part(name) == out.read_bytes()
    r = run(cli, "extract", path, "nothing", "-o", tmp_path / "x")
    with pytest.raises(ValueError) as e:
        f.part("nothing")
    assert r.stderr.decode() == f"error: {path}: {e.value}\n"


def test_hashes_are_the_ones_info_shows():
    f = shaderscope.open(SAMPLES / "ps_color.dxbc")
    assert f.hashes == f.info_json()["hashes"]
    assert f.hashes["3dmigoto"] in f.info()
    assert set(f.hashes) == {"3dmigoto", "bytecode", "checksum"}
    assert shaderscope.open(SAMPLES / "vshader.shbin").hashes is None


def test_errors_carry_the_cli_message_and_the_offset(cli, tmp_path):
    data = (SAMPLES / "ps_color.dxbc").read_bytes()
    for cut in (b"DXBC", data[:100], b"hello, world"):
        path = tmp_path / "cut.dxbc"
        path.write_bytes(cut)
        with pytest.raises(shaderscope.Error) as e:
            shaderscope.parse(cut)
        with pytest.raises(shaderscope.Error) as from_file:
            shaderscope.open(path)
        assert (str(from_file.value), from_file.value.offset) == (str(e.value), e.value.offset)
        assert run(cli, "info", path).stderr.decode().startswith(f"error: {path}: {e.value}\n")
        record = json.loads(run(cli, "info", "--json", path).stdout)
        assert record["error"]["message"] == str(e.value)
        assert e.value.offset == record["error"].get("offset")
    assert shaderscope.Error("x").args == ("x",)


def test_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        shaderscope.open(tmp_path / "nothing.dxbc")
    with pytest.raises(OSError):
        shaderscope.open(tmp_path)


def test_assemble_round_trips_a_listing_with_like(cli):
    for name, kw in [("ps_color.dxbc", {"exact_floats": True}), ("vshader.shbin", {}), ("shader.gsh", {}), ("vertex.mbs", {})]:
        data = (SAMPLES / name).read_bytes()
        listing = shaderscope.parse(data).disasm(**kw)
        assert shaderscope.assemble(listing, like=data) == data, name
    # Without an original: the whole DXBC container the CLI writes.
    listing = shaderscope.open(SAMPLES / "ps_color.dxbc").disasm(exact_floats=True)
    made = run(cli, "asm", "-", "-o", "-", input=listing.encode())
    assert made.returncode == 0
    assert shaderscope.assemble(listing) == made.stdout


def test_assemble_a_bare_program(cli, tmp_path):
    f = shaderscope.open(SAMPLES / "ps_color.dxbc")
    shdr = f.part("SHDR")
    (tmp_path / "shdr.bin").write_bytes(shdr)
    listing = run(cli, "disasm", "--format", "sm4", tmp_path / "shdr.bin").stdout.decode()
    assert shaderscope.assemble(listing, format="sm4") == shdr
    with pytest.raises(ValueError, match="none of"):
        shaderscope.assemble(listing, format="sm6")


def test_assembler_errors_are_the_cli_messages(cli, tmp_path):
    text = "ps_4_0\nmov o0.xyzw, l(1.0, 2.0)\n"
    path = tmp_path / "bad.asm"
    path.write_text(text)
    r = run(cli, "asm", path, "-o", tmp_path / "out")
    assert r.returncode == 1
    with pytest.raises(shaderscope.Error) as e:
        shaderscope.assemble(text)
    assert str(e.value) == "line 2, column 25: expected one or four values"
    assert r.stderr.decode() == f"error: {path}: {e.value}\n"
    assert e.value.offset is None
    # A Wii U listing needs its original: the CLI's usage error (status 2).
    listing = shaderscope.open(SAMPLES / "shader.gsh").disasm()
    (tmp_path / "gsh.txt").write_text(listing)
    r = run(cli, "asm", tmp_path / "gsh.txt", "-o", tmp_path / "out")
    assert r.returncode == 2
    with pytest.raises(ValueError) as e:
        shaderscope.assemble(listing)
    assert not isinstance(e.value, shaderscope.Error)
    assert r.stderr.decode() == f"error: {tmp_path / 'gsh.txt'}: {e.value}\n"


def test_scan_gives_the_cli_records(cli):
    want = [json.loads(line) for line in run(cli, "scan", "--json", SAMPLES).stdout.splitlines()]
    got = shaderscope.scan(SAMPLES)
    assert iter(got) is got
    assert list(got) == want
    assert want[-1]["type"] == "scan-summary"
    assert list(got) == []


def test_a_file_keeps_working_after_its_bytes_are_gone():
    data = bytearray((SAMPLES / "vshader.shbin").read_bytes())
    f = shaderscope.parse(data, name="v")
    want = (f.info(), f.disasm(), f.dump(), f.parts())
    # The bytes it was made from are changed, then deleted: the File has its own.
    data[:] = bytes(len(data))
    del data
    gc.collect()
    assert (f.info(), f.disasm(), f.dump(), f.parts()) == want
    assert f.name == "v"
    blob = bytes((SAMPLES / "ps_color.dxbc").read_bytes())
    g = shaderscope.parse(blob)
    listing = g.disasm()
    del blob
    gc.collect()
    assert g.disasm() == listing and g.data[:4] == b"DXBC"


def test_threads_parse_and_list_at_once():
    datas = [p.read_bytes() for p in SAMPLE_FILES]
    alone = [(shaderscope.parse(d).disasm(), shaderscope.parse(d).parts()) for d in datas]
    shared = [shaderscope.parse(d) for d in datas]

    def work(i):
        d = datas[i % len(datas)]
        f = shaderscope.parse(d) if i % 2 else shared[i % len(datas)]
        return i % len(datas), (f.disasm(), f.parts())

    with ThreadPoolExecutor(max_workers=8) as p:
        for i, answer in p.map(work, range(200)):
            assert answer == alone[i]


def test_the_interpreter_lock_is_released_while_listing():
    """With a switch interval too long to matter, a thread that held the interpreter lock
    through its calls would starve this one until it finished: this thread runs only because
    the listing releases the lock."""
    f = shaderscope.open(SAMPLES / "shaders.sharcfb")
    done = threading.Event()

    def work():
        for _ in range(300):
            f.disasm()
            f.dump()
        done.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        t = threading.Thread(target=work)
        t.start()
        ran = 0
        while not done.is_set():
            ran += 1
            time.sleep(0.0001)
        t.join()
    finally:
        sys.setswitchinterval(interval)
    assert ran >= 20


def test_dxbc_chunks_and_signatures_are_objects():
    f = shaderscope.open(SAMPLES / "ps_color.dxbc")
    assert [c.fourcc for c in f.chunks] == ["ISGN", "OSGN", "SHDR"] == f.parts()
    shdr = f.chunks[2]
    assert (shdr.offset, shdr.data_offset, shdr.size) == (0x90, 0x98, 56)
    assert shdr.data == f.part("SHDR")
    (color,) = f.input_signature
    (target,) = f.output_signature
    assert (color.semantic_name, color.semantic_index, color.register, color.mask) == ("COLOR", 0, 0, 0xF)
    assert (target.semantic_name, target.system_value, target.component_type) == ("SV_Target", "TARGET", "float")
    assert f.patch_constant_signature is None
    assert repr(color) == "<shaderscope.SignatureElement semantic_name='COLOR' register=0>"
    assert color.to_dict() == f.info_json()["input_signature"]["elements"][0]
    shbin = shaderscope.open(SAMPLES / "vshader.shbin")
    assert (shbin.chunks, shbin.input_signature) == (None, None)


def test_a_sharcfb_variation_is_the_cli_s_variant_extract_and_asm(cli, tmp_path):
    path = SAMPLES / "shaders.sharcfb"
    f = shaderscope.open(path)
    for settings, args in [(None, []), ({"TINT": "off"}, ["--set", "TINT=off"]), ({"tint": "on"}, ["--set", "tint=on"])]:
        want = json.loads(run(cli, "variant", path, "color", "--json", *args).stdout)
        del want["path"]
        assert f.variant("color", settings) == want
        out = tmp_path / "v.gsh"
        assert run(cli, "extract", path, "color", *args, "-o", out).returncode == 0
        assert f.part("color", settings) == out.read_bytes()
    assert f.variant("color", variation=0) == f.variant("color", {"TINT": "off"})
    with pytest.raises(ValueError, match='program "color" has 2 variations, no variation 2'):
        f.variant("color", variation=2)
    r = run(cli, "variant", path, "colour")
    with pytest.raises(ValueError) as e:
        f.variant("colour")
    assert r.stderr.decode() == f"error: {path}: {e.value}\n"
    # A listing of one variation's bare shaders goes back into that variation (asm --set).
    listing = shaderscope.parse(f.part("color", {"TINT": "on"})).disasm()
    edited = listing.replace("PIX0, R0.xyzw", "PIX0, R1.xyzw")
    assert edited != listing
    (tmp_path / "v.txt").write_text(edited)
    made = run(cli, "asm", tmp_path / "v.txt", "--like", path, "--program", "color", "--set", "TINT=on", "-o", "-")
    assert made.returncode == 0 and made.stdout != f.data
    assert shaderscope.assemble(edited, like=f.data, program="color", settings={"TINT": "on"}) == made.stdout
    assert shaderscope.assemble(listing, like=f.data, settings={"TINT": "on"}) == f.data


def test_dump_of_bytes_that_do_not_parse_is_the_cli_s(cli, tmp_path):
    data = (SAMPLES / "ps_color.dxbc").read_bytes()[:100]
    path = tmp_path / "cut.dxbc"
    path.write_bytes(data)
    with pytest.raises(shaderscope.Error):
        shaderscope.parse(data)
    assert shaderscope.dump(data) == run(cli, "dump", path).stdout.decode()
    assert shaderscope.dump(bytearray(data)) == shaderscope.dump(data)
    r = run(cli, "dump", SAMPLES / "vshader.v.pica")
    with pytest.raises(ValueError) as e:
        shaderscope.dump((SAMPLES / "vshader.v.pica").read_bytes())
    assert f"{e.value}" in r.stderr.decode()


def test_a_pica_program_assembles_with_its_operand_descriptors(cli, tmp_path):
    text = (SAMPLES / "vshader.v.pica").read_text()
    (tmp_path / "vs.pica").write_text(text)
    r = run(cli, "asm", "--format", "pica", tmp_path / "vs.pica", "-o", tmp_path / "code", "--opdesc", tmp_path / "op")
    assert r.returncode == 0, r.stderr
    code, opdescs = shaderscope.assemble(text, format="pica", opdescs=True)
    assert (code, opdescs) == ((tmp_path / "code").read_bytes(), (tmp_path / "op").read_bytes())
    assert shaderscope.assemble(text, format="pica") == code
    with pytest.raises(ValueError, match="opdescs applies only"):
        shaderscope.assemble(text, format="latte", opdescs=True)


def test_scan_takes_the_cli_s_walk_options(cli, tmp_path):
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    for name in ("ps_color.dxbc", "vshader.shbin"):
        (tmp_path / name).write_bytes((SAMPLES / name).read_bytes())
        (nested / name).write_bytes((SAMPLES / name).read_bytes())
    for kw, args in [
        ({"glob": "*.dxbc"}, ["--glob", "*.dxbc"]),
        ({"glob": ["*", "!*.dxbc"]}, ["--glob", "*", "--glob", "!*.dxbc"]),
        ({"max_depth": 1}, ["--max-depth", "1"]),
        ({"glob": "a/**/*.shbin", "follow": True}, ["--glob", "a/**/*.shbin", "--follow"]),
    ]:
        want = [json.loads(line) for line in run(cli, "scan", "--json", *args, tmp_path).stdout.splitlines()]
        got = list(shaderscope.scan(tmp_path, **kw))
        assert got == want, kw
        assert len(got) > 1
    with pytest.raises(ValueError, match="glob"):
        shaderscope.scan(tmp_path, glob="a[")
    with pytest.raises(OSError):
        shaderscope.scan(tmp_path / "nothing")

"""The model objects (File.bindings, dvles, shaders, programs, symbols, ...) over the corpus,
each checked against an answer made another way: fxc's own "Resource Bindings" tables, the
listings' declarations and headings, `extract`'s parts."""

import re

import pytest
import shaderscope

from conftest import SAMPLES, corpus_path, required

if not corpus_path().is_dir() and not required():
    pytest.skip("skipped: corpus not found", allow_module_level=True)


def of_format(corpus_files, *formats):
    for path in corpus_files:
        try:
            f = shaderscope.open(path)
        except shaderscope.Error:
            continue
        if f.format in formats:
            yield path, f


def fxc_bindings(asm_text):
    """The rows of fxc's "Resource Bindings" table: (name, bind, count), where bind is the
    HLSL Bind column (`t0`, `cb1,space2`) or the Slot column of fxc 9.x, as printed."""
    lines = asm_text.splitlines()
    try:
        at = lines.index("// Resource Bindings:")
    except ValueError:
        return None
    header, dashes = lines[at + 2], lines[at + 3]
    columns = len(dashes[3:].split())
    rows = []
    for line in lines[at + 4 :]:
        if line.strip() == "//":
            break
        tokens = line[3:].split()
        # The name may be wider than its column; the other columns hold no spaces.
        name = " ".join(tokens[: len(tokens) - columns + 1])
        rows.append((name, tokens[-2], tokens[-1]))
    return rows, "HLSL Bind" in header


def test_dxbc_bindings_are_fxc_s_resource_bindings(corpus_files):
    checked = 0
    for path, f in of_format(corpus_files, "dxbc"):
        # fxc's listing beside the binary: X.asm or X.fxc.asm.
        asm = [a for a in (path.with_suffix(".asm"), path.with_suffix(".fxc.asm")) if a.is_file()]
        table = fxc_bindings(asm[0].read_text(errors="replace")) if asm else None
        if table is None:
            continue
        rows, hlsl_bind = table
        got = []
        for b in f.bindings:
            count = "unbounded" if b.bind_count == 0 else str(b.bind_count)
            if hlsl_bind:
                bind = b.register + (f",space{b.space}" if b.space else "")
            else:
                bind = str(b.bind_point)
            got.append((b.name, bind, count))
        assert got == rows, path
        checked += len(rows)
    assert checked > 500


def test_dxbc_chunks_hold_the_bytes_extract_writes(corpus_files):
    checked = 0
    for path, f in of_format(corpus_files, "dxbc"):
        chunks = f.chunks
        assert [c.index for c in chunks] == list(range(len(chunks)))
        for c in chunks:
            if c.fourcc in f.parts():
                assert c.data == f.part(c.fourcc), (path, c.fourcc)
                checked += 1
        for kind in ("input", "output", "patch_constant"):
            elements = getattr(f, f"{kind}_signature")
            assert (elements is None) == (f.info_json().get(f"{kind}_signature") is None)
    assert checked > 2000


def declarations(listing, directive):
    return [line.split(";")[0].split() for line in listing.splitlines() if line.startswith(directive + " ")]


def ident(name):
    return re.sub(r"[^A-Za-z0-9_]", "$", name)


def test_shbin_dvles_are_the_listing_s_declarations(corpus_files):
    """Each DVLE's inputs, outputs and uniforms are the `.in`, `.out` and uniform lines of its
    picasso source (`disasm(dvle=i)`)."""
    checked = 0
    for path, f in of_format(corpus_files, "shbin"):
        for i, d in enumerate(f.dvles):
            listing = f.disasm(dvle=i)
            # The listing spells a name's dots and other non-identifier bytes as `$`.
            assert [(ident(u.name), u.registers) for u in d.inputs] == [(t[1], t[2]) for t in declarations(listing, ".in")]
            outs = sorted((t[-2], t[-1].split(".")[0]) for t in declarations(listing, ".out"))
            assert sorted((o.semantic, o.register) for o in d.outputs) == outs, (path, i)
            named = {t[1].split("[")[0] for k in (".fvec", ".ivec", ".bool") for t in declarations(listing, k)}
            assert {ident(u.name) for u in d.uniforms if not u.registers.startswith("v")} <= named, (path, i)
            checked += 1
    assert checked > 50


def test_gfd_shaders_are_the_listing_s_summaries(corpus_files):
    checked = 0
    for path, f in of_format(corpus_files, "gfd"):
        # A program block without its header block has no struct (`VS (no header block)`).
        summaries = [line for line in f.disasm().splitlines() if re.match(r"^(VS|PS|GS) [^(]", line)]
        assert [s.gx2.summary for s in f.shaders if s.gx2 is not None] == summaries, path
        checked += len(summaries)
    assert checked > 300


def sharcfb_files(corpus_files):
    yield from of_format(corpus_files, "sharcfb")
    yield SAMPLES / "shaders.sharcfb", shaderscope.open(SAMPLES / "shaders.sharcfb")


def test_sharcfb_variations_use_the_binaries_whose_owners_they_are(corpus_files):
    """A variation's binaries (resolved from its settings) are the binaries whose `used_by`
    names it (found by a sweep over the binaries), and the listing's heading of each binary
    names the variation's settings."""
    checked = 0
    for path, f in sharcfb_files(corpus_files):
        headings = [line for line in f.disasm().splitlines() if line.startswith("; binary ")]
        for p in f.programs:
            for v in p.variations:
                owned = sorted(
                    (b.index, u.stage)
                    for b in f.binaries
                    for u in b.used_by
                    if (u.program, u.variation) == (p.name, v.index)
                )
                assert sorted((b.index, b.stage) for b in v.binaries) == owned, (path, p.name, v.index)
                settings = " ".join(f"{k}={x}" for k, x in v.values().items()) or "no macros"
                for b in v.binaries:
                    assert f'; binary {b.index}: {b.type} of program "{p.name}" variation {v.index} ({settings})' in headings
                checked += 1
    assert checked >= 5


def test_a_sharcfb_variation_says_which_symbols_it_uses():
    f = shaderscope.open(SAMPLES / "shaders.sharcfb")
    (p,) = f.programs
    assert [m.name for m in p.macros] == ["TINT"]
    off, on = p.variations
    assert (off.values(), on.values()) == ({"TINT": "off"}, {"TINT": "on"})
    assert p.variation({"TINT": "on"}) == on
    assert [s.name for s in p.symbols.uniform_vars] == ["uProjection", "uColor", "uTint"]
    assert (off.uses("uTint"), on.uses("uTint"), off.uses("uColor")) == (False, True, True)
    with pytest.raises(IndexError):
        p.variations[2]
    with pytest.raises(ValueError, match='macro "TINT" has no value "blue"'):
        p.variation({"TINT": "blue"})


def test_mbs_symbols_are_the_listing_s_symbol_lines(corpus_files):
    """The symbol tree, flattened in table order, names the symbols the listing's header
    comments list under each table heading (`; uniforms (SUNI): ...`, `;  [i] ... NAME (`)."""
    checked = 0
    for path, f in of_format(corpus_files, "mbs"):
        listed, table = [], None
        for line in f.disasm().splitlines():
            m = re.match(r"^; \w+ \((S[A-Z]{3})\):", line)
            if m:
                table = m.group(1)
            m = re.match(r"^;\s+\[(\d+)\] .* (\S+) \(type ", line)
            if m and table:
                listed.append((table, int(m.group(1)), m.group(2)))
        flat, todo = [], list(f.symbols)
        while todo:
            s = todo.pop()
            flat.append((s.table, s.index, s.name))
            todo += s.children
        assert sorted(flat) == sorted(listed), path
        checked += len(flat)
    assert checked > 50

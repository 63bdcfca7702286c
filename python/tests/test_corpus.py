"""Over the corpus, every answer of the package equals the CLI's on the same file, byte for
byte: the CLI runs on batches of files (its multi-file output split at its `== PATH` and
`// PATH` headings, its JSON records by their `path`) in a thread pool, while the package
answers the same files in the same threads (it releases the interpreter lock)."""

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import shaderscope

from conftest import NOTES, corpus_path, required, run

# Without the corpus the whole module is skipped once, with one reason (CI, which sets
# SHADERSCOPE_REQUIRE_CORPUS, fails instead: the `corpus` fixture says where it looked).
if not corpus_path().is_dir() and not required():
    pytest.skip("skipped: corpus not found", allow_module_level=True)

# Files per CLI run of the multi-file commands.
BATCH = 48
# The one-file commands (`dump`, `extract NAME`) cost a debug CLI process per file; they run
# on every file (about a minute of the suite's minute and a half on two cores), or with
# SHADERSCOPE_PY_EVERY=k on every k-th file of the manifests' order.
EVERY = int(os.environ.get("SHADERSCOPE_PY_EVERY", "1"))


def pool():
    return ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2))


def batches(files):
    return [files[i : i + BATCH] for i in range(0, len(files), BATCH)]


def opened(path):
    """The package's File, or the Error it raised."""
    try:
        return shaderscope.open(path)
    except shaderscope.Error as e:
        return e


def sections(text, paths, heading):
    """A multi-file output split at each file's heading line (`heading.format(path)`): the
    text after each heading, for each file that has one (a file that does not parse has none)."""
    found = []
    for p in paths:
        h = heading.format(p)
        at = 0 if text.startswith(h) else text.find("\n" + h)
        if at < 0:
            continue
        start = at + (0 if at == 0 else 1)
        found.append((p, start, start + len(h)))
    out = {}
    for i, (p, _, body) in enumerate(found):
        end = found[i + 1][1] if i + 1 < len(found) else len(text)
        out[p] = text[body:end]
    return out


def refused_alike(f, path, stderr):
    """A file the package refuses is one the CLI refuses with the same message."""
    line = f"error: {path}: {f}\n"
    return None if line in stderr else f"{path}: the package says {f!r}, the CLI: {stderr[-300:]!r}"


def compare_batches(files, work):
    started = time.monotonic()
    with pool() as p:
        problems = [x for found in p.map(work, batches(files)) for x in found]
    return problems, time.monotonic() - started


def note(what, files, seconds, every=1):
    spread = f", every {every}th file" if every > 1 else ""
    NOTES.append(f"{what}: {len(files)} files{spread}, {seconds:.1f} s")


def text_sections(heading):
    """A multi-file text output's sections, by path (`== PATH`, `// PATH` headings)."""
    return lambda out, paths: {str(p): t for p, t in sections(out, paths, heading).items()}


def json_records(several):
    """JSON Lines by their `path` (removed): one record per file, or a list (`several`)."""

    def split(out, paths):
        records = {}
        for line in out.splitlines():
            rec = json.loads(line)
            path = rec.pop("path")
            if several:
                records.setdefault(path, []).append(rec)
            else:
                records[path] = rec
        return records

    return split


def refused_in_text(e, path, theirs, err):
    """A refusal the CLI says on stderr after `error: PATH: `."""
    return [x for x in [refused_alike(e, path, err)] if x]


def refused_in_record(e, path, theirs, err):
    """A refusal the CLI writes as its record's `error` (message and offset)."""
    said = (theirs or {}).get("error", {})
    if (said.get("message"), said.get("offset")) != (str(e), e.offset):
        return [f"{path}: the package says {e!r} at {e.offset}, the CLI {said}"]
    return []


def refused_with_listing(e, path, theirs, err):
    """A listing that fails: the CLI prints what it listed before the failure, then the same
    message; the Error's `listing` holds the same text."""
    problems = refused_in_text(e, path, theirs, err)
    if (theirs or "") != e.listing:
        problems.append(f"{path}: the listing before the failure differs")
    return problems


# The answers the CLI gives for many files in one run, and the package for one File: the
# command, how its output splits by file, the package's answer, and how a refusal (a file
# that does not parse, a listing that fails) is compared (None: said by another answer).
ANSWERS = {
    "info": (["info"], text_sections("== {}\n"), lambda f: f.info() + "\n", refused_in_text, refused_in_text),
    "info --json": (["info", "--json"], json_records(False), lambda f: f.info_json(), refused_in_record, None),
    "validate --json": (["validate", "--json"], json_records(True), lambda f: f.validate(), None, None),
    "disasm": (["disasm"], text_sections("// {}\n"), lambda f: f.disasm(), None, refused_with_listing),
}


@pytest.mark.parametrize("what", list(ANSWERS))
def test_answers_equal_the_cli(cli, corpus_files, what):
    args, split, answer, unparsed, failed = ANSWERS[what]

    def work(paths):
        r = run(cli, *args, *paths)
        out, err = r.stdout.decode(), r.stderr.decode()
        got = split(out, paths)
        problems = []
        for path in paths:
            theirs = got.get(str(path))
            f = opened(path)
            if isinstance(f, Exception):
                problems += unparsed(f, path, theirs, err) if unparsed else []
                continue
            try:
                mine = answer(f)
            except shaderscope.Error as e:
                problems += failed(e, path, theirs, err) if failed else [f"{path}: {what}: {e}"]
                continue
            if theirs != mine:
                problems.append(f"{path}: {what} differs")
        return problems

    problems, s = compare_batches(corpus_files, work)
    note(what, corpus_files, s)
    assert problems == []


def test_parts_equal_what_extract_lists(cli, corpus_files):
    def work(path):
        f = opened(path)
        if isinstance(f, Exception):
            return []
        lines = run(cli, "extract", path).stdout.decode().splitlines()[1:]
        names = f.parts()
        if len(lines) != len(names) or any(
            not line.startswith(f"{n:<18} ") for n, line in zip(names, lines)
        ):
            return [f"{path}: parts {names} differ from extract's list {lines}"]
        return []

    started = time.monotonic()
    with pool() as p:
        problems = [x for found in p.map(work, corpus_files) for x in found]
    note("parts (extract)", corpus_files, time.monotonic() - started)
    assert problems == []


def test_dump_and_part_bytes_equal_the_cli(cli, corpus_files, tmp_path):
    spread = corpus_files[::EVERY]

    def work(i_path):
        i, path = i_path
        f = opened(path)
        if isinstance(f, Exception):
            return []
        problems = []
        r = run(cli, "dump", path)
        if r.stdout.decode() != f.dump():
            problems.append(f"{path}: dump differs")
        # One part of each file, a different one file by file.
        names = f.parts()
        if names:
            name = names[i % len(names)]
            out = tmp_path / f"part{i}"
            r = run(cli, "extract", path, name, "-o", out)
            try:
                mine = f.part(name)
            except shaderscope.Error as e:
                problems += filter(None, [refused_alike(e, path, r.stderr.decode())])
            else:
                theirs = out.read_bytes() if out.is_file() else None
                if theirs != mine:
                    problems.append(f"{path}: part {name} differs")
        return problems

    started = time.monotonic()
    with pool() as p:
        problems = [x for found in p.map(work, enumerate(spread)) for x in found]
    note("dump, part", spread, time.monotonic() - started, EVERY)
    assert problems == []


@pytest.mark.parametrize("folder", ["shbin", "mbs"])
def test_scan_equals_the_cli(cli, corpus, folder):
    root = str(corpus / folder)
    want = [json.loads(line) for line in run(cli, "scan", "--json", root).stdout.decode().splitlines()]
    assert len(want) > 1
    assert list(shaderscope.scan(root)) == want

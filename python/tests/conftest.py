"""Shared fixtures: the corpus (env SHADERSCOPE_CORPUS, default ../shared/corpus beside the
repository; skipped with one reason where it is absent, failed when SHADERSCOPE_REQUIRE_CORPUS
is set, as CI sets it) and the command-line binary whose answers the package must give (env
SHADERSCOPE_CLI, default target/debug/shaderscope, which `cargo test --workspace` builds)."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"

# The manifest kinds that are shader binaries (crates/shaderscope/tests/common/mod.rs,
# `kind_format`); sources, listings and headers are left out.
BINARY_KINDS = {
    "dxbc-binary",
    "dxil-container",
    "dxbc-container-noshader",
    "d3dbc-binary",
    "gsh",
    "sharc",
    "sharcfb",
    "mbs",
    "shbin",
}


def required() -> bool:
    v = os.environ.get("SHADERSCOPE_REQUIRE_CORPUS", "")
    return v not in ("", "0")


def corpus_path() -> Path:
    v = os.environ.get("SHADERSCOPE_CORPUS")
    if v:
        return Path(v).resolve()
    return (REPO / ".." / "shared" / "corpus").resolve()


@pytest.fixture(scope="session")
def corpus() -> Path:
    p = corpus_path()
    if not p.is_dir():
        if required():
            pytest.fail(f"corpus not found at {p} and SHADERSCOPE_REQUIRE_CORPUS is set")
        pytest.skip("skipped: corpus not found")
    return p


@pytest.fixture(scope="session")
def corpus_files(corpus: Path) -> list:
    """Every shader binary the four manifests list, in manifest order folder by folder."""
    files = []
    for folder in ("dxbc", "shbin", "gx2", "mbs"):
        manifest = corpus / folder / "MANIFEST.tsv"
        lines = manifest.read_text(encoding="utf-8").splitlines()
        header = lines[0].split("\t")
        kind = header.index("kind")
        for line in lines[1:]:
            cols = line.split("\t")
            if len(cols) > kind and cols[kind] in BINARY_KINDS:
                files.append(corpus / folder / cols[0])
    assert files, "the corpus manifests list no shader binary"
    return files


@pytest.fixture(scope="session")
def cli() -> Path:
    v = os.environ.get("SHADERSCOPE_CLI")
    p = Path(v) if v else REPO / "target" / "debug" / "shaderscope"
    if not p.is_file():
        if required():
            pytest.fail(f"the shaderscope CLI is not built at {p} (cargo build, or set SHADERSCOPE_CLI)")
        pytest.skip("skipped: the shaderscope CLI is not built (cargo build, or set SHADERSCOPE_CLI)")
    return p


def run(cli: Path, *args, input: bytes = None) -> subprocess.CompletedProcess:
    """The CLI's stdout and stderr (bytes) and status; NO_COLOR so no listing is coloured."""
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([str(cli), *map(str, args)], capture_output=True, input=input, env=env)


# What the corpus tests measured (files compared, the spread, the time), said once at the end
# of the run whatever pytest's verbosity.
NOTES = []


def pytest_terminal_summary(terminalreporter):
    if NOTES:
        terminalreporter.section("shaderscope corpus comparison")
        for line in NOTES:
            terminalreporter.write_line(line)

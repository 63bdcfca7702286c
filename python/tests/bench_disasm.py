"""`File.disasm()` throughput over each corpus folder's shader binaries (bytes of files listed
per second, the best and the median of 60 rounds), to set beside the Rust figures of the same listings,
`cargo bench -p shaderscope --bench facade` (group facade-disasm). Run it with the package
built in release (`pip install .` or `maturin develop --release`):
`python python/tests/bench_disasm.py`. Not a test: pytest does not collect it."""

import sys
import time

import shaderscope

from conftest import BINARY_KINDS, corpus_path

ROUNDS = 60


def shaders(folder):
    root = corpus_path() / folder
    lines = (root / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    kind = lines[0].split("\t").index("kind")
    for line in lines[1:]:
        cols = line.split("\t")
        if len(cols) > kind and cols[kind] in BINARY_KINDS:
            try:
                yield shaderscope.open(root / cols[0])
            except shaderscope.Error:
                pass


def listing_time(files):
    started = time.perf_counter()
    for f in files:
        try:
            f.disasm()
        except shaderscope.Error:
            pass
    return time.perf_counter() - started


def main():
    if not corpus_path().is_dir():
        sys.exit("corpus not found")
    for folder in ("dxbc", "shbin", "gx2", "mbs"):
        files = list(shaders(folder))
        size = sum(len(f.data) for f in files)
        times = sorted(listing_time(files) for _ in range(ROUNDS))
        best, median = times[0], times[len(times) // 2]
        print(
            f"facade-disasm/{folder}: {len(files)} files, {size} bytes, "
            f"best {size / best / 2**20:.2f} MiB/s, median {size / median / 2**20:.2f} MiB/s"
        )


if __name__ == "__main__":
    main()

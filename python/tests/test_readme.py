"""The README's Python section works as written: its examples run in order, from the
repository root (on the shipped samples), and every `# → TEXT` comment is printed (a trailing
`…` stands for the rest of the line)."""

import contextlib
import io
import re

from conftest import REPO


def python_section():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("\n## Python\n")
    return text[start : text.index("\n## ", start + 1)]


def test_the_readme_python_examples_print_what_they_show(monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", python_section(), re.S)
    assert len(blocks) >= 5
    shown = [m.rstrip() for b in blocks for m in re.findall(r"# → (.*)", b)]
    assert len(shown) >= 8
    monkeypatch.chdir(REPO)
    out = io.StringIO()
    namespace = {}
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "README.md", "exec"), namespace)
    lines = out.getvalue().splitlines()
    for s in shown:
        want = s.removesuffix("…")
        assert any(line.startswith(want) if s.endswith("…") else line == want for line in lines), s

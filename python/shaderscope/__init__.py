"""shaderscope: read, validate, explain, disassemble and write compiled GPU shader binaries.

Direct3D DXBC containers and Direct3D 9 bytecode, Nintendo 3DS SHBIN files, Wii U GFD and
SHARCFB files, ARM Mali MBS files. Every answer is the one the ``shaderscope`` command line
gives for the same file, made by the same library calls::

    import shaderscope
    f = shaderscope.open("ps.dxbc")
    print(f.format, f.hashes)
    print(f.disasm(numbering=True))
    for b in f.bindings:
        print(b.name, b.register)

Errors: a file at fault (the CLI's exit status 1) raises :class:`Error`, a subclass of
``ValueError`` whose ``str()`` is the CLI's message and whose ``offset`` is the absolute byte
offset it is about (or None); a request that does not apply (the CLI's exit status 2) raises
``ValueError``; a file that cannot be read raises ``OSError``.
"""

from __future__ import annotations

import builtins
import functools
import os
from typing import Any, Callable, Dict, List, Optional, TypeVar, Union

from . import _shaderscope
from ._model import (
    Binary,
    Binding,
    Chunk,
    ConstantBuffer,
    Dvle,
    Gx2Shader,
    Macro,
    MbsSymbol,
    Output,
    Program,
    Record,
    Shader,
    SignatureElement,
    Symbol,
    Symbols,
    Uniform,
    Variation,
    Variations,
    mbs_tree,
)
from ._shaderscope import Error, Scan, __version__, assemble, dump, scan

_T = TypeVar("_T")


class File(_shaderscope.File):
    """A parsed shader file that owns its bytes: every answer of the command line about it
    (``info()``, ``disasm()``, ``validate()``, ``parts()``, ``dump()``, ...), and the models
    users script most as objects (``chunks``, ``bindings``, ``dvles``, ``programs``, ...; None
    for a format without them). ``File(data, name=None)`` parses bytes, as ``parse`` does."""

    @functools.cached_property
    def _info(self) -> Dict[str, Any]:
        return self.info_json()

    def _dxbc(self, key: str) -> Any:
        return self._info.get(key) if self.format == "dxbc" else None

    def _models(self, format: str, key: str, model: Callable[[Dict[str, Any]], _T]) -> Optional[List[_T]]:
        """The records listed under ``key`` of the info record as ``model`` objects; None for
        a file of another format than ``format``."""
        if self.format != format:
            return None
        return [model(r) for r in self._info.get(key, [])]

    @property
    def chunks(self) -> Optional[List[Chunk]]:
        """DXBC: the chunks in index order, each with its payload (``data``)."""
        chunks = self._dxbc("chunks")
        if chunks is None:
            return None
        data = self.data
        return [Chunk(dict(c, data=data[c["data_offset"] : c["data_offset"] + c["size"]])) for c in chunks]

    def _signature(self, key: str) -> Optional[List[SignatureElement]]:
        sig = self._dxbc(key)
        return None if sig is None else [SignatureElement(e) for e in sig["elements"]]

    @property
    def input_signature(self) -> Optional[List[SignatureElement]]:
        """DXBC: the input signature's elements; None without one."""
        return self._signature("input_signature")

    @property
    def output_signature(self) -> Optional[List[SignatureElement]]:
        """DXBC: the output signature's elements; None without one."""
        return self._signature("output_signature")

    @property
    def patch_constant_signature(self) -> Optional[List[SignatureElement]]:
        """DXBC: the patch-constant signature's elements (hull, domain shaders); None without one."""
        return self._signature("patch_constant_signature")

    @property
    def bindings(self) -> Optional[List[Binding]]:
        """DXBC: the resource bindings of its reflection (RDEF), as fxc's "Resource Bindings"
        table lists them; an empty list without reflection."""
        return self._models("dxbc", "bound_resources", Binding)

    @property
    def constant_buffers(self) -> Optional[List[ConstantBuffer]]:
        """DXBC: the constant buffers of its reflection (RDEF); an empty list without it."""
        return self._models("dxbc", "constant_buffers", ConstantBuffer)

    @property
    def dvles(self) -> Optional[List[Dvle]]:
        """SHBIN (and the 3DS files that hold DVLBs: ``.csdr``, BCSDR, CGFX): every DVLE of
        every DVLB, in order (``dvle.dvlb`` says which DVLB)."""
        dvlbs = self._info.get("dvlbs")
        if dvlbs is None:
            return None
        return [Dvle(dict(d, dvlb=i)) for i, b in enumerate(dvlbs) for d in b.get("dvles", [])]

    @property
    def shaders(self) -> Optional[List[Shader]]:
        """GFD (``.gsh``): its shaders in order, each with its GX2 struct (``gx2``)."""
        return self._models("gfd", "shaders", Shader)

    @property
    def binaries(self) -> Optional[List[Binary]]:
        """SHARCFB: its binaries in order, each with its GX2 struct (``shader``)."""
        return self._models("sharcfb", "binaries", Binary)

    @property
    def programs(self) -> Optional[List[Program]]:
        """SHARCFB: its programs, with their macros, symbols and variations."""
        return self._models("sharcfb", "programs", lambda p: Program(p, self))

    @property
    def symbols(self) -> Optional[List[MbsSymbol]]:
        """MBS: the shader's symbols (uniforms, attributes, varyings) as trees."""
        if self.format != "mbs":
            return None
        return mbs_tree(self._info.get("shader") or {})


def parse(data: Union[bytes, bytearray], name: Optional[str] = None) -> File:
    """Parse a shader file's bytes (``bytes`` or ``bytearray``, any format shaderscope reads)
    into a File, which keeps its own copy of them: later changes to ``data``, or its deletion,
    do not reach it. ``name`` is for your own use (``File.name``). Raises Error when the bytes
    are no shader file or do not parse."""
    return File(data, name)


def open(path: Union[str, "os.PathLike[str]"]) -> File:
    """Read and parse the file at ``path``. A file that cannot be read raises OSError
    (FileNotFoundError, ...) as Python's own ``open`` does; one that does not parse, Error."""
    with builtins.open(path, "rb") as fh:
        data = fh.read()
    return File(data, os.fsdecode(path))


__all__ = [
    "Binary",
    "Binding",
    "Chunk",
    "ConstantBuffer",
    "Dvle",
    "Error",
    "File",
    "Gx2Shader",
    "Macro",
    "MbsSymbol",
    "Output",
    "Program",
    "Record",
    "Scan",
    "Shader",
    "SignatureElement",
    "Symbol",
    "Symbols",
    "Uniform",
    "Variation",
    "Variations",
    "__version__",
    "assemble",
    "dump",
    "open",
    "parse",
    "scan",
]

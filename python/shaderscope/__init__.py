"""shaderscope: read, validate, explain, disassemble and write compiled GPU shader binaries.

Direct3D DXBC containers and Direct3D 9 bytecode, Nintendo 3DS SHBIN files, Wii U GFD and
SHARCFB files, ARM Mali MBS files. Every answer is the one the ``shaderscope`` command line
gives for the same file, made by the same library calls::

    import shaderscope
    f = shaderscope.open("ps.dxbc")
    print(f.format, f.hashes)
    print(f.disasm(numbering=True))

Errors: a file at fault (the CLI's exit status 1) raises :class:`Error`, a subclass of
``ValueError`` whose ``str()`` is the CLI's message and whose ``offset`` is the absolute byte
offset it is about (or None); a request that does not apply (the CLI's exit status 2) raises
``ValueError``; a file that cannot be read raises ``OSError``.
"""

from ._shaderscope import (
    Chunk,
    Error,
    File,
    Scan,
    SignatureElement,
    __version__,
    assemble,
    open,
    parse,
    scan,
)

__all__ = [
    "Chunk",
    "Error",
    "File",
    "Scan",
    "SignatureElement",
    "__version__",
    "assemble",
    "open",
    "parse",
    "scan",
]

"""Type stubs of the extension module shaderscope._shaderscope (the package re-exports it)."""

import os
from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional, Tuple, Union, overload

__version__: str

class Error(ValueError):
    """A file that cannot be read or listed (the CLI's exit status 1).

    ``str(e)`` is the message the CLI prints after ``error: PATH: ``.
    """

    offset: Optional[int]
    """The absolute byte offset the error is about, or None (an assembler error)."""
    listing: str
    """``File.disasm`` only: what was listed before the failure, as the CLI prints it."""

class File:
    """A parsed shader file that owns its bytes; every answer of the CLI about it."""

    def __init__(self, data: Union[bytes, bytearray], name: Optional[str] = None) -> None:
        """Parse a shader file's bytes (a copy is kept); Error when they do not parse."""
    @property
    def format(self) -> str:
        """The format's name, as the ``format`` field of the CLI's JSON records."""
    @property
    def name(self) -> Optional[str]:
        """The name given to ``parse`` or the path given to ``open``."""
    @property
    def data(self) -> bytes:
        """The bytes the file was read from (a copy)."""
    @property
    def hashes(self) -> Optional[Dict[str, str]]:
        """DXBC: ``3dmigoto``, ``bytecode``, ``checksum``; Direct3D 9: ``3dmigoto``; else None."""
    def info(self) -> str:
        """The text ``shaderscope info FILE`` prints."""
    def info_json(self) -> Dict[str, Any]:
        """The record ``shaderscope info --json FILE`` prints, without ``path``."""
    def disasm(
        self,
        *,
        dvle: Optional[int] = None,
        program: Optional[int] = None,
        offsets: bool = False,
        file_offsets: bool = False,
        raw: bool = False,
        fxc: Optional[str] = None,
        numbering: bool = False,
        hex_literals: bool = False,
        exact_floats: bool = False,
        no_header: bool = False,
        instruction_only: bool = False,
    ) -> str:
        """The listing ``shaderscope disasm FILE`` prints with the same switches.

        Raises ValueError for a switch that does not apply to the format, TypeError for an
        unknown one, Error when the listing fails.
        """
    def instructions(
        self,
        *,
        dvle: Optional[int] = None,
        program: Optional[int] = None,
        offsets: bool = False,
        file_offsets: bool = False,
        raw: bool = False,
        fxc: Optional[str] = None,
        numbering: bool = False,
        hex_literals: bool = False,
        exact_floats: bool = False,
        no_header: bool = False,
        instruction_only: bool = False,
    ) -> List[Dict[str, Any]]:
        """Every program's ``instructions`` of ``disasm --json``, in order, as one list."""
    def validate(self) -> List[Dict[str, Any]]:
        """The ``validate --json`` records (findings, then the closing record), without ``path``."""
    def parts(self) -> List[str]:
        """The names ``shaderscope extract FILE`` lists."""
    def part(self, name: str, settings: Optional[Mapping[str, str]] = None) -> bytes:
        """The bytes ``shaderscope extract FILE NAME [--set M=V] -o OUT`` writes (ValueError: no such part)."""
    def variant(
        self, program: str, settings: Optional[Mapping[str, str]] = None, *, variation: Optional[int] = None
    ) -> Dict[str, Any]:
        """SHARCFB: the record ``shaderscope variant --json FILE PROGRAM [--set M=V]`` prints, without ``path``."""
    def dump(self) -> str:
        """The text ``shaderscope dump FILE`` prints."""

class Scan(Iterator[Dict[str, Any]]):
    """The records of ``shaderscope scan --json PATH``, one at a time."""

    def __iter__(self) -> "Scan": ...
    def __next__(self) -> Dict[str, Any]: ...

@overload
def assemble(
    text: str,
    like: Optional[bytes] = None,
    format: Optional[str] = None,
    *,
    program: Optional[str] = None,
    settings: Optional[Mapping[str, str]] = None,
    opdescs: Literal[False] = False,
) -> bytes: ...
@overload
def assemble(text: str, like: None = None, format: Optional[str] = None, *, opdescs: Literal[True]) -> Tuple[bytes, bytes]: ...
def dump(data: Union[bytes, bytearray]) -> str:
    """The text ``shaderscope dump FILE`` prints for these bytes, whether or not they parse."""
def scan(
    path: Union[str, "os.PathLike[str]"],
    *,
    glob: Union[str, List[str], None] = None,
    max_depth: Optional[int] = None,
    follow: bool = False,
) -> Scan:
    """Find every shader binary under a folder: the ``scan --json`` records in the CLI's order
    (``glob``, ``max_depth``, ``follow``: ``--glob``, ``--max-depth``, ``--follow``)."""

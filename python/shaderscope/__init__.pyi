"""Type stubs of shaderscope (the extension module shaderscope._shaderscope)."""

import os
from typing import Any, Iterator, List, Optional, Union

__version__: str

class Error(ValueError):
    """A file that cannot be read or listed (the CLI's exit status 1).

    ``str(e)`` is the message the CLI prints after ``error: PATH: ``.
    """

    offset: Optional[int]
    """The absolute byte offset the error is about, or None (an assembler error)."""

class Chunk:
    """One chunk of a DXBC container (``File.chunks``)."""

    fourcc: str
    """The four-character code (``RDEF``, ``SHEX``, ...)."""
    offset: int
    """The absolute offset of the chunk's header."""
    data_offset: int
    """The absolute offset of its payload (after the 8-byte header)."""
    size: int
    """The payload's size in bytes."""
    description: str
    """What the chunk is, as ``extract`` describes it."""
    data: bytes
    """The payload (a copy)."""

class SignatureElement:
    """One element of a DXBC signature, with the field names of ``info --json``."""

    semantic_name: str
    semantic_index: int
    register: int
    system_value: str
    """As fxc's SysValue column prints it (``NONE``, ``TARGET``, ``POS``) or ``unknown``."""
    system_value_id: int
    system_value_name: Optional[str]
    component_type: str
    """As fxc's Format column prints it (``float``, ``int``, ``uint``)."""
    component_type_name: Optional[str]
    mask: int
    """The components present (bit 0: x ... bit 3: w)."""
    read_write_mask: int
    """Inputs: the components read; outputs: the components never written."""
    stream: int
    min_precision: int
    min_precision_name: Optional[str]
    offset: int
    """The absolute offset of the element's record."""

class File:
    """A parsed shader file that owns its bytes; every answer of the CLI about it."""

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
    def hashes(self) -> Optional[dict[str, str]]:
        """DXBC: ``3dmigoto``, ``bytecode``, ``checksum``; Direct3D 9: ``3dmigoto``; else None."""
    @property
    def chunks(self) -> Optional[List[Chunk]]:
        """DXBC: the chunks in index order; None for the other formats."""
    @property
    def input_signature(self) -> Optional[List[SignatureElement]]:
        """DXBC: the input signature's elements; None without one."""
    @property
    def output_signature(self) -> Optional[List[SignatureElement]]:
        """DXBC: the output signature's elements; None without one."""
    @property
    def patch_constant_signature(self) -> Optional[List[SignatureElement]]:
        """DXBC: the patch-constant signature's elements; None without one."""
    def info(self) -> str:
        """The text ``shaderscope info FILE`` prints."""
    def info_json(self) -> dict[str, Any]:
        """The record ``shaderscope info --json FILE`` prints, without ``path``."""
    def disasm(
        self,
        *,
        dvle: Optional[int] = None,
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

        Raises ValueError for a switch that does not apply to the format, Error when the
        listing fails.
        """
    def instructions(
        self,
        *,
        dvle: Optional[int] = None,
        offsets: bool = False,
        file_offsets: bool = False,
        raw: bool = False,
        fxc: Optional[str] = None,
        numbering: bool = False,
        hex_literals: bool = False,
        exact_floats: bool = False,
        no_header: bool = False,
        instruction_only: bool = False,
    ) -> List[dict[str, Any]]:
        """Every program's ``instructions`` of ``disasm --json``, in order, as one list."""
    def validate(self) -> List[dict[str, Any]]:
        """The ``validate --json`` records (findings, then the closing record), without ``path``."""
    def parts(self) -> List[str]:
        """The names ``shaderscope extract FILE`` lists."""
    def part(self, name: str) -> bytes:
        """The bytes ``shaderscope extract FILE NAME -o OUT`` writes (ValueError: no such part)."""
    def dump(self) -> str:
        """The text ``shaderscope dump FILE`` prints."""

class Scan(Iterator[dict[str, Any]]):
    """The records of ``shaderscope scan --json PATH``, one at a time."""

    def __iter__(self) -> "Scan": ...
    def __next__(self) -> dict[str, Any]: ...

def open(path: Union[str, "os.PathLike[str]"]) -> File:
    """Read and parse a shader file (OSError when it cannot be read, Error when it does not parse)."""

def parse(data: Union[bytes, bytearray], name: Optional[str] = None) -> File:
    """Parse a shader file's bytes into a File that keeps its own copy of them."""

def assemble(text: str, like: Optional[bytes] = None, format: Optional[str] = None) -> bytes:
    """Assemble a listing as ``shaderscope asm`` does (``--like``, ``--format ISA``)."""

def scan(path: Union[str, "os.PathLike[str]"]) -> Scan:
    """Find every shader binary under a folder: the ``scan --json`` records in the CLI's order."""

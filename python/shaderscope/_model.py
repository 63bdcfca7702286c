"""The models users script most, as objects: built from the records of ``info --json`` (and
``variant --json``), so that each attribute is the field the CLI's JSON schema names and
documents (``schema/shaderscope.schema.json``), with the same value."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, ClassVar, Dict, Iterator, List, Mapping, Optional, Sequence, Type, overload

if TYPE_CHECKING:
    from . import File


class Record:
    """A record of the CLI's JSON as an object: each field an attribute (a nested object a
    ``Record``, a list a list). ``to_dict()`` gives the fields back as the JSON holds them.
    Read-only; two records are equal when their class and fields are."""

    __slots__ = ("_fields",)

    #: The class of each field's objects, where it is more than a plain Record.
    _children: ClassVar[Dict[str, Type["Record"]]] = {}

    def __init__(self, fields: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._fields[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}") from None
        return _view(value, self._children.get(name, Record))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._fields))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._fields == self._fields  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = [f"{k}={self._fields[k]!r}" for k in ("index", "number", "name", "stage", "type", "semantic_name", "register", "tag") if k in self._fields]
        return f"<shaderscope.{type(self).__name__} {' '.join(shown)}>".replace(" >", ">")

    def to_dict(self) -> Dict[str, Any]:
        """The fields, as the JSON record holds them (a copy)."""
        return copy.deepcopy(self._fields)


def _view(value: Any, cls: Type[Record]) -> Any:
    if isinstance(value, dict):
        return cls(value)
    if isinstance(value, list):
        return [_view(v, cls) for v in value]
    return value


# ------------------------------------------------------------------------------ DXBC


class Chunk(Record):
    """One chunk of a DXBC container (``File.chunks``): ``fourcc``, ``offset`` (of its header),
    ``data_offset``, ``size``, ``description`` (as ``extract`` describes it), and ``data``, its
    payload."""


class SignatureElement(Record):
    """One element of a DXBC signature: ``semantic_name``, ``semantic_index``, ``register``,
    ``system_value`` (fxc's SysValue column), ``component_type`` (fxc's Format column),
    ``mask``, ``read_write_mask``, ``stream``, ``min_precision``, ``offset``, ..."""


class Binding(Record):
    """One resource binding of a DXBC's reflection (RDEF): ``name``, ``register`` (``t0``,
    ``cb1``, ``s0``, ``u2``: the HLSL bind), ``space``, ``bind_point``, ``bind_count`` (0:
    unbounded), ``input_type_name`` (``D3D_SIT_TEXTURE``), ``return_type_name``,
    ``dimension_name``, ``flags``, ``offset``, ..."""


class ConstantBuffer(Record):
    """One constant buffer of a DXBC's reflection: ``name``, ``size``, ``variables`` (each with
    ``name``, ``offset``, ``size``, ``type``, ...)."""


# ------------------------------------------------------------------------------ SHBIN


class Uniform(Record):
    """A DVLE uniform: ``name``, ``registers`` (``c0-c3``, ``v0``, ``b1``), ``first``,
    ``last``."""


class Output(Record):
    """A DVLE output: ``register`` (``o0``), ``semantic`` (``position``), ``mask``."""


class Dvle(Record):
    """One DVLE (a 3DS shader program's entry) of a SHBIN: ``index``, ``dvlb`` (the DVLB it is
    in), ``type`` (``vertex``/``geometry``), ``main``, ``endmain``, ``uniforms``, ``inputs``,
    ``outputs``, ``constants``, ``labels``, ..."""

    _children = {"uniforms": Uniform, "outputs": Output}

    @property
    def inputs(self) -> List[Uniform]:
        """The uniforms bound to input registers (``v0``-``v15``): the vertex attributes."""
        return [u for u in self.uniforms if u.registers.startswith("v")]


# ------------------------------------------------------------------------------ GX2


class Gx2Shader(Record):
    """A GX2 shader struct (``GX2VertexShader``, ``GX2PixelShader``, ``GX2GeometryShader``):
    ``stage``, ``mode``, ``registers``, ``uniform_blocks``, ``uniform_vars``,
    ``sampler_vars``, ``attrib_vars``, ... (each array with ``count`` and ``items``), and
    ``cemu`` (its Cemu hash)."""


class Shader(Record):
    """One shader of a GFD ``.gsh``: ``stage``, ``number``, ``header_block``, ``program`` (its
    block, offset and size) and ``gx2``, its struct."""

    _children = {"gx2": Gx2Shader}


class Binary(Record):
    """One binary of a SHARCFB archive: ``index``, ``type`` (``VS``/``PS``/``GS``),
    ``offset``, ``data_offset``, ``data_size``, ``used_by`` (program, variation, stage) and
    ``shader``, its GX2 struct."""

    _children = {"shader": Gx2Shader}


class Macro(Record):
    """A variation macro of a SHARCFB program: ``name``, ``id``, ``values``, ``default``."""


class Symbol(Record):
    """A SHARCFB program's symbol: ``name``, ``id`` (what the application looks it up by),
    ``location``, ``default_words``, and ``used``: per variation, whether it uses the
    symbol."""


class Symbols(Record):
    """A SHARCFB program's symbols by kind: ``uniform_vars``, ``uniform_blocks``,
    ``sampler_vars``, ``attrib_vars``."""

    _children = dict.fromkeys(("uniform_vars", "uniform_blocks", "sampler_vars", "attrib_vars"), Symbol)

    def all(self) -> List[Symbol]:
        """Every symbol, of every kind."""
        return [s for kind in self._children for s in getattr(self, kind)]


class Variation(Record):
    """One variation of a SHARCFB program (``variant --json``'s record): ``variation`` (its
    index), ``program``, ``settings`` (each macro's ``macro``, ``value``, ``source``) and
    ``binaries`` (each ``stage``, ``index``, ``offset``, ``size``)."""

    __slots__ = ("_program",)

    def __init__(self, fields: Mapping[str, Any], program: "Program") -> None:
        super().__init__(fields)
        object.__setattr__(self, "_program", program)

    @property
    def index(self) -> int:
        """The variation's index (the mixed-radix number of its settings)."""
        return int(self._fields["variation"])

    def values(self) -> Dict[str, str]:
        """``{MACRO: VALUE}``: the settings as ``--set`` takes them."""
        return {s.macro: s.value for s in self.settings}

    def uses(self, symbol: str) -> bool:
        """Whether this variation uses the symbol named (by its name or its ID)."""
        i = self.index
        return any(s.name == symbol or s.id == symbol for s in self._program.symbols.all() if i < len(s.used) and s.used[i])


class Variations(Sequence[Variation]):
    """A SHARCFB program's variations, each made when asked for (a program may have many)."""

    def __init__(self, program: "Program") -> None:
        self._program = program
        count = program._fields.get("variations")
        self._len = int(count) if count is not None else 0

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Variation: ...
    @overload
    def __getitem__(self, i: slice) -> List[Variation]: ...
    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("variation index out of range")
        p = self._program
        return Variation(p._file.variant(p.name, variation=i), p)

    def __iter__(self) -> Iterator[Variation]:
        return (self[i] for i in range(self._len))


class Program(Record):
    """One program of a SHARCFB archive: ``index``, ``name``, ``stages``, ``base_index``,
    ``macros``, ``symbols`` (by kind), and ``variations``: every variation, made when asked
    for (``len(p.variations)``, ``p.variations[i]``)."""

    __slots__ = ("_file",)
    _children = {"macros": Macro, "symbols": Symbols}

    def __init__(self, fields: Mapping[str, Any], file: "File") -> None:
        super().__init__(fields)
        object.__setattr__(self, "_file", file)

    @property
    def variations(self) -> Variations:  # type: ignore[override]
        """The program's variations (the field ``variations`` of the record is their count)."""
        return Variations(self)

    def variation(self, settings: Optional[Mapping[str, str]] = None) -> Variation:
        """The variation ``settings`` (``{MACRO: VALUE}``) picks, the others at their defaults."""
        return Variation(self._file.variant(self.name, dict(settings or {})), self)


# ------------------------------------------------------------------------------ MBS


class MbsSymbol(Record):
    """A symbol of an MBS shader (a uniform, attribute or varying): ``table`` (``SUNI``,
    ``SATR``, ``SVAR``), ``index``, ``name``, ``glsl_type``, ``precision_name``, ...; and
    ``children``, the members of a struct or array, as a tree."""

    __slots__ = ("_kids",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        super().__init__(fields)
        object.__setattr__(self, "_kids", [])

    @property
    def children(self) -> List["MbsSymbol"]:
        """The symbols whose ``parent`` is this one, in the table's order."""
        return list(self._kids)


def mbs_tree(shader: Mapping[str, Any]) -> List[MbsSymbol]:
    """The symbols of an MBS ``shader`` record as trees: each table's symbols whose ``parent``
    is none of the table's (0xffff; a vertex shader's have none), with their children below
    them."""
    roots: List[MbsSymbol] = []
    for table in shader.get("tables", []):
        nodes = [MbsSymbol(dict(s, table=table["tag"])) for s in table.get("symbols", [])]
        by_index = {n._fields["index"]: n for n in nodes}
        for n in nodes:
            parent = by_index.get(n._fields.get("parent"))
            # A symbol that is its own parent, or in a loop of a damaged file, is under no root.
            if parent is None:
                roots.append(n)
            elif parent is not n:
                parent._kids.append(n)  # type: ignore[attr-defined]
    return roots

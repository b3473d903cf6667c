"""The data model of d3dcap's API table and the parser of its declaration syntax.

The table (the other modules of this package) describes every interface, method,
struct, enum, constant and entry point that d3dcap knows, once.  Everything else
(Linux headers, FlatBuffers schema, call ids, ABI checks, and later wrappers and
replay dispatch) is generated from it.

Declaration syntax, close to C with IDL-like attribute lists:

    [attr, attr=EXPR] TYPE NAME          a method or function parameter
    [attr] TYPE NAME;                    a struct field (NAME[N] for fixed arrays)
    union { TYPE A; TYPE B; };           an anonymous union inside a struct

Parameter and field attributes:
    in / out / inout   direction (default: in; out needs a pointer)
    opt                the pointer may be NULL
    count=EXPR         the pointer addresses EXPR elements (EXPR names other
                       parameters, e.g. NumRanges or pDesc->NumElements)
    bytes=EXPR         the pointer addresses EXPR bytes
    size=RULE          the byte size follows a hand-written rule named RULE
                       (e.g. subresource_data for UpdateSubresource's source)
    string             a NUL-terminated string
    iid=PARAM          a void** that receives the interface named by PARAM
    enum=NAME          an integer (UINT, INT) that holds values or flags of enum
                       NAME; dumps print them by name
Method and entry point attributes (before the return type):
    hand_written=PARTS the call is an exception to the generated code: PARTS,
                       joined with '+', say which of its code is written by hand
      capture          its capture: a method's wrapper calls
                       hand_written::<Interface>_<Method> (capture/hand_written/),
                       because recording it takes more than its parameters
                       (identity and lifetime, data whose size follows a rule,
                       mapped memory, frames and annotations, the tile mappings
                       kept for snapshots); an entry point's is always by hand
                       (capture/interposer/), so every entry point says capture
      replay(WHY)      its replay (replay/engine/hand_written.cpp): it gets no
                       generated invoker; WHY is what replay reports say of it

Interfaces whose methods are given without call ids are declared only: they
are in the headers (with their real vtables, ABI-checked) so that programs
compile, but the runtime does not implement them (QueryInterface answers
E_NOINTERFACE) and they are neither recorded nor replayed.
"""

from __future__ import annotations

import dataclasses
import re

# "unknwn" is provided by the platform headers and never generated.
HEADERS = ("unknwn", "dxgitype", "dxgi", "dxgi1_2", "dxgi1_3", "dxgi1_4", "dxgi1_5", "dxgi1_6",
           "d3d11", "d3d11_1", "d3d11_2", "d3d11_3", "d3d11_4")

# Types the platform headers (DirectX-Headers' wsl stubs, d3dcommon.h,
# dxgiformat.h, dxgicommon.h) already define, with their sizes in bytes where
# they are plain values.  None marks a type only ever used through a pointer.
PLATFORM_TYPES = {
    "void": None, "BOOL": 4, "BYTE": 1, "UINT8": 1, "INT8": 1, "UINT16": 2,
    "INT16": 2, "UINT": 4, "INT": 4, "UINT32": 4, "INT32": 4, "UINT64": 8,
    "INT64": 8, "ULONG": 4, "LONG": 4, "DWORD": 4, "WORD": 2, "FLOAT": 4,
    "DOUBLE": 8, "SIZE_T": 8, "HRESULT": 4, "HANDLE": 8, "HWND": 8,
    "HMONITOR": 8, "HMODULE": 8, "HDC": 8, "LUID": 8, "RECT": 16, "POINT": 8,
    "GUID": 16, "IID": 16, "REFGUID": None, "REFIID": None, "LARGE_INTEGER": 8,
    "SECURITY_ATTRIBUTES": None, "WCHAR": 2, "CHAR": 1, "char": 1, "LPCSTR": 8,
    "LPCWSTR": 8, "LPSTR": 8, "LPWSTR": 8, "LPVOID": 8, "LPCVOID": 8,
    "IUnknown": None, "DXGI_FORMAT": 4, "DXGI_RATIONAL": 8, "DXGI_SAMPLE_DESC": 8,
    "DXGI_COLOR_SPACE_TYPE": 4, "D3D_FEATURE_LEVEL": 4, "D3D_DRIVER_TYPE": 4,
    "D3D_PRIMITIVE_TOPOLOGY": 4, "D3D_PRIMITIVE": 4, "D3D_SRV_DIMENSION": 4,
    "ID3DBlob": None, "ID3D10Blob": None, "D3D_SHADER_MACRO": None,
}

# Platform types whose size differs between the Linux headers and Windows
# (wchar_t is 4 bytes on Linux). Structs that contain them are left out of
# the cross-ABI layout checks. Handles are pointers on both.
PLATFORM_DEPENDENT_TYPES = {"WCHAR"}


class TableError(Exception):
    """A malformed declaration in the API table."""


@dataclasses.dataclass
class Type:
    text: str          # the C spelling, as written (e.g. "ID3D11Buffer *const *")
    base: str          # the named type with qualifiers and pointers removed
    pointers: int      # levels of indirection

    @property
    def is_const_pointee(self) -> bool:
        return self.text.lstrip().startswith("const ")


@dataclasses.dataclass
class Param:
    name: str
    type: Type
    direction: str = "in"
    optional: bool = False
    count: str | None = None
    bytes: str | None = None
    size_rule: str | None = None
    string: bool = False
    iid: str | None = None
    enum: str | None = None    # the enum an integer parameter holds, e.g. D3D11_MAP_FLAG
    array: int | None = None   # fixed-size C array, e.g. FLOAT ColorRGBA[4]

    def c_decl(self) -> str:
        suffix = f"[{self.array}]" if self.array is not None else ""
        text = self.type.text
        sep = "" if text.endswith("*") else " "
        return f"{text}{sep}{self.name}{suffix}"


@dataclasses.dataclass(frozen=True)
class HandWritten:
    """Which of a call's code is written by hand ([hand_written=PARTS])."""
    capture: bool = False
    replay: str | None = None   # why it is replayed by hand; None: generated or refused

    def __bool__(self) -> bool:
        return self.capture or self.replay is not None


@dataclasses.dataclass
class Method:
    call_id: int | None  # None: a method of a declared-only interface
    name: str
    returns: Type
    params: list[Param]
    hand_written: HandWritten = dataclasses.field(default_factory=HandWritten)
    interface: "Interface | None" = None
    slot: int = -1

    @property
    def qualified_name(self) -> str:
        owner = self.interface.name if self.interface else ""
        return f"{owner}::{self.name}" if owner else self.name


@dataclasses.dataclass
class Interface:
    name: str
    base: str | None
    uuid: str
    header: str
    methods: list[Method]

    @property
    def declared_only(self) -> bool:
        return any(m.call_id is None for m in self.methods)


@dataclasses.dataclass
class Function:
    call_id: int
    name: str
    returns: Type
    params: list[Param]
    header: str
    hand_written: HandWritten

    @property
    def qualified_name(self) -> str:
        return self.name


@dataclasses.dataclass
class Field:
    name: str
    type: Type
    array: int | str | None = None   # fixed array length (number or constant)
    union: int | None = None         # index of the anonymous union it belongs to
    count: str | None = None
    bytes: str | None = None
    string: bool = False
    enum: str | None = None          # the enum an integer field holds (flags or values)


@dataclasses.dataclass
class Struct:
    name: str
    header: str
    fields: list[Field]


@dataclasses.dataclass
class EnumValue:
    name: str
    value: str


@dataclasses.dataclass
class Enum:
    name: str
    header: str
    values: list[EnumValue]
    flags: bool


@dataclasses.dataclass
class Constant:
    name: str
    value: str
    header: str


@dataclasses.dataclass
class Typedef:
    name: str
    target: str
    header: str


# ---------------------------------------------------------------------------
# Parsing

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_ATTR_FLAGS = {"in", "out", "inout", "opt", "string"}
_ATTR_VALUES = {"count", "bytes", "size", "iid", "enum"}
_CALL_ATTR_VALUES = {"hand_written"}


def _split_top_level(text: str, sep: str) -> list[str]:
    """Splits on sep where it is outside (), [] and {}."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _parse_attrs(text: str, where: str, flags=_ATTR_FLAGS,
                 values=_ATTR_VALUES) -> tuple[dict, str]:
    """Takes a leading [flag, key=value] list off text."""
    attrs: dict = {}
    text = text.strip()
    if not text.startswith("["):
        return attrs, text
    end = text.find("]")
    if end < 0:
        raise TableError(f"{where}: unclosed attribute list")
    for item in _split_top_level(text[1:end], ","):
        if "=" in item:
            key, value = (s.strip() for s in item.split("=", 1))
            if key not in values:
                raise TableError(f"{where}: unknown attribute '{key}'")
            attrs[key] = value
        elif item in flags:
            attrs[item] = True
        else:
            raise TableError(f"{where}: unknown attribute '{item}'")
    return attrs, text[end + 1:].strip()


def parse_type(text: str, where: str) -> Type:
    text = " ".join(text.replace("*", " * ").split()).replace(" *", "*").replace("* ", "*")
    # Normalise spacing to "const T *const *" style for the headers.
    spelled = re.sub(r"\*", " *", text).replace("* const", "*const").strip()
    spelled = re.sub(r"\s+", " ", spelled).replace("* *", "**")
    words = [w for w in re.split(r"[\s*]+", text) if w and w != "const"]
    if len(words) != 1 or not re.fullmatch(_IDENT, words[0]):
        raise TableError(f"{where}: cannot read type '{text}'")
    return Type(text=spelled, base=words[0], pointers=text.count("*"))


def _parse_declarator(text: str, where: str) -> tuple[Type, str, str | None]:
    """Reads 'TYPE NAME' or 'TYPE NAME[N]'."""
    match = re.fullmatch(rf"(.*?)\b({_IDENT})\s*(?:\[\s*([^\]]+?)\s*\])?", text.strip())
    if not match or not match.group(1).strip():
        raise TableError(f"{where}: cannot read declaration '{text}'")
    return parse_type(match.group(1), where), match.group(2), match.group(3)


def parse_param(text: str, where: str) -> Param:
    attrs, rest = _parse_attrs(text, where)
    type_, name, array = _parse_declarator(rest, where)
    direction = "in"
    for d in ("out", "inout"):
        if attrs.get(d):
            direction = d
    param = Param(
        name=name, type=type_, direction=direction, optional=bool(attrs.get("opt")),
        count=attrs.get("count"), bytes=attrs.get("bytes"), size_rule=attrs.get("size"),
        string=bool(attrs.get("string")), iid=attrs.get("iid"), enum=attrs.get("enum"),
        array=int(array) if array is not None else None)
    if direction != "in" and type_.pointers == 0 and param.array is None:
        raise TableError(f"{where}: parameter '{name}' is {direction} but not a pointer")
    return param


def parse_hand_written(value: str | None, where: str) -> HandWritten:
    """Reads the PARTS of hand_written=PARTS; None (no attribute) is nothing by hand."""
    if value is None:
        return HandWritten()
    capture, replay = False, None
    for part in _split_top_level(value, "+"):
        reason = re.fullmatch(r"replay\((.*)\)", part, re.S)
        if part == "capture" and not capture:
            capture = True
        elif reason and replay is None:
            replay = " ".join(reason.group(1).split())
            if not replay or ")" in replay:
                raise TableError(f"{where}: replay(WHY) needs a reason without ')'")
        else:
            raise TableError(f"{where}: hand_written part '{part}' is unknown or given twice "
                             "(capture, replay(WHY))")
    return HandWritten(capture=capture, replay=replay)


def parse_signature(text: str, where: str) -> tuple[dict, Type, str, list[Param]]:
    """Reads '[attrs] RET NAME(params)'."""
    attrs, rest = _parse_attrs(text, where, frozenset(), _CALL_ATTR_VALUES)
    match = re.fullmatch(rf"(.+?)\b({_IDENT})\s*\((.*)\)\s*;?", rest.strip(), re.S)
    if not match:
        raise TableError(f"{where}: cannot read signature '{text.strip()[:80]}'")
    returns = parse_type(match.group(1).replace("WINAPI", ""), where)
    name = match.group(2)
    body = match.group(3).strip()
    params = [] if body in ("", "void") else [
        parse_param(p, f"{where}::{name}") for p in _split_top_level(body, ",")]
    return attrs, returns, name, params


def parse_fields(text: str, where: str) -> list[Field]:
    fields: list[Field] = []
    union_index = 0
    for decl in _split_top_level(text, ";"):
        if decl.startswith("union"):
            inner = decl[decl.index("{") + 1:decl.rindex("}")]
            for member in _split_top_level(inner, ";"):
                field = _parse_field(member, where)
                field.union = union_index
                fields.append(field)
            union_index += 1
        else:
            fields.append(_parse_field(decl, where))
    return fields


def _parse_field(text: str, where: str) -> Field:
    attrs, rest = _parse_attrs(text, where)
    type_, name, array = _parse_declarator(rest, where)
    if array is not None and array.isdigit():
        array = int(array)
    return Field(name=name, type=type_, array=array, count=attrs.get("count"),
                 bytes=attrs.get("bytes"), string=bool(attrs.get("string")),
                 enum=attrs.get("enum"))


def parse_enum_values(text: str, where: str) -> list[EnumValue]:
    values = []
    for item in _split_top_level(text, ","):
        match = re.fullmatch(rf"({_IDENT})\s*=\s*(.+)", item.strip(), re.S)
        if not match:
            raise TableError(f"{where}: enum value '{item}' needs 'NAME = VALUE'")
        values.append(EnumValue(match.group(1), " ".join(match.group(2).split())))
    return values


# ---------------------------------------------------------------------------
# The registry every table module declares into.

class Api:
    def __init__(self) -> None:
        self.order: list = []          # every item, in declaration order
        self.interfaces: dict[str, Interface] = {}
        self.structs: dict[str, Struct] = {}
        self.enums: dict[str, Enum] = {}
        self.typedefs: dict[str, Typedef] = {}
        self.constants: dict[str, Constant] = {}
        self.functions: dict[str, Function] = {}
        self.declared_call_count: int | None = None

    def _add(self, table: dict, item, header: str) -> None:
        if header not in HEADERS:
            raise TableError(f"{item.name}: unknown header '{header}'")
        if item.name in self.known_names():
            raise TableError(f"{item.name}: declared twice")
        table[item.name] = item
        self.order.append(item)

    def known_names(self) -> set[str]:
        return (set(self.interfaces) | set(self.structs) | set(self.enums)
                | set(self.typedefs) | set(self.constants) | set(self.functions))

    def interface(self, name: str, *, base: str | None, uuid: str, header: str,
                  methods: list[tuple[int, str]] | list[str]) -> None:
        """methods: (call id, signature) pairs, or signatures alone for an
        interface that is declared only (never recorded)."""
        parsed = []
        if any(isinstance(m, str) for m in methods) and not all(
                isinstance(m, str) for m in methods):
            raise TableError(f"{name}: give every method a call id, or none")
        for entry in methods:
            call_id, text = (None, entry) if isinstance(entry, str) else entry
            attrs, returns, mname, params = parse_signature(text, name)
            hand_written = parse_hand_written(attrs.get("hand_written"), f"{name}::{mname}")
            if call_id is None and hand_written != HandWritten():
                raise TableError(f"{name}::{mname}: a declared-only method is never recorded, "
                                 "so nothing of it is written by hand")
            parsed.append(Method(call_id=call_id, name=mname, returns=returns, params=params,
                                 hand_written=hand_written))
        iface = Interface(name=name, base=base, uuid=uuid.lower(), header=header, methods=parsed)
        for m in parsed:
            m.interface = iface
        self._add(self.interfaces, iface, header)

    def struct(self, name: str, *, header: str, fields: str) -> None:
        self._add(self.structs, Struct(name, header, parse_fields(fields, name)), header)

    def enum(self, name: str, *, header: str, values: str, flags: bool = False) -> None:
        self._add(self.enums, Enum(name, header, parse_enum_values(values, name), flags), header)

    def typedef(self, name: str, target: str, *, header: str) -> None:
        self._add(self.typedefs, Typedef(name, target, header), header)

    def constants_block(self, *, header: str, text: str) -> None:
        for line in text.strip().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cname, _, value = line.partition(" ")
            self._add(self.constants, Constant(cname, value.strip(), header), header)

    def function(self, call_id: int, text: str, *, header: str) -> None:
        attrs, returns, name, params = parse_signature(text, "function")
        hand_written = parse_hand_written(attrs.get("hand_written"), name)
        if not hand_written.capture:
            raise TableError(f"{name}: an entry point's capture is written by hand "
                             "(capture/interposer/): declare it [hand_written=capture...]")
        self._add(self.functions, Function(call_id, name, returns, params, header, hand_written),
                  header)

    # -- derived views ------------------------------------------------------

    def interface_chain(self, name: str) -> list[Interface]:
        """The interface and all its bases, IUnknown first."""
        chain = []
        while name:
            iface = self.interfaces[name]
            chain.append(iface)
            name = iface.base
        return list(reversed(chain))

    def finish(self) -> None:
        """Assigns vtable slots and checks that the table hangs together."""
        errors: list[str] = []
        known = self.known_names() | set(PLATFORM_TYPES)
        for iface in self.interfaces.values():
            if iface.base is not None and iface.base not in self.interfaces:
                errors.append(f"{iface.name}: unknown base interface {iface.base}")
                continue
            first = 0 if iface.base is None else sum(
                len(i.methods) for i in self.interface_chain(iface.base))
            for index, method in enumerate(iface.methods):
                method.slot = first + index
        seen_ids: dict[int, str] = {}
        for call in self.all_calls():
            where = call.qualified_name
            if call.call_id in seen_ids:
                errors.append(f"{where}: call id {call.call_id} already used by "
                              f"{seen_ids[call.call_id]}")
            seen_ids[call.call_id] = where
            names = {p.name for p in call.params}
            for t in [call.returns] + [p.type for p in call.params]:
                if t.base not in known:
                    errors.append(f"{where}: unknown type {t.base}")
            for p in call.params:
                for expr in (p.count, p.bytes, p.iid):
                    if expr is None:
                        continue
                    refs = set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", expr))
                    refs = {r for r in refs if not r.isupper() and r not in ("sizeof",)}
                    refs -= {f.name for s in self.structs.values() for f in s.fields}
                    if not refs <= names:
                        errors.append(f"{where}: {p.name} refers to unknown {sorted(refs - names)}")
                if p.enum and p.enum not in self.enums:
                    errors.append(f"{where}: {p.name} names unknown enum {p.enum}")
                if (p.count or p.bytes or p.size_rule) and p.type.pointers == 0:
                    errors.append(f"{where}: {p.name} has a size but is not a pointer")
        for iface in self.interfaces.values():
            for m in iface.methods:
                if m.call_id is None:
                    for t in [m.returns] + [p.type for p in m.params]:
                        if t.base not in known:
                            errors.append(f"{m.qualified_name}: unknown type {t.base}")
        for struct in self.structs.values():
            for f in struct.fields:
                if f.type.base not in known:
                    errors.append(f"{struct.name}.{f.name}: unknown type {f.type.base}")
                if f.enum and f.enum not in self.enums:
                    errors.append(f"{struct.name}.{f.name}: names unknown enum {f.enum}")
        if self.declared_call_count is not None and \
                self.declared_call_count != len(seen_ids):
            errors.append(f"the table declares CALL_COUNT = {self.declared_call_count} "
                          f"but has {len(seen_ids)} calls")
        if errors:
            raise TableError("\n".join(errors))

    def all_calls(self) -> list:
        """Every recorded call: methods with call ids and entry points."""
        calls = [m for i in self.interfaces.values() for m in i.methods if m.call_id is not None]
        calls += list(self.functions.values())
        return sorted(calls, key=lambda c: c.call_id)

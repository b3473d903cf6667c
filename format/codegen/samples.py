"""Generates checks/sample_calls.inc: sample arguments for every call, with their JSON.

One row per call of the table:

    D3DCAP_SAMPLE(CallTypeName,
                  [](flatbuffers::FlatBufferBuilder& b) { ...; return fb::CreateX(b, ...); },
                  R"json(<the JSON append_args_json must print>)json")

The lambda builds the call's parameter table with deterministic values that
differ from the schema defaults, so every field is written and read back:
  integers       index + 1 (index: the parameter's position; a struct's field i
                 gets its struct's index + i; vector/array element j adds j)
  floats         0.5 + index
  enums          a real enumerator (non-zero where there is one); flag enums
                 two single-bit enumerators or'ed together (one if only one)
  object ids     100 + index
  strings        "label-<index>" plus a non-ASCII character (U+00E9)
  char buffers   the bytes of "label-<index>"
  byte blobs     the 3 bytes 01 02 03
  GUIDs          01234567-89ab-cdef-0123-456789abcdef
  vectors        2 elements; fixed arrays fill their first (up to) 4 elements
  structs        every field, recursively (tables: every union member too)

The expected JSON is computed here, independently of the C++ dumper, from the
rules in format/json_text.h.  The .inc file stays ASCII: a non-ASCII byte in
the expected text is written as a "\\xNN" piece between raw string pieces.
"""

from __future__ import annotations

from ..api.model import TableError
from .common import BANNER
from .json_dump import Classifier, Kind, enum_values
from .schema import call_type_name

# XXH3_64bits of the bytes 01 02 03, computed once with libxxhash
# (XXH3_64bits((const uint8_t[]){1, 2, 3}, 3)); Python has no xxhash here.
BLOB = b"\x01\x02\x03"
BLOB_XXH3 = "ebce9b7632ae733b"

GUID = (0x01234567, 0x89AB, 0xCDEF, (0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF))

_CPP_SCALARS = {
    "bool": "bool", "byte": "std::int8_t", "ubyte": "std::uint8_t", "short": "std::int16_t",
    "ushort": "std::uint16_t", "int": "std::int32_t", "uint": "std::uint32_t",
    "long": "std::int64_t", "ulong": "std::uint64_t", "float": "float", "double": "double",
}
_NS = "d3dcap::fb::"


class FixedArray:
    """A fixed array's sample: the first elements set, the rest zero."""

    def __init__(self, length: int, filled: list) -> None:
        self.length = length
        self.filled = filled


class Samples:
    def __init__(self, api) -> None:
        self.api = api
        self.cl = Classifier(api)

    # -- sample values --------------------------------------------------------

    def _enum_sample(self, name: str, index: int) -> int:
        values = [v for v, _ in enum_values(self.api, name)]
        if self.api.enums[name].flags:
            singles = sorted({v for v in values if v and v & (v - 1) == 0})
            if len(singles) >= 2:
                return singles[index % len(singles)] | singles[(index + 1) % len(singles)]
            if singles:
                return singles[0]
        nonzero = [v for v in values if v] or values
        return nonzero[index % len(nonzero)]

    def value(self, kind: Kind, index: int):
        w = kind.what
        if w == "num":
            return 0.5 + index if kind.scalar in ("float", "double") else index + 1
        if w == "object":
            return 100 + index
        if w == "enum":
            return self._enum_sample(kind.enum, index)
        if w == "string":
            return f"label-{index}\u00e9"
        if w == "chars":
            return f"label-{index}"
        if w == "blob":
            return BLOB
        if w == "guid":
            return GUID
        if w == "struct":
            return {m[0]: self.value(m[2], index + i)
                    for i, m in enumerate(self.cl.struct_members(kind.struct))}
        if w == "vector":
            return [self.value(kind.element, index + j) for j in range(2)]
        if w == "array":
            return FixedArray(kind.length, [self.value(kind.element, index + j)
                                            for j in range(min(kind.length, 4))])
        raise TableError(f"samples: no sample for {kind}")

    def zero(self, kind: Kind):
        w = kind.what
        if w in ("num", "object", "enum"):
            return 0.0 if kind.scalar in ("float", "double") else 0
        if w == "guid":
            return (0, 0, 0, (0,) * 8)
        if w == "struct":
            return {m[0]: self.zero(m[2]) for m in self.cl.struct_members(kind.struct)}
        if w == "array":
            return FixedArray(kind.length, [])
        raise TableError(f"samples: no zero value for {kind} in a struct")

    # -- the JSON the dumper must print --------------------------------------

    def enum_json(self, name: str, value: int) -> str:
        values = enum_values(self.api, name)
        for v, n in values:
            if v == value:
                return f'"{n}"'
        if not self.api.enums[name].flags or value == 0:
            return str(value)
        rest, parts = value & 0xFFFFFFFFFFFFFFFF, []
        for v, n in values:
            bits = v & 0xFFFFFFFFFFFFFFFF
            if bits and rest & bits == bits:
                parts.append(n)
                rest &= ~bits
        if rest:
            parts.append(f"0x{rest:x}")
        return '"' + "|".join(parts) + '"'

    def json(self, kind: Kind, value) -> str:
        w = kind.what
        if value is None:
            return "null"
        if w in ("num", "object"):
            return _number(value)
        if w == "enum":
            return self.enum_json(kind.enum, value)
        if w in ("string", "chars"):
            return _json_string(value)
        if w == "blob":
            if value != BLOB:
                raise TableError("samples: only the 01 02 03 blob has a known XXH3")
            return f'{{"size":{len(value)},"xxh3":"{BLOB_XXH3}"}}'
        if w == "guid":
            d1, d2, d3, d4 = value
            tail = "".join(f"{b:02x}" for b in d4[2:])
            return f'"{d1:08x}-{d2:04x}-{d3:04x}-{d4[0]:02x}{d4[1]:02x}-{tail}"'
        if w == "struct":
            items = []
            for c_name, _, member, conditional in self.cl.struct_members(kind.struct):
                if conditional and value.get(c_name) is None:
                    continue
                items.append(f'"{c_name}":{self.json(member, value[c_name])}')
            return "{" + ",".join(items) + "}"
        if w == "vector":
            return "[" + ",".join(self.json(kind.element, v) for v in value) + "]"
        if w == "array":
            padding = [self.zero(kind.element)] * (value.length - len(value.filled))
            elements = value.filled + padding
            return "[" + ",".join(self.json(kind.element, v) for v in elements) + "]"
        raise TableError(f"samples: cannot print {kind}")

    # -- C++ that builds the sample --------------------------------------------

    def _local(self, code: list[str], value: str, const: bool = False) -> str:
        """Declares a local holding value (C++), built before the parameter table."""
        name = f"v{len(code)}"
        code.append(f"{'const ' if const else ''}auto {name} = {value};")
        return name

    def struct_expr(self, kind: Kind, value) -> str:
        """An fbs struct member (or element) by value."""
        w = kind.what
        if w in ("num", "object", "enum"):
            return _literal(kind.scalar, value)
        if w == "guid":
            d1, d2, d3, d4 = value
            data4 = ", ".join(f"{b:#04x}" for b in d4)
            return (f"{_NS}Guid({d1:#010x}u, {d2:#06x}, {d3:#06x}, "
                    f"std::array<std::uint8_t, 8>{{{{{data4}}}}})")
        if w == "struct":
            args = [self.struct_expr(m[2], value[m[0]])
                    for m in self.cl.struct_members(kind.struct)]
            return f"{_NS}{kind.struct}({', '.join(args)})"
        if w == "array":
            element = self._cpp_type(kind.element)
            items = ", ".join(self.struct_expr(kind.element, v) for v in value.filled)
            return f"std::array<{element}, {kind.length}>{{{{{items}}}}}"
        raise TableError(f"samples: {kind} cannot sit in an fbs struct")

    def _cpp_type(self, kind: Kind) -> str:
        if kind.what in ("num", "object", "enum"):
            return _CPP_SCALARS[kind.scalar]
        if kind.what == "guid":
            return f"{_NS}Guid"
        if kind.what == "struct":
            return f"{_NS}{kind.struct}"
        raise TableError(f"samples: no C++ element type for {kind}")

    def table_arg(self, code: list[str], kind: Kind, value) -> str:
        """An argument of a Create<Table>() call; builds what it needs into code."""
        w = kind.what
        if value is None:
            return "0"
        if w in ("num", "object", "enum"):
            return _literal(kind.scalar, value)
        if w == "string":
            return self._local(code, f"b.CreateString({_cpp_string(value)})")
        if w == "chars":
            items = ", ".join(str(ord(c)) for c in value)
            return self._local(code, f"b.CreateVector(std::vector<std::int8_t>{{{items}}})")
        if w == "blob":
            items = ", ".join(str(b) for b in value)
            return self._local(code, f"b.CreateVector(std::vector<std::uint8_t>{{{items}}})")
        if w == "guid" or (w == "struct" and not kind.table):
            expr = self.struct_expr(kind, value)
            return "&" + self._local(code, expr, const=True)
        if w == "struct":
            args = ["b"]
            for c_name, _, member, _ in self.cl.struct_members(kind.struct):
                args.append(self.table_arg(code, member, value.get(c_name)))
            return self._local(code, f"{_NS}Create{kind.struct}({', '.join(args)})")
        if w == "vector":
            e = kind.element
            if e.what in ("num", "object", "enum"):
                items = ", ".join(_literal(e.scalar, v) for v in value)
                return self._local(code, f"b.CreateVector("
                                         f"std::vector<{_CPP_SCALARS[e.scalar]}>{{{items}}})")
            if e.what == "guid" or (e.what == "struct" and not e.table):
                items = ", ".join(self.struct_expr(e, v) for v in value)
                return self._local(code, f"b.CreateVectorOfStructs("
                                         f"std::vector<{self._cpp_type(e)}>{{{items}}})")
            if e.what in ("struct", "string"):
                offsets = ", ".join(self.table_arg(code, e, v) for v in value)
                target = f"{_NS}{e.struct}" if e.what == "struct" else "flatbuffers::String"
                return self._local(code, f"b.CreateVector(std::vector<"
                                         f"flatbuffers::Offset<{target}>>{{{offsets}}})")
        raise TableError(f"samples: cannot build {kind} in a table")

    # -- rows -----------------------------------------------------------------

    def row(self, call) -> str:
        name = call_type_name(call)
        code: list[str] = []
        args = ["b"]
        items = []
        for index, p in enumerate(call.params):
            kind = self.cl.param(p)
            value = self.value(kind, index)
            args.append(self.table_arg(code, kind, value))
            items.append(f'"{p.name}":{self.json(kind, value)}')
        code.append(f"return {_NS}Create{name}({', '.join(args)});")
        body = " ".join(code)
        _check_macro_argument(name, body)
        expected = _raw_literal("{" + ",".join(items) + "}")
        lam = f"[](flatbuffers::FlatBufferBuilder& b) {{ {body} }}"
        return f"D3DCAP_SAMPLE({name},\n    {lam},\n    {expected})"


def _check_macro_argument(call: str, text: str) -> None:
    """The lambda is a macro argument: a comma outside parentheses would split it."""
    depth, in_string = 0, False
    for i, ch in enumerate(text):
        if in_string:
            in_string = not (ch == '"' and text[i - 1] != "\\")
        elif ch == '"':
            in_string = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            raise TableError(f"samples: {call}: a top-level comma would split D3DCAP_SAMPLE")


def _number(value) -> str:
    if isinstance(value, float):
        # The samples are multiples of 0.5 far below 2^24: exact in a float,
        # and std::to_chars prints them as Python does (integers without ".0").
        if value * 2 != int(value * 2) or abs(value) >= 1 << 20:
            raise TableError(f"samples: float sample {value} has no agreed spelling")
        return str(int(value)) if value == int(value) else repr(value)
    return str(value)


def _literal(scalar: str, value) -> str:
    if scalar in ("float", "double"):
        text = repr(float(value))
        return text + "f" if scalar == "float" else text
    if scalar in ("ulong", "long"):
        return f"{value}{'ull' if scalar == 'ulong' else 'll'}"
    if scalar in ("uint", "ushort", "ubyte"):
        return f"{value}u"
    return str(value)


def _json_string(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _cpp_string(text: str) -> str:
    """A C++ string literal of text's UTF-8 bytes, ASCII only."""
    pieces, current = [], []
    for byte in text.encode("utf-8"):
        if 0x20 <= byte < 0x7F and byte not in (ord('"'), ord("\\")):
            current.append(chr(byte))
        else:
            # A hex escape ends its literal piece, so that no digit follows it.
            pieces.append('"' + "".join(current) + f'\\x{byte:02x}"')
            current = []
    if current or not pieces:
        pieces.append('"' + "".join(current) + '"')
    return " ".join(pieces)


def _raw_literal(text: str) -> str:
    """R"json(text)json", with non-ASCII bytes as separate "\\xNN" pieces."""
    pieces, current = [], []
    for byte in text.encode("utf-8"):
        if byte < 0x80:
            current.append(chr(byte))
        else:
            if current:
                pieces.append('R"json(' + "".join(current) + ')json"')
                current = []
            pieces.append(f'"\\x{byte:02x}"')
    if current or not pieces:
        pieces.append('R"json(' + "".join(current) + ')json"')
    return " ".join(pieces)


def generate(api) -> str:
    samples = Samples(api)
    out = [f"// {BANNER}",
           "// D3DCAP_SAMPLE(CallTypeName, build, expected_json) for every call:",
           "// build(flatbuffers::FlatBufferBuilder&) returns the call's parameter table",
           "// (flatbuffers::Offset<d3dcap::fb::CallTypeName>) filled with sample values,",
           "// expected_json is what d3dcap::api::append_args_json prints for it.",
           "// Needs <array>, <cstdint>, <vector> and d3dcap/fb/record_generated.h.",
           "// clang-format off"]
    out += [samples.row(call) for call in api.all_calls()]
    out += ["// clang-format on", ""]
    return "\n".join(out)

"""Generates the JSON dumper of call arguments: d3dcap/api/call_json.h and src/call_json.cpp.

append_args_json(record, out) appends one JSON object with every parameter of
the record's call under its C name, in declaration order.  The value rules
(numbers, enum names, flag sets, blobs as size + XXH3, GUID strings, structs
as objects with their C field names) are documented in format/json_text.h,
which holds the hand-written helpers the generated code calls.

The generated code is one small function per call and per struct, each a
straight line of typed FlatBuffers reads, plus a constant table per enum.

Kind/classify() describe how each parameter and field is stored in the
schema (see schema.py); samples.py uses them too.
"""

from __future__ import annotations

import dataclasses
import re

from ..api.model import TableError
from .common import BANNER, snake_case
from .schema import SchemaBuilder, call_type_name

# The FlatBuffers scalar types the schema uses.
SCALARS = {"bool", "byte", "ubyte", "short", "ushort", "int", "uint", "long", "ulong",
           "float", "double"}

# The schema's prelude structs for platform types: (C field name, fbs field, fbs type).
PLATFORM_STRUCTS = {
    "Luid": [("LowPart", "low_part", "uint"), ("HighPart", "high_part", "int")],
    "Rect": [("left", "left", "int"), ("top", "top", "int"), ("right", "right", "int"),
             ("bottom", "bottom", "int")],
    "Point": [("x", "x", "int"), ("y", "y", "int")],
    "Rational": [("Numerator", "numerator", "uint"), ("Denominator", "denominator", "uint")],
    "SampleDesc": [("Count", "count", "uint"), ("Quality", "quality", "uint")],
}

# HRESULTs the platform headers (DirectX-Headers' wsl/stubs/basetsd.h) define;
# the table's own HRESULT constants (D3D11_ERROR_*, DXGI_STATUS_*, the rest of
# DXGI_ERROR_*) are added from it.
PLATFORM_HRESULTS = [
    ("S_OK", 0x00000000), ("S_FALSE", 0x00000001), ("E_NOTIMPL", 0x80004001),
    ("E_OUTOFMEMORY", 0x8007000E), ("E_INVALIDARG", 0x80070057),
    ("E_NOINTERFACE", 0x80004002), ("E_POINTER", 0x80004003), ("E_HANDLE", 0x80070006),
    ("E_ABORT", 0x80004004), ("E_FAIL", 0x80004005), ("E_ACCESSDENIED", 0x80070005),
    ("E_UNEXPECTED", 0x8000FFFF),
    ("DXGI_ERROR_INVALID_CALL", 0x887A0001), ("DXGI_ERROR_NOT_FOUND", 0x887A0002),
    ("DXGI_ERROR_MORE_DATA", 0x887A0003), ("DXGI_ERROR_UNSUPPORTED", 0x887A0004),
    ("DXGI_ERROR_DEVICE_REMOVED", 0x887A0005), ("DXGI_ERROR_DEVICE_HUNG", 0x887A0006),
    ("DXGI_ERROR_DEVICE_RESET", 0x887A0007), ("DXGI_ERROR_DRIVER_INTERNAL_ERROR", 0x887A0020),
]
_HRESULT_CONSTANT = re.compile(r"\(\(HRESULT\)\s*(0x[0-9A-Fa-f]+)L?\)")

# flatc appends '_' to field accessors that are C++ keywords.
_CPP_KEYWORDS = set("""
    alignas alignof and and_eq asm atomic_cancel atomic_commit atomic_noexcept auto bitand
    bitor bool break case catch char char16_t char32_t class compl concept const constexpr
    const_cast continue co_await co_return co_yield decltype default delete do double
    dynamic_cast else enum explicit export extern false float for friend goto if import
    inline int long module mutable namespace new noexcept not not_eq nullptr operator or
    or_eq private protected public register reinterpret_cast requires return short signed
    sizeof static static_assert static_cast struct switch synchronized template this
    thread_local throw true try typedef typeid typename union unsigned using virtual void
    volatile wchar_t while xor xor_eq""".split())


def accessor(name: str) -> str:
    """The flatc accessor of the field made from C name `name`."""
    field = snake_case(name)
    return field + "_" if field in _CPP_KEYWORDS else field


@dataclasses.dataclass(frozen=True)
class Kind:
    """How one parameter, field or element is stored and printed."""
    what: str                   # num enum object string chars blob guid struct vector array
    scalar: str | None = None   # fbs scalar type (num, enum, object)
    enum: str | None = None     # enum name (enum)
    struct: str | None = None   # fbs struct or table name (struct)
    table: bool = False         # the struct is an fbs table (struct)
    element: "Kind | None" = None   # vector and array elements
    length: int | None = None   # fixed array length (array)


class NeedsStructs:
    """Mixin of the generators that convert structs: notes the conversions a
    kind needs, children first, in self.fb_structs (fbs structs) and
    self.tables (fbs tables); with tables=False, tables are not followed.
    The class sets self.cl (a Classifier), self.sb, self.fb_structs and
    self.tables."""

    def _need(self, kind: "Kind", tables: bool = True) -> None:
        while kind.element is not None:
            kind = kind.element
        if kind.what == "guid":
            if "Guid" not in self.fb_structs:
                self.fb_structs.append("Guid")
            return
        if kind.what != "struct":
            return
        name = kind.struct
        table = name not in PLATFORM_STRUCTS and self.sb.struct_is_table(name)
        if name in self.fb_structs or name in self.tables or (table and not tables):
            return
        for _, _, member, _ in self.cl.struct_members(name):
            self._need(member, tables)
        (self.tables if table else self.fb_structs).append(name)


class Classifier:
    """Maps the table's parameters and struct fields to Kinds, after schema.py."""

    def __init__(self, api) -> None:
        self.api = api
        self.sb = SchemaBuilder(api)

    def _kind(self, fbs: str, base: str, enum: str | None) -> Kind:
        if fbs.startswith("["):
            inner, _, length = fbs[1:-1].partition(":")
            if inner == "byte" and base in ("char", "CHAR"):
                return Kind("chars")
            element = self._kind(inner, base, enum)
            if length:
                return Kind("array", element=element, length=int(length))
            return Kind("vector", element=element)
        if fbs == "string":
            return Kind("string")
        if fbs == "Guid":
            return Kind("guid")
        if fbs in SCALARS:
            if enum or base in self.api.enums:
                return Kind("enum", scalar=fbs, enum=enum or base)
            if self.sb.is_object(base):
                return Kind("object", scalar=fbs)
            return Kind("num", scalar=fbs)
        if fbs in PLATFORM_STRUCTS:
            return Kind("struct", struct=fbs)
        if fbs in self.api.structs:
            return Kind("struct", struct=fbs, table=self.sb.struct_is_table(fbs))
        raise TableError(f"json_dump: no JSON rule for FlatBuffers type {fbs}")

    def param(self, p) -> Kind:
        fbs = self.sb.param_type(p)
        base = self.sb.resolve(p.type.base)
        if p.iid:
            return Kind("object", scalar=fbs)   # void** receiving an interface
        if fbs == "[ubyte]" and (base == "void" or p.bytes or p.size_rule):
            return Kind("blob")
        return self._kind(fbs, base, p.enum)

    def field(self, struct_name: str, f) -> Kind:
        fbs = self.sb.field_type(f, self.sb.struct_is_table(struct_name))
        base = self.sb.resolve(f.type.base)
        if fbs == "[ubyte]" and (base == "void" or f.bytes):
            return Kind("blob")
        return self._kind(fbs, base, f.enum)

    def struct_members(self, name: str) -> list[tuple[str, str, Kind, bool]]:
        """(C name, accessor, kind, conditional) of each field the fbs type holds.

        conditional: a union member of an fbs table, printed only when present.
        In an fbs struct a union's members share one field, named after the first.
        """
        if name in PLATFORM_STRUCTS:
            return [(c, fbs_name, Kind("num", scalar=t), False)
                    for c, fbs_name, t in PLATFORM_STRUCTS[name]]
        table = self.sb.struct_is_table(name)
        seen_unions: set[int] = set()
        members = []
        for f in self.api.structs[name].fields:
            if f.union is not None and not table:
                if f.union in seen_unions:
                    continue
                seen_unions.add(f.union)
            kind = self.field(name, f)
            conditional = table and f.union is not None
            if conditional and kind.what not in ("struct", "guid", "string", "blob",
                                                 "chars", "vector"):
                raise TableError(f"json_dump: {name}.{f.name}: a scalar union member in a "
                                 "table has no presence to test")
            members.append((f.name, accessor(f.name), kind, conditional))
        return members

    def used_structs(self) -> list[str]:
        """The fbs structs and tables the calls reach, each after those it holds."""
        order: list[str] = []

        def visit(kind: Kind) -> None:
            while kind.element is not None:
                kind = kind.element
            if kind.what == "struct" and kind.struct not in order:
                for _, _, member, _ in self.struct_members(kind.struct):
                    visit(member)
                order.append(kind.struct)

        for call in self.api.all_calls():
            for p in call.params:
                visit(self.param(p))
        return order


def enum_values(api, name: str) -> list[tuple[int, str]]:
    """The enumerators as (64-bit comparable value, name), in declaration order."""
    enum = api.enums[name]
    signed = any(v.value.strip().startswith("-") for v in enum.values)
    out = []
    for v in enum.values:
        value = int(v.value, 0)
        if not signed:
            value &= 0xFFFFFFFF
        out.append((value, v.name))
    return out


def hresults(api) -> list[tuple[str, int]]:
    codes = list(PLATFORM_HRESULTS)
    for const in api.constants.values():
        match = _HRESULT_CONSTANT.fullmatch(const.value.replace(" ", ""))
        if match:
            codes.append((const.name, int(match.group(1), 16)))
    seen: dict[int, str] = {}
    for name, value in codes:
        if value in seen:
            raise TableError(f"json_dump: HRESULT {value:#x} named both {seen[value]} and {name}")
        seen[value] = name
    return codes


# ---------------------------------------------------------------------------
# C++ emission

def _key(name: str, first: bool) -> str:
    return f'json::lit(o, "{"{" if first else ","}\\"{name}\\":");'


def _value(kind: Kind, expr: str, in_struct: bool) -> str:
    """A statement printing expr (an fbs accessor call) of this kind.

    in_struct: expr reads an fbs struct, whose nested structs come by reference
    (tables give pointers that may be null).
    """
    w = kind.what
    if w in ("num", "object"):
        return f"json::num(o, {expr});"
    if w == "enum":
        return f"json::enumeration(o, kEnum_{kind.enum}, {expr});"
    if w == "string":
        return f"json::str(o, {expr});"
    if w == "chars":
        return f"json::chars(o, {expr});"
    if w == "blob":
        return f"json::blob(o, {expr});"
    if w in ("guid", "struct"):
        return f"put(o, {expr});" if in_struct else f"put_opt(o, {expr});"
    if w in ("vector", "array"):
        e = kind.element.what
        if e in ("num", "object"):
            return f"json::nums(o, {expr});"
        if e == "enum":
            return f"json::enums(o, kEnum_{kind.element.enum}, {expr});"
        if e == "string":
            return f"json::strs(o, {expr});"
        if e in ("guid", "struct"):
            return f"put_each(o, {expr});"
    raise TableError(f"json_dump: cannot print {kind}")


def _members_body(members, obj: str, in_struct: bool) -> list[str]:
    """Statements printing {"Name":value,...} for (C name, accessor, kind, conditional)."""
    lines = []
    if not members:
        return ['json::lit(o, "{}");']
    fixup = members[0][3]   # first member may be absent: drop a leading comma later
    if fixup:
        lines += ["o.push_back('{');", "const std::size_t start = o.size();"]
    for index, (c_name, acc, kind, conditional) in enumerate(members):
        first = index == 0 and not fixup
        key = _key(c_name, first)
        value = _value(kind, f"{obj}.{acc}()", in_struct)
        if conditional:
            # A table's union member: an optional struct, table, vector or string.
            lines.append(f"if ({obj}.{acc}() != nullptr) {{ {key} {value} }}")
        else:
            lines += [key, value]
    if fixup:
        lines.append("if (o.size() > start && o[start] == ',') o.erase(start, 1);")
    lines.append("o.push_back('}');")
    return lines


def generate_header(api) -> str:
    return f"""// {BANNER}
#pragma once

#include <d3dcap/fb/record_generated.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace d3dcap::api {{

// Appends the arguments of the record's call as one JSON object to out.
void append_args_json(const fb::Record& record, std::string& out);

// The name of an HRESULT ("S_OK", "E_INVALIDARG", ...), or empty.
std::string_view hresult_name(std::int32_t hr);

// An enumerator by its enum's name and value ("D3D11_CULL_MODE", 3:
// "D3D11_CULL_BACK"), as JSON prints it; the number for a value the enum
// does not name, flags joined with '|'.
std::string enum_text(std::string_view enum_name, std::int64_t value);

}}  // namespace d3dcap::api
"""


def generate_source(api) -> str:
    cl = Classifier(api)
    structs = cl.used_structs()
    out = [f"// {BANNER}",
           "#include <d3dcap/api/call_dispatch.h>",
           "#include <d3dcap/api/call_json.h>",
           "",
           '#include "json_text.h"',
           "",
           "#include <type_traits>",
           "#include <utility>",
           "",
           "namespace d3dcap::api {",
           "namespace {",
           "",
           "// clang-format off",
           "// Enumerators, in declaration order."]
    for name in api.enums:
        values = ", ".join(f'{{{v}, "{n}"}}' for v, n in enum_values(api, name))
        out.append(f"constexpr json::EnumValue kEnumValues_{name}[] = {{{values}}};")
        out.append(f"[[maybe_unused]] constexpr json::Enum kEnum_{name}{{kEnumValues_{name}, "
                   f"{len(api.enums[name].values)}, {str(api.enums[name].flags).lower()}}};")
    out += ["", "// Structs (fbs structs by reference, tables by pointer).",
            "void put(std::string& o, const fb::Guid& v) {",
            "    json::guid(o, v.data1(), v.data2(), v.data3(), v.data4()->data());",
            "}"]
    out += [f"void put(std::string& o, const fb::{s}& v);" for s in structs]
    out += ["",
            "template <typename T>",
            "void put_opt(std::string& o, const T* v) {",
            "    if (v == nullptr) json::null(o); else put(o, *v);",
            "}",
            "",
            "// A vector (may be absent) or fixed array of structs or tables.",
            "template <typename Sequence>",
            "void put_each(std::string& o, const Sequence* values) {",
            "    if (values == nullptr) { json::null(o); return; }",
            "    o.push_back('[');",
            "    for (std::uint32_t i = 0, n = values->size(); i < n; ++i) {",
            "        if (i != 0) o.push_back(',');",
            "        put(o, *values->Get(i));",
            "    }",
            "    o.push_back(']');",
            "}",
            ""]
    for s in structs:
        in_struct = s in PLATFORM_STRUCTS or not cl.sb.struct_is_table(s)
        body = _members_body(cl.struct_members(s), "v", in_struct)
        out.append(f"void put(std::string& o, const fb::{s}& v) {{")
        out += [f"    {line}" for line in body]
        out.append("}")
    out += ["", "// Calls."]
    for call in api.all_calls():
        name = call_type_name(call)
        members = [(p.name, accessor(p.name), cl.param(p), False) for p in call.params]
        body = _members_body(members, "t", False)
        unused = "" if call.params else " [[maybe_unused]]"
        out.append(f"void args(std::string& o,{unused} const fb::{name}& t) {{")
        out += [f"    {line}" for line in body]
        out.append("}")
    out += ["// clang-format on",
            "",
            "}  // namespace",
            "",
            "void append_args_json(const fb::Record& record, std::string& out) {",
            "    if (record.header() == nullptr) {",
            '        json::lit(out, "{}");',
            "        return;",
            "    }",
            "    visit_call(record, [&out](auto params) {",
            "        if constexpr (std::is_same_v<decltype(params), std::nullptr_t>) {",
            '            json::lit(out, "{}");',
            "        } else if (params == nullptr) {",
            '            json::lit(out, "{}");',
            "        } else {",
            "            args(out, *params);",
            "        }",
            "    });",
            "}",
            "",
            "std::string enum_text(std::string_view enum_name, std::int64_t value) {",
            "    static constexpr std::pair<std::string_view, const json::Enum*> kEnums[] = {"]
    out += [f'        {{"{name}", &kEnum_{name}}},' for name in api.enums]
    out += ["    };",
            "    std::string text;",
            "    for (const auto& [name, e] : kEnums) {",
            "        if (name != enum_name) continue;",
            "        json::enumeration(text, *e, value);",
            "        // JSON quotes names; a plain number stays as it is.",
            "        if (text.size() >= 2 && text.front() == '\"') text = text.substr(1, text.size() - 2);",
            "        return text;",
            "    }",
            "    return std::to_string(value);",
            "}",
            "",
            "std::string_view hresult_name(std::int32_t hr) {",
            "    switch (static_cast<std::uint32_t>(hr)) {"]
    for hr_name, value in hresults(api):
        out.append(f'        case {value:#010x}u: return "{hr_name}";')
    out += ["        default: return {};",
            "    }",
            "}",
            "",
            "}  // namespace d3dcap::api",
            ""]
    return "\n".join(out)

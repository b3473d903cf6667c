"""Generates the call encoders: d3dcap/api/call_encoders.h and src/call_encoders.cpp.

The capture layer calls encode_<Interface>_<Method>(builder, ids, <the C
arguments>) right after the real call.  It builds the call's FlatBuffers
parameter table (schema.py) from the C arguments:

  scalars, enums      as they are (enums as integers; handles as their value,
                      LARGE_INTEGER as QuadPart)
  objects             ids.id_of(object); NULL is 0
  arrays              count= evaluated in C++ from the other arguments; a
                      count read through a pointer (*pNumViewports) is read
                      after the call, and a NULL count pointer leaves the
                      array absent
  bytes= blobs        [ubyte] of that many bytes
  strings             LPCSTR as it is, LPCWSTR (wchar_t, UTF-32 on Linux) as UTF-8
  structs             fbs structs built directly, tables bottom-up; the view
                      descriptions' unions keep only the member their
                      ViewDimension selects
  out / inout         what they point to after the call
  NULL pointers       absent fields (scalars read through them stay 0)
  REFIID/REFGUID      fb::Guid

Every call gets an encoder, hand-written ones too (code written by hand calls
it).  An iid= out parameter is
recorded as the id of the object it received.  A size=RULE parameter takes its
sizes from the caller, which applies the hand-written rule: an extra argument
<name>_bytes (std::size_t for a blob, std::span<const std::size_t> with one
size per element for an array of structs such as D3D11_SUBRESOURCE_DATA).
Parameters of platform types with a size rule (SECURITY_ATTRIBUTES) are
recorded absent; kUnrecordedParams lists them.

Record templates: for a void call whose parameters are all in scalars,
objects, inline structs, strings, blobs or arrays of scalars or objects,
shape_<Call>(shape, <the C arguments>) states what lays its record out (NULL
pointers, lengths) and patch_<Call>(table, ids, <the C arguments>) writes the
arguments into a record of that shape built with every scalar present; the
capture layer keeps a thread's last record of each call and patches it when
the next call has the same shape.
"""

from __future__ import annotations

import dataclasses
import re

from ..api.model import TableError
from . import encoder_cpp as cpp
from .common import BANNER, snake_case
from .json_dump import Classifier, Kind, NeedsStructs, accessor
from .schema import call_type_name

_CPP_SCALARS = {
    "bool": "bool", "byte": "std::int8_t", "ubyte": "std::uint8_t", "short": "std::int16_t",
    "ushort": "std::uint16_t", "int": "std::int32_t", "uint": "std::uint32_t",
    "long": "std::int64_t", "ulong": "std::uint64_t", "float": "float", "double": "double",
}

# The C type behind each of the schema's prelude structs.
_PLATFORM_C_TYPES = {"Guid": "GUID", "Luid": "LUID", "Rect": "RECT", "Point": "POINT",
                     "Rational": "DXGI_RATIONAL", "SampleDesc": "DXGI_SAMPLE_DESC"}

_WIDE_STRINGS = {"LPCWSTR", "LPWSTR", "WCHAR"}

# Sizes the table cannot state: a struct field's byte count that follows
# from another parameter of the call.  (call, parameter, field) -> C++ size.
_FIELD_SIZES = {
    ("ID3D11Device_CreateBuffer", "pInitialData", "pSysMem"): "pDesc->ByteWidth",
}

# Enumerator prefixes of platform enums (d3dcommon.h) that select union members.
_PLATFORM_ENUM_PREFIXES = {"D3D_SRV_DIMENSION": "D3D11_SRV_DIMENSION_"}

# Names the generated encoders use for themselves.
_RESERVED = {"b", "ids", "t", "fb_value"}

_SIZE = "static_cast<std::size_t>"


@dataclasses.dataclass
class Unrecorded:
    call: str
    param: str
    reason: str


def _size_expr(expr: str, names: set[str]) -> tuple[str, list[str]]:
    """A count/bytes expression as C++ and the pointer parameters it reads through."""
    guards = []
    for name in re.findall(r"\*\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*->", expr):
        name = name[0] or name[1]
        if name in names and name not in guards:
            guards.append(name)
    return f"{_SIZE}({expr})", guards


def _guarded(guards: list[str], value: str, otherwise: str) -> str:
    if not guards:
        return value
    condition = " && ".join(f"{g} != nullptr" for g in guards)
    return f"{condition} ? {value} : {otherwise}"


class Encoders(NeedsStructs):
    def __init__(self, api) -> None:
        self.api = api
        self.cl = Classifier(api)
        self.sb = self.cl.sb
        self.unrecorded: list[Unrecorded] = []
        self.fb_structs: list[str] = []   # fbs structs needing to_fb(), children first
        self.tables: list[str] = []       # fbs tables needing table(), children first

    # -- what is generated ---------------------------------------------------

    def calls(self) -> list:
        return list(self.api.all_calls())

    def _c_type(self, fbs_struct: str) -> str:
        return _PLATFORM_C_TYPES.get(fbs_struct, fbs_struct)

    # -- fbs structs -------------------------------------------------------------

    def _struct_value(self, kind: Kind, expr: str) -> str:
        """A C value (expr) as an fbs struct member or constructor argument."""
        w = kind.what
        if w in ("num", "enum"):
            return f"scalar<{_CPP_SCALARS[kind.scalar]}>({expr})"
        if w in ("guid", "struct"):
            return f"to_fb({expr})"
        if w == "array":
            e = kind.element
            if e.what in ("num", "enum"):
                element = _CPP_SCALARS[e.scalar]
            elif e.what in ("guid", "struct"):
                element = f"fb::{'Guid' if e.what == 'guid' else e.struct}"
            else:
                raise TableError(f"encoders: no rule for an array of {e.what} in a struct")
            return f"array_of<{element}, {kind.length}>({expr})"
        raise TableError(f"encoders: no rule for {w} in an fbs struct")

    def to_fb_function(self, name: str) -> list[str]:
        c_type = self._c_type(name)
        if name == "Guid":
            return ["fb::Guid to_fb(const GUID& v) {",
                    "    return fb::Guid(v.Data1, v.Data2, v.Data3, "
                    "flatbuffers::span<const std::uint8_t, 8>(v.Data4));",
                    "}"]
        args = [self._struct_value(kind, f"v.{c_name}")
                for c_name, _, kind, _ in self.cl.struct_members(name)]
        return [f"fb::{name} to_fb(const {c_type}& v) {{",
                f"    return fb::{name}({', '.join(args)});",
                "}"]

    # -- fbs tables ------------------------------------------------------------

    def _unknown_size_fields(self, name: str) -> list[str]:
        """Pointer fields whose byte size the table does not give (sized by the caller)."""
        out = []
        for f in self.api.structs[name].fields:
            kind = self.cl.field(name, f)
            if kind.what == "blob" and not f.bytes:
                out.append(f.name)
        return out

    def _table_signature(self, name: str) -> str:
        extra = "".join(f", std::size_t {snake_case(f)}_bytes"
                        for f in self._unknown_size_fields(name))
        return (f"flatbuffers::Offset<fb::{name}> table(flatbuffers::FlatBufferBuilder& b, "
                f"const {name}& v{extra})")

    def _union_cases(self, name: str) -> tuple[str, dict[str, str]]:
        """The discriminating field of a table's union and each member's case label."""
        struct = self.api.structs[name]
        fields = {f.name: f for f in struct.fields}
        if "ViewDimension" not in fields:
            raise TableError(f"encoders: {name}: a union in a table needs a rule that picks "
                             "its member (only ViewDimension is known)")
        enum = self.sb.resolve(fields["ViewDimension"].type.base)
        labels = {}
        for f in struct.fields:
            if f.union is None:
                continue
            suffix = f.name.upper()
            if enum in self.api.enums:
                matches = [v.name for v in self.api.enums[enum].values
                           if v.name.endswith("_" + suffix)
                           and v.name[:-len(suffix) - 1].endswith("DIMENSION")]
                if len(matches) != 1:
                    raise TableError(f"encoders: {name}.{f.name}: no single {enum} "
                                     f"enumerator selects it ({matches})")
                labels[f.name] = matches[0]
            elif enum in _PLATFORM_ENUM_PREFIXES:
                labels[f.name] = _PLATFORM_ENUM_PREFIXES[enum] + suffix
            else:
                raise TableError(f"encoders: {name}: no enumerators known for {enum}")
        return "ViewDimension", labels

    def table_function(self, name: str) -> list[str]:
        struct = self.api.structs[name]
        pre: list[str] = []
        adds: list[str] = []
        union_adds: dict[str, str] = {}
        for f in struct.fields:
            kind = self.cl.field(name, f)
            field = accessor(f.name)
            add = f"t.add_{field}"
            local = f"{snake_case(f.name)}_offset"
            value = f"v.{f.name}"
            base = self.sb.resolve(f.type.base)
            statement = None
            if kind.what in ("num", "enum"):
                statement = f"{add}(scalar<{_CPP_SCALARS[kind.scalar]}>({value}));"
            elif kind.what in ("guid", "struct") and not kind.table:
                if f.type.pointers:
                    statement = (f"if ({value} != nullptr) {{ const auto fb_value = "
                                 f"to_fb(*{value}); {add}(&fb_value); }}")
                else:
                    statement = f"{{ const auto fb_value = to_fb({value}); {add}(&fb_value); }}"
            elif kind.what == "struct":
                if f.type.pointers:
                    pre.append(f"const auto {local} = {value} != nullptr ? table(b, *{value}) "
                               f": flatbuffers::Offset<fb::{kind.struct}>();")
                else:
                    pre.append(f"const auto {local} = table(b, {value});")
                statement = f"{add}({local});"
            elif kind.what == "string":
                if base in _WIDE_STRINGS:
                    if f.array is not None:
                        pre.append(f"const auto {local} = wide_string(b, {value}, {f.array});")
                    else:
                        pre.append(f"const auto {local} = wide_string(b, {value});")
                elif f.array is not None:
                    pre.append(f"const auto {local} = narrow_string(b, {value}, {f.array});")
                else:
                    pre.append(f"const auto {local} = narrow_string(b, {value});")
                statement = f"{add}({local});"
            elif kind.what == "blob":
                size = (f"{_SIZE}(v.{f.bytes})" if f.bytes
                        else f"{snake_case(f.name)}_bytes")
                pre.append(f"const auto {local} = blob(b, {value}, {size});")
                statement = f"{add}({local});"
            elif (kind.what == "vector" and kind.element.what != "object" and f.count
                  and re.fullmatch(r"\w+", f.count)):
                pre.append(f"const auto {local} = "
                           f"{self._vector_call(kind, value, f'{_SIZE}(v.{f.count})')};")
                statement = f"{add}({local});"
            else:
                raise TableError(f"encoders: {name}.{f.name}: no rule for {kind.what} in a table")
            if f.union is not None:
                union_adds[f.name] = statement
            else:
                adds.append(statement)
        lines = [f"{self._table_signature(name)} {{"]
        lines += [f"    {line}" for line in pre]
        lines.append(f"    fb::{name}Builder t(b);")
        lines += [f"    {line}" for line in adds]
        if union_adds:
            selector, labels = self._union_cases(name)
            lines.append(f"    switch (v.{selector}) {{")
            for member, statement in union_adds.items():
                lines.append(f"        case {labels[member]}: {statement} break;")
            lines += ["        default: break;", "    }"]
        lines += ["    return t.Finish();", "}"]
        return lines

    # -- parameters --------------------------------------------------------------

    def _vector_call(self, kind: Kind, data: str, count: str) -> str:
        e = kind.element
        if e.what in ("num", "enum"):
            return f"scalars<{_CPP_SCALARS[e.scalar]}>(b, {data}, {count})"
        if e.what == "object":
            return f"object_ids(b, ids, {data}, {count})"
        if e.what == "guid" or (e.what == "struct" and not e.table):
            fbs = "Guid" if e.what == "guid" else e.struct
            return f"structs<fb::{fbs}>(b, {data}, {count})"
        if e.what == "string":
            raise TableError("encoders: no rule for an array of strings")
        return f"tables(b, {data}, {count}, [&b](const auto& v) {{ return table(b, v); }})"

    def param(self, call, p, names: set[str]) -> tuple[list[str], list[str], bool]:
        """(statements before the builder, statements adding the field, uses ids)."""
        kind = self.cl.param(p)
        field = accessor(p.name)
        add = f"t.add_{field}"
        local = f"{snake_case(p.name)}_offset"
        base = self.sb.resolve(p.type.base)
        call_name = call_type_name(call)
        w = kind.what
        if p.size_rule and w == "blob":
            return [f"const auto {local} = blob(b, {p.name}, {snake_case(p.name)}_bytes);"], \
                [f"{add}({local});"], False
        if p.size_rule and w == "vector" and kind.element.what == "struct":
            self._need(kind)
            return [f"const auto {local} = {self._sized_table_vector(call_name, p)};"], \
                [f"{add}({local});"], False
        if p.size_rule:
            self.unrecorded.append(Unrecorded(call_name, p.name,
                                              f"{p.type.base} with size rule '{p.size_rule}' "
                                              "is not recorded"))
            return [], [], False
        if p.iid:
            return [], [f"if ({p.name} != nullptr) {add}(object_id(ids, *{p.name}));"], True
        self._need(kind)
        if w == "object":
            if p.type.pointers == 1:
                return [], [f"{add}(object_id(ids, {p.name}));"], True
            return [], [f"if ({p.name} != nullptr) {add}(object_id(ids, *{p.name}));"], True
        if w in ("num", "enum"):
            cpp = _CPP_SCALARS[kind.scalar]
            if p.type.pointers == 0:
                return [], [f"{add}(scalar<{cpp}>({p.name}));"], False
            return [], [f"if ({p.name} != nullptr) {add}(scalar<{cpp}>(*{p.name}));"], False
        if w == "guid" or (w == "struct" and not kind.table):
            if p.type.pointers == 0:
                return [], [f"{{ const auto fb_value = to_fb({p.name}); {add}(&fb_value); }}"], \
                    False
            return [], [f"if ({p.name} != nullptr) {{ const auto fb_value = to_fb(*{p.name}); "
                        f"{add}(&fb_value); }}"], False
        if w == "struct":
            unknown = "".join(", kUnknownSize" for _ in self._unknown_size_fields(kind.struct))
            value = (f"{p.name} != nullptr ? table(b, *{p.name}{unknown}) "
                     f": flatbuffers::Offset<fb::{kind.struct}>()")
            return [f"const auto {local} = {value};"], [f"{add}({local});"], False
        if w == "string":
            helper = "wide_string" if base in _WIDE_STRINGS else "narrow_string"
            return [f"const auto {local} = {helper}(b, {p.name});"], [f"{add}({local});"], False
        if w == "blob":
            size, guards = _size_expr(p.bytes, names)
            data = _guarded(guards, p.name, "nullptr")
            count = _guarded(guards, size, "0")
            return [f"const auto {local} = blob(b, {data}, {count});"], [f"{add}({local});"], \
                False
        if w in ("vector", "chars"):
            if p.array is not None:
                data, count = p.name, str(p.array)
            elif p.count:
                size, guards = _size_expr(p.count, names)
                data = _guarded(guards, p.name, "nullptr")
                count = _guarded(guards, size, "0")
            else:
                raise TableError(f"encoders: {call.qualified_name}: {p.name}: an array "
                                 "without count= or a fixed size")
            if w == "chars":
                kind = Kind("vector", element=Kind("num", scalar="byte"))
            elem = kind.element
            if elem.what == "struct" and elem.table:
                vector = self._table_vector(call_name, p, data, count, names)
            else:
                vector = self._vector_call(kind, data, count)
            uses_ids = elem.what == "object"
            return [f"const auto {local} = {vector};"], [f"{add}({local});"], uses_ids
        raise TableError(f"encoders: {call.qualified_name}: {p.name}: no rule for {w}")

    def _sized_table_vector(self, call_name: str, p) -> str:
        """Structs whose count and blob sizes come from a size rule (one size each)."""
        struct = self.sb.resolve(p.type.base)
        blobs = self._unknown_size_fields(struct)
        if len(blobs) != 1:
            raise TableError(f"encoders: {call_name}: {p.name}: a size rule needs exactly one "
                             f"unsized blob in {struct} (found {blobs})")
        sizes = f"{snake_case(p.name)}_bytes"
        return (f"{p.name} == nullptr ? flatbuffers::Offset<flatbuffers::Vector<"
                f"flatbuffers::Offset<fb::{struct}>>>() : sized_tables(b, {p.name}, {sizes}, "
                f"[&b](const {struct}& v, std::size_t size) {{ return table(b, v, size); }})")

    def _table_vector(self, call_name: str, p, data: str, count: str, names: set[str]) -> str:
        struct = self.sb.resolve(p.type.base)
        extra = []
        for f in self._unknown_size_fields(struct):
            size = _FIELD_SIZES.get((call_name, p.name, f))
            if size is None:
                raise TableError(f"encoders: {call_name}: {p.name}: the size of "
                                 f"{struct}.{f} is unknown (add it to _FIELD_SIZES)")
            expr, guards = _size_expr(size, names)
            extra.append(_guarded(guards, expr, "kUnknownSize"))
        args = "".join(f", {e}" for e in extra)
        capture = "&" if extra else "&b"
        return (f"tables(b, {data}, {count}, [{capture}](const {struct}& v) "
                f"{{ return table(b, v{args}); }})")

    # -- calls -------------------------------------------------------------------

    def signature(self, call, definition: bool, uses_ids: bool = True) -> str:
        name = call_type_name(call)
        params = ["flatbuffers::FlatBufferBuilder& b",
                  "ObjectIds& ids" if uses_ids or not definition else "ObjectIds& /*ids*/"]
        for p in call.params:
            params.append(p.c_decl())
        for p in call.params:
            extra = self._size_argument(p)
            if extra:
                params.append(extra)
        return (f"flatbuffers::Offset<fb::{name}> encode_{name}({', '.join(params)})")

    def _size_argument(self, p) -> str | None:
        """The extra argument of a size=RULE parameter that is recorded."""
        if not p.size_rule:
            return None
        kind = self.cl.param(p)
        name = f"{snake_case(p.name)}_bytes"
        if kind.what == "blob":
            return f"std::size_t {name}"
        if kind.what == "vector" and kind.element.what == "struct":
            return f"std::span<const std::size_t> {name}"
        return None

    def encoder(self, call) -> list[str]:
        names = {p.name for p in call.params}
        clash = names & (_RESERVED | {f"{snake_case(n)}_offset" for n in names})
        if clash:
            raise TableError(f"encoders: {call.qualified_name}: parameter names {sorted(clash)} "
                             "collide with the encoder's own names")
        pre: list[str] = []
        adds: list[str] = []
        uses_ids = False
        for p in call.params:
            before, add, ids = self.param(call, p, names)
            pre += before
            adds += add
            uses_ids = uses_ids or ids
        name = call_type_name(call)
        lines = [f"{self.signature(call, True, uses_ids)} {{"]
        lines += [f"    {line}" for line in pre]
        lines.append(f"    fb::{name}Builder t(b);")
        lines += [f"    {line}" for line in adds]
        lines += ["    return t.Finish();", "}"]
        return lines


    # -- record templates --------------------------------------------------------

    def patcher(self, call) -> tuple[list[str], list[str]] | None:
        """(shape statements, patch statements) of a call whose record the
        capture layer may patch in place, or None: void calls whose every
        parameter is an in scalar, object, inline struct, string, blob or array
        of scalars or objects (no tables, no out values, no size rules), and
        not captured by hand."""
        if call.hand_written.capture or call.returns.text.strip() != "void":
            return None
        names = {p.name for p in call.params}
        shape: list[str] = []
        patch: list[str] = []
        for p in call.params:
            if p.direction != "in" or p.size_rule or p.iid:
                return None
            kind = self.cl.param(p)
            field = accessor(p.name)
            w = kind.what

            def value_or_pointee(write: str) -> None:
                # write: a statement with {v} for the value; a pointer's NULL
                # is part of the shape.
                if p.type.pointers == 0:
                    patch.append(write.format(v=p.name))
                    return
                shape.append(f"if (!shape.add({p.name} != nullptr)) return false;")
                patch.append(f"if ({p.name} != nullptr) " + write.format(v=f"*{p.name}"))

            if w in ("num", "enum"):
                value_or_pointee(f"t.mutate_{field}(scalar<{_CPP_SCALARS[kind.scalar]}>({{v}}));")
            elif w == "object":
                if p.type.pointers != 1:
                    return None
                patch.append(f"t.mutate_{field}(object_id(ids, {p.name}));")
            elif w == "guid" or (w == "struct" and not kind.table):
                if p.array is not None:
                    return None
                value_or_pointee(f"*t.mutable_{field}() = to_fb({{v}});")
            elif w == "string":
                wide = self.sb.resolve(p.type.base) in _WIDE_STRINGS
                length = "ascii_length" if wide else "narrow_length"
                shape.append(f"if (!shape.add_string({p.name}, &{length})) return false;")
                patch.append(f"if ({p.name} != nullptr) patch_text(t.mutable_{field}(), "
                             f"{p.name});")
            elif w in ("blob", "vector", "chars"):
                if w == "blob":
                    size, guards = _size_expr(p.bytes, names)
                elif p.array is not None:
                    size, guards = str(p.array), []
                elif p.count:
                    size, guards = _size_expr(p.count, names)
                else:
                    return None
                data = _guarded(guards, p.name, "nullptr")
                count = _guarded(guards, size, "kUnknownSize")
                shape.append(f"if (!shape.add_array({data}, {count})) return false;")
                if w == "blob":
                    patch.append(f"if ({data} != nullptr) patch_bytes(t.mutable_{field}(), "
                                 f"{data});")
                    continue
                elem = Kind("num", scalar="byte") if w == "chars" else kind.element
                if elem.what in ("num", "enum"):
                    cpp = _CPP_SCALARS[elem.scalar]
                    patch.append(f"if ({data} != nullptr) patch_scalars<{cpp}>("
                                 f"t.mutable_{field}(), {data});")
                elif elem.what == "object":
                    patch.append(f"if ({data} != nullptr) patch_ids(t.mutable_{field}(), ids, "
                                 f"{data});")
                else:
                    return None
            else:
                return None
        return shape, patch

    def _patch_params(self, call) -> str:
        return "".join(f", [[maybe_unused]] {p.c_decl()}" for p in call.params)

    def shape_signature(self, call) -> str:
        return (f"bool shape_{call_type_name(call)}([[maybe_unused]] RecordShape& shape"
                f"{self._patch_params(call)})")

    def patch_signature(self, call) -> str:
        name = call_type_name(call)
        return (f"void patch_{name}([[maybe_unused]] fb::{name}& t, [[maybe_unused]] ObjectIds& ids"
                f"{self._patch_params(call)})")

    def patch_functions(self, call) -> list[str]:
        found = self.patcher(call)
        if found is None:
            return []
        shape, patch = found
        lines = [f"{self.shape_signature(call)} {{"]
        lines += [f"    {line}" for line in shape]
        lines += ["    return true;", "}", f"{self.patch_signature(call)} {{"]
        lines += [f"    {line}" for line in patch]
        lines.append("}")
        return lines


# ---------------------------------------------------------------------------
# Output

def _call_id(call) -> str:
    return f"CallId::{call_type_name(call)}"


def generate_header(api) -> str:
    enc = Encoders(api)
    calls = enc.calls()
    for call in calls:
        enc.encoder(call)   # collects the unrecorded parameters
    out = [f"// {BANNER}",
           "// Encoders of call parameters for the capture layer: encode_<Call>(builder, ids,",
           "// <the C arguments>) builds fb::<Call> from the arguments of a call that has",
           "// just returned, so out parameters hold their results.  Rules: see",
           "// format/codegen/encoders.py.  Sizes read through pointers (*pDataSize,",
           "// *pNumViewports) are read after the call: pass an out buffer only when the",
           "// call filled it (e.g. NULL after a failed HRESULT), so that such a size never",
           "// exceeds the buffer.",
           "#pragma once",
           "",
           "#include <d3d11_4.h>",
           "#include <d3dcap/api/calls.h>",
           "#include <d3dcap/fb/calls_generated.h>",
           "#include <dxgi1_6.h>",
           "",
           "#include <array>",
           "#include <cstdint>",
           "#include <span>",
           "#include <string>",
           "#include <string_view>",
           "",
           "namespace d3dcap::api {",
           "",
           "// The capture layer's map from application objects (wrappers) to trace",
           "// object ids.  The encoders never pass NULL; NULL would be 0.",
           "struct ObjectIds {",
           "    virtual std::uint64_t id_of(const void* object) = 0;",
           "",
           "protected:",
           "    ~ObjectIds() = default;",
           "};",
           "",
           "// UTF-8 of a wchar_t string (UTF-32 on Linux).  Units that are not Unicode",
           "// scalar values (surrogates, above U+10FFFF, negative) become U+FFFD.",
           "std::string WideToUtf8(std::wstring_view text);",
           "",
           "// clang-format off"]
    for call in calls:
        out.append(f"{enc.signature(call, False)};")
    out += ["// clang-format on", "", cpp.RECORD_SHAPE, "// clang-format off"]
    patched = [c for c in calls if enc.patcher(c) is not None]
    for call in patched:
        out.append(f"{enc.shape_signature(call)};")
        out.append(f"{enc.patch_signature(call)};")
    out += ["",
            "// The calls that have a generated encoder, by id.",
            f"inline constexpr std::array<CallId, {len(calls)}> kEncodedCalls{{{{"]
    out += [f"    {_call_id(c)}," for c in calls]
    out += ["}};", "",
            "// Parameters the generated encoders leave absent, and why.",
            "struct UnrecordedParam {",
            "    CallId call;",
            "    std::string_view param;",
            "    std::string_view reason;",
            "};",
            f"inline constexpr std::array<UnrecordedParam, {len(enc.unrecorded)}> "
            "kUnrecordedParams{{"]
    out += [f'    UnrecordedParam{{CallId::{u.call}, "{u.param}", "{u.reason}"}},'
            for u in enc.unrecorded]
    out += ["}};", "",
            "// EncoderOf<id>::function is the call's generated encoder, where it has one.",
            "template <CallId id>",
            "struct EncoderOf {",
            "    static constexpr bool generated = false;",
            "};"]
    for call in calls:
        out.append(f"template <> struct EncoderOf<{_call_id(call)}> {{ static constexpr bool "
                   f"generated = true; static constexpr auto function = "
                   f"&encode_{call_type_name(call)}; }};")
    out += ["// clang-format on", "", "}  // namespace d3dcap::api", ""]
    return "\n".join(out)





def generate_source(api) -> str:
    enc = Encoders(api)
    encoders = [enc.encoder(call) for call in enc.calls()]   # also collects the structs
    out = [f"// {BANNER}",
           "#include <d3dcap/api/call_encoders.h>",
           "",
           "#include <array>",
           "#include <cstddef>",
           "#include <cstdint>",
           "#include <cstring>",
           "#include <string>",
           "#include <type_traits>",
           "#include <vector>",
           "",
           "namespace d3dcap::api {",
           cpp.WIDE_TO_UTF8,
           "namespace {",
           cpp.HELPERS,
           "// clang-format off",
           "// C structs as fbs structs."]
    out += [f"fb::{s} to_fb(const {enc._c_type(s)}& v);" for s in enc.fb_structs]
    out.append("// clang-format on")
    out.append(cpp.SEQUENCE_HELPERS)
    out.append(cpp.PATCH_HELPERS)
    out += ["// clang-format off"]
    for s in enc.fb_structs:
        out += enc.to_fb_function(s)
    out += ["", "// C structs as fbs tables."]
    out += [f"{enc._table_signature(s)};" for s in enc.tables]
    for s in enc.tables:
        out += enc.table_function(s)
    out += ["", "}  // namespace", "", "// Calls."]
    for lines in encoders:
        out += lines
    out += ["", "// Record templates."]
    for call in enc.calls():
        out += enc.patch_functions(call)
    out += ["// clang-format on", "", "}  // namespace d3dcap::api", ""]
    return "\n".join(out)

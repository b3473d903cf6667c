"""Generates the call decoders: d3dcap/api/call_decoders.h and src/call_decoders.cpp.

The replay engine hands a recorded call to invoke_call(record, ctx).  The
generated invoke_<Interface>_<Method>(self, params, ctx) builds the C
arguments from the call's parameter table (schema.py), the inverse of
encoders.py, makes the call through the standard API and registers the
objects it handed out:

  scalars, enums      as they are (handles from their value, LARGE_INTEGER
                      from QuadPart); a value a C enum type cannot hold is
                      a decode error (EnumRange), not undefined behaviour
  objects             ctx.objects.find(id, IID of the parameter's interface);
                      0 is NULL, an unknown id is a decode error naming the
                      parameter and the id
  arrays              count= evaluated in 64 bits from the decoded arguments
                      (and fixed sizes); the recorded vector must hold at
                      least that many elements; copied into the arena; an
                      absent one is NULL, an error where the API forbids
                      NULL and the call would read through it
  bytes= blobs        a pointer into the record (no copy); the blob must hold
                      at least that many bytes
  size= blobs         a pointer into the record; the hand-written rule
                      (SizeRules, implemented by the replay engine) checks
                      that the blob covers what the call reads
  strings             LPCSTR as it is, LPCWSTR from UTF-8 to wchar_t
  structs, tables     converted into the arena; absent is NULL
  out / inout         storage in the arena (inout starts at the recorded
                      value), at most kMaxOutBytes per parameter; an out
                      object whose recorded id is 0 is passed
                      as NULL, so that the call creates nothing; after the
                      call every out object goes to ctx.objects.add(id, ...)
  REFIID/REFGUID      from fb::Guid

Calls replayed by hand ([hand_written=replay(WHY)] in the table, listed in
kHandWrittenReplays) get no invoker: the engine has code for them.  Calls that
cannot be replayed from what a trace holds get none either; kNotReplayed says
why, from rules on their parameters.
"""

from __future__ import annotations

import re

from ..api.model import TableError
from .common import BANNER
from .decoders_cpp import HEADER_CONTEXT, HEADER_TYPES, SOURCE_HELPERS
from .encoders import _FIELD_SIZES, _PLATFORM_C_TYPES, _WIDE_STRINGS
from .json_dump import PLATFORM_STRUCTS, Classifier, Kind, NeedsStructs, accessor
from .schema import call_type_name

# Size rules the replay engine implements (SizeRules).
_SIZE_RULES = {"subresource_data", "texture_initial_data"}

# The largest enumerator of the platform headers' enums (d3dcommon.h,
# dxgiformat.h, dxgicommon.h) that calls and structs use.
_PLATFORM_ENUM_MAX = {
    "DXGI_FORMAT": 0xFFFFFFFF, "DXGI_COLOR_SPACE_TYPE": 0xFFFFFFFF,
    "D3D_FEATURE_LEVEL": 0xC200, "D3D_DRIVER_TYPE": 5, "D3D_PRIMITIVE_TOPOLOGY": 64,
    "D3D_PRIMITIVE": 39, "D3D_SRV_DIMENSION": 11,
}

# Names the generated invokers use for themselves (parameters never end in '_').
_RESERVED = {"self_", "in_", "ctx_", "result_"}

_U64 = "static_cast<std::uint64_t>"


def _not_replayable(api, call) -> str | None:
    """Why a call cannot be replayed from its record, or None."""
    for p in call.params:
        base = p.type.base
        if p.direction == "in" and base in ("HANDLE", "HMODULE"):
            return f"{p.name} is a handle of the capturing process"
        if base == "HDC":
            return "GDI drawing on the surface is not recorded"
        if base == "DXGI_MAPPED_RECT":
            return "writes through a DXGI surface mapping are not recorded"
        if p.size_rule and p.size_rule not in _SIZE_RULES:
            return f"{p.name}: size rule '{p.size_rule}' has no replay check"
    return None


def _count_expr(expr: str, names: set[str]) -> tuple[str, list[str]]:
    """A count/bytes expression as 64-bit C++ and the pointer parameters it reads through."""
    guards: list[str] = []
    out: list[str] = []
    tokens = re.findall(r"\w+\s*->\s*\w+|\w+|->|\S", expr)
    previous = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        unary = token == "*" and (previous is None or previous in {"(", "+", "-", "*", "/", ","})
        if unary and i + 1 < len(tokens) and tokens[i + 1] in names:
            name = tokens[i + 1]
            guards.append(name)
            out.append(f"{_U64}(*{name})")
            i += 2
            previous = name
            continue
        member = re.fullmatch(r"(\w+)\s*->\s*(\w+)", token)
        if member and member.group(1) in names:
            guards.append(member.group(1))
            out.append(f"{_U64}({member.group(1)}->{member.group(2)})")
        elif token in names:
            out.append(f"{_U64}({token})")
        elif re.fullmatch(r"\d+", token):
            out.append(f"std::uint64_t{{{token}}}")
        else:
            out.append(token)
        previous = token
        i += 1
    value = " ".join(out)
    if guards:
        condition = " && ".join(f"{g} != nullptr" for g in dict.fromkeys(guards))
        value = f"({condition} ? {value} : std::uint64_t{{0}})"
    return value, guards


def _field_expr(expr: str, fields: set[str]) -> str:
    """A struct field's count/bytes expression over its sibling fields (of out)."""
    return re.sub(r"\b([A-Za-z_]\w*)\b",
                  lambda m: f"{_U64}(out.{m.group(1)})" if m.group(1) in fields else m.group(1),
                  expr)


class Decoders(NeedsStructs):
    def __init__(self, api) -> None:
        self.api = api
        self.cl = Classifier(api)
        self.sb = self.cl.sb
        self.fb_structs: list[str] = []   # fbs structs needing from_fb(), children first
        self.tables: list[str] = []       # tables needing decode_table(), children first
        self.hooks: list[tuple[str, object]] = []   # (size rule, call)

    # -- which calls -------------------------------------------------------------

    def generated(self) -> list:
        return [c for c in self.api.all_calls() if c.hand_written.replay is None
                and _not_replayable(self.api, c) is None]

    def by_hand(self) -> list:
        return [c for c in self.api.all_calls() if c.hand_written.replay is not None]

    def not_replayed(self) -> list[tuple[object, str]]:
        return [(c, _not_replayable(self.api, c)) for c in self.api.all_calls()
                if c.hand_written.replay is None
                and _not_replayable(self.api, c) is not None]

    # -- enums -----------------------------------------------------------------------

    def enum_ranges(self) -> list[tuple[str, int]]:
        """(C enum, largest value it can hold) where that is below the recorded scalar's.

        A C++ enum without a fixed type holds 0 to 2^M - 1 (M bits for its
        largest enumerator); a value outside that is undefined behaviour, so
        replay refuses it instead of passing it on. That leaves the platform
        headers' enums: the table's own are enums of int in C++ (c_headers.py),
        so a recorded value they do not list is replayed as it was made.
        """
        out = []
        for name, largest in _PLATFORM_ENUM_MAX.items():
            hi = (1 << max(1, largest.bit_length())) - 1
            if hi < 0xFFFFFFFF:
                out.append((name, hi))
        return out

    def is_enum(self, base: str) -> bool:
        base = self.sb.resolve(base)
        return base in self.api.enums or base in _PLATFORM_ENUM_MAX

    # -- structs -------------------------------------------------------------------

    def _c_type(self, fbs: str) -> str:
        return _PLATFORM_C_TYPES.get(fbs, fbs)

    def need_all_structs(self) -> None:
        """from_fb() of every fbs struct a call reaches (hand-written replay uses them too)."""
        for name in self.cl.used_structs():
            if name in PLATFORM_STRUCTS or not self.sb.struct_is_table(name):
                self._need(Kind("struct", struct=name), tables=False)
        self._need(Kind("guid"), tables=False)

    def from_fb_signature(self, name: str) -> str:
        return (f"bool from_fb(const fb::{name}& v, {self._c_type(name)}& out, DecodeContext& ctx, "
                f"const Where& where)")

    def _field_type(self, struct: str, c_name: str) -> str:
        if struct in PLATFORM_STRUCTS:
            return ""
        return next(f.type.base for f in self.api.structs[struct].fields if f.name == c_name)

    def from_fb_function(self, name: str) -> list[str]:
        if name == "Guid":
            return [f"{self.from_fb_signature(name)} {{",
                    "    static_cast<void>(ctx);",
                    "    static_cast<void>(where);",
                    "    out.Data1 = v.data1();",
                    "    out.Data2 = v.data2();",
                    "    out.Data3 = v.data3();",
                    "    for (std::size_t i = 0; i < 8; ++i) out.Data4[i] = v.data4()->Get(i);",
                    "    return true;",
                    "}"]
        lines = [f"{self.from_fb_signature(name)} {{"]
        for c_name, acc, kind, _ in self.cl.struct_members(name):
            at = f'Where{{".{c_name}", &where}}'
            if kind.what in ("num", "enum") or (kind.what == "array" and
                                                kind.element.what in ("num", "enum")):
                enum = self.is_enum(self._field_type(name, c_name)) if name not in \
                    PLATFORM_STRUCTS else False
                one = f"v.{acc}()" if kind.what != "array" else f"v.{acc}()->Get(i)"
                target = f"out.{c_name}" if kind.what != "array" else f"out.{c_name}[i]"
                if enum:
                    stmt = f"if (!value_in(ctx, {one}, {at}, &{target})) return false;"
                else:
                    stmt = (f"{target} = from_scalar<std::remove_reference_t<decltype({target})>>"
                            f"({one});")
            elif kind.what in ("guid", "struct"):
                stmt = f"if (!from_fb(v.{acc}(), out.{c_name}, ctx, {at})) return false;"
            elif kind.what == "array" and kind.element.what in ("guid", "struct"):
                stmt = (f"if (!from_fb(*v.{acc}()->Get(i), out.{c_name}[i], ctx, "
                        f"Where{{nullptr, &where, i}})) return false;")
            else:
                raise TableError(f"decoders: {name}.{c_name}: no rule for {kind.what} in a struct")
            if kind.what == "array":
                stmt = f"for (std::uint32_t i = 0; i < {kind.length}; ++i) {stmt}"
            lines.append(f"    {stmt}")
        lines += ["    static_cast<void>(ctx);", "    static_cast<void>(where);",
                  "    return true;", "}"]
        return lines

    def table_signature(self, name: str) -> str:
        return (f"bool decode_table(const fb::{name}& v, {name}& out, DecodeContext& ctx, "
                f"const Where& where)")

    def table_function(self, name: str) -> list[str]:
        struct = self.api.structs[name]
        fields = {f.name for f in struct.fields}
        values: list[str] = []
        pointers: list[str] = []
        for f in struct.fields:
            kind = self.cl.field(name, f)
            acc = f"v.{accessor(f.name)}()"
            target = f"out.{f.name}"
            at = f'Where{{".{f.name}", &where}}'
            base = self.sb.resolve(f.type.base)
            w = kind.what
            if w in ("num", "enum") and not f.type.pointers:
                if self.is_enum(base):
                    values.append(f"if (!value_in(ctx, {acc}, {at}, &{target})) return false;")
                else:
                    values.append(f"{target} = from_scalar<decltype({target})>({acc});")
            elif w in ("guid", "struct") and not kind.table:
                c_type = "GUID" if w == "guid" else self._c_type(kind.struct)
                if f.type.pointers:
                    pointers.append(f"if ({acc} != nullptr) {{ auto* value = ctx.arena.make<"
                                    f"{c_type}>(1); if (!from_fb(*{acc}, *value, ctx, {at})) "
                                    f"return false; {target} = value; }}")
                else:
                    values.append(f"if ({acc} != nullptr && !from_fb(*{acc}, {target}, ctx, "
                                  f"{at})) return false;")
            elif w == "struct":
                if f.type.pointers:
                    pointers.append(f"if ({acc} != nullptr) {{ auto* value = ctx.arena.make<"
                                    f"{kind.struct}>(1); if (!decode_table(*{acc}, *value, ctx, "
                                    f"{at})) return false; {target} = value; }}")
                else:
                    pointers.append(f"if ({acc} != nullptr && !decode_table(*{acc}, {target}, "
                                    f"ctx, {at})) return false;")
            elif w == "string":
                if f.array is not None:
                    helper = "copy_wide" if base in _WIDE_STRINGS else "copy_narrow"
                    pointers.append(f"{helper}({target}, {acc});")
                elif base in _WIDE_STRINGS:
                    pointers.append(f"{target} = wide_string_in(ctx.arena, {acc});")
                else:
                    pointers.append(f"{target} = {acc} != nullptr ? {acc}->c_str() : nullptr;")
            elif w == "blob":
                need = _field_expr(f.bytes, fields) if f.bytes else "0"
                pointers.append(f"{{ const std::uint8_t* data = nullptr; if (!blob_in(ctx, {acc}, "
                                f"{need}, {at}, &data)) return false; {target} = data; }}")
            elif w == "vector" and f.count and re.fullmatch(r"\w+", f.count):
                e = kind.element
                c_elem = self._elem_c_type(e, base)
                self._need(kind)
                count = f"{_U64}(out.{f.count})"
                pointers.append(f"{{ {c_elem}* data = nullptr; if (!{self._sequence_helper(e)}"
                                f"(ctx, {acc}, {count}, {at}, &data) || "
                                f"!present_if_read(ctx, {acc}, {count}, {at})) "
                                f"return false; {target} = data; }}")
            elif w == "num" and f.type.pointers:
                values.append(f"{target} = nullptr;  // an out pointer, never recorded")
            else:
                raise TableError(f"decoders: {name}.{f.name}: no rule for {w} in a table")
        lines = [f"{self.table_signature(name)} {{"]
        lines += [f"    {line}" for line in values + pointers]
        lines += ["    static_cast<void>(ctx);", "    static_cast<void>(where);",
                  "    return true;", "}"]
        return lines

    def _elem_c_type(self, e: Kind, base: str) -> str:
        if e.what == "guid":
            return "GUID"
        if e.what == "struct":
            return self._c_type(e.struct)
        return base

    def _sequence_helper(self, e: Kind) -> str:
        if e.what in ("num", "enum"):
            return "scalars_in"
        if e.what == "guid" or (e.what == "struct" and not e.table):
            return "structs_in"
        if e.what == "struct":
            return "tables_in"
        raise TableError(f"decoders: no rule for an array of {e.what}")

    # -- parameters ----------------------------------------------------------------

    def _local_type(self, p, kind: Kind) -> str:
        base = self.sb.resolve(p.type.base)
        if kind.what == "guid":
            return "GUID"
        if kind.what == "string":
            return "const wchar_t*" if base in _WIDE_STRINGS else "const char*"
        pointers = p.type.pointers + (1 if p.array is not None else 0)
        return p.type.base + "*" * pointers

    def param(self, call, p, names: set[str]) -> tuple[list[str], list[str], list[str], list[str]]:
        """(value statements, pointer statements, array statements, after-call statements)."""
        kind = self.cl.param(p)
        w = kind.what
        acc = f"in_.{accessor(p.name)}()"
        where = f'"{p.name}"'
        name = p.name
        fail = "return Invoked{};"
        base = self.sb.resolve(p.type.base)
        if p.direction != "out":
            self._need(kind)
        if w == "object":
            iface = "IUnknown" if p.iid else base
            if p.direction == "in":
                if p.type.pointers != 1:
                    raise TableError(f"decoders: {call.qualified_name}: {name}: an object "
                                     "passed by address")
                return [], [f"{iface}* {name} = nullptr;",
                            f'if (!object_in(ctx_, {acc}, {where}, "{iface}", &{name})) {fail}'], \
                    [], []
            c_type = "void*" if p.iid else f"{iface}*"
            value = f"ctx_.arena.make<{c_type}>(1)"
            if p.optional:
                value = f"{acc} != 0 ? {value} : nullptr"
            iface_name = "" if p.iid else iface
            return [], [f"{c_type}* {name} = {value};"], [], \
                [f"if ({name} != nullptr) ctx_.objects.add({acc}, static_cast<IUnknown*>(*{name}), "
                 f'"{iface_name}");']
        if w in ("num", "enum") and p.type.pointers == 0 and p.array is None:
            if self.is_enum(base):
                return [f"{p.type.base} {name}{{}};",
                        f"if (!value_in(ctx_, {acc}, {where}, &{name})) {fail}"], [], [], []
            return [f"const {p.type.base} {name} = from_scalar<{p.type.base}>({acc});"], [], [], []
        if w in ("num", "enum"):   # through a pointer: out or inout storage
            if p.direction == "in":
                raise TableError(f"decoders: {call.qualified_name}: {name}: an in scalar "
                                 "through a pointer")
            lines = [f"{base}* {name} = ctx_.arena.make<{base}>(1);"]
            if p.direction == "inout":
                lines.append(f"if (!value_in(ctx_, {acc}, {where}, {name})) {fail}")
            return [], lines, [], []
        if w == "guid":
            if p.type.pointers:
                raise TableError(f"decoders: {call.qualified_name}: {name}: a GUID pointer")
            return [f"GUID {name}{{}};",
                    f"if ({acc} != nullptr && !from_fb(*{acc}, {name}, ctx_, {where})) {fail}"], \
                [], [], []
        if w == "struct":
            c_type = self._c_type(kind.struct)
            if p.type.pointers == 0 and p.direction == "in" and not kind.table:
                # By value (LUID): decoded into a local; absent is a decode error.
                return [f"{c_type} {name}{{}};",
                        f"if ({acc} == nullptr || !from_fb(*{acc}, {name}, ctx_, {where})) "
                        f"{fail}"], [], [], []
            if p.type.pointers != 1:
                raise TableError(f"decoders: {call.qualified_name}: {name}: a struct by value")
            if p.direction != "in":
                return [], [f"{c_type}* {name} = ctx_.arena.make<{c_type}>(1);"], [], []
            decode = "from_fb" if not kind.table else "decode_table"
            return [], [f"{c_type}* {name} = nullptr;",
                        f"if ({acc} != nullptr) {{ {name} = ctx_.arena.make<{c_type}>(1); "
                        f"if (!{decode}(*{acc}, *{name}, ctx_, {where})) {fail} }}"], [], []
        if w == "string":
            if p.direction != "in":
                raise TableError(f"decoders: {call.qualified_name}: {name}: an out string")
            if base in _WIDE_STRINGS:
                return [], [f"const wchar_t* {name} = wide_string_in(ctx_.arena, {acc});"], [], []
            return [], [f"const char* {name} = {acc} != nullptr ? {acc}->c_str() : nullptr;"], \
                [], []
        if w == "blob":
            if p.bytes:
                need, _ = _count_expr(p.bytes, names)
            else:
                need = "0"   # a size rule checks it
            if p.direction == "in":
                lines = [f"const std::uint8_t* {name} = nullptr;",
                         f"if (!blob_in(ctx_, {acc}, {need}, {where}, &{name})) {fail}"]
                if not p.optional and p.bytes:
                    lines.append(f"if (!present_if_read(ctx_, {acc}, {need}, {where})) {fail}")
                return [], [], lines, []
            c_type = f"{p.type.base}*"
            lines = [f"{c_type} {name} = nullptr;",
                     f"if ({acc} != nullptr) {{ void* storage = nullptr; if (!bytes_out(ctx_, "
                     f"{need}, {where}, &storage)) {fail} {name} = static_cast<{c_type}>(storage);"]
            if p.direction == "inout":
                lines[-1] += f" copy_blob(storage, {need}, *{acc});"
            lines[-1] += " }"
            return [], [], lines, []
        if w in ("vector", "chars"):
            if p.array is not None:
                count = f"std::uint64_t{{{p.array}}}"
            elif p.count:
                count, _ = _count_expr(p.count, names)
            elif p.size_rule:
                count = f"({acc} != nullptr ? {_U64}({acc}->size()) : std::uint64_t{{0}})"
            else:
                raise TableError(f"decoders: {call.qualified_name}: {name}: an array without "
                                 "count= or a fixed size")
            e = kind.element if w == "vector" else Kind("num", scalar="byte")
            if e.what == "object":
                c_elem = f"{base}*"
            else:
                c_elem = self._elem_c_type(e, base)
            if p.direction != "in":
                if p.direction == "inout":
                    raise TableError(f"decoders: {call.qualified_name}: {name}: an inout array")
                lines = [f"{c_elem}* {name} = nullptr;",
                         f"if ({acc} != nullptr && !storage_out(ctx_, {count}, {where}, "
                         f"&{name})) {fail}"]
                after = []
                if e.what == "object":
                    after = [f"if ({name} != nullptr) add_objects(ctx_, {acc}, {name}, {count}, "
                             f'"{base}");']
                return [], [], lines, after
            if e.what == "object":
                lines = [f"{c_elem}* {name} = nullptr;",
                         f'if (!objects_in(ctx_, {acc}, {count}, {where}, "{base}", &{name})) '
                         f"{fail}"]
            else:
                helper = self._sequence_helper(e)
                lines = [f"{c_elem}* {name} = nullptr;",
                         f"if (!{helper}(ctx_, {acc}, {count}, {where}, &{name})) {fail}"]
            if not p.optional and not p.size_rule:
                lines.append(f"if (!present_if_read(ctx_, {acc}, {count}, {where})) {fail}")
            return [], [], lines, []
        raise TableError(f"decoders: {call.qualified_name}: {name}: no rule for {w}")

    def _field_size_checks(self, call, names: set[str]) -> list[str]:
        """Blob fields whose size the table cannot state (encoders' _FIELD_SIZES)."""
        lines = []
        call_name = call_type_name(call)
        for (c, param, field), expr in _FIELD_SIZES.items():
            if c != call_name:
                continue
            p = next(p for p in call.params if p.name == param)
            kind = self.cl.param(p)
            acc = f"in_.{accessor(p.name)}()"
            need, _ = _count_expr(expr, names)
            field_acc = accessor(field)
            struct = kind.element.struct if kind.element else kind.struct
            if kind.what != "vector" or not self.sb.struct_is_table(struct):
                raise TableError(f"decoders: {call_name}: {param}: a field size needs a vector "
                                 "of tables")
            lines.append(f"if ({param} != nullptr && !field_blobs_cover(ctx_, {acc}, "
                         f"[](const fb::{struct}& v) {{ return v.{field_acc}(); }}, {need}, "
                         f'"{param}", ".{field}")) return Invoked{{}};')
        return lines

    def _hook_type(self, p, kind: Kind) -> str:
        const = "const " if p.direction == "in" else ""
        if kind.what == "blob" and p.direction == "in":
            return "const std::uint8_t*"
        if kind.what in ("num", "enum") and p.type.pointers == 0 and p.array is None:
            return p.type.base
        if kind.what == "object" and p.direction == "in":
            return f"{self.sb.resolve(p.type.base)}*"
        if kind.what == "struct":
            return f"{const}{self._c_type(kind.struct)}*"
        if kind.what == "vector" and kind.element.what == "struct":
            return f"{const}{self._c_type(kind.element.struct)}*"
        if kind.what == "object":
            return f"{p.type.base}**"
        return self._local_type(p, kind)

    def hook_signature(self, rule: str, call) -> str:
        params = [f"const fb::{call_type_name(call)}& params"]
        params += [f"{self._hook_type(p, self.cl.param(p))} {p.name}" for p in call.params]
        return f"virtual std::string {rule}({', '.join(params)}) = 0;"

    def invoker_signature(self, call) -> str:
        name = call_type_name(call)
        iface = getattr(call, "interface", None)
        self_param = f"{iface.name}* self_, " if iface else ""
        return f"Invoked invoke_{name}({self_param}const fb::{name}& in_, DecodeContext& ctx_)"

    def invoker(self, call) -> list[str]:
        names = {p.name for p in call.params}
        clash = names & _RESERVED
        if clash:
            raise TableError(f"decoders: {call.qualified_name}: parameter names {sorted(clash)} "
                             "collide with the invoker's own names")
        values, pointers, arrays, after = [], [], [], []
        for p in call.params:
            v, ptr, arr, aft = self.param(call, p, names)
            values += v
            pointers += ptr
            arrays += arr
            after += aft
        checks = self._field_size_checks(call, names)
        for p in call.params:
            if p.size_rule:
                self.hooks.append((p.size_rule, call))
                args = ", ".join(["in_"] + [q.name for q in call.params])
                checks.append(f"if (const std::string why = ctx_.rules.{p.size_rule}({args}); "
                              f'!why.empty()) {{ ctx_.fail("{p.name}", why); '
                              "return Invoked{}; }")
        args = ", ".join(p.name for p in call.params)
        iface = getattr(call, "interface", None)
        target = f"self_->{call.name}" if iface else f"::{call.name}"
        body = values + pointers + arrays + checks
        if call.returns.text == "void":
            body.append(f"{target}({args});")
            body += after
            body.append("return Invoked{true, 0};")
        else:
            body.append(f"const auto result_ = {target}({args});")
            body += after
            body.append("return Invoked{true, result_value(result_)};")
        unused = [] if any("in_" in line for line in body) else ["static_cast<void>(in_);"]
        if not any("ctx_" in line for line in body):
            unused.append("static_cast<void>(ctx_);")
        lines = [f"{self.invoker_signature(call)} {{"]
        lines += [f"    {line}" for line in unused + body]
        lines.append("}")
        return lines

    def dispatch_case(self, call) -> str:
        name = call_type_name(call)
        iface = getattr(call, "interface", None)
        if iface:
            return (f"        case CallId::{name}: return method<{iface.name}, fb::{name}, "
                    f'&invoke_{name}>(record, ctx, "{iface.name}");')
        return (f"        case CallId::{name}: "
                f"return function<fb::{name}, &invoke_{name}>(record, ctx);")


# ---------------------------------------------------------------------------
# Output

def _string_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _prepare(api) -> tuple[Decoders, list, list[list[str]]]:
    dec = Decoders(api)
    dec.need_all_structs()
    calls = dec.generated()
    invokers = [dec.invoker(c) for c in calls]   # also collects tables and hooks
    return dec, calls, invokers


def generate_header(api) -> str:
    dec, calls, _ = _prepare(api)
    by_hand = dec.by_hand()
    not_replayed = dec.not_replayed()
    out = [f"// {BANNER}",
           "// Decoders of recorded calls for the replay engine: invoke_call(record, ctx)",
           "// turns the parameter table of a call record back into C arguments (the",
           "// inverse of call_encoders.h), makes the call on the replayed objects and",
           "// registers the objects it handed out.  Rules: see format/codegen/decoders.py.",
           "#pragma once",
           "",
           "#include <d3d11_4.h>",
           "#include <d3dcap/api/call_dispatch.h>",
           "#include <d3dcap/api/calls.h>",
           "#include <d3dcap/fb/record_generated.h>",
           "#include <dxgi1_6.h>",
           "",
           "#include <array>",
           "#include <cstddef>",
           "#include <cstdint>",
           "#include <memory>",
           "#include <string>",
           "#include <string_view>",
           "#include <type_traits>",
           "#include <vector>",
           "",
           "namespace d3dcap::api {",
           HEADER_TYPES,
           "// The size rules of the API table (size=RULE), implemented by the replay",
           "// engine: each returns an empty string when the recorded data covers what",
           "// the call will read, else what is missing. They get the decoded arguments.",
           "class SizeRules {",
           "  public:",
           "    // clang-format off"]
    out += [f"    {dec.hook_signature(rule, call)}" for rule, call in dec.hooks]
    out += ["    // clang-format on", "",
            "  protected:",
            "    ~SizeRules() = default;",
            "};",
            "",
            "// The values an enum type can hold (0 to max): replay refuses others rather",
            "// than pass a value the type cannot represent. Unlisted types hold any value.",
            "template <typename E>",
            "struct EnumRange {",
            "    static constexpr bool checked = false;",
            "};",
            "// clang-format off"]
    out += [f"template <> struct EnumRange<{name}> {{ static constexpr bool checked = true; "
            f"static constexpr std::uint64_t max = {hi:#x}; "
            f'static constexpr const char* name = "{name}"; }};'
            for name, hi in dec.enum_ranges()]
    out += ["// clang-format on",
            HEADER_CONTEXT,
            "// clang-format off",
            "// C structs from fbs structs, and tables decoded into the arena."]
    out += [f"{dec.from_fb_signature(s)};" for s in dec.fb_structs]
    out += [f"{dec.table_signature(s)};" for s in dec.tables]
    out += ["", "// The generated invokers."]
    out += [f"{dec.invoker_signature(c)};" for c in calls]
    out += ["",
            "// Decodes and makes the record's call; ok is false (with ctx.error) when it",
            "// cannot be decoded or has no generated invoker (has_invoker()).",
            "Invoked invoke_call(const fb::Record& record, DecodeContext& ctx);",
            "bool has_invoker(CallId id);",
            "",
            f"inline constexpr std::array<CallId, {len(calls)}> kInvokedCalls{{{{"]
    out += [f"    CallId::{call_type_name(c)}," for c in calls]
    out += ["}};", "",
            "// Replayed by hand-written code in the replay engine, and why.",
            "struct HandWrittenCall {",
            "    CallId call;",
            "    std::string_view reason;",
            "};",
            f"inline constexpr std::array<HandWrittenCall, {len(by_hand)}> "
            "kHandWrittenReplays{{"]
    out += [f"    HandWrittenCall{{CallId::{call_type_name(c)}, "
            f"{_string_literal(c.hand_written.replay)}}}," for c in by_hand]
    out += ["}};", "",
            "// Calls a trace does not hold enough to replay, and why.",
            f"inline constexpr std::array<HandWrittenCall, {len(not_replayed)}> kNotReplayed{{{{"]
    out += [f"    HandWrittenCall{{CallId::{call_type_name(c)}, {_string_literal(why)}}},"
            for c, why in not_replayed]
    out += ["}};", "// clang-format on", "", "}  // namespace d3dcap::api", ""]
    return "\n".join(out)


def generate_source(api) -> str:
    dec, calls, invokers = _prepare(api)
    out = [f"// {BANNER}",
           "#include <d3dcap/api/call_decoders.h>",
           "",
           "#include <algorithm>",
           "#include <cstring>",
           "#include <string>",
           "",
           "namespace d3dcap::api {",
           SOURCE_HELPERS,
           "// clang-format off"]
    for s in dec.fb_structs:
        out += dec.from_fb_function(s)
    for s in dec.tables:
        out += dec.table_function(s)
    out += ["", "// Calls."]
    for lines in invokers:
        out += lines
    out += ["",
            "Invoked invoke_call(const fb::Record& record, DecodeContext& ctx) {",
            "    switch (static_cast<CallId>(record.header()->call())) {"]
    out += [dec.dispatch_case(c) for c in calls]
    out += ["        default:",
            '            ctx.fail("call", "has no generated invoker");',
            "            return Invoked{};",
            "    }",
            "}",
            "",
            "bool has_invoker(CallId id) {",
            "    return std::find(kInvokedCalls.begin(), kInvokedCalls.end(), id) != "
            "kInvokedCalls.end();",
            "}",
            "// clang-format on", "", "}  // namespace d3dcap::api", ""]
    return "\n".join(out)

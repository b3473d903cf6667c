"""Generates the FlatBuffers schema of every call's parameters (calls.fbs).

Each call gets one table named <Interface>_<Method> (entry points: their name)
with one field per parameter, in declaration order, named in snake_case.
Object pointers become object ids (ulong), strings stay strings, data a call
consumes becomes a byte vector, arrays become vectors.  Field order follows the
table, which is append-only, so schema evolution stays compatible.
"""

from ..api.model import TableError
from .common import BANNER, snake_case

_SCALARS = {
    "BOOL": "uint", "BYTE": "ubyte", "UINT8": "ubyte", "INT8": "byte", "UINT16": "ushort",
    "WORD": "ushort", "INT16": "short", "UINT": "uint", "UINT32": "uint", "ULONG": "uint",
    "DWORD": "uint", "INT": "int", "INT32": "int", "LONG": "int", "HRESULT": "int",
    "UINT64": "ulong", "INT64": "long", "LARGE_INTEGER": "long", "SIZE_T": "ulong",
    "FLOAT": "float", "DOUBLE": "double", "HANDLE": "ulong", "HWND": "ulong",
    "HMONITOR": "ulong", "HMODULE": "ulong", "HDC": "ulong", "CHAR": "byte", "char": "byte",
    "WCHAR": "ushort", "DXGI_FORMAT": "uint", "DXGI_COLOR_SPACE_TYPE": "uint",
    "D3D_FEATURE_LEVEL": "uint", "D3D_DRIVER_TYPE": "uint", "D3D_PRIMITIVE_TOPOLOGY": "uint",
    "D3D_PRIMITIVE": "uint", "D3D_SRV_DIMENSION": "uint",
}
_PLATFORM_STRUCTS = {"GUID": "Guid", "IID": "Guid", "REFGUID": "Guid", "REFIID": "Guid",
                     "LUID": "Luid", "RECT": "Rect", "POINT": "Point",
                     "DXGI_RATIONAL": "Rational", "DXGI_SAMPLE_DESC": "SampleDesc"}
_STRINGS = {"LPCSTR", "LPCWSTR", "LPSTR", "LPWSTR"}
_PRELUDE = """\
struct Guid { data1:uint; data2:ushort; data3:ushort; data4:[ubyte:8]; }
struct Luid { low_part:uint; high_part:int; }
struct Rect { left:int; top:int; right:int; bottom:int; }
struct Point { x:int; y:int; }
struct Rational { numerator:uint; denominator:uint; }
struct SampleDesc { count:uint; quality:uint; }
"""


class SchemaBuilder:
    def __init__(self, api) -> None:
        self.api = api
        self._is_table: dict[str, bool] = {}

    def resolve(self, base: str) -> str:
        while base in self.api.typedefs:
            base = self.api.typedefs[base].target
        return base

    def is_object(self, base: str) -> bool:
        return base in self.api.interfaces or base == "IUnknown"

    def value_type(self, base: str) -> str:
        """The FlatBuffers type of a plain (non-pointer) value of this C type."""
        base = self.resolve(base)
        if base in self.api.enums:
            negative = any(v.value.startswith("-") for v in self.api.enums[base].values)
            return "int" if negative else "uint"
        if base in self.api.structs:
            return base
        if base in _SCALARS:
            return _SCALARS[base]
        if base in _PLATFORM_STRUCTS:
            return _PLATFORM_STRUCTS[base]
        if base in _STRINGS:
            return "string"
        raise TableError(f"no FlatBuffers type for {base}")

    def struct_is_table(self, name: str) -> bool:
        """A C struct maps to a FlatBuffers struct only if it is plain fixed data."""
        if name not in self._is_table:
            struct = self.api.structs[name]
            unions: dict[int, set[str]] = {}
            table = False
            for f in struct.fields:
                base = self.resolve(f.type.base)
                if f.union is not None:
                    unions.setdefault(f.union, set()).add(base)
                if f.type.pointers or f.string or base in _STRINGS or base == "WCHAR":
                    table = True
                elif base in self.api.structs and self.struct_is_table(base):
                    table = True
            if any(len(types) > 1 for types in unions.values()):
                table = True
            self._is_table[name] = table
        return self._is_table[name]

    def field_type(self, f, in_table: bool) -> str:
        base = self.resolve(f.type.base)
        if f.type.pointers:
            if self.is_object(base):
                return "ulong"
            if f.string or base in ("char", "CHAR", "WCHAR"):
                return "string"
            if base == "void":
                return "[ubyte]"
            return f"[{self.value_type(base)}]" if f.count else self.value_type(base)
        if base in _STRINGS:
            return "string"
        element = self.value_type(base)
        if f.array is not None:
            if base == "WCHAR" or base in ("CHAR", "char"):
                return "string"
            return f"[{element}]" if in_table else f"[{element}:{f.array}]"
        return element

    def struct_fields(self, name: str) -> list[str]:
        struct = self.api.structs[name]
        table = self.struct_is_table(name)
        seen_unions: set[int] = set()
        fields = []
        for f in struct.fields:
            if f.union is not None and not table:
                # All members share one type: one field carries the value.
                if f.union in seen_unions:
                    continue
                seen_unions.add(f.union)
            fields.append(f"  {snake_case(f.name)}:{self.field_type(f, table)};")
        return fields

    def param_type(self, p) -> str:
        base = self.resolve(p.type.base)
        pointers = p.type.pointers
        if p.iid or (self.is_object(base) and pointers >= 1 and not p.count):
            return "ulong"
        if self.is_object(base):
            return "[ulong]"
        if p.string or (base in _STRINGS and pointers == 0):
            return "string"
        if p.size_rule and base in self.api.structs:
            return f"[{base}]"   # e.g. one D3D11_SUBRESOURCE_DATA per subresource
        if base == "void" or p.bytes or p.size_rule:
            return "[ubyte]"
        if p.array is not None:
            return f"[{self.value_type(base)}]"
        if pointers and p.count:
            return f"[{self.value_type(base)}]"
        return self.value_type(base)

    def recorded_structs(self) -> set[str]:
        """The structs a recorded call's parameters reach (those of
        declared-only interfaces never get into a trace)."""
        found: set[str] = set()
        pending = [self.resolve(p.type.base) for c in self.api.all_calls() for p in c.params]
        while pending:
            name = pending.pop()
            if name in found or name not in self.api.structs:
                continue
            found.add(name)
            pending += [self.resolve(f.type.base) for f in self.api.structs[name].fields]
        return found

    def build(self) -> str:
        out = [f"// {BANNER}", "namespace d3dcap.fb;", "", _PRELUDE]
        recorded = self.recorded_structs()
        for name in (n for n in self.api.structs if n in recorded):
            kind = "table" if self.struct_is_table(name) else "struct"
            out.append(f"{kind} {name} {{")
            out += self.struct_fields(name)
            out.append("}")
            out.append("")
        out.append("enum CallId : ushort {")
        out.append("  None = 0,")
        calls = self.api.all_calls()
        for c in calls:
            out.append(f"  {call_type_name(c)} = {c.call_id},")
        out.append("}")
        out.append("")
        # FlatBuffers unions hold at most 255 types, so calls are spread over
        # unions by id: call id N is member N % 255 + 1 of union CallsK, K = N / 255.
        # Both numbers follow from the append-only id, so they never change.
        for group in range(union_count(self.api)):
            out.append(f"union {union_name(group)} {{")
            for c in calls:
                if c.call_id // UNION_SIZE == group:
                    out.append(f"  {call_type_name(c)} = {union_member(c)},")
            out.append("}")
            out.append("")
        for c in calls:
            out.append(f"table {call_type_name(c)} {{")
            for p in c.params:
                out.append(f"  {snake_case(p.name)}:{self.param_type(p)};  // {p.direction}")
            out.append("}")
            out.append("")
        return "\n".join(out)


UNION_SIZE = 255


def call_type_name(call) -> str:
    """The FlatBuffers table (and CallId) name of a call: Interface_Method."""
    iface = getattr(call, "interface", None)
    return f"{iface.name}_{call.name}" if iface else call.name


def union_count(api) -> int:
    return max(c.call_id for c in api.all_calls()) // UNION_SIZE + 1


def union_name(group: int) -> str:
    return f"Calls{group}"


def union_field(group: int) -> str:
    return f"calls{group}"


def union_member(call) -> int:
    return call.call_id % UNION_SIZE + 1


# Record field ids below this are for hand-written fields (records.fbs types).
_FIRST_UNION_FIELD_ID = 16


def generate(api) -> str:
    return SchemaBuilder(api).build()


def generate_record(api) -> str:
    """record.fbs: the Record table, whose call unions depend on the table."""
    out = [f"// {BANNER}", 'include "records.fbs";', "", "namespace d3dcap.fb;", "",
           "// One event of a trace: a call (in exactly one of the callsK unions)",
           "// or a meta record. Field ids are fixed; new unions are appended.",
           "table Record {",
           "  header: RecordHeader (id: 0);",
           "  meta: Meta (id: 2);",
           "  map_writes: [MappedWrite] (id: 3);"]
    # Ids must be consecutive: hold the hand-written range with placeholders
    # that a new hand-written field replaces.
    out += [f"  reserved{i}: ubyte (id: {i}, deprecated);"
            for i in range(4, _FIRST_UNION_FIELD_ID)]
    for group in range(union_count(api)):
        field_id = _FIRST_UNION_FIELD_ID + 2 * group + 1
        out.append(f"  {union_field(group)}: {union_name(group)} (id: {field_id});")
    out += ["}", "", "root_type Record;", ""]
    return "\n".join(out)

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
        if base == "void" or p.bytes or p.size_rule:
            return "[ubyte]"
        if p.array is not None:
            return f"[{self.value_type(base)}]"
        if pointers and p.count:
            return f"[{self.value_type(base)}]"
        return self.value_type(base)

    def build(self) -> str:
        out = [f"// {BANNER}", "namespace d3dcap.fb;", "", _PRELUDE]
        for name in self.api.structs:
            kind = "table" if self.struct_is_table(name) else "struct"
            out.append(f"{kind} {name} {{")
            out += self.struct_fields(name)
            out.append("}")
            out.append("")
        out.append("enum CallId : ushort {")
        out.append("  None = 0,")
        calls = self.api.all_calls()
        for c in calls:
            iface = getattr(c, "interface", None)
            out.append(f"  {iface.name + '_' if iface else ''}{c.name} = {c.call_id},")
        out.append("}")
        out.append("")
        for c in calls:
            iface = getattr(c, "interface", None)
            out.append(f"table {iface.name + '_' if iface else ''}{c.name} {{")
            for p in c.params:
                out.append(f"  {snake_case(p.name)}:{self.param_type(p)};  // {p.direction}")
            out.append("}")
            out.append("")
        return "\n".join(out)


def generate(api) -> str:
    return SchemaBuilder(api).build()

"""Struct layout (size, alignment, field offsets) computed from the table.

The ABI checks compare these numbers with what a compiler makes of both
mingw-w64's Windows headers and our generated ones, so the table, our headers
and Windows all have to agree.
"""

import re

from ..api.model import PLATFORM_DEPENDENT_TYPES, PLATFORM_TYPES

# Platform types as wide as a pointer: 8 bytes on 64-bit Windows (and
# Linux), 4 on 32-bit Windows.
POINTER_SIZED = {"SIZE_T", "HANDLE", "HWND", "HMONITOR", "HMODULE", "HDC", "LPCSTR", "LPCWSTR",
                 "LPSTR", "LPWSTR", "LPVOID", "LPCVOID"}
# Alignment of the platform structs; scalars align to their size.
_PLATFORM_ALIGN = {"RECT": 4, "POINT": 4, "LUID": 4, "GUID": 4, "IID": 4,
                   "DXGI_RATIONAL": 4, "DXGI_SAMPLE_DESC": 4}


class Layouts:
    """Layouts for a pointer size: 8 (64-bit) or 4 (32-bit Windows, where
    8-byte scalars still align to 8 in structs, as on 64-bit)."""

    def __init__(self, api, pointer: int = 8) -> None:
        self.api = api
        self.pointer = pointer
        self._cache: dict[str, tuple[int, int, dict[str, int]]] = {}

    def array_length(self, length) -> int:
        if isinstance(length, int):
            return length
        value = self.api.constants[length].value
        return int(re.sub(r"[()uUlL\s]", "", value), 0)

    def size_align(self, type_) -> tuple[int, int]:
        if type_.pointers:
            return self.pointer, self.pointer
        base = type_.base
        while base in self.api.typedefs:
            base = self.api.typedefs[base].target
        if base in self.api.enums:
            return 4, 4
        if base in self.api.structs:
            size, align, _ = self.struct(base)
            return size, align
        if base in POINTER_SIZED:
            return self.pointer, self.pointer
        size = PLATFORM_TYPES.get(base)
        if size is None:
            raise KeyError(f"no size known for {base}")
        return size, _PLATFORM_ALIGN.get(base, min(size, 8))

    def struct(self, name: str) -> tuple[int, int, dict[str, int]]:
        """(size, alignment, {field: offset}) with C's natural alignment."""
        if name in self._cache:
            return self._cache[name]
        offset, align, offsets = 0, 1, {}
        union_id, union_start, union_end = None, 0, 0
        for f in self.api.structs[name].fields:
            size, falign = self.size_align(f.type)
            if f.array is not None:
                size *= self.array_length(f.array)
            align = max(align, falign)
            if f.union is not None:
                if f.union != union_id:
                    offset = union_end if union_id is not None else offset
                    union_id = f.union
                    union_start = self._round(offset, self._union_align(name, f.union))
                    union_end = union_start
                offsets[f.name] = union_start
                union_end = max(union_end, union_start + size)
                continue
            if union_id is not None:
                offset, union_id = union_end, None
            offset = self._round(offset, falign)
            offsets[f.name] = offset
            offset += size
        if union_id is not None:
            offset = union_end
        result = (self._round(offset, align), align, offsets)
        self._cache[name] = result
        return result

    def _union_align(self, struct: str, union: int) -> int:
        return max(self.size_align(f.type)[1]
                   for f in self.api.structs[struct].fields if f.union == union)

    @staticmethod
    def _round(value: int, align: int) -> int:
        return (value + align - 1) // align * align

    def portable(self, name: str) -> bool:
        """False when the struct's layout differs between Linux and Windows."""
        for f in self.api.structs[name].fields:
            base = f.type.base
            while base in self.api.typedefs:
                base = self.api.typedefs[base].target
            if f.type.pointers == 0 and base in PLATFORM_DEPENDENT_TYPES:
                return False
            if f.type.pointers == 0 and base in self.api.structs and not self.portable(base):
                return False
        return True

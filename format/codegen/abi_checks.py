"""Generates compile-time ABI checks of the table against real headers.

- abi_check.c: vtable slots (offsetof into the C vtables), struct sizes and
  field offsets, enum values and integer constants.  Compiled once against
  mingw-w64's Windows headers and once, in C, against our generated ones.
- iid_check.cpp: every interface's IID through __uuidof, compiled with
  mingw-w64's g++ and with ours.
- slot_table.inc: for the C++ vtable test, one entry per method with a pointer
  to member, whose encoded vtable offset the test compares with the slot.
"""

import re

from .common import BANNER, uuid_parts
from .layout import Layouts

# SDK enums that mingw-w64's headers leave out.
_MISSING_FROM_MINGW = {"D3D11_TEXTURECUBE_FACE", "D3D11_FILTER_REDUCTION_TYPE"}
# SDK values that mingw-w64's headers get wrong (checked against ours only).
_WRONG_IN_MINGW = {"D3D11_FENCE_FLAG_NONE"}
_INTEGER = re.compile(r"^\(?\s*-?(0x[0-9a-fA-F]+|\d+)[uUlL]*\s*\)?$")


def _assert(cond: str, message: str) -> str:
    return f'_Static_assert({cond}, "{message}");'


def abi_check_c(api) -> str:
    layouts = Layouts(api)
    out = [f"/* {BANNER} */",
           "#include <stddef.h>",
           "#ifndef COBJMACROS",
           "#define COBJMACROS",
           "#endif",
           "#include <d3d11_4.h>",
           "#include <dxgi1_6.h>", ""]
    for iface in api.interfaces.values():
        if iface.header == "unknwn":
            continue
        out.append(f"/* {iface.name} */")
        owners = api.interface_chain(iface.name)
        for owner in owners:
            for m in owner.methods:
                out.append(_assert(
                    f"offsetof(struct {iface.name}Vtbl, {m.name}) / sizeof(void *) == {m.slot}",
                    f"{iface.name}::{m.name} is at vtable slot {m.slot}"))
    for struct in api.structs.values():
        if not layouts.portable(struct.name):
            out.append(f"/* {struct.name}: layout differs on Linux (WCHAR), not checked */")
            continue
        size, _, offsets = layouts.struct(struct.name)
        out.append(_assert(f"sizeof({struct.name}) == {size}", f"sizeof({struct.name}) is {size}"))
        for field, offset in offsets.items():
            out.append(_assert(f"offsetof({struct.name}, {field}) == {offset}",
                               f"{struct.name}.{field} is at offset {offset}"))
    for enum in api.enums.values():
        guarded = enum.name in _MISSING_FROM_MINGW
        if guarded:
            out.append("#ifndef __MINGW32__ /* mingw-w64 does not declare it */")
        for v in enum.values:
            check = _assert(f"(long long){v.name} == (long long)({v.value})",
                            f"{v.name} is {v.value}")
            if v.name in _WRONG_IN_MINGW and not guarded:
                check = f"#ifndef __MINGW32__ /* mingw-w64 has another value */\n{check}\n#endif"
            out.append(check)
        if guarded:
            out.append("#endif")
    for const in api.constants.values():
        if _INTEGER.match(const.value):
            # Some SDK constants are missing from mingw-w64: check those it has.
            out.append(f"#ifdef {const.name}")
            out.append(_assert(f"(long long)({const.name}) == (long long){const.value}",
                               f"{const.name} is {const.value}"))
            out.append("#endif")
    return "\n".join(out) + "\n"


def iid_check_cpp(api) -> str:
    out = [f"// {BANNER}", "#include <d3d11_4.h>", "#include <dxgi1_6.h>", ""]
    for iface in api.interfaces.values():
        parts = uuid_parts(iface.uuid)
        checks = [f"__uuidof({iface.name}).Data1 == {parts[0]}u",
                  f"__uuidof({iface.name}).Data2 == {parts[1]}",
                  f"__uuidof({iface.name}).Data3 == {parts[2]}"]
        checks += [f"__uuidof({iface.name}).Data4[{i}] == {b}" for i, b in enumerate(parts[3:])]
        out.append(f'static_assert({" && ".join(checks)}, "IID of {iface.name} is {iface.uuid}");')
    return "\n".join(out) + "\n"


def slot_table_inc(api) -> str:
    """Rows of D3DCAP_SLOT(Interface, Method, slot) for our C++ headers."""
    out = [f"// {BANNER}"]
    for iface in api.interfaces.values():
        if iface.header == "unknwn":
            continue
        for m in iface.methods:
            out.append(f"D3DCAP_SLOT({iface.name}, {m.name}, {m.slot})")
    return "\n".join(out) + "\n"

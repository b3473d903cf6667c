"""Generates compile-time ABI checks of the table against real headers.

- abi_check.c: vtable slots (offsetof into the C vtables), struct sizes and
  field offsets (for 64-bit and, where they differ, 32-bit Windows), enum
  values and integer constants.  Compiled against mingw-w64's Windows headers
  by its 64-bit and its 32-bit compiler, and once, in C, against our
  generated ones.
- iid_check.cpp: every interface's IID through __uuidof, compiled with
  mingw-w64's g++ and with ours.
  In both, what mingw-w64 lacks (_MISSING_FROM_MINGW) is checked against our
  headers only.
- slot_table.inc: for the C++ vtable test, one entry per method with a pointer
  to member, whose encoded vtable offset the test compares with the slot.
"""

import re

from ..api.model import TableError
from .common import BANNER, uuid_parts
from .layout import Layouts

# SDK items that mingw-w64's headers leave out: interfaces (vtable slots and
# IID), structs (layout), enums and single enum values, checked against our
# headers only.
_MISSING_FROM_MINGW = {
    "D3D11_TEXTURECUBE_FACE", "D3D11_FILTER_REDUCTION_TYPE",
    # d3d11_4.h's decode histograms and multithreaded key exchange.
    "ID3D11VideoDevice2", "ID3D11VideoContext3", "D3D11_FEATURE_VIDEO",
    "D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT", "D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAGS",
    "D3D11_FEATURE_DATA_VIDEO_DECODER_HISTOGRAM", "D3D11_CRYPTO_SESSION_KEY_EXCHANGE_FLAGS",
    "D3D11_VIDEO_DECODER_BUFFER_DESC2",
    "D3D11_CONTENT_PROTECTION_CAPS_HARDWARE_DRM_COMMUNICATION_MULTI_THREADED",
}
# SDK values that mingw-w64's headers get wrong (checked against ours only).
_WRONG_IN_MINGW = {"D3D11_FENCE_FLAG_NONE"}
_INTEGER = re.compile(r"^\(?\s*-?(0x[0-9a-fA-F]+|\d+)[uUlL]*\s*\)?$")


def _assert(cond: str, message: str) -> str:
    return f'_Static_assert({cond}, "{message}");'


def _ours_only(lines: list[str], why: str = "does not declare it") -> list[str]:
    """lines, compiled only where the headers are ours: both mingw-w64
    compilers define __MINGW32__, the Linux ones do not."""
    return [f"#ifndef __MINGW32__ /* mingw-w64 {why} */", *lines, "#endif"]


def _check_names(api) -> None:
    values = {v.name for e in api.enums.values() for v in e.values}
    unknown = (_MISSING_FROM_MINGW | _WRONG_IN_MINGW) - api.known_names() - values
    if unknown:
        raise TableError(f"abi_checks: not in the table: {', '.join(sorted(unknown))}")


def _layout_checks(layouts: Layouts, name: str) -> list[str]:
    size, _, offsets = layouts.struct(name)
    checks = [_assert(f"sizeof({name}) == {size}", f"sizeof({name}) is {size}")]
    for field, offset in offsets.items():
        checks.append(_assert(f"offsetof({name}, {field}) == {offset}",
                              f"{name}.{field} is at offset {offset}"))
    return checks


def abi_check_c(api) -> str:
    _check_names(api)
    layouts, layouts32 = Layouts(api), Layouts(api, pointer=4)
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
        checks = [f"/* {iface.name} */"]
        owners = api.interface_chain(iface.name)
        for owner in owners:
            for m in owner.methods:
                checks.append(_assert(
                    f"offsetof(struct {iface.name}Vtbl, {m.name}) / sizeof(void *) == {m.slot}",
                    f"{iface.name}::{m.name} is at vtable slot {m.slot}"))
        out += _ours_only(checks) if iface.name in _MISSING_FROM_MINGW else checks
    for struct in api.structs.values():
        if not layouts.portable(struct.name):
            out.append(f"/* {struct.name}: layout differs on Linux (WCHAR), not checked */")
            continue
        wide, narrow = _layout_checks(layouts, struct.name), _layout_checks(layouts32, struct.name)
        checks = wide if wide == narrow else [
            "#if defined(_WIN32) && !defined(_WIN64) /* 32-bit Windows */", *narrow, "#else",
            *wide, "#endif"]
        out += _ours_only(checks) if struct.name in _MISSING_FROM_MINGW else checks
    for enum in api.enums.values():
        guarded = enum.name in _MISSING_FROM_MINGW
        checks = []
        for v in enum.values:
            check = [_assert(f"(long long){v.name} == (long long)({v.value})",
                             f"{v.name} is {v.value}")]
            if v.name in _MISSING_FROM_MINGW and not guarded:
                check = _ours_only(check)
            elif v.name in _WRONG_IN_MINGW and not guarded:
                check = _ours_only(check, "has another value")
            checks += check
        out += _ours_only(checks) if guarded else checks
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
        check = f'static_assert({" && ".join(checks)}, "IID of {iface.name} is {iface.uuid}");'
        out += _ours_only([check]) if iface.name in _MISSING_FROM_MINGW else [check]
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

"""Generates the Linux d3d11*.h and dxgi*.h headers from the API table.

Each header holds, in this order: its includes, constants, enums, typedefs,
structs, interface forward declarations, interfaces (C++ classes, and C vtables
when CINTERFACE is defined), then entry points.  The COM base (IUnknown, GUID,
HRESULT, __uuidof) comes from DirectX-Headers' wsl/winadapter.h.
"""

from ..api.model import Constant, Enum, Function, Interface, Struct, Typedef
from .common import BANNER, upper_snake, uuid_parts

# What each generated header includes before its own declarations.
INCLUDES = {
    "dxgitype": ["<dxgiformat.h>", "<dxgicommon.h>"],
    "dxgi": ["<dxgitype.h>"],
    "dxgi1_2": ["<dxgi.h>"],
    "dxgi1_3": ["<dxgi1_2.h>"],
    "dxgi1_4": ["<dxgi1_3.h>"],
    "dxgi1_5": ["<dxgi1_4.h>"],
    "dxgi1_6": ["<dxgi1_5.h>"],
    "d3d11": ["<dxgi.h>", "<d3dcommon.h>"],
    "d3d11_1": ["<d3d11.h>", "<dxgi1_2.h>"],
    "d3d11_2": ["<d3d11_1.h>"],
    "d3d11_3": ["<d3d11_2.h>", "<dxgi1_3.h>"],
    "d3d11_4": ["<d3d11_3.h>", "<dxgi1_5.h>"],
}

# The COM base and the types Windows code expects that the wsl stubs leave
# out or spell differently. The stubs make HWND and HDC plain ints, so that
# Windows code passing nullptr as a window would not compile: they become
# pointer types, as on Windows. When the stubs were included first (by
# DirectX-Headers' own headers), HWND and HDC name the pointer types from
# here on through a macro, so that every struct keeps the Windows layout.
PLATFORM_PRELUDE = """\
#ifndef D3DCAP_PLATFORM_HANDLES_DEFINED
#define D3DCAP_PLATFORM_HANDLES_DEFINED
#ifndef RPC_NO_WINDOWS_H
#define HWND D3DCAP_WSL_HWND
#define HDC D3DCAP_WSL_HDC
#include <wsl/winadapter.h>
#undef HWND
#undef HDC
typedef struct HWND__ *HWND;
typedef struct HDC__ *HDC;
#else
#include <wsl/winadapter.h>
typedef struct HWND__ *D3DCAP_HWND;
typedef struct HDC__ *D3DCAP_HDC;
#define HWND D3DCAP_HWND
#define HDC D3DCAP_HDC
#endif
typedef void *HMODULE;
typedef void *HMONITOR;
#endif
#ifndef D3DCAP_ENUM_OF_INT
#ifdef __cplusplus
#define D3DCAP_ENUM_OF_INT : int
#else
#define D3DCAP_ENUM_OF_INT
#endif
#endif
"""


def _param_list(params, this: str | None) -> str:
    decls = [f"{this} *This"] if this else []
    decls += [p.c_decl() for p in params]
    return ", ".join(decls) if decls else ("void" if this is None else "")


def _enum(e: Enum) -> str:
    # In C++ an enum of int holds every int, as MSVC's do: a value a program
    # passes that the enum does not list (a newer D3D11_FEATURE, say) is then
    # a value of the type, not undefined behaviour. Enums with an enumerator
    # past INT_MAX (the *_FORCE_DWORD ones) hold every 32-bit value already.
    fits_int = all(-(1 << 31) <= int(str(v.value), 0) < (1 << 31) for v in e.values)
    base = " D3DCAP_ENUM_OF_INT" if fits_int else ""
    lines = [f"typedef enum {e.name}{base} {{"]
    lines += [f"    {v.name} = {v.value}," for v in e.values]
    lines.append(f"}} {e.name};")
    return "\n".join(lines)


def _struct(s: Struct) -> str:
    lines = [f"typedef struct {s.name} {{"]
    open_union = None
    for f in s.fields:
        if f.union != open_union:
            if open_union is not None:
                lines.append("    };")
            if f.union is not None:
                lines.append("    union {")
            open_union = f.union
        indent = "        " if f.union is not None else "    "
        sep = "" if f.type.text.endswith("*") else " "
        array = f"[{f.array}]" if f.array is not None else ""
        lines.append(f"{indent}{f.type.text}{sep}{f.name}{array};")
    if open_union is not None:
        lines.append("    };")
    lines.append(f"}} {s.name};")
    return "\n".join(lines)


def _interface(api, iface: Interface) -> str:
    name = iface.name
    parts = uuid_parts(iface.uuid)
    base = iface.base
    out = [f"#ifndef __{name}_INTERFACE_DEFINED__",
           f"#define __{name}_INTERFACE_DEFINED__",
           f"DEFINE_GUID(IID_{name}, {', '.join(parts)});",
           "#if defined(__cplusplus) && !defined(CINTERFACE)",
           f'MIDL_INTERFACE("{iface.uuid}") {name} : public {base} {{',
           "public:"]
    for m in iface.methods:
        out.append(f"    virtual {m.returns.text} STDMETHODCALLTYPE {m.name}("
                   f"{_param_list(m.params, None) if m.params else ''}) = 0;")
    out.append("};")
    out.append(f"__CRT_UUID_DECL({name}, {', '.join(parts)})")
    out.append("#else")
    out.append(f"typedef struct {name}Vtbl {{")
    out.append("    BEGIN_INTERFACE")
    chain = api.interface_chain(name)
    for owner in chain:
        out.append(f"    /* {owner.name} */")
        for m in owner.methods:
            out.append(f"    {m.returns.text} (STDMETHODCALLTYPE *{m.name})("
                       f"{_param_list(m.params, name)});")
    out.append("    END_INTERFACE")
    out.append(f"}} {name}Vtbl;")
    out.append(f"interface {name} {{ CONST_VTBL struct {name}Vtbl *lpVtbl; }};")
    out.append("#ifdef COBJMACROS")
    for owner in chain:
        for m in owner.methods:
            args = ["This"] + [p.name for p in m.params]
            out.append(f"#define {name}_{m.name}({','.join(args)}) "
                       f"(This)->lpVtbl->{m.name}({','.join(args)})")
    out.append("#endif")
    out.append("#endif")
    out.append(f"#endif /* __{name}_INTERFACE_DEFINED__ */")
    return "\n".join(out)


def _function(f: Function) -> str:
    params = _param_list(f.params, None)
    pfn = f"PFN_{upper_snake(f.name)}"
    return (f"EXTERN_C {f.returns.text} WINAPI {f.name}({params});\n"
            f"typedef {f.returns.text} (WINAPI *{pfn})({params});")


# Functions the Windows headers define inline for C++ (unless D3D11_NO_HELPERS).
HELPERS = {
    "d3d11": """#if !defined(D3D11_NO_HELPERS) && defined(__cplusplus)
inline UINT D3D11CalcSubresource(UINT MipSlice, UINT ArraySlice, UINT MipLevels) {
    return MipSlice + ArraySlice * MipLevels;
}
#endif
""",
}


def generate(api) -> dict[str, str]:
    """Returns {file name: text} for every generated header."""
    files = {}
    for header, includes in INCLUDES.items():
        items = [i for i in api.order if getattr(i, "header", None) == header]
        out = [f"/* {BANNER} */", "#pragma once", ""]
        if header == "dxgitype":
            out.append(PLATFORM_PRELUDE)
        out += [f"#include {inc}" for inc in includes]
        out.append("")
        out += [f"#define {c.name} {c.value}" for c in items if isinstance(c, Constant)]
        out.append("")
        interfaces = [i for i in items if isinstance(i, Interface)]
        out += [f"typedef interface {i.name} {i.name};" for i in interfaces]
        out.append("")
        out += [_enum(e) + "\n" for e in items if isinstance(e, Enum)]
        for item in items:
            if isinstance(item, Typedef):
                out.append(f"typedef {item.target} {item.name};\n")
            elif isinstance(item, Struct):
                out.append(_struct(item) + "\n")
        out += [_interface(api, i) + "\n" for i in interfaces]
        out += [_function(f) + "\n" for f in items if isinstance(f, Function)]
        if header in HELPERS:
            out.append(HELPERS[header])
        files[f"{header}.h"] = "\n".join(out).rstrip() + "\n"
    return files

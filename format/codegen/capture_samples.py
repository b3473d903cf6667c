"""Generates checks/context_calls.inc: one call of every device-context method.

Each entry calls the method through the capture layer on a test fixture's
context with simple arguments (counts of 1, zeroed structs, the fixture's
objects), then encodes the same arguments with the call's generated encoder,
so that the coverage test can check that the layer recorded exactly that
call with exactly those arguments:

    D3DCAP_CONTEXT_CALL(ID3D11DeviceContext_VSSetConstantBuffers, [](ContextFixture& f) {
        ...arguments...
        f.context->VSSetConstantBuffers(StartSlot, NumBuffers, ppConstantBuffers);
        return f.expected(api::encode_...(f.builder(), f.ids, <arguments>));
    })

Parameters with a size rule get no data (the layer records none then either).
"""

from __future__ import annotations

import re

from ..api.model import TableError
from .common import BANNER
from .json_dump import Classifier
from .schema import call_type_name

CONTEXT_INTERFACES = ("ID3D11DeviceContext", "ID3D11DeviceContext1", "ID3D11DeviceContext2")

_BLOB_BYTES = 16


def _count_names(m) -> dict[str, str]:
    """Parameters that hold another parameter's count: name -> value to give."""
    names = {p.name for p in m.params}
    out: dict[str, str] = {}
    for p in m.params:
        if p.count and p.count in names:
            out[p.count] = "1"
        if p.count and re.fullmatch(r"\*\s*\w+", p.count):
            out[p.count.lstrip("*").strip()] = "1"
        if p.bytes and p.bytes in names:
            out[p.bytes] = str(_BLOB_BYTES)
    return out


def _arguments(cl: Classifier, m) -> tuple[list[str], list[str], list[str]]:
    """(declarations, argument expressions, statements releasing out objects)."""
    decls, args, releases = [], [], []
    counts = _count_names(m)
    for p in m.params:
        kind = cl.param(p)
        base = p.type.base
        name = p.name
        if p.array is not None:
            values = ", ".join(str(i + 1) for i in range(p.array))
            decls.append(f"{base} {name}[{p.array}] = {{{values}}};")
            args.append(name)
        elif p.type.pointers == 0:
            if kind.what == "string":
                decls.append(f'const wchar_t* {name} = L"label \\u00e9";')
            else:
                decls.append(f"{base} {name}{{{counts.get(name, '')}}};")
            args.append(name)
        elif kind.what == "object" and p.direction == "in":
            decls.append(f"{base}* {name} = f.object<{base}>();")
            args.append(name)
        elif kind.what == "object":
            decls.append(f"{base}* {name}_out = nullptr;")
            args.append(f"&{name}_out")
            releases.append(f"f.release({name}_out);")
        elif kind.what == "vector" and kind.element.what == "object":
            if p.direction == "in":
                decls.append(f"{base}* {name}[1] = {{f.object<{base}>()}};")
            else:
                decls.append(f"{base}* {name}[1] = {{}};")
                releases.append(f"f.release({name}[0]);")
            args.append(name)
        elif kind.what == "blob":
            if p.size_rule:
                args.append("nullptr")
            else:
                decls.append(f"std::uint8_t {name}[{_BLOB_BYTES}] = {{1, 2, 3}};")
                args.append(name)
        elif kind.what in ("vector", "struct", "num", "enum", "guid"):
            value = counts.get(name, "")
            decls.append(f"std::remove_cv_t<{base}> {name}_value[1] = {{{value}}};")
            args.append(f"{name}_value")
        else:
            raise TableError(f"capture samples: {m.qualified_name}: {name}: no rule for "
                             f"{kind.what}")
    return decls, args, releases


def generate(api) -> str:
    cl = Classifier(api)
    out = [f"// {BANNER}",
           "// One call of every device-context method for the capture coverage test",
           "// (format/codegen/capture_samples.py).",
           "// clang-format off"]
    count = 0
    for iface in CONTEXT_INTERFACES:
        if iface == "ID3D11DeviceContext2":
            # A program for a D3D11.1 runtime (Wine's) leaves these out.
            out.append("#ifndef D3DCAP_CONTEXT_CALLS_WITHOUT_CONTEXT2")
        for m in api.interfaces[iface].methods:
            decls, args, releases = _arguments(cl, m)
            name = call_type_name(m)
            real_args = ", ".join(args)
            encoder_args = "".join(f", {a}" for a in args)
            size_args = "".join(", 0" for p in m.params if p.size_rule)
            out.append(f"D3DCAP_CONTEXT_CALL({name}, [](ContextFixture& f) {{")
            out += [f"    {d}" for d in decls]
            out.append(f"    f.context->{m.name}({real_args});")
            out.append(f"    std::string expected = f.expected(api::encode_{name}(f.builder(), "
                       f"f.ids{encoder_args}{size_args}));")
            out += [f"    {r}" for r in releases]
            out.append("    return expected;")
            out.append("})")
            count += 1
        if iface == "ID3D11DeviceContext2":
            out.append("#endif")
    out += ["// clang-format on", f"// {count} methods", ""]
    return "\n".join(out)

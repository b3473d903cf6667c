"""Generates the capture layer's COM wrappers: d3dcap/capture/wrappers.h and
src/capture_wrappers.cpp.

Every wrapped object (format/api/objects.py) is a Wrapper holding one facet per
interface it exposes.  A facet is a C++ class implementing one interface chain
(e.g. ID3D11Texture2D -> ID3D11Resource -> ID3D11DeviceChild -> IUnknown) whose
first data member is a FacetHeader {owner, real}: the layer reads the header of
any interface pointer it recognises as a facet (capture/layer/facet.h).

A generated method body:
  - opens a CallRecorder (reserves the event number while recording),
  - unwraps object arguments (single ones and arrays) on the way down,
  - makes the real call,
  - wraps objects the call handed out (out parameters) on the way up,
  - encodes the call with its generated encoder when the recorder wants it.
The methods the table marks [hand_written=capture...] call a hand-written
function hand_written::<Interface>_<Method>(self, real, arguments...) instead
(capture/hand_written/).
"""

from __future__ import annotations

import re

from ..api.model import TableError
from ..api.objects import WRAPPED_OBJECTS
from .common import BANNER
from .encoders import Encoders
from .json_dump import Classifier
from .schema import call_type_name

_RESULT_TYPES_HRESULT = {"HRESULT"}


class Wrappers:
    def __init__(self, api) -> None:
        self.api = api
        self.encoders = Encoders(api)
        self.cl = Classifier(api)
        self.facets = []          # distinct most-derived facet interfaces, in order
        for _, interfaces, _ in WRAPPED_OBJECTS:
            for name in interfaces:
                if name not in api.interfaces:
                    raise TableError(f"wrappers: objects.py names unknown interface {name}")
                if name not in self.facets:
                    self.facets.append(name)
        # interface -> kinds whose facets implement it (for KindOf and probing)
        self.kinds_of: dict[str, list[str]] = {}
        for kind, interfaces, _ in WRAPPED_OBJECTS:
            for name in interfaces:
                for link in self.chain(name):
                    self.kinds_of.setdefault(link, [])
                    if kind not in self.kinds_of[link]:
                        self.kinds_of[link].append(kind)
        # A method captured by hand on no wrapped interface would never be reached.
        for iface in api.interfaces.values():
            for m in iface.methods:
                if m.hand_written.capture and iface.name not in self.kinds_of:
                    raise TableError(f"wrappers: {m.qualified_name} is captured by hand but no "
                                     f"object in objects.py exposes {iface.name}")

    def chain(self, name: str) -> list[str]:
        """IUnknown first, name last."""
        out = []
        while name is not None:
            out.append(name)
            name = self.api.interfaces[name].base
        return list(reversed(out))

    def wrappable(self, interface: str) -> bool:
        return interface in self.kinds_of

    # -- one method -------------------------------------------------------------

    def _object_param(self, p):
        """(kind, interface) of an object parameter, or None."""
        kind = self.cl.param(p)
        base = p.type.base
        if p.iid:
            return "iid", None
        if kind.what == "object":
            return "single", base
        if kind.what == "vector" and kind.element.what == "object":
            return "array", base
        return None

    def method(self, iface: str, m) -> list[str]:
        params = ", ".join(p.c_decl() for p in m.params)
        ret = m.returns.text.strip()
        head = f"    {ret} STDMETHODCALLTYPE {m.name}({params}) override {{"
        owner = m.interface.name
        args = ", ".join(p.name for p in m.params)
        if m.hand_written.capture:
            call = (f"hand_written::{owner}_{m.name}(header_, real_as<{owner}>()"
                    f"{', ' if args else ''}{args})")
            return [head, f"        return {call};" if ret != "void" else f"        {call};",
                    "    }"]
        lines = [head, f"        CallRecorder call(&header_, api::CallId::{call_type_name(m)});"]
        real_args = []
        after = []
        for p in m.params:
            op = self._object_param(p)
            if op is None:
                real_args.append(p.name)
                continue
            shape, base = op
            if shape == "iid":
                real_args.append(p.name)
                after.append(f"wrap_out_iid(call, {p.iid}, {p.name});")
                continue
            if p.direction == "in":
                if base == "IUnknown" and p.type.is_const_pointee:
                    real_args.append(p.name)   # opaque to the runtime (private data)
                elif shape == "single":
                    real_args.append(f"unwrap({p.name})")
                else:
                    count = self._count(m, p)
                    lines.append(f"        const Unwrapped<{base}> {p.name}_real({p.name}, "
                                 f"{count});")
                    real_args.append(f"{p.name}_real.data()")
                continue
            if p.direction != "out":
                raise TableError(f"wrappers: {m.qualified_name}: {p.name}: no rule for an "
                                 f"{p.direction} object")
            real_args.append(p.name)
            wrap = "wrap_out" if self.wrappable(base) else "refuse_out"
            if shape == "single":
                after.append(f"{wrap}(call, {p.name});")
            else:
                after.append(f"{wrap}(call, {p.name}, {self._count(m, p)});")
        real_call = f"real_as<{owner}>()->{m.name}({', '.join(real_args)})"
        is_hresult = ret in _RESULT_TYPES_HRESULT
        if ret == "void":
            lines.append(f"        {real_call};")
        else:
            lines.append(f"        const auto result = {real_call};")
        if after:
            guard = "if (SUCCEEDED(result)) " if is_hresult else ""
            if len(after) == 1:
                lines.append(f"        {guard}{after[0]}")
            else:
                lines.append(f"        {guard}{{")
                lines += [f"            {a}" for a in after]
                lines.append("        }")
        encode = (f"api::encode_{call_type_name(m)}(call.builder(), call.ids()"
                  f"{', ' if args else ''}{args})")
        name = call_type_name(m)
        if ret == "void" and self.encoders.patcher(m) is not None:
            # The last record of the same shape patched, else built and kept.
            with_args = f"{', ' if args else ''}{args}"
            lines += ["        if (call.wanted()) {",
                      "            api::RecordShape shape;",
                      f"            call.finish_templated<fb::{name}>(",
                      f"                api::shape_{name}(shape{with_args}) ? &shape : nullptr,",
                      "                [&](flatbuffers::FlatBufferBuilder& b) {",
                      f"                    return api::encode_{name}(b, call.ids(){with_args});",
                      "                },",
                      f"                [&](fb::{name}& t) {{ api::patch_{name}(t, call.ids()"
                      f"{with_args}); }});",
                      "        }"]
        elif ret == "void":
            lines.append(f"        if (call.wanted()) call.finish({encode});")
        else:
            flag = "true" if is_hresult else "false"
            lines.append(f"        if (call.wanted()) call.finish({encode}, "
                         f"result_value(result), {flag});")
            lines.append("        return result;")
        lines.append("    }")
        return lines

    def _count(self, m, p) -> str:
        """The element count of an array parameter, as C++ (0 when a pointer it reads is NULL)."""
        names = {q.name for q in m.params}
        expr = p.count
        if expr is None:
            raise TableError(f"wrappers: {m.qualified_name}: {p.name}: an object array "
                             "without count=")
        guards = [g for g in re.findall(r"\*\s*([A-Za-z_]\w*)", expr) if g in names]
        value = f"static_cast<std::size_t>({expr})"
        if guards:
            cond = " && ".join(f"{g} != nullptr" for g in guards)
            value = f"({cond} ? {value} : 0)"
        return value

    # -- facets and wrappers ----------------------------------------------------

    def facet_class(self, name: str) -> list[str]:
        lines = [f"class Facet_{name} final : public {name} {{",
                 "  public:",
                 "    FacetHeader header_;",
                 "",
                 "    template <class I>",
                 "    I* real_as() const { return static_cast<I*>(header_.real); }",
                 ""]
        for link in self.chain(name):
            lines.append(f"    // {link}")
            for m in self.api.interfaces[link].methods:
                lines += self.method(name, m)
        lines.append("};")
        return lines

    def wrapper_class(self, kind: str, interfaces, is_context: bool) -> list[str]:
        cls = f"Wrapper_{kind}"
        lines = [f"class {cls} final : public Wrapper {{", "  public:"]
        for i, name in enumerate(interfaces):
            lines.append(f"    Facet_{name} f{i}_;")
        lines += ["",
                  f"    {cls}() : Wrapper(WrapperKind::{kind}) {{"]
        for i, _ in enumerate(interfaces):
            ctx = "true" if is_context else "false"
            lines.append(f"        f{i}_.header_.owner = this; f{i}_.header_.context = {ctx};")
        lines += ["    }",
                  "",
                  "    // Finds each facet's interface on the real object, most-derived first.",
                  "    bool attach(IUnknown* real) override {"]
        for i, name in enumerate(interfaces):
            chain = self.chain(name)
            lines.append(f"        f{i}_.header_.level = find_interface(real, "
                         f"&f{i}_.header_.real, {{{', '.join(f'&__uuidof({c})' for c in reversed(chain[1:]))}}});")
        owner = next((link for link in reversed(self.chain(interfaces[0]))
                      if any(m.name == "SetPrivateDataInterface"
                             for m in self.api.interfaces[link].methods)), None)
        if owner is None:
            raise TableError(f"wrappers: {kind}: no SetPrivateDataInterface to watch its "
                             "lifetime with")
        lines += ["        return f0_.header_.level > 0;",
                  "    }",
                  "",
                  "    HRESULT watch_lifetime(REFGUID guid, IUnknown* sentinel) override {",
                  f"        return f0_.real_as<{owner}>()->SetPrivateDataInterface(guid, sentinel);",
                  "    }",
                  "",
                  "    void* facet_for(REFIID riid) override {",
                  "        if (riid == __uuidof(IUnknown)) return static_cast<IUnknown*>(&f0_);"]
        seen = {"IUnknown"}
        for i, name in enumerate(interfaces):
            chain = self.chain(name)
            for depth, link in enumerate(chain[1:], start=1):
                if link in seen:
                    continue
                seen.add(link)
                lines.append(f"        if (f{i}_.header_.level >= {depth} && riid == "
                             f"__uuidof({link})) return static_cast<{link}*>(&f{i}_);")
        lines += ["        return nullptr;",
                  "    }",
                  "",
                  "    std::span<FacetHeader* const> facets() override { return headers_; }",
                  "",
                  "  private:",
                  f"    const std::array<FacetHeader*, {len(interfaces)}> headers_{{"
                  f"{', '.join(f'&f{i}_.header_' for i in range(len(interfaces)))}}};",
                  "};"]
        return lines

    def hand_declarations(self) -> list[str]:
        seen = set()
        out = []
        for name in self.facets:
            for link in self.chain(name):
                for m in self.api.interfaces[link].methods:
                    if not m.hand_written.capture or m.qualified_name in seen:
                        continue
                    seen.add(m.qualified_name)
                    params = "".join(f", {p.c_decl()}" for p in m.params)
                    out.append(f"{m.returns.text.strip()} {link}_{m.name}(FacetHeader& self, "
                               f"{link}* real{params});")
        return out


def generate_header(api) -> str:
    w = Wrappers(api)
    kinds = [k for k, _, _ in WRAPPED_OBJECTS]
    out = [f"// {BANNER}",
           "// The capture layer's wrapper kinds and its hand-written methods.",
           "#pragma once",
           "",
           "#include <array>",
           "#include <cstdint>",
           "#include <optional>",
           "#include <string_view>",
           "",
           "#include \"capture/layer/facet.h\"",
           "",
           "namespace d3dcap::capture {",
           "",
           "// clang-format off",
           "// The kinds of object the layer wraps (format/api/objects.py).",
           "enum class WrapperKind : std::uint8_t {"]
    out += [f"    {k}," for k in kinds]
    out += ["};",
            f"inline constexpr std::array<std::string_view, {len(kinds)}> kWrapperKindNames{{{{"]
    out += [f'    "{k}",' for k in kinds]
    out += ["}};",
            "",
            "// The interface a kind is recorded as (its first, most-derived one).",
            f"inline constexpr std::array<std::string_view, {len(kinds)}> kWrapperInterfaces{{{{"]
    out += [f'    "{interfaces[0]}",' for _, interfaces, _ in WRAPPED_OBJECTS]
    out += ["}};",
            "",
            "// A new, unattached wrapper of a kind.",
            "Wrapper* make_wrapper(WrapperKind kind);",
            "",
            "// The kind of a real object whose pointer type does not say (ID3D11Resource,",
            "// IUnknown...), found with QueryInterface; nothing when no kind fits.",
            "std::optional<WrapperKind> probe_kind(IUnknown* real);",
            "",
            "// The kind an interface pointer type wraps as, when the type says.",
            "template <class I> struct KindOf { static constexpr bool known = false; };"]
    for iface, ks in w.kinds_of.items():
        if len(ks) == 1:
            out.append(f"template <> struct KindOf<{iface}> {{ static constexpr bool known = "
                       f"true; static constexpr WrapperKind kind = WrapperKind::{ks[0]}; }};")
    out += ["",
            "// True for the vtable pointer of a facet class.",
            "bool is_facet_vtable(const void* vtable);",
            "",
            "// The methods whose capture is written by hand (capture/hand_written/).",
            "namespace hand_written {"]
    out += w.hand_declarations()
    out += ["}  // namespace hand_written", "// clang-format on", "",
            "}  // namespace d3dcap::capture", ""]
    return "\n".join(out)


def generate_source(api) -> str:
    w = Wrappers(api)
    out = [f"// {BANNER}",
           "#include <d3dcap/capture/wrappers.h>",
           "",
           "#include <d3dcap/api/call_encoders.h>",
           "",
           "#include <algorithm>",
           "#include <array>",
           "#include <span>",
           "",
           "#include \"capture/layer/recorder.h\"",
           "",
           "namespace d3dcap::capture {",
           "namespace {",
           "",
           "// clang-format off"]
    for name in w.facets:
        out += w.facet_class(name)
        out.append("")
    for kind, interfaces, is_context in WRAPPED_OBJECTS:
        out += w.wrapper_class(kind, interfaces, is_context)
        out.append("")
    out += ["}  // namespace", "",
            "Wrapper* make_wrapper(WrapperKind kind) {",
            "    switch (kind) {"]
    for kind, _, _ in WRAPPED_OBJECTS:
        out.append(f"        case WrapperKind::{kind}: return new Wrapper_{kind}();")
    out += ["    }", "    return nullptr;", "}", "",
            "std::optional<WrapperKind> probe_kind(IUnknown* real) {",
            "    for (const auto& [iid, kind] : std::initializer_list<std::pair<const IID*, "
            "WrapperKind>>{"]
    # Each kind by the most basic interface only it has (so that objects of
    # providers without the 11.1/11.2 interfaces are found too); a predicate
    # is also a query, so Predicate is tried before Query.
    probes = []
    for kind, interfaces, _ in WRAPPED_OBJECTS:
        own = [link for link in w.chain(interfaces[0])[1:] if w.kinds_of[link] == [kind]]
        probes.append((own[0] if own else interfaces[0], kind))
    probes.sort(key=lambda p: {"Predicate": 0, "Query": 1}.get(p[1], 2))
    for link, kind in probes:
        out.append(f"             {{&__uuidof({link}), WrapperKind::{kind}}},")
    out += ["         }) {",
            "        void* found = nullptr;",
            "        if (SUCCEEDED(real->QueryInterface(*iid, &found)) && found != nullptr) {",
            "            static_cast<IUnknown*>(found)->Release();",
            "            return kind;",
            "        }",
            "    }",
            "    return std::nullopt;",
            "}", "",
            "// Every object argument of a call asks this: an open-addressed table of",
            "// the facets' vtables answers in one or two predictable probes.",
            "namespace {",
            "constexpr std::size_t kVtableSlots = 128;",
            "std::size_t vtable_slot(const void* vtable) {",
            "    return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(vtable) >> 3) *",
            "                                    0x9E3779B97F4A7C15ull >> 57);",
            "}",
            "}  // namespace", "",
            "bool is_facet_vtable(const void* vtable) {",
            "    static const auto vtables = [] {",
            f"        std::array<const void*, {len(w.facets)}> v{{}};",
            "        std::size_t i = 0;"]
    for name in w.facets:
        out.append(f"        {{ Facet_{name} f; v[i++] = *reinterpret_cast<const void* const*>(&f); }}")
    assert len(w.facets) * 2 <= 128, "the facet vtable table needs more slots"
    out += ["        std::array<const void*, kVtableSlots> table{};",
            "        for (const void* known : v) {",
            "            std::size_t at = vtable_slot(known);",
            "            while (table[at] != nullptr) at = (at + 1) % kVtableSlots;",
            "            table[at] = known;",
            "        }",
            "        return table;",
            "    }();",
            "    if (vtable == nullptr) return false;",
            "    for (std::size_t at = vtable_slot(vtable);; at = (at + 1) % kVtableSlots) {",
            "        if (vtables[at] == vtable) return true;",
            "        if (vtables[at] == nullptr) return false;",
            "    }",
            "}", "",
            "// clang-format on",
            "}  // namespace d3dcap::capture", ""]
    return "\n".join(out)

"""Generates d3dcap/api/calls.h: call ids, names and parameter metadata in C++."""

from .common import BANNER


def _cstr(text: str | None) -> str:
    if text is None:
        return "{}"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(api, declared_count: int) -> str:
    calls = api.all_calls()
    out = [f"// {BANNER}", "#pragma once", "",
           "#include <array>", "#include <cstdint>", "#include <string_view>", "",
           "namespace d3dcap::api {", "",
           "// Append-only: a value once given to a call is never reused or changed.",
           "enum class CallId : std::uint16_t {",
           "    None = 0,  // a record that is not a call"]
    for c in calls:
        out.append(f"    {_enum_name(c)} = {c.call_id},")
    out += ["};", "",
            "enum class Direction : std::uint8_t { In, Out, InOut };", "",
            "struct ParamInfo {",
            "    std::string_view name;",
            "    std::string_view type;        // C spelling, e.g. \"const D3D11_BOX *\"",
            "    Direction direction;",
            "    bool optional;                // may be NULL",
            "    std::string_view count;       // element count expression, or empty",
            "    std::string_view bytes;       // byte size expression, or empty",
            "    std::string_view size_rule;   // hand-written size rule, or empty",
            "    bool string;                  // NUL-terminated string",
            "    std::string_view iid;         // parameter naming the interface of a void**",
            "};", "",
            "struct CallInfo {",
            "    CallId id;",
            "    std::string_view interface_name;  // empty for entry points",
            "    std::string_view method;",
            "    std::int16_t slot;                // vtable slot, -1 for entry points",
            "    bool hand_written;                // its capture or replay is written by hand",
            "    std::string_view returns;",
            "    std::uint16_t first_param;        // index into kParams",
            "    std::uint16_t param_count;",
            "};", ""]
    params, rows = [], []
    for c in calls:
        first = len(params)
        for p in c.params:
            direction = {"in": "In", "out": "Out", "inout": "InOut"}[p.direction]
            type_text = p.type.text + (f"[{p.array}]" if p.array is not None else "")
            params.append(
                f"    ParamInfo{{{_cstr(p.name)}, {_cstr(type_text)}, Direction::{direction}, "
                f"{'true' if p.optional else 'false'}, {_cstr(p.count)}, {_cstr(p.bytes)}, "
                f"{_cstr(p.size_rule)}, {'true' if p.string else 'false'}, {_cstr(p.iid)}}},")
        iface = c.interface.name if getattr(c, "interface", None) else ""
        slot = getattr(c, "slot", -1)
        hand_written = "true" if c.hand_written else "false"
        rows.append(f"    CallInfo{{CallId::{_enum_name(c)}, {_cstr(iface)}, {_cstr(c.name)}, "
                    f"{slot}, {hand_written}, {_cstr(c.returns.text)}, "
                    f"{first}, {len(c.params)}}},")
    out.append(f"inline constexpr std::array<ParamInfo, {len(params)}> kParams{{{{")
    out += params
    out.append("}};")
    out.append("")
    out.append("// Sorted by call id.")
    out.append(f"inline constexpr std::array<CallInfo, {len(rows)}> kCalls{{{{")
    out += rows
    out.append("}};")
    out += ["",
            "// The count the table declares; a table edited without updating it",
            "// fails here rather than producing shifted ids.",
            f"inline constexpr std::size_t kDeclaredCallCount = {declared_count};",
            "static_assert(kCalls.size() == kDeclaredCallCount,",
            '              "format/api: CALL_COUNT does not match the calls in the table");',
            "",
            "// The call with this id, or nullptr.",
            "constexpr const CallInfo *find_call(CallId id) {",
            "    std::size_t lo = 0, hi = kCalls.size();",
            "    while (lo < hi) {",
            "        std::size_t mid = (lo + hi) / 2;",
            "        if (kCalls[mid].id < id) lo = mid + 1; else hi = mid;",
            "    }",
            "    return lo < kCalls.size() && kCalls[lo].id == id ? &kCalls[lo] : nullptr;",
            "}",
            "",
            "}  // namespace d3dcap::api"]
    return "\n".join(out) + "\n"


def _enum_name(call) -> str:
    iface = getattr(call, "interface", None)
    return f"{iface.name}_{call.name}" if iface else call.name

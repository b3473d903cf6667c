"""Generates d3dcap/api/call_dispatch.h: typed access to a record's call.

- visit_call(record, visitor): calls visitor(params) with the record's typed
  parameter table (const fb::<Call> *), or visitor(nullptr) when the record
  holds no call or a call this build does not know.
- CallOf<fb::<Call>>: the call's id, how to attach its parameters to a
  RecordBuilder (the union and member it lives in), and how to get them back.
"""

from .common import BANNER
from .schema import UNION_SIZE, call_type_name, union_field, union_name


def generate(api) -> str:
    calls = api.all_calls()
    out = [f"// {BANNER}", "#pragma once", "",
           "#include <d3dcap/api/calls.h>",
           "#include <d3dcap/fb/record_generated.h>", "",
           "namespace d3dcap::api {", "",
           "template <typename Visitor>",
           "decltype(auto) visit_call(const fb::Record& record, Visitor&& visitor) {",
           "    switch (static_cast<CallId>(record.header()->call())) {"]
    for c in calls:
        name = call_type_name(c)
        field = union_field(c.call_id // UNION_SIZE)
        out.append(f"        case CallId::{name}:")
        out.append(f"            return visitor(record.{field}_as_{name}());")
    out += ["        default:",
            "            return visitor(nullptr);",
            "    }",
            "}", "",
            "template <typename Params>",
            "struct CallOf;", ""]
    for c in calls:
        name = call_type_name(c)
        group = c.call_id // UNION_SIZE
        out += [f"template <>",
                f"struct CallOf<fb::{name}> {{",
                f"    static constexpr CallId id = CallId::{name};",
                f"    static void add_to(fb::RecordBuilder& builder, "
                f"flatbuffers::Offset<fb::{name}> params) {{",
                f"        builder.add_{union_field(group)}_type(fb::{union_name(group)}::{name});",
                f"        builder.add_{union_field(group)}(params.Union());",
                "    }",
                f"    static const fb::{name}* get(const fb::Record& record) {{",
                f"        return record.{union_field(group)}_as_{name}();",
                "    }",
                "};", ""]
    out.append("}  // namespace d3dcap::api")
    return "\n".join(out) + "\n"

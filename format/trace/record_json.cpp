#include "record_json.h"

#include <d3dcap/api/call_json.h>
#include <d3dcap/api/calls.h>

#include "json_text.h"

namespace d3dcap::trace {

namespace {

void append_meta_args(const fb::Record& record, std::string& out) {
    switch (record.meta_type()) {
        case fb::Meta::FrameBoundary:
            json::lit(out, "{\"frame\":");
            json::num(out, record.meta_as_FrameBoundary()->frame());
            break;
        case fb::Meta::ObjectCreated: {
            const fb::ObjectCreated* created = record.meta_as_ObjectCreated();
            json::lit(out, "{\"id\":");
            json::num(out, created->id());
            json::lit(out, ",\"interface\":");
            json::str(out, created->interface_name());
            json::lit(out, ",\"parent\":");
            json::num(out, created->parent());
            break;
        }
        case fb::Meta::ObjectDestroyed:
            json::lit(out, "{\"id\":");
            json::num(out, record.meta_as_ObjectDestroyed()->id());
            break;
        case fb::Meta::DebugName:
            json::lit(out, "{\"id\":");
            json::num(out, record.meta_as_DebugName()->id());
            json::lit(out, ",\"name\":");
            json::str(out, record.meta_as_DebugName()->name());
            break;
        case fb::Meta::ResourceTiling: {
            const fb::ResourceTiling* tiling = record.meta_as_ResourceTiling();
            json::lit(out, "{\"resource\":");
            json::num(out, tiling->resource());
            json::lit(out, ",\"num_tiles\":");
            json::num(out, tiling->num_tiles());
            if (const auto* packed = tiling->packed_mip_desc()) {
                json::lit(out, ",\"standard_mips\":");
                json::num(out, packed->num_standard_mips());
                json::lit(out, ",\"packed_mips\":");
                json::num(out, packed->num_packed_mips());
                json::lit(out, ",\"packed_tiles\":");
                json::num(out, packed->num_tiles_for_packed_mips());
            }
            if (const auto* shape = tiling->tile_shape()) {
                json::lit(out, ",\"tile_shape\":[");
                json::num(out, shape->width_in_texels());
                out += ',';
                json::num(out, shape->height_in_texels());
                out += ',';
                json::num(out, shape->depth_in_texels());
                out += ']';
            }
            json::lit(out, ",\"subresources\":");
            json::num(out,
                      tiling->subresource_tilings() ? tiling->subresource_tilings()->size() : 0);
            break;
        }
        case fb::Meta::StateSnapshot: {
            const fb::StateSnapshot* snapshot = record.meta_as_StateSnapshot();
            json::lit(out, "{\"frame\":");
            json::num(out, snapshot->frame());
            json::lit(out, ",\"records\":");
            json::num(out, snapshot->records() ? snapshot->records()->size() : 0);
            break;
        }
        case fb::Meta::ContentHashes: {
            const fb::ContentHashes* content = record.meta_as_ContentHashes();
            json::lit(out, "{\"frame\":");
            json::num(out, content->frame());
            json::lit(out, ",\"hashes\":[");
            if (const auto* hashes = content->hashes()) {
                for (flatbuffers::uoffset_t i = 0; i < hashes->size(); ++i) {
                    const fb::SubresourceHash* hash = hashes->Get(i);
                    if (i != 0) out += ',';
                    json::lit(out, "{\"resource\":");
                    json::num(out, hash->resource());
                    json::lit(out, ",\"subresource\":");
                    json::num(out, hash->subresource());
                    json::lit(out, ",\"hash\":\"0x");
                    json::hex_fixed(out, hash->hash(), 16);
                    json::lit(out, "\"}");
                }
            }
            out += ']';
            if (const auto* unexecuted = content->unexecuted(); unexecuted && unexecuted->size()) {
                json::lit(out, ",\"unexecuted\":[");
                for (flatbuffers::uoffset_t i = 0; i < unexecuted->size(); ++i) {
                    if (i != 0) out += ',';
                    json::num(out, unexecuted->Get(i));
                }
                out += ']';
            }
            break;
        }
        case fb::Meta::SwapChainSize: {
            const fb::SwapChainSize* size = record.meta_as_SwapChainSize();
            json::lit(out, "{\"swap_chain\":");
            json::num(out, size->swap_chain());
            json::lit(out, ",\"width\":");
            json::num(out, size->width());
            json::lit(out, ",\"height\":");
            json::num(out, size->height());
            break;
        }
        default:
            out += '{';
            break;
    }
    out += '}';
}

void append_result(const fb::Record& record, const api::CallInfo& call, std::string& out) {
    const fb::RecordHeader& header = *record.header();
    const bool is_hresult =
        (header.flags() & static_cast<std::uint16_t>(fb::RecordFlags::ResultIsHresult)) ||
        call.returns == "HRESULT";
    if (!is_hresult) {
        json::num(out, header.result());
        return;
    }
    const auto hr = static_cast<std::int32_t>(header.result());
    const std::string_view name = api::hresult_name(hr);
    out += '"';
    if (name.empty()) {
        json::lit(out, "0x");
        json::hex_fixed(out, static_cast<std::uint32_t>(hr), 8);
    } else {
        out += name;
    }
    out += '"';
}

// [{"offset":N,"data":{"size":S,"xxh3":"..."}},...]
void append_map_writes(const fb::Record& record, std::string& out) {
    out += '[';
    bool first = true;
    for (const fb::MappedWrite* write : *record.map_writes()) {
        if (!first) out += ',';
        first = false;
        json::lit(out, "{\"offset\":");
        json::num(out, write->offset());
        json::lit(out, ",\"data\":");
        json::blob(out, write->data());
        out += '}';
    }
    out += ']';
}

}  // namespace

std::string call_name(std::uint16_t call_id) {
    const api::CallInfo* call = api::find_call(static_cast<api::CallId>(call_id));
    if (call == nullptr) return "call#" + std::to_string(call_id);
    std::string name(call->interface_name);
    if (!name.empty()) name += "::";
    name += call->method;
    return name;
}

std::string record_name(const fb::Record& record) {
    const std::uint16_t id = record.header()->call();
    return id == 0 ? std::string(fb::EnumNameMeta(record.meta_type())) : call_name(id);
}

void append_record_json(const fb::Record& record, std::string& out) {
    const fb::RecordHeader& header = *record.header();
    json::lit(out, "{\"event\":");
    json::num(out, header.event());
    json::lit(out, ",\"thread\":");
    json::num(out, header.thread());
    if (header.call() == 0) {
        json::lit(out, ",\"meta\":\"");
        out += fb::EnumNameMeta(record.meta_type());
        json::lit(out, "\",\"args\":");
        append_meta_args(record, out);
        out += '}';
        return;
    }
    json::lit(out, ",\"object\":");
    json::num(out, header.object());
    json::lit(out, ",\"call\":\"");
    out += record_name(record);
    json::lit(out, "\",\"args\":");
    api::append_args_json(record, out);
    const api::CallInfo* call = api::find_call(static_cast<api::CallId>(header.call()));
    if (call != nullptr && call->returns != "void") {
        json::lit(out, ",\"result\":");
        append_result(record, *call, out);
    }
    if (record.map_writes() != nullptr) {
        json::lit(out, ",\"writes\":");
        append_map_writes(record, out);
    }
    out += '}';
}

void append_record_text(const fb::Record& record, std::string& out) {
    const fb::RecordHeader& header = *record.header();
    json::num(out, header.event());
    json::lit(out, "  t");
    json::num(out, header.thread());
    json::lit(out, "  ");
    if (header.call() == 0) {
        out += fb::EnumNameMeta(record.meta_type());
        out += ' ';
        append_meta_args(record, out);
        return;
    }
    out += '#';
    json::num(out, header.object());
    out += ' ';
    out += record_name(record);
    out += ' ';
    api::append_args_json(record, out);
    const api::CallInfo* call = api::find_call(static_cast<api::CallId>(header.call()));
    if (call != nullptr && call->returns != "void") {
        json::lit(out, " -> ");
        const std::size_t start = out.size();
        append_result(record, *call, out);
        if (out[start] == '"') {  // print names bare in text
            out.erase(out.size() - 1);
            out.erase(start, 1);
        }
    }
    if (record.map_writes() != nullptr) {
        json::lit(out, " writes ");
        append_map_writes(record, out);
    }
}

}  // namespace d3dcap::trace

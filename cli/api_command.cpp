#include "api_command.h"

#include <d3dcap/api/calls.h>

#include <nlohmann/json.hpp>
#include <ostream>

namespace d3dcap::cli {
namespace {

std::string_view direction_name(api::Direction direction) {
    switch (direction) {
        case api::Direction::In:
            return "in";
        case api::Direction::Out:
            return "out";
        case api::Direction::InOut:
            return "inout";
    }
    return "?";
}

nlohmann::json call_json(const api::CallInfo& call) {
    nlohmann::json params = nlohmann::json::array();
    for (std::size_t i = 0; i < call.param_count; ++i) {
        const api::ParamInfo& p = api::kParams[call.first_param + i];
        nlohmann::json param = {{"name", p.name},
                                {"type", p.type},
                                {"direction", direction_name(p.direction)},
                                {"optional", p.optional}};
        if (!p.count.empty()) param["count"] = p.count;
        if (!p.bytes.empty()) param["bytes"] = p.bytes;
        if (!p.size_rule.empty()) param["size_rule"] = p.size_rule;
        if (p.string) param["string"] = true;
        if (!p.iid.empty()) param["iid"] = p.iid;
        params.push_back(std::move(param));
    }
    nlohmann::json j = {{"id", static_cast<int>(call.id)},
                        {"method", call.method},
                        {"returns", call.returns},
                        {"hand_written", call.hand_written},
                        {"params", std::move(params)}};
    if (!call.interface_name.empty()) {
        j["interface"] = call.interface_name;
        j["slot"] = call.slot;
    }
    return j;
}

void print_params(const api::CallInfo& call, std::ostream& out) {
    for (std::size_t i = 0; i < call.param_count; ++i) {
        const api::ParamInfo& p = api::kParams[call.first_param + i];
        std::string direction(direction_name(p.direction));
        if (p.optional) direction += " opt";
        out << "    " << direction << std::string(10 - direction.size(), ' ') << p.type
            << (p.type.ends_with('*') ? "" : " ") << p.name;
        if (!p.count.empty()) out << "  [count: " << p.count << ']';
        if (!p.bytes.empty()) out << "  [bytes: " << p.bytes << ']';
        if (!p.size_rule.empty()) out << "  [size rule: " << p.size_rule << ']';
        if (p.string) out << "  [string]";
        if (!p.iid.empty()) out << "  [interface: " << p.iid << ']';
        out << '\n';
    }
}

// The C++ signature of a call, e.g. "HRESULT Map(ID3D11Resource *pResource, ...)".
std::string signature(std::size_t call_index) {
    const api::CallInfo& call = api::kCalls[call_index];
    std::string text(call.returns);
    text += ' ';
    text += call.method;
    text += '(';
    for (std::size_t i = 0; i < call.param_count; ++i) {
        const api::ParamInfo& p = api::kParams[call.first_param + i];
        if (i) text += ", ";
        text += p.type;
        if (!p.type.ends_with('*')) text += ' ';
        text += p.name;
    }
    text += ')';
    return text;
}

}  // namespace

std::size_t print_api(const ApiListOptions& options, std::ostream& out) {
    nlohmann::json list = nlohmann::json::array();
    std::size_t printed = 0;
    for (std::size_t i = 0; i < api::kCalls.size(); ++i) {
        const api::CallInfo& call = api::kCalls[i];
        if (!options.interface_name.empty() && call.interface_name != options.interface_name) {
            continue;
        }
        ++printed;
        if (options.json) {
            list.push_back(call_json(call));
            continue;
        }
        out << "id " << static_cast<int>(call.id) << "\t";
        if (call.interface_name.empty()) {
            out << "entry point\t";
        } else {
            out << call.interface_name << " slot " << call.slot << "\t";
        }
        if (options.params) {
            out << call.returns << ' ' << call.method
                << (call.hand_written ? "  [hand-written]" : "") << '\n';
            print_params(call, out);
        } else {
            out << signature(i) << (call.hand_written ? "  [hand-written]" : "") << '\n';
        }
    }
    if (options.json) out << list.dump(2) << '\n';
    return printed;
}

}  // namespace d3dcap::cli

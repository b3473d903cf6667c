#include "runtime/messages.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime {

MessageLog::MessageLog() {
    const char* value = std::getenv("D3DCAP_DEBUG_MESSAGES");
    print_ = value && std::strcmp(value, "1") == 0;
}

void MessageLog::message(const Message& message) {
    if (print_) {
        if (message.parameter.empty()) {
            std::fprintf(stderr, "d3dcap: %s: %s\n", message.call.c_str(), message.text.c_str());
        } else {
            std::fprintf(stderr, "d3dcap: %s: %s: %s\n", message.call.c_str(),
                         message.parameter.c_str(), message.text.c_str());
        }
    }
    std::lock_guard lock(mutex_);
    if (recent_.size() == kKept) recent_.pop_front();
    recent_.push_back(message);
}

std::vector<Message> MessageLog::recent() const {
    std::lock_guard lock(mutex_);
    return {recent_.begin(), recent_.end()};
}

void MessageLog::clear() {
    std::lock_guard lock(mutex_);
    recent_.clear();
}

std::string hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

std::string format_name(unsigned format) {
    const auto& info = formats::info(static_cast<DXGI_FORMAT>(format));
    if (info.kind == formats::Kind::Unknown && format != 0) {
        return "format " + std::to_string(format) + " (not a DXGI format)";
    }
    if (format == 0) return "DXGI_FORMAT_UNKNOWN";
    return info.name;
}

}  // namespace d3dcap::runtime

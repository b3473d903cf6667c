// The device's message sink: keeps the last messages for tools and tests and,
// when D3DCAP_DEBUG_MESSAGES=1, prints each to stderr as
// "d3dcap: <call>: <parameter>: <text>".
#pragma once

#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/messages.h"

namespace d3dcap::runtime {

class MessageLog final : public MessageSink {
  public:
    MessageLog();
    void message(const Message& message) override;
    std::vector<Message> recent() const;
    void clear();

    // Shorthands for the runtime's own checks.
    void error(std::string call, std::string parameter, std::string text) {
        message({Severity::Error, std::move(call), std::move(parameter), std::move(text)});
    }
    void warning(std::string call, std::string parameter, std::string text) {
        message({Severity::Warning, std::move(call), std::move(parameter), std::move(text)});
    }

    static constexpr std::size_t kKept = 256;

  private:
    mutable std::mutex mutex_;
    std::deque<Message> recent_;
    bool print_ = false;
};

// "0x887a0001"-style text of an HRESULT, and the name of a DXGI format.
std::string hex(std::uint64_t value);
std::string format_name(unsigned format);

}  // namespace d3dcap::runtime

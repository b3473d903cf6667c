// A debug-layer-style message sink: every rejected call says which parameter
// and value was wrong. Tools print these; the runtime keeps the last ones.
// MessageLog is the sink of a device (and of the entry points): it keeps the
// last messages for tools and tests and, when D3DCAP_DEBUG_MESSAGES=1, prints
// each to stderr as "d3dcap: <call>: <parameter>: <text>".
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace d3dcap::runtime {

enum class Severity { Error, Warning, Info };

struct Message {
    Severity severity = Severity::Error;
    std::string call;       // e.g. "ID3D11DeviceContext2::UpdateTileMappings"
    std::string parameter;  // e.g. "pRangeTileCounts[2]"; empty when not about one
    std::string text;       // e.g. "the ranges cover 5 tiles but the regions 6"
};

class MessageSink {
  public:
    virtual ~MessageSink() = default;
    virtual void message(const Message& message) = 0;
};

// The device's message sink.
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

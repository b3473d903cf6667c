// A debug-layer-style message sink: every rejected call says which parameter
// and value was wrong. Tools print these; the runtime keeps the last ones.
#pragma once

#include <string>

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

}  // namespace d3dcap::runtime

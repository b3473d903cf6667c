// A recorded call's parameters as FlatBuffers' reflection reads them from
// the binary schema that flatc makes of the trace schema (record.bfbs):
// neither the generated classes nor the generated decoders and JSON dumper
// take part, so the capture coverage checks read what the layer recorded
// independently of the generated code that wrote it. Values are written as
// field_text.h says.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "capture/support/field_text.h"

namespace reflection {
struct Schema;
struct Object;
}  // namespace reflection

namespace d3dcap::testing {

struct ReflectedCall {
    std::uint64_t context = 0;  // the record header's context id
    std::string table;          // the parameter table's name, e.g. "ID3D11DeviceContext_Draw"
    std::vector<std::pair<std::string, std::string>> fields;  // in field id order
};

class RecordReflection {
  public:
    // Reads the binary schema; throws if it cannot, or if it is not the
    // trace schema.
    explicit RecordReflection(const std::string& bfbs_path);

    // The call a Record table holds (table empty for a record of no call).
    ReflectedCall call(const void* record) const;

  private:
    std::vector<std::uint8_t> bfbs_;
    const reflection::Schema* schema_ = nullptr;
    const reflection::Object* record_ = nullptr;
};

// The device-context calls (tables named ID3D11DeviceContext*) a trace
// recorded on the context with that object id, in order.
std::vector<ReflectedCall> reflected_context_calls(const RecordReflection& reflection,
                                                   const std::string& trace_path,
                                                   std::uint64_t context);

// How the recorded call differs from the expected one, a line each naming
// the call and the field; empty when they agree.
std::vector<std::string> field_differences(const std::string& call, const ExpectedFields& expected,
                                           const ReflectedCall& recorded);

}  // namespace d3dcap::testing

// One record as a JSON object or a line of text, as `d3dcap dump` prints it.
#pragma once

#include <d3dcap/fb/record_generated.h>

#include <cstdint>
#include <string>

namespace d3dcap::trace {

// {"event":N,"thread":T,"object":ID,"call":"Interface::Method","args":{...},"result":"S_OK"}
// or, for meta records, {"event":N,"thread":T,"meta":"FrameBoundary","args":{...}}.
void append_record_json(const fb::Record& record, std::string& out);

// "N  t T  #ID Interface::Method {...} -> S_OK", or "N  t T  FrameBoundary {...}".
void append_record_text(const fb::Record& record, std::string& out);

// "ID3D11DeviceContext2::UpdateTileMappings", or "call#N" for a call id
// this build does not know.
std::string call_name(std::uint16_t call_id);

// call_name of the record's call, or the meta record's kind.
std::string record_name(const fb::Record& record);

}  // namespace d3dcap::trace

// Limits a record is checked against before replay makes its call: the
// resource dimensions D3D11 allows and a memory cap on what one resource,
// tile pool or blob may make the replay allocate, so that a damaged or
// hostile trace ends with an error instead of an unbounded allocation.
#pragma once

#include <d3dcap/fb/trace_generated.h>

#include <cstdint>
#include <string>

namespace d3dcap::replay {

// 16 GiB: more than any resource a D3D11 application can create on the
// devices this runtime has, far less than what a damaged size would ask for.
constexpr std::uint64_t kDefaultMemoryCap = std::uint64_t{16} << 30;

// The memory cap from D3DCAP_REPLAY_MEMORY_CAP (MiB), else the default; an
// error names the variable and its value.
std::uint64_t memory_cap_from_environment(std::string& error);

// Empty when the record's call may be made, else what is out of bounds
// ("pDesc->Width 20000 is more than 16384").
std::string check_record_limits(const fb::Record& record, std::uint64_t memory_cap);

}  // namespace d3dcap::replay

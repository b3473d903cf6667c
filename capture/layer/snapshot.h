// The state snapshot at the start of a frame-range capture: the records that
// recreate every live object, its contents and the pipeline state.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace d3dcap::capture {

class Wrapper;

// Nested records, in the order replay must execute them.
using SnapshotRecords = std::vector<std::shared_ptr<const std::vector<std::uint8_t>>>;

// The creation records of the live wrappers (sorted by id, each record once).
SnapshotRecords creation_records(const std::vector<Wrapper*>& live);

// Appends the records that restore every resource's contents and every tiled
// resource's mappings (live sorted by id), read through the real device.
void append_contents(const std::vector<Wrapper*>& live, SnapshotRecords& out);

}  // namespace d3dcap::capture

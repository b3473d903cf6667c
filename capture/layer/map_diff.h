// What changed in a mapped subresource between Map and Unmap: the capture
// layer compares the shadow copy the application wrote into with the content
// it had before and records only the changed byte ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace d3dcap::capture {

struct ByteRange {
    std::size_t offset = 0;
    std::size_t size = 0;

    friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

// Replaces out with the ranges where before and after differ, in ascending
// order: each starts at a differing byte and ends after a differing byte.
// Runs of differing bytes separated by fewer than merge_gap equal bytes are
// one range, so that scattered small writes do not become thousands of tiny
// ranges; touching runs are always one range. Equal data is skipped 64 bytes
// at a time.
void changed_ranges(const std::uint8_t* before, const std::uint8_t* after, std::size_t size,
                    std::vector<ByteRange>& out, std::size_t merge_gap = 64);

}  // namespace d3dcap::capture

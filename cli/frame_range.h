// Frame ranges on the command line: "A-B", "A-" (to the end) or "A".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace d3dcap::cli {

struct FrameRangeText {
    std::uint64_t first = 0;
    std::optional<std::uint64_t> last;  // absent: to the end
};

// nullopt when text is not a range or its end comes before its start.
std::optional<FrameRangeText> parse_frame_range(const std::string& text);

}  // namespace d3dcap::cli

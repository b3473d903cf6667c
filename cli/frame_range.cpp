#include "frame_range.h"

#include <regex>

namespace d3dcap::cli {

std::optional<FrameRangeText> parse_frame_range(const std::string& text) {
    std::smatch match;
    // At most 18 digits: every such number fits in 64 bits.
    if (!std::regex_match(text, match, std::regex(R"((\d{1,18})(-(\d{0,18}))?)"))) return {};
    FrameRangeText range;
    range.first = std::stoull(match[1].str());
    if (!match[2].matched) {
        range.last = range.first;
    } else if (match[3].length() > 0) {
        range.last = std::stoull(match[3].str());
        if (*range.last < range.first) return {};
    }
    return range;
}

}  // namespace d3dcap::cli

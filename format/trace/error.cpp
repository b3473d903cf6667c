#include "error.h"

namespace d3dcap::trace {

std::string TraceError::to_string() const {
    std::string text = file + ": ";
    if (chunk >= 0) {
        text += "chunk " + std::to_string(chunk);
        if (offset >= 0) text += " (offset " + std::to_string(offset) + ")";
        text += ", ";
    } else if (offset >= 0) {
        text += "offset " + std::to_string(offset) + ", ";
    }
    if (event >= 0) text += "event " + std::to_string(event) + ", ";
    if (text.ends_with(", ")) text.replace(text.size() - 2, 2, ": ");
    return text + message;
}

}  // namespace d3dcap::trace

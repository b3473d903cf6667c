// What a resource holds, written to a file: a PNG of its picture, a DDS
// of the subresource, or its bytes raw; the kind by the name's ending.
#pragma once

#include <string>

#include "replay/engine/contents.h"

namespace d3dcap::replay {

// True when the name ends in .png, .dds or .raw.
bool is_contents_file_name(const std::string& path);

// Writes contents (a whole subresource) as the path's ending says; false
// with why in error ("a buffer has no picture; export it to .raw").
bool write_contents_file(const std::string& path, const ResourceContents& contents,
                         std::string& error);

}  // namespace d3dcap::replay

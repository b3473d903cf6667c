// The trace file as the writer sees it: create, append, close. POSIX file
// descriptors; on Windows the CRT's, opened binary from a UTF-8 path.
#pragma once

#include <cstddef>
#include <string>

namespace d3dcap::trace {

// A descriptor open for writing at the start of a new or truncated file, or
// -1 with errno set.
int create_output_file(const std::string& path);

// Writes all of data; returns 0 or the errno of the failure.
int write_fully(int fd, const void* data, std::size_t size);

// 0, or the errno of the failure.
int close_output_file(int fd);

}  // namespace d3dcap::trace

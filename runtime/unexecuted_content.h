// The private data by which a resource of this runtime says its content came,
// in part, from draws or dispatches its device did not execute (the CPU
// devices run none): one byte, 1 while that holds. The capture layer records
// it beside the resource's content hashes, which a device that ran the work
// cannot match. A GUID only, for any provider's objects to be asked.
#pragma once

#include <unknwn.h>

namespace d3dcap::runtime {

inline constexpr GUID kUnexecutedContentGuid = {
    0xa68e915d, 0xf373, 0x4716, {0x8a, 0xf4, 0xdf, 0xb6, 0x1b, 0xdb, 0x5c, 0xf2}};

}  // namespace d3dcap::runtime

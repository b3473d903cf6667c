// Errors of the Vulkan layer as values: a message or a result, never an
// exception (the runtime's entry points must not throw).
#pragma once

#include <vulkan/vulkan_core.h>

#include <string>
#include <utility>
#include <variant>

#include "format/trace/error.h"

namespace d3dcap::runtime::backend::vulkan {

struct Error {
    std::string message;
};

template <class T>
using Expected = trace::Expected<T, Error>;
// Success, or what went wrong.
using Status = trace::Expected<std::monostate, Error>;

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on.
const char* vk_result_name(VkResult result);

// "what: VK_ERROR_..." as an Error.
inline Error vk_error(const std::string& what, VkResult result) {
    return Error{what + ": " + vk_result_name(result)};
}

}  // namespace d3dcap::runtime::backend::vulkan

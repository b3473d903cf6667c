// Errors of the Vulkan layer as values: a message or a result, never an
// exception (the runtime's entry points must not throw).
#pragma once

#include <vulkan/vulkan_core.h>

#include <string>
#include <utility>
#include <variant>

namespace d3dcap::vulkan {

struct Error {
    std::string message;
};

template <class T>
class Expected {
  public:
    Expected(T value) : state_(std::move(value)) {}
    Expected(Error error) : state_(std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(state_); }
    const T& value() const { return std::get<0>(state_); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const std::string& error() const { return std::get<1>(state_).message; }

  private:
    std::variant<T, Error> state_;
};

// Success, or what went wrong.
class Status {
  public:
    Status() = default;
    Status(Error error) : error_(std::move(error.message)), failed_(true) {}
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const std::string& error() const { return error_; }

  private:
    std::string error_;
    bool failed_ = false;
};

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on.
const char* vk_result_name(VkResult result);

// "what: VK_ERROR_..." as an Error.
inline Error vk_error(const std::string& what, VkResult result) {
    return Error{what + ": " + vk_result_name(result)};
}

}  // namespace d3dcap::vulkan

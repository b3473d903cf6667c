// Errors of trace reading and writing: values that say where the problem is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace d3dcap::trace {

struct TraceError {
    std::string file;
    std::string message;
    std::int64_t chunk = -1;   // chunk number, -1 when not about a chunk
    std::int64_t event = -1;   // event number, -1 when not about an event
    std::int64_t offset = -1;  // byte offset in the file, -1 when unknown

    // "trace.d3dcap: chunk 3 (offset 1048608), event 20411: bad checksum"
    std::string to_string() const;
};

// A value or an error of type E.
template <typename T, typename E>
class Expected {
  public:
    // Success of an operation that returns nothing.
    Expected() requires std::is_same_v<T, std::monostate>
    = default;
    Expected(T value) : state_(std::move(value)) {}
    Expected(E error) : state_(std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(state_); }
    const T& value() const { return std::get<0>(state_); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const E& error() const { return std::get<1>(state_); }

  private:
    std::variant<T, E> state_;
};

// A value or a TraceError.
template <typename T>
using Result = Expected<T, TraceError>;

// For operations that return nothing but may fail.
using Status = Result<std::monostate>;
inline Status ok_status() {
    return Status(std::monostate{});
}

}  // namespace d3dcap::trace

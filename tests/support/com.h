// A COM pointer for tests: owns one reference.
#pragma once

#include <d3d11_2.h>

#include <utility>

namespace d3dcap::testing {

template <class T>
class Com {
  public:
    Com() = default;
    explicit Com(T* adopted) : object_(adopted) {}
    Com(const Com&) = delete;
    Com& operator=(const Com&) = delete;
    Com(Com&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
    Com& operator=(Com&& other) noexcept {
        reset();
        object_ = std::exchange(other.object_, nullptr);
        return *this;
    }
    ~Com() { reset(); }
    void reset() {
        if (object_ != nullptr) object_->Release();
        object_ = nullptr;
    }
    T** out() {
        reset();
        return &object_;
    }
    void** out_void() { return reinterpret_cast<void**>(out()); }
    T* get() const { return object_; }
    T* operator->() const { return object_; }
    explicit operator bool() const { return object_ != nullptr; }
    // Gives the reference up (for tests that count releases themselves).
    T* release() { return std::exchange(object_, nullptr); }

    template <class U>
    Com<U> as() const {
        Com<U> result;
        if (object_ != nullptr) object_->QueryInterface(__uuidof(U), result.out_void());
        return result;
    }

  private:
    T* object_ = nullptr;
};

}  // namespace d3dcap::testing

// COM ownership, HRESULT checks and the annotation helper the example
// programs share.
#pragma once

#include <d3d11_2.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace example {

// Owns one reference; releases it when destroyed, so that an early exit
// through an exception still releases every object (the leak checker runs
// on the example).
template <class T>
class Com {
  public:
    Com() = default;
    ~Com() { reset(); }
    Com(const Com&) = delete;
    Com& operator=(const Com&) = delete;
    Com(Com&& other) noexcept : pointer_(std::exchange(other.pointer_, nullptr)) {}
    Com& operator=(Com&& other) noexcept {
        if (this != &other) {
            reset();
            pointer_ = std::exchange(other.pointer_, nullptr);
        }
        return *this;
    }

    T* get() const { return pointer_; }
    T* operator->() const { return pointer_; }
    explicit operator bool() const { return pointer_ != nullptr; }
    // For out-parameters: drops what it held first.
    T** put() {
        reset();
        return &pointer_;
    }
    void** put_void() { return reinterpret_cast<void**>(put()); }
    void reset() {
        if (pointer_) pointer_->Release();
        pointer_ = nullptr;
    }

  private:
    T* pointer_ = nullptr;
};

// A failed call: its name and HRESULT, printed by main.
class Failure : public std::runtime_error {
  public:
    Failure(const std::string& call, HRESULT hr) : std::runtime_error(call), hr_(hr) {}
    HRESULT hr() const { return hr_; }

  private:
    HRESULT hr_;
};

inline void check(HRESULT hr, const char* call) {
    if (FAILED(hr)) throw Failure(call, hr);
}

// Runs an example (run(summary) returns its exit status), then prints its
// summary line, once every object it made has been released, or the call
// that failed.
template <class Run>
int run_and_report(const char* program, Run&& run) {
    try {
        std::string summary;
        const int status = run(summary);
        std::fputs(summary.c_str(), stdout);
        return status;
    } catch (const Failure& failure) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: %s failed: HRESULT 0x%08x\n", program, failure.what(),
                     static_cast<unsigned>(failure.hr()));
        return 1;
    }
}

// WKPDID_D3DDebugObjectName (d3dcommon.h) with its value, as there is no
// dxguid library to link on Linux: the name tools show for an object.
constexpr GUID kDebugObjectName = {
    0x429b8c22, 0x9188, 0x4b0c, {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00}};

inline void name(ID3D11DeviceChild* object, const char* text) {
    check(object->SetPrivateData(kDebugObjectName, static_cast<UINT>(std::strlen(text)), text),
          "ID3D11DeviceChild::SetPrivateData (debug name)");
}

template <class T, class From>
void query(From* from, Com<T>& to, const char* call) {
    check(from->QueryInterface(__uuidof(T), to.put_void()), call);
}

// Events and markers, emitted only while a tool listens (IsAnnotationEnabled),
// as engines do: the label and counter work is skipped otherwise. The state is
// sampled once per frame so that every Begin has its End. Both annotation
// interfaces are used: ID3D11DeviceContext2's *Int calls carry a number,
// ID3DUserDefinedAnnotation's calls a label only.
class Markers {
  public:
    Markers(ID3D11DeviceContext2* context, ID3DUserDefinedAnnotation* annotation, bool forced)
        : context_(context), annotation_(annotation), forced_(forced) {}

    void sample() { enabled_ = forced_ || context_->IsAnnotationEnabled(); }
    bool enabled() const { return enabled_; }

    void begin(const wchar_t* label, INT data) {
        if (enabled_) context_->BeginEventInt(label, data);
    }
    void end() {
        if (enabled_) context_->EndEvent();
    }
    void marker(const wchar_t* label, INT data) {
        if (enabled_) context_->SetMarkerInt(label, data);
    }
    void begin_named(const wchar_t* label) {
        if (enabled_) annotation_->BeginEvent(label);
    }
    void end_named() {
        if (enabled_) annotation_->EndEvent();
    }
    void marker_named(const wchar_t* label) {
        if (enabled_) annotation_->SetMarker(label);
    }

  private:
    ID3D11DeviceContext2* context_;
    ID3DUserDefinedAnnotation* annotation_;
    bool forced_;
    bool enabled_ = false;
};

}  // namespace example

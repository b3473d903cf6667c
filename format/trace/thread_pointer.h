// A pointer of this thread's, read on every recorded call: the capture
// layer's record builders, the writer's lanes.
// D3DCAP_THREAD_POINTER(T, Name) declares Name, with static get(), set()
// and gone(): on Linux an initial-exec thread_local (one load); mingw-w64
// emulates thread_local storage with a call and a lookup, about 25 ns a read
// under Wine, so on Windows a slot of the system's own thread-local storage
// (TlsGetValue, about 6 ns). gone() is what a thread whose state was freed as
// it ended holds (never read through): state wanted after that is made
// another way.
#pragma once

#include <cstdint>

#ifdef _WIN32
#include <windows.h>
#endif

// The initial-exec model reads thread-local state without a call into the
// dynamic linker. The capture library is preloaded, or opened while the
// static TLS reserve has room for its few bytes.
#if defined(__ELF__)
#define D3DCAP_INITIAL_EXEC_TLS __attribute__((tls_model("initial-exec")))
#else
#define D3DCAP_INITIAL_EXEC_TLS
#endif

namespace d3dcap::trace {

template <class T>
T* gone_thread_pointer() {
    return reinterpret_cast<T*>(std::uintptr_t{1});
}

#ifdef _WIN32
template <class T, class Tag>
class TlsSlotPointer {
  public:
    static T* get() { return static_cast<T*>(TlsGetValue(index_)); }
    static void set(T* value) { TlsSetValue(index_, value); }
    static T* gone() { return gone_thread_pointer<T>(); }

  private:
    static inline const DWORD index_ = TlsAlloc();
};
#define D3DCAP_THREAD_POINTER(T, Name) \
    using Name = ::d3dcap::trace::TlsSlotPointer<T, struct Name##Tag>
#else
// A namespace-scope variable: the model attribute holds there, where a
// template's inline static member would be reached through __tls_get_addr.
#define D3DCAP_THREAD_POINTER(T, Name)                                         \
    thread_local T* Name##_value D3DCAP_INITIAL_EXEC_TLS = nullptr;            \
    struct Name {                                                              \
        static T* get() { return Name##_value; }                               \
        static void set(T* value) { Name##_value = value; }                    \
        static T* gone() { return ::d3dcap::trace::gone_thread_pointer<T>(); } \
    }
#endif

}  // namespace d3dcap::trace

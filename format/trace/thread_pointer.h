// A pointer of this thread's, read on every recorded call: the capture
// layer's record builders, the writer's lanes. On Linux an initial-exec
// thread_local (one load). mingw-w64 emulates thread_local storage with a
// call and a lookup, about 25 ns a read under Wine, so on Windows it is a
// slot of the system's own thread-local storage (TlsGetValue, about 6 ns).
// Tag tells apart pointers of the same type.
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

template <class T, class Tag>
class ThreadPointer {
  public:
    // What a thread whose state was freed as it ended holds (never read
    // through): state wanted after that is made another way.
    static T* gone() { return reinterpret_cast<T*>(std::uintptr_t{1}); }

#ifdef _WIN32
    static T* get() {
        return static_cast<T*>(TlsGetValue(index_));
    }
    static void set(T* value) {
        TlsSetValue(index_, value);
    }

  private:
    static inline const DWORD index_ = TlsAlloc();
#else
    static T* get() {
        return value_;
    }
    static void set(T* value) {
        value_ = value;
    }

  private:
    static inline thread_local T* value_ D3DCAP_INITIAL_EXEC_TLS = nullptr;
#endif
};

}  // namespace d3dcap::trace

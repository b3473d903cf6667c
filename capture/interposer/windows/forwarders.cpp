// The exports of d3d11.dll and dxgi.dll that the layer does not record:
// each stub (forward_stubs.S) jumps to the real DLL's function, found here
// on its first call.
#include <windows.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "capture/interposer/platform.h"

namespace {

struct ForwardedExport {
    const char* dll;
    const char* name;
};

constexpr ForwardedExport kForwarded[] = {
#include "forward_names.inc"
};

}  // namespace

extern "C" {

// Per export, from forward_stubs.S: what answers in place of an export the
// real DLL lacks (E_NOTIMPL: they all return HRESULT or nothing), popping
// what a 32-bit caller pushed; null where that is not known.
extern void* const d3dcap_forward_missing[std::size(kForwarded)];

// Read by the stubs: the real function once found.
void* d3dcap_forward_slots[std::size(kForwarded)] = {};

void* d3dcap_forward_resolve(unsigned index) {
    const ForwardedExport& forwarded = kForwarded[index];
    void* target = d3dcap::capture::platform::real_entry(d3dcap::capture::provider(), forwarded.dll,
                                                         forwarded.name);
    if (target == nullptr) {
        target = d3dcap_forward_missing[index];
        if (target == nullptr) {
            std::fprintf(stderr,
                         "d3dcap capture: the real %s.dll has no %s, and the 32-bit layer "
                         "does not know the arguments to answer it with: the program ends\n",
                         forwarded.dll, forwarded.name);
            std::abort();
        }
        std::fprintf(stderr, "d3dcap capture: the real %s.dll has no %s: it returns E_NOTIMPL\n",
                     forwarded.dll, forwarded.name);
    }
    std::atomic_ref(d3dcap_forward_slots[index]).store(target, std::memory_order_release);
    return target;
}

}  // extern "C"

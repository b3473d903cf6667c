/* The in-application API of the d3dcap capture layer: a program run under
 * `d3dcap capture` (or with libd3dcap_capture.so preloaded) can control the
 * capture itself. The layer may be absent: find the API at run time, and do
 * nothing when it is not there.
 *
 *     const D3DCAP_CAPTURE_API_1* capture = d3dcap_find_capture_api();
 *     if (capture) capture->trigger(1);   // record the next frame
 *
 * Frames are counted from 0 and end at each Present (or end_frame()). */
#ifndef D3DCAP_CAPTURE_API_H
#define D3DCAP_CAPTURE_API_H

#include <stdint.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define D3DCAP_CAPTURE_API_VERSION_1 1

typedef struct D3DCAP_CAPTURE_API_1 {
    /* Starts recording now (objects that exist are written as a snapshot);
     * 0 on success, -1 on failure (see last_error). */
    int (*start)(void);
    /* Stops recording and closes the trace; 0, or -1 on a write error. */
    int (*stop)(void);
    /* Ends a frame, for programs that do not Present. */
    void (*end_frame)(void);
    /* Records frames [first, first + count) (count 0: to the end); 0 or -1. */
    int (*set_frame_range)(uint64_t first, uint64_t count);
    /* Records the next `frames` frames, starting with the next one; 0 or -1. */
    int (*trigger)(uint64_t frames);
    /* 1 while recording, else 0. */
    int (*is_recording)(void);
    /* The number of the frame in progress. */
    uint64_t (*frame)(void);
    /* Where the trace goes. */
    const char* (*output_path)(void);
    /* The last error of this API, or "". */
    const char* (*last_error)(void);
} D3DCAP_CAPTURE_API_1;

/* Exported by libd3dcap_capture.so (d3dcap_capture.dll on Windows); NULL
 * for an unknown version. */
const D3DCAP_CAPTURE_API_1* d3dcap_get_capture_api(int version);

typedef const D3DCAP_CAPTURE_API_1* (*PFN_d3dcap_get_capture_api)(int version);

/* The API when the capture layer is loaded in this process, else NULL. */
static inline const D3DCAP_CAPTURE_API_1* d3dcap_find_capture_api(void) {
#ifdef _WIN32
    HMODULE layer = GetModuleHandleA("d3dcap_capture.dll");
    PFN_d3dcap_get_capture_api get =
        layer ? (PFN_d3dcap_get_capture_api)(void (*)(void))GetProcAddress(layer,
                                                                           "d3dcap_get_capture_api")
              : (PFN_d3dcap_get_capture_api)0;
#else
    PFN_d3dcap_get_capture_api get =
        (PFN_d3dcap_get_capture_api)dlsym(RTLD_DEFAULT, "d3dcap_get_capture_api");
#endif
    return get ? get(D3DCAP_CAPTURE_API_VERSION_1) : (const D3DCAP_CAPTURE_API_1*)0;
}

#ifdef __cplusplus
}
#endif

#endif

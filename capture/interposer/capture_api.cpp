// d3dcap_get_capture_api: the in-application control of the capture.
#include <d3dcap/capture_api.h>

#include <mutex>
#include <string>

#include "capture/interposer/platform.h"
#include "capture/layer/layer.h"

namespace d3dcap::capture {

namespace {

std::mutex g_error_mutex;
std::string g_last_error;

int report(const std::string& error) {
    std::lock_guard lock(g_error_mutex);
    g_last_error = error;
    return error.empty() ? 0 : -1;
}

int api_start() {
    std::string error;
    Layer::get().start(error);
    return report(error);
}

int api_stop() {
    return report(Layer::get().stop());
}

void api_end_frame() {
    Layer::get().frame_ended();
}

int api_set_frame_range(std::uint64_t first, std::uint64_t count) {
    if (first <= Layer::get().frame() && Layer::get().writer() == nullptr && first != 0)
        return report("frame " + std::to_string(first) + " has already begun");
    Layer::get().set_frame_range(first, count);
    return report("");
}

int api_trigger(std::uint64_t frames) {
    if (Layer::get().writer() != nullptr) return report("this process has already captured");
    Layer::get().trigger(frames);
    return report("");
}

int api_is_recording() {
    return Layer::get().recording() ? 1 : 0;
}
std::uint64_t api_frame() {
    return Layer::get().frame();
}
const char* api_output_path() {
    return Layer::get().config().output_path.c_str();
}
const char* api_last_error() {
    std::lock_guard lock(g_error_mutex);
    return g_last_error.c_str();
}

constexpr D3DCAP_CAPTURE_API_1 kApi1 = {api_start,           api_stop,        api_end_frame,
                                        api_set_frame_range, api_trigger,     api_is_recording,
                                        api_frame,           api_output_path, api_last_error};

}  // namespace

}  // namespace d3dcap::capture

D3DCAP_CAPTURE_EXPORT const D3DCAP_CAPTURE_API_1* d3dcap_get_capture_api(int version) {
    return version == D3DCAP_CAPTURE_API_VERSION_1 ? &d3dcap::capture::kApi1 : nullptr;
}

#include "version.h"

#include <d3dcap/version.h>

#include <memory>

#include "replay/engine/device_choice.h"
#include "runtime/backend/backend.h"

namespace d3dcap::cli {
namespace {

// A Vulkan device the replay would use, with its tiled-resources tier, or
// why there is none.
std::string vulkan_device(runtime::backend::VulkanAdapter adapter) {
    std::string error;
    const std::unique_ptr<runtime::backend::Backend> device =
        runtime::backend::make_vulkan_backend(error, adapter);
    if (!device) return "none: " + error;
    const D3D11_TILED_RESOURCES_TIER tier = device->tiled_resources_tier();
    return device->adapter_name() +
           (tier == D3D11_TILED_RESOURCES_NOT_SUPPORTED
                ? " (no tiled resources)"
                : " (tiled resources tier " + std::to_string(static_cast<int>(tier)) + ")");
}

}  // namespace

std::string version_text() {
    std::string text = "d3dcap " D3DCAP_VERSION " (commit " D3DCAP_BUILD_COMMIT ")\n";
    text += "replay devices on this machine (--device):\n";
    text += "  hardware   " + vulkan_device(runtime::backend::VulkanAdapter::Default) + "\n";
    text += "  warp       " + vulkan_device(runtime::backend::VulkanAdapter::Cpu) + "\n";
    text += "  reference  exact data on the CPU; draws and dispatches are not executed\n";
    text += "  null       state only\n";
    std::string error;
    const auto automatic = replay::choose_device("auto", error);
    text += "  " + (automatic ? automatic->reason : "auto: " + error);
    return text;
}

}  // namespace d3dcap::cli

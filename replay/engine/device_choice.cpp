#include "replay/engine/device_choice.h"

#include <memory>

#include "runtime/backend/backend.h"

namespace d3dcap::replay {

std::optional<DeviceChoice> choose_device(const std::string& choice, std::string& error) {
    DeviceChoice chosen;
    if (choice == "reference") {
        chosen.driver = D3D_DRIVER_TYPE_REFERENCE;
    } else if (choice == "null") {
        chosen.driver = D3D_DRIVER_TYPE_NULL;
    } else if (choice == "auto") {
        std::string gpu_error, cpu_error;
        const std::unique_ptr<runtime::backend::Backend> gpu =
            runtime::backend::make_vulkan_backend(gpu_error);
        const auto identity = gpu ? gpu->adapter_identity() : std::nullopt;
        if (identity && identity->sparse_residency) {
            chosen.driver = D3D_DRIVER_TYPE_HARDWARE;
            chosen.reason = "auto: the Vulkan device " + gpu->adapter_name();
        } else if (const std::unique_ptr<runtime::backend::Backend> cpu =
                       runtime::backend::make_vulkan_backend(
                           cpu_error, runtime::backend::VulkanAdapter::Cpu)) {
            chosen.driver = D3D_DRIVER_TYPE_WARP;
            const bool other_gpu = identity && !identity->software;
            chosen.reason = "auto: the CPU Vulkan device " + cpu->adapter_name() + " (" +
                            (other_gpu ? gpu->adapter_name() + " has no sparse residency"
                                       : "no GPU with sparse residency") +
                            ")";
        } else {
            chosen.driver = D3D_DRIVER_TYPE_REFERENCE;
            chosen.reason = "auto: the reference device (" +
                            (gpu ? gpu->tier_reason() + ", no tiled resources" : gpu_error) + "; " +
                            cpu_error + ")";
        }
    } else if (choice == "warp") {
        const std::unique_ptr<runtime::backend::Backend> cpu =
            runtime::backend::make_vulkan_backend(error, runtime::backend::VulkanAdapter::Cpu);
        if (!cpu) {
            error = "--device warp: " + error;
            return std::nullopt;
        }
        chosen.driver = D3D_DRIVER_TYPE_WARP;
        chosen.reason = "the CPU Vulkan device " + cpu->adapter_name();
    } else if (choice == "hardware") {
        const std::unique_ptr<runtime::backend::Backend> gpu =
            runtime::backend::make_vulkan_backend(error);
        if (!gpu) {
            error = "--device hardware: " + error;
            return std::nullopt;
        }
        chosen.driver = D3D_DRIVER_TYPE_HARDWARE;
        chosen.reason = "the Vulkan device " + gpu->adapter_name();
        if (gpu->tiled_resources_tier() == D3D11_TILED_RESOURCES_NOT_SUPPORTED) {
            chosen.reason += " (no tiled resources: " + gpu->tier_reason() + ")";
        }
    } else {
        error = "--device '" + choice + "' is not one of auto, hardware, warp, reference, null";
        return std::nullopt;
    }
    return chosen;
}

}  // namespace d3dcap::replay

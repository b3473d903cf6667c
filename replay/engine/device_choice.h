// The replay device a user names: auto, hardware, warp, reference or null,
// and which driver type that is on this machine. The replay command and the
// viewer's contents view choose the same way.
#pragma once

#include <d3d11_2.h>

#include <optional>
#include <string>

namespace d3dcap::replay {

struct DeviceChoice {
    D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_REFERENCE;
    // What was chosen and why: "auto: the Vulkan device NVIDIA H200 ...".
    std::string reason;
};

// auto: a Vulkan GPU with sparse residency, else the CPU Vulkan device
// (lavapipe, tiled resources shadowed), else the reference device. None,
// with why in error, for a device this machine lacks or an unknown name
// ("--device 'vulkan' is not one of auto, hardware, warp, reference, null").
std::optional<DeviceChoice> choose_device(const std::string& choice, std::string& error);

}  // namespace d3dcap::replay

#include "runtime/inspection.h"

#include "runtime/backend/vulkan/vulkan_device.h"
#include "runtime/d3d11/device.h"
#include "runtime/dxgi/output.h"
#include "runtime/dxgi/swap_chain.h"

namespace d3dcap::runtime {

namespace {

d3d11::Device* our_device(ID3D11Device* device) {
    Object* object = object_of(device);
    return object && object->kind() == ObjectKind::Device ? static_cast<d3d11::Device*>(object)
                                                          : nullptr;
}

dxgi::SwapChain* our_swap_chain(IDXGISwapChain* swap_chain) {
    Object* object = object_of(swap_chain);
    return object && object->kind() == ObjectKind::SwapChain ? static_cast<dxgi::SwapChain*>(object)
                                                             : nullptr;
}

}  // namespace

std::vector<Message> device_messages(ID3D11Device* device) {
    d3d11::Device* ours = our_device(device);
    return ours ? ours->log().recent() : std::vector<Message>{};
}

void clear_device_messages(ID3D11Device* device) {
    if (d3d11::Device* ours = our_device(device)) ours->log().clear();
}

DrawCounts context_draw_counts(ID3D11DeviceContext* context) {
    Object* object = object_of(context);
    if (!object || object->kind() != ObjectKind::Context) return {};
    const d3d11::ContextCounters& counters = static_cast<d3d11::Context*>(object)->counters();
    return {counters.draws, counters.dispatches, counters.not_executed};
}

std::uint64_t object_id(IUnknown* object) {
    Object* ours = object_of(object);
    return ours ? ours->id() : 0;
}

const tiles::TileState* device_tile_state(ID3D11Device* device) {
    d3d11::Device* ours = our_device(device);
    return ours ? &ours->tiles() : nullptr;
}

backend::Backend* device_backend(ID3D11Device* device) {
    d3d11::Device* ours = our_device(device);
    return ours ? &ours->backend() : nullptr;
}

bool device_gpu_clock_ns(ID3D11Device* device, std::uint64_t* ns) {
    d3d11::Device* ours = our_device(device);
    return ours != nullptr && ours->backend().gpu_clock_ns(ns);
}

bool set_output_modes(IDXGIOutput* output, DXGI_FORMAT format,
                      const std::vector<DXGI_MODE_DESC>& modes) {
    Object* ours = object_of(output);
    if (!ours || ours->kind() != ObjectKind::Output) return false;
    static_cast<dxgi::Output*>(ours)->set_modes(format, modes);
    return true;
}

bool set_calls_from_one_thread(ID3D11Device* device) {
    d3d11::Device* ours = our_device(device);
    if (ours == nullptr) return false;
    ours->calls_from_one_thread();
    return true;
}

std::uint64_t resource_content_hash(ID3D11Resource* resource, UINT subresource) {
    d3d11::Resource* ours = d3d11::to_resource(resource);
    if (!ours) return 0;
    auto guard = ours->device().lock();
    return content_hash(ours->device().backend(), ours->id(), subresource);
}

bool resource_contents(ID3D11Resource* resource, UINT subresource,
                       std::vector<std::uint8_t>& bytes) {
    d3d11::Resource* ours = d3d11::to_resource(resource);
    if (!ours) return false;
    auto guard = ours->device().lock();
    return ours->device().backend().read_subresource(ours->id(), subresource, bytes);
}

bool resource_contents_window(ID3D11Resource* resource, UINT subresource,
                              const formats::ElementWindow& window,
                              std::vector<std::uint8_t>& bytes) {
    d3d11::Resource* ours = d3d11::to_resource(resource);
    if (!ours) return false;
    auto guard = ours->device().lock();
    return ours->device().backend().read_subresource_window(ours->id(), subresource, window, bytes);
}

bool shader_bytecode(ID3D11DeviceChild* shader, std::vector<std::uint8_t>& bytes) {
    Object* ours = object_of(shader);
    if (!ours || ours->kind() < ObjectKind::VertexShader ||
        ours->kind() > ObjectKind::ComputeShader)
        return false;
    bytes = static_cast<d3d11::ShaderBase*>(ours)->bytecode();
    return true;
}

bool input_layout_elements(ID3D11InputLayout* layout,
                           std::vector<backend::InputElement>& elements) {
    Object* ours = object_of(layout);
    if (!ours || ours->kind() != ObjectKind::InputLayout) return false;
    elements = static_cast<d3d11::InputLayout*>(ours)->resolved();
    return true;
}

bool write_swap_chain_png(IDXGISwapChain* swap_chain, const char* path, std::string* error) {
    dxgi::SwapChain* ours = our_swap_chain(swap_chain);
    std::string reason;
    bool written = false;
    if (!ours) {
        reason = "not a swap chain of this runtime";
    } else if (!path) {
        reason = "no path";
    } else {
        written = ours->write_png(path, reason);
        if (!written && reason.empty()) reason = "the device keeps no texels (NULL driver type)";
    }
    if (error) *error = reason;
    return written;
}

void set_screenshot_directory(IDXGISwapChain* swap_chain, const char* directory) {
    if (dxgi::SwapChain* ours = our_swap_chain(swap_chain)) {
        ours->set_screenshot_directory(directory ? directory : "");
    }
}

std::uint64_t vulkan_validation_messages() {
    return backend::vulkan::validation_messages();
}

}  // namespace d3dcap::runtime

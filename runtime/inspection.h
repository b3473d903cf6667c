// Internal accessors of libd3dcap for tests and the project's tools (not
// part of the D3D11 API; exported from the library next to the entry points).
#pragma once

#include <d3d11_2.h>
#include <dxgi1_2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/backend/input_element.h"
#include "runtime/formats/element_window.h"
#include "runtime/messages.h"
#include "runtime/tiles/tile_state.h"

#define D3DCAP_EXPORT __attribute__((visibility("default")))

namespace d3dcap::runtime::backend {
class Backend;
}  // namespace d3dcap::runtime::backend

namespace d3dcap::runtime {

// The last messages (up to 256) of a device of this runtime, oldest first.
D3DCAP_EXPORT std::vector<Message> device_messages(ID3D11Device* device);
D3DCAP_EXPORT void clear_device_messages(ID3D11Device* device);

// Draws and dispatches a context validated and counted, and how many of
// them the device did not run (the CPU devices run none). The immediate
// context also counts what command lists ran.
struct DrawCounts {
    std::uint64_t draws = 0;
    std::uint64_t dispatches = 0;
    std::uint64_t not_executed = 0;
};
D3DCAP_EXPORT DrawCounts context_draw_counts(ID3D11DeviceContext* context);

// The id the tile model and the backend know a resource (or pool) by; 0 for
// objects of other runtimes.
D3DCAP_EXPORT std::uint64_t object_id(IUnknown* object);

// The device's tile model and backend. Call from the thread that owns the
// immediate context (the object model changes them from there).
D3DCAP_EXPORT const tiles::TileState* device_tile_state(ID3D11Device* device);
D3DCAP_EXPORT backend::Backend* device_backend(ID3D11Device* device);

// The device's GPU clock: nanoseconds of execution so far; false when the
// device cannot tell (the NULL driver type).
D3DCAP_EXPORT bool device_gpu_clock_ns(ID3D11Device* device, std::uint64_t* ns);

// Warnings and errors the Vulkan validation layer has reported in this
// process (0 when the layer is not enabled; tests enable it with
// VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation).
D3DCAP_EXPORT std::uint64_t vulkan_validation_messages();

// Has an output of this runtime's DXGI list these modes for the format
// from now on (replay gives those its trace recorded); false for other
// objects.
D3DCAP_EXPORT bool set_output_modes(IDXGIOutput* output, DXGI_FORMAT format,
                                    const std::vector<DXGI_MODE_DESC>& modes);

// Every call to this device and its contexts comes from the calling thread
// from now on (replay): the device takes no lock per call, as with
// D3D11_CREATE_DEVICE_SINGLETHREADED, but keeps what that flag forbids
// (deferred contexts). False for other objects.
D3DCAP_EXPORT bool set_calls_from_one_thread(ID3D11Device* device);

// content_hash() of a subresource through the resource's own device.
D3DCAP_EXPORT std::uint64_t resource_content_hash(ID3D11Resource* resource, UINT subresource);
// A subresource's bytes in the canonical layout (what content_hash covers);
// false when the device keeps none or there is no such subresource.
D3DCAP_EXPORT bool resource_contents(ID3D11Resource* resource, UINT subresource,
                                     std::vector<std::uint8_t>& bytes);

// Part of a subresource (element_window.h) where the device reads
// windows; false leaves the caller to crop resource_contents.
D3DCAP_EXPORT bool resource_contents_window(ID3D11Resource* resource, UINT subresource,
                                            const formats::ElementWindow& window,
                                            std::vector<std::uint8_t>& bytes);

// The DXBC a shader of this runtime was made from; false for other objects.
D3DCAP_EXPORT bool shader_bytecode(ID3D11DeviceChild* shader, std::vector<std::uint8_t>& bytes);

// The elements an input layout of this runtime was made with, offsets
// resolved as draws read them; false for other objects.
D3DCAP_EXPORT bool input_layout_elements(ID3D11InputLayout* layout,
                                         std::vector<backend::InputElement>& elements);

// Writes back buffer 0 of a swap chain as a PNG now; false (with the reason
// in *error) when nothing could be written, e.g. on the NULL device.
D3DCAP_EXPORT bool write_swap_chain_png(IDXGISwapChain* swap_chain, const char* path,
                                        std::string* error);
// Makes every later Present write DIR/frame-NNNNN.png (as D3DCAP_SCREENSHOT_DIR
// does); an empty directory stops it.
D3DCAP_EXPORT void set_screenshot_directory(IDXGISwapChain* swap_chain, const char* directory);

}  // namespace d3dcap::runtime

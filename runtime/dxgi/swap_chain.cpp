// The headless swap chain: back buffers are ordinary Texture2D objects of
// the device; Present counts frames and can write buffer 0 to a PNG.
#include "runtime/dxgi/swap_chain.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/d3d11/device.h"
#include "runtime/dxgi/factory.h"
#include "runtime/dxgi/output.h"
#include "runtime/formats/format_rules.h"

namespace d3dcap::runtime::dxgi {

SwapChain::SwapChain(Factory& factory, d3d11::Device& device, HWND window,
                     const DXGI_SWAP_CHAIN_DESC1& desc,
                     const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen)
    : ComObject(ObjectKind::SwapChain),
      factory_(&factory),
      device_(&device),
      window_(window),
      desc_(desc),
      fullscreen_(fullscreen) {
    if (const char* directory = std::getenv("D3DCAP_SCREENSHOT_DIR")) {
        screenshot_directory_ = directory;
    }
}

void* SwapChain::find_interface(REFIID riid) {
    if (iid_is<IDXGISwapChain, IDXGISwapChain1, IDXGIDeviceSubObject, IDXGIObject, IUnknown>(
            riid)) {
        return static_cast<IDXGISwapChain1*>(this);
    }
    return nullptr;
}

HRESULT SwapChain::create_buffers(const char* call) {
    D3D11_TEXTURE2D_DESC texture{};
    texture.Width = desc_.Width;
    texture.Height = desc_.Height;
    texture.MipLevels = 1;
    texture.ArraySize = 1;
    texture.Format = desc_.Format;
    texture.SampleDesc = desc_.SampleDesc;
    texture.Usage = D3D11_USAGE_DEFAULT;
    if (desc_.BufferUsage & DXGI_USAGE_RENDER_TARGET_OUTPUT) {
        texture.BindFlags |= D3D11_BIND_RENDER_TARGET;
    }
    if (desc_.BufferUsage & DXGI_USAGE_SHADER_INPUT)
        texture.BindFlags |= D3D11_BIND_SHADER_RESOURCE;
    if (desc_.BufferUsage & DXGI_USAGE_UNORDERED_ACCESS) {
        texture.BindFlags |= D3D11_BIND_UNORDERED_ACCESS;
    }
    std::vector<Ref<d3d11::Texture2D>> buffers(desc_.BufferCount);
    for (Ref<d3d11::Texture2D>& buffer : buffers) {
        const HRESULT hr = device_->create_texture2d(call, texture, buffer);
        if (FAILED(hr)) return DXGI_ERROR_INVALID_CALL;
        buffer->srgb_views = true;
    }
    buffers_ = std::move(buffers);
    return S_OK;
}

HRESULT SwapChain::GetParent(REFIID riid, void** parent) {
    return factory_->QueryInterface(riid, parent);
}

HRESULT SwapChain::GetDevice(REFIID riid, void** device) {
    return device_->QueryInterface(riid, device);
}

HRESULT SwapChain::present(const char* call, UINT sync_interval, UINT flags) {
    if (sync_interval > 4) {
        device_->log().error(call, "SyncInterval", std::to_string(sync_interval) + " is not 0..4");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (flags & DXGI_PRESENT_TEST) return S_OK;  // "would it present?": yes
    const UINT frame = present_count_++;
    if (!screenshot_directory_.empty()) {
        char name[32];
        std::snprintf(name, sizeof name, "/frame-%05u.png", frame);
        std::string error;
        if (!write_png(screenshot_directory_ + name, error) && !error.empty()) {
            device_->log().warning(call, "", "no screenshot: " + error);
        }
    }
    // The frame's work goes to the GPU now (the Vulkan device batches it).
    const auto guard = device_->lock();
    device_->backend().flush();
    return S_OK;
}

HRESULT SwapChain::Present(UINT sync_interval, UINT flags) {
    return present("IDXGISwapChain::Present", sync_interval, flags);
}

HRESULT SwapChain::Present1(UINT sync_interval, UINT flags, const DXGI_PRESENT_PARAMETERS*) {
    return present("IDXGISwapChain1::Present1", sync_interval, flags);
}

bool SwapChain::write_png(const std::string& path, std::string& error) {
    if (buffers_.empty()) {
        error = "the swap chain has no buffers";
        return false;
    }
    const d3d11::Texture2D& buffer = *buffers_.front();
    std::vector<std::uint8_t> texels;
    {
        auto guard = device_->lock();
        if (!device_->backend().read_subresource(buffer.id(), 0, texels)) {
            error.clear();  // the state-only device keeps no texels: nothing to write
            return false;
        }
    }
    return write_png_file(path, desc_.Format, desc_.Width, desc_.Height, texels, error);
}

HRESULT SwapChain::GetBuffer(UINT index, REFIID riid, void** surface) {
    const char* call = "IDXGISwapChain::GetBuffer";
    if (!surface) return DXGI_ERROR_INVALID_CALL;
    *surface = nullptr;
    const bool only_first = desc_.SwapEffect == DXGI_SWAP_EFFECT_DISCARD;
    if (index >= buffers_.size() || (only_first && index > 0)) {
        device_->log().error(call, "Buffer",
                             std::to_string(index) + " is not an accessible buffer (" +
                                 std::to_string(buffers_.size()) +
                                 " buffers; DISCARD swap chains give buffer 0 only)");
        return DXGI_ERROR_INVALID_CALL;
    }
    return buffers_[index]->QueryInterface(riid, surface);
}

HRESULT SwapChain::SetFullscreenState(BOOL fullscreen, IDXGIOutput*) {
    if (fullscreen) return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;  // headless
    return S_OK;
}

HRESULT SwapChain::GetFullscreenState(BOOL* fullscreen, IDXGIOutput** target) {
    if (fullscreen) *fullscreen = FALSE;
    if (target) *target = nullptr;
    return S_OK;
}

HRESULT SwapChain::GetDesc(DXGI_SWAP_CHAIN_DESC* desc) {
    if (!desc) return E_INVALIDARG;
    *desc = {};
    desc->BufferDesc.Width = desc_.Width;
    desc->BufferDesc.Height = desc_.Height;
    desc->BufferDesc.RefreshRate = fullscreen_.RefreshRate;
    desc->BufferDesc.Format = desc_.Format;
    desc->BufferDesc.ScanlineOrdering = fullscreen_.ScanlineOrdering;
    desc->BufferDesc.Scaling = fullscreen_.Scaling;
    desc->SampleDesc = desc_.SampleDesc;
    desc->BufferUsage = desc_.BufferUsage;
    desc->BufferCount = desc_.BufferCount;
    desc->OutputWindow = window_;
    desc->Windowed = fullscreen_.Windowed;
    desc->SwapEffect = desc_.SwapEffect;
    desc->Flags = desc_.Flags;
    return S_OK;
}

HRESULT SwapChain::GetDesc1(DXGI_SWAP_CHAIN_DESC1* desc) {
    if (!desc) return E_INVALIDARG;
    *desc = desc_;
    return S_OK;
}

HRESULT SwapChain::GetFullscreenDesc(DXGI_SWAP_CHAIN_FULLSCREEN_DESC* desc) {
    if (!desc) return E_INVALIDARG;
    *desc = fullscreen_;
    return S_OK;
}

HRESULT SwapChain::ResizeBuffers(UINT count, UINT width, UINT height, DXGI_FORMAT format,
                                 UINT flags) {
    const char* call = "IDXGISwapChain::ResizeBuffers";
    for (const Ref<d3d11::Texture2D>& buffer : buffers_) {
        // Only the swap chain's own reference may remain: none from the
        // app, views, bindings or command lists.
        if (buffer->public_count() != 0 || buffer->internal_count() != 1) {
            device_->log().error(call, "",
                                 "a back buffer is still referenced (by the app, a view, a "
                                 "binding or a command list); release those first");
            return DXGI_ERROR_INVALID_CALL;
        }
    }
    if (count > DXGI_MAX_SWAP_CHAIN_BUFFERS) {
        device_->log().error(call, "BufferCount", std::to_string(count) + " is more than 16");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (format != DXGI_FORMAT_UNKNOWN && !formats::display(format) &&
        format != DXGI_FORMAT_B8G8R8X8_UNORM) {
        device_->log().error(call, "NewFormat",
                             format_name(format) + " is not a back-buffer format");
        return DXGI_ERROR_INVALID_CALL;
    }
    const DXGI_SWAP_CHAIN_DESC1 previous = desc_;
    // Zero keeps the current value (there is no window to measure).
    if (count) desc_.BufferCount = count;
    if (width) desc_.Width = width;
    if (height) desc_.Height = height;
    if (format != DXGI_FORMAT_UNKNOWN) desc_.Format = format;
    desc_.Flags = flags;
    const HRESULT hr = create_buffers(call);
    if (FAILED(hr)) desc_ = previous;
    return hr;
}

HRESULT SwapChain::ResizeTarget(const DXGI_MODE_DESC* mode) {
    return mode ? S_OK : DXGI_ERROR_INVALID_CALL;
}

HRESULT SwapChain::GetContainingOutput(IDXGIOutput** output) {
    if (!output) return E_INVALIDARG;
    *output = new Output(device_->adapter());  // the one output of the device's adapter
    return S_OK;
}

HRESULT SwapChain::GetFrameStatistics(DXGI_FRAME_STATISTICS* stats) {
    if (!stats) return E_INVALIDARG;
    *stats = {};
    stats->PresentCount = present_count_;
    stats->PresentRefreshCount = present_count_;
    stats->SyncRefreshCount = present_count_;
    return S_OK;
}

HRESULT SwapChain::GetLastPresentCount(UINT* count) {
    if (!count) return E_INVALIDARG;
    *count = present_count_;
    return S_OK;
}

HRESULT SwapChain::GetHwnd(HWND* window) {
    if (!window) return E_INVALIDARG;
    *window = window_;
    return window_ ? S_OK : DXGI_ERROR_INVALID_CALL;
}

HRESULT SwapChain::GetCoreWindow(REFIID, void** window) {
    if (window) *window = nullptr;
    return DXGI_ERROR_INVALID_CALL;
}

HRESULT SwapChain::GetRestrictToOutput(IDXGIOutput** output) {
    if (!output) return E_INVALIDARG;
    *output = nullptr;
    return S_OK;
}

HRESULT SwapChain::SetBackgroundColor(const DXGI_RGBA* color) {
    if (!color) return E_INVALIDARG;
    background_ = *color;
    return S_OK;
}

HRESULT SwapChain::GetBackgroundColor(DXGI_RGBA* color) {
    if (!color) return E_INVALIDARG;
    *color = background_;
    return S_OK;
}

HRESULT SwapChain::SetRotation(DXGI_MODE_ROTATION rotation) {
    if (rotation < DXGI_MODE_ROTATION_IDENTITY || rotation > DXGI_MODE_ROTATION_ROTATE270) {
        return DXGI_ERROR_INVALID_CALL;
    }
    rotation_ = rotation;
    return S_OK;
}

HRESULT SwapChain::GetRotation(DXGI_MODE_ROTATION* rotation) {
    if (!rotation) return E_INVALIDARG;
    *rotation = rotation_;
    return S_OK;
}

// PNG output

namespace {

std::uint8_t unorm8(float value) {
    if (!(value > 0.0f)) return 0;  // NaN and negatives
    if (value >= 1.0f) return 255;
    return static_cast<std::uint8_t>(std::lround(value * 255.0f));
}

float half_to_float(std::uint16_t half) {
    const int exponent = (half >> 10) & 0x1f;
    const int mantissa = half & 0x3ff;
    float value;
    if (exponent == 0) {
        value = std::ldexp(static_cast<float>(mantissa), -24);
    } else if (exponent == 31) {
        value = mantissa ? NAN : INFINITY;
    } else {
        value = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
    }
    return (half & 0x8000) ? -value : value;
}

}  // namespace

bool write_png_file(const std::string& path, DXGI_FORMAT format, UINT width, UINT height,
                    const std::vector<std::uint8_t>& texels, std::string& error) {
    std::uint32_t bytes_per_texel = 4;
    if (format == DXGI_FORMAT_R16G16B16A16_FLOAT) bytes_per_texel = 8;
    const std::size_t texel_count = std::size_t{width} * height;
    if (texels.size() < texel_count * bytes_per_texel) {
        error = "the backend returned " + std::to_string(texels.size()) + " bytes for a " +
                std::to_string(width) + "x" + std::to_string(height) + " " + format_name(format) +
                " buffer";
        return false;
    }
    std::vector<std::uint8_t> rgba(texel_count * 4);
    for (std::size_t i = 0; i < texel_count; ++i) {
        const std::uint8_t* in = texels.data() + i * bytes_per_texel;
        std::uint8_t* out = rgba.data() + i * 4;
        switch (format) {
            case DXGI_FORMAT_R8G8B8A8_UNORM:
            case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB:
                std::memcpy(out, in, 4);
                break;
            case DXGI_FORMAT_B8G8R8A8_UNORM:
            case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB:
            case DXGI_FORMAT_B8G8R8X8_UNORM:
                out[0] = in[2];
                out[1] = in[1];
                out[2] = in[0];
                out[3] = format == DXGI_FORMAT_B8G8R8X8_UNORM ? 255 : in[3];
                break;
            case DXGI_FORMAT_R10G10B10A2_UNORM: {
                std::uint32_t packed;
                std::memcpy(&packed, in, 4);
                for (int c = 0; c < 3; ++c) {
                    out[c] = static_cast<std::uint8_t>(((packed >> (10 * c)) & 0x3ff) * 255 / 1023);
                }
                out[3] = static_cast<std::uint8_t>((packed >> 30) * 255 / 3);
                break;
            }
            case DXGI_FORMAT_R16G16B16A16_FLOAT:
                for (int c = 0; c < 4; ++c) {
                    std::uint16_t half;
                    std::memcpy(&half, in + 2 * c, 2);
                    out[c] = unorm8(half_to_float(half));
                }
                break;
            default:
                error = "no PNG conversion for " + format_name(format);
                return false;
        }
    }
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&image, path.c_str(), 0, rgba.data(), 0, nullptr)) {
        error = path + ": " + image.message;
        png_image_free(&image);
        return false;
    }
    return true;
}

}  // namespace d3dcap::runtime::dxgi

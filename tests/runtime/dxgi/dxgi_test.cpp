// Entry points per driver type (WARP and HARDWARE against what the Vulkan
// driver, asked here, says of its devices), the DXGI factory and adapter, the
// headless swap chain (Present, screenshots, ResizeBuffers, GetBuffer), and
// IDXGIDevice2 (OfferResources, ReclaimResources, EnqueueSetEvent).
#include <png.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <filesystem>
#include <fstream>

#include "runtime/d3d11/object_support.h"
#include "runtime/inspection.h"
#include "support/skip.h"

using namespace object_tests;

namespace {

HRESULT create(D3D_DRIVER_TYPE type, const D3D_FEATURE_LEVEL* levels, UINT count,
               ID3D11Device** device, D3D_FEATURE_LEVEL* chosen,
               ID3D11DeviceContext** context = nullptr, IDXGIAdapter* adapter = nullptr) {
    return D3D11CreateDevice(adapter, type, nullptr, 0, levels, count, D3D11_SDK_VERSION, device,
                             chosen, context);
}

Com<IDXGIFactory2> factory() {
    Com<IDXGIFactory2> result;
    REQUIRE(CreateDXGIFactory1(__uuidof(IDXGIFactory2), result.out_void()) == S_OK);
    return result;
}

DXGI_SWAP_CHAIN_DESC1 chain_desc(UINT width, UINT height) {
    DXGI_SWAP_CHAIN_DESC1 desc{};
    desc.Width = width;
    desc.Height = height;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc = {1, 0};
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 2;
    desc.SwapEffect = DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL;
    return desc;
}

std::string temporary_directory() {
    char pattern[] = "/tmp/d3dcap-dxgi-XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    return pattern;
}

// Width, height, bit depth and color type from a PNG's IHDR chunk, and its
// pixels decoded by libpng as RGBA8.
struct Png {
    std::uint32_t width = 0, height = 0;
    int depth = 0, color_type = 0;
    std::vector<std::uint8_t> rgba;

    // How many pixels hold exactly these values.
    std::size_t count(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) const {
        std::size_t n = 0;
        for (std::size_t i = 0; i + 3 < rgba.size(); i += 4)
            n += rgba[i] == r && rgba[i + 1] == g && rgba[i + 2] == b && rgba[i + 3] == a;
        return n;
    }
};

Png read_png(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::vector<unsigned char> bytes(26);
    file.read(reinterpret_cast<char*>(bytes.data()), 26);
    REQUIRE(file.gcount() == 26);
    REQUIRE(std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8) == 0);
    REQUIRE(std::memcmp(bytes.data() + 12, "IHDR", 4) == 0);
    auto be32 = [&](int at) {
        return std::uint32_t(bytes[at]) << 24 | std::uint32_t(bytes[at + 1]) << 16 |
               std::uint32_t(bytes[at + 2]) << 8 | bytes[at + 3];
    };
    Png png{be32(16), be32(20), bytes[24], bytes[25], {}};
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    REQUIRE(png_image_begin_read_from_file(&image, path.c_str()) != 0);
    image.format = PNG_FORMAT_RGBA;
    png.rgba.resize(PNG_IMAGE_SIZE(image));
    REQUIRE(png_image_finish_read(&image, nullptr, png.rgba.data(), 0, nullptr) != 0);
    return png;
}

// A Vulkan device as its driver describes it, read through the Vulkan API
// here: what DXGI_ADAPTER_DESC and the device must say of the device that
// runs on it.
struct VulkanDeviceFacts {
    VkPhysicalDeviceType type{};
    std::uint32_t api_version = 0;
    std::string name;
    std::uint32_t vendor_id = 0, device_id = 0;
    std::uint64_t largest_device_local_heap = 0;
    // The driver's LUID where it has one, else the first 8 bytes of its UUID.
    std::uint8_t luid[8] = {};
    bool logic_op = false;
    bool sparse_residency = false;  // sparseBinding and sparseResidencyImage2D
    double timestamp_period_ns = 0;
};

// Every Vulkan device the loader lists, in its order; none without a driver.
std::vector<VulkanDeviceFacts> vulkan_devices() {
    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return {};
    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> physicals(count);
    vkEnumeratePhysicalDevices(instance, &count, physicals.data());
    std::vector<VulkanDeviceFacts> devices;
    for (VkPhysicalDevice physical : physicals) {
        VkPhysicalDeviceIDProperties ids{};
        ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        VkPhysicalDeviceProperties2 properties{};
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        properties.pNext = &ids;
        vkGetPhysicalDeviceProperties2(physical, &properties);
        VkPhysicalDeviceFeatures features{};
        vkGetPhysicalDeviceFeatures(physical, &features);
        VkPhysicalDeviceMemoryProperties memory{};
        vkGetPhysicalDeviceMemoryProperties(physical, &memory);
        VulkanDeviceFacts facts;
        const VkPhysicalDeviceProperties& basic = properties.properties;
        facts.type = basic.deviceType;
        facts.api_version = basic.apiVersion;
        facts.name = basic.deviceName;
        facts.vendor_id = basic.vendorID;
        facts.device_id = basic.deviceID;
        for (std::uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
            if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
                facts.largest_device_local_heap = std::max<std::uint64_t>(
                    facts.largest_device_local_heap, memory.memoryHeaps[i].size);
        }
        std::memcpy(facts.luid, ids.deviceLUIDValid ? ids.deviceLUID : ids.deviceUUID, 8);
        facts.logic_op = features.logicOp != VK_FALSE;
        facts.sparse_residency = features.sparseBinding && features.sparseResidencyImage2D;
        facts.timestamp_period_ns = basic.limits.timestampPeriod;
        devices.push_back(facts);
    }
    vkDestroyInstance(instance, nullptr);
    return devices;
}

// The desc of the adapter the device says it runs on.
DXGI_ADAPTER_DESC adapter_desc(ID3D11Device* device) {
    Com<IDXGIDevice> dxgi_device;
    REQUIRE(device->QueryInterface(__uuidof(IDXGIDevice), dxgi_device.out_void()) == S_OK);
    Com<IDXGIAdapter> adapter;
    REQUIRE(dxgi_device->GetAdapter(adapter.out()) == S_OK);
    DXGI_ADAPTER_DESC desc{};
    REQUIRE(adapter->GetDesc(&desc) == S_OK);
    return desc;
}

// DXGI_ADAPTER_DESC says what the Vulkan driver says of the device.
void check_adapter_desc(ID3D11Device* device, const VulkanDeviceFacts& expected) {
    const DXGI_ADAPTER_DESC desc = adapter_desc(device);
    CHECK(std::wstring(desc.Description) ==
          std::wstring(expected.name.begin(), expected.name.end()));
    CHECK(desc.VendorId == expected.vendor_id);
    CHECK(desc.VendorId != 0x1414);  // not the headless adapter's
    CHECK(desc.DeviceId == expected.device_id);
    CHECK(desc.DedicatedVideoMemory == expected.largest_device_local_heap);
    CHECK(desc.DedicatedVideoMemory > 0);
    std::uint8_t luid[8];
    std::memcpy(luid, &desc.AdapterLuid.LowPart, 4);
    std::memcpy(luid + 4, &desc.AdapterLuid.HighPart, 4);
    CHECK(std::memcmp(luid, expected.luid, 8) == 0);
}

}  // namespace

TEST_CASE("D3D11CreateDevice per driver type and feature-level list", "[dxgi][entry]") {
    const D3D_FEATURE_LEVEL both[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    D3D_FEATURE_LEVEL chosen{};
    for (auto type : {D3D_DRIVER_TYPE_REFERENCE, D3D_DRIVER_TYPE_NULL}) {
        REQUIRE(create(type, both, 2, device.out(), &chosen, context.out()) == S_OK);
        CHECK(chosen == D3D_FEATURE_LEVEL_11_1);
        CHECK(device->GetFeatureLevel() == D3D_FEATURE_LEVEL_11_1);
        REQUIRE(context);
        // The adapter says which device it is.
        const DXGI_ADAPTER_DESC desc = adapter_desc(device.get());
        CHECK(std::wstring(desc.Description) ==
              (type == D3D_DRIVER_TYPE_NULL ? L"d3dcap null device" : L"d3dcap reference device"));
        CHECK(desc.VendorId == 0x1414u);
    }
    // Without a list: 11_0 first, as on Windows (11_1 only when asked).
    REQUIRE(create(D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, device.out(), &chosen) == S_OK);
    CHECK(chosen == D3D_FEATURE_LEVEL_11_0);
    const D3D_FEATURE_LEVEL old_first[] = {D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_11_0};
    REQUIRE(create(D3D_DRIVER_TYPE_REFERENCE, old_first, 2, device.out(), &chosen) == S_OK);
    CHECK(chosen == D3D_FEATURE_LEVEL_11_0);

    // Only checking: S_FALSE with the level it would pick.
    chosen = {};
    CHECK(create(D3D_DRIVER_TYPE_REFERENCE, both, 2, nullptr, &chosen) == S_FALSE);
    CHECK(chosen == D3D_FEATURE_LEVEL_11_1);

    // Unsupported lists, unknown values, wrong SDK version.
    const D3D_FEATURE_LEVEL too_new[] = {D3D_FEATURE_LEVEL_12_1};
    CHECK(create(D3D_DRIVER_TYPE_REFERENCE, too_new, 1, device.out(), &chosen) == E_FAIL);
    CHECK(!device);
    const D3D_FEATURE_LEVEL unknown[] = {static_cast<D3D_FEATURE_LEVEL>(0xb050)};
    CHECK(create(D3D_DRIVER_TYPE_REFERENCE, unknown, 1, device.out(), &chosen) == E_INVALIDARG);
    CHECK(create(D3D_DRIVER_TYPE_REFERENCE, both, 0, device.out(), &chosen) == E_INVALIDARG);
    CHECK(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, nullptr, 0, 6,
                            device.out(), nullptr, nullptr) == E_INVALIDARG);
    CHECK(create(D3D_DRIVER_TYPE_UNKNOWN, both, 2, device.out(), &chosen) == E_INVALIDARG);
    CHECK(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0x10000, nullptr, 0,
                            D3D11_SDK_VERSION, device.out(), nullptr, nullptr) == E_INVALIDARG);
}

TEST_CASE("D3D_DRIVER_TYPE_WARP runs on the CPU Vulkan device", "[dxgi][entry]") {
    const std::vector<VulkanDeviceFacts> devices = vulkan_devices();
    const auto cpu = std::find_if(devices.begin(), devices.end(), [](const VulkanDeviceFacts& d) {
        return d.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    });
    if (cpu == devices.end())
        test_support::missing_dependency("no CPU Vulkan device (lavapipe, mesa-vulkan-drivers)");
    const D3D_FEATURE_LEVEL both[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    D3D_FEATURE_LEVEL chosen{};
    REQUIRE(create(D3D_DRIVER_TYPE_WARP, both, 2, device.out(), &chosen, context.out()) == S_OK);
    CHECK(chosen == D3D_FEATURE_LEVEL_11_1);
    REQUIRE(context);
    check_adapter_desc(device.get(), *cpu);
}

TEST_CASE("D3D_DRIVER_TYPE_HARDWARE fails without a Vulkan device to run on", "[dxgi][entry]") {
    // A device index past any machine's: no Vulkan device is chosen.
    setenv("D3DCAP_GPU", "4096", 1);
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    D3D_FEATURE_LEVEL chosen = D3D_FEATURE_LEVEL_11_0;
    CHECK(create(D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, device.out(), &chosen, context.out()) ==
          DXGI_ERROR_UNSUPPORTED);
    unsetenv("D3DCAP_GPU");
    CHECK(!device);
    CHECK(!context);
    CHECK(chosen == D3D_FEATURE_LEVEL{});
}

TEST_CASE("D3D_DRIVER_TYPE_HARDWARE runs on the first discrete, integrated, virtual or CPU device",
          "[dxgi][entry]") {
    unsetenv("D3DCAP_GPU");
    unsetenv("D3DCAP_VULKAN_SHADOW_TILES");
    const std::vector<VulkanDeviceFacts> devices = vulkan_devices();
    const VulkanDeviceFacts* expected = nullptr;
    for (VkPhysicalDeviceType type :
         {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
          VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU}) {
        for (const VulkanDeviceFacts& d : devices) {
            if (!expected && d.type == type && d.api_version >= VK_API_VERSION_1_3) expected = &d;
        }
    }
    if (!expected)
        test_support::missing_dependency("no Vulkan 1.3 device (lavapipe, mesa-vulkan-drivers)");
    INFO("expected to run on " << expected->name);
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    D3D_FEATURE_LEVEL chosen{};
    REQUIRE(create(D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, device.out(), &chosen, context.out()) ==
            S_OK);
    CHECK(device->GetCreationFlags() == 0);
    // The GPU's own name, PCI ids, memory and LUID, not the headless adapter's.
    check_adapter_desc(device.get(), *expected);
    // Tiled resources without sparse residency are dense copies kept in
    // step with their pools: the whole tile model, tier 3.
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
    REQUIRE(device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options, sizeof options) ==
            S_OK);
    CHECK(options.TiledResourcesTier != D3D11_TILED_RESOURCES_NOT_SUPPORTED);
    if (!expected->sparse_residency)
        CHECK(options.TiledResourcesTier == D3D11_TILED_RESOURCES_TIER_3);

    // Logic ops where the GPU has them (lavapipe and the usual GPUs do).
    D3D11_FEATURE_DATA_D3D11_OPTIONS options0{};
    REQUIRE(device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options0, sizeof options0) ==
            S_OK);
    CHECK(options0.OutputMergerLogicOp == (expected->logic_op ? TRUE : FALSE));
    if (expected->logic_op) {
        auto device1 = device.as<ID3D11Device1>();
        D3D11_BLEND_DESC1 blend{};
        blend.RenderTarget[0].LogicOpEnable = TRUE;
        blend.RenderTarget[0].LogicOp = D3D11_LOGIC_OP_XOR;
        blend.RenderTarget[0].RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
        Com<ID3D11BlendState1> state;
        REQUIRE(device1->CreateBlendState1(&blend, state.out()) == S_OK);
        D3D11_BLEND_DESC1 read{};
        state->GetDesc1(&read);
        CHECK(read.RenderTarget[0].LogicOpEnable == TRUE);
        CHECK(read.RenderTarget[1].LogicOp == D3D11_LOGIC_OP_XOR);  // target 0's for all
        blend.RenderTarget[0].BlendEnable = TRUE;
        blend.RenderTarget[0].SrcBlend = blend.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_ONE;
        blend.RenderTarget[0].DestBlend = blend.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
        blend.RenderTarget[0].BlendOp = blend.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
        CHECK(device1->CreateBlendState1(&blend, state.out()) == E_INVALIDARG);
    }

    // Timestamps count in the GPU's ticks, at the GPU's frequency.
    const auto frequency = static_cast<std::uint64_t>(1e9 / expected->timestamp_period_ns);
    Com<ID3D11Query> disjoint, first, second;
    D3D11_QUERY_DESC query{D3D11_QUERY_TIMESTAMP_DISJOINT, 0};
    REQUIRE(device->CreateQuery(&query, disjoint.out()) == S_OK);
    query.Query = D3D11_QUERY_TIMESTAMP;
    REQUIRE(device->CreateQuery(&query, first.out()) == S_OK);
    REQUIRE(device->CreateQuery(&query, second.out()) == S_OK);
    context->Begin(disjoint.get());
    context->End(first.get());
    context->End(second.get());
    context->End(disjoint.get());
    D3D11_QUERY_DATA_TIMESTAMP_DISJOINT clock{};
    UINT64 start = 0, end = 0;
    REQUIRE(context->GetData(disjoint.get(), &clock, sizeof clock, 0) == S_OK);
    REQUIRE(context->GetData(first.get(), &start, sizeof start, 0) == S_OK);
    REQUIRE(context->GetData(second.get(), &end, sizeof end, 0) == S_OK);
    CHECK(clock.Frequency == frequency);
    CHECK(clock.Disjoint == FALSE);
    CHECK(start != 0);  // written by the GPU in the command stream
    CHECK(end >= start);
}

TEST_CASE("An adapter from the factory makes a device with D3D_DRIVER_TYPE_UNKNOWN",
          "[dxgi][entry]") {
    auto dxgi = factory();
    Com<IDXGIAdapter1> adapter;
    REQUIRE(dxgi->EnumAdapters1(0, adapter.out()) == S_OK);
    Com<IDXGIAdapter1> none;
    CHECK(dxgi->EnumAdapters1(1, none.out()) == DXGI_ERROR_NOT_FOUND);
    DXGI_ADAPTER_DESC1 desc{};
    REQUIRE(adapter->GetDesc1(&desc) == S_OK);
    CHECK(std::wstring(desc.Description) == L"d3dcap reference device");
    CHECK(desc.VendorId == 0x1414);
    CHECK(desc.DeviceId == 0xd3dc);
    CHECK(desc.Flags == DXGI_ADAPTER_FLAG_SOFTWARE);
    auto adapter2 = adapter.as<IDXGIAdapter2>();
    REQUIRE(adapter2);
    DXGI_ADAPTER_DESC2 desc2{};
    REQUIRE(adapter2->GetDesc2(&desc2) == S_OK);
    CHECK(desc2.AdapterLuid.LowPart == desc.AdapterLuid.LowPart);
    Com<IDXGIOutput> output;
    CHECK(adapter->EnumOutputs(0, output.out()) == S_OK);
    Com<IDXGIOutput> second;
    CHECK(adapter->EnumOutputs(1, second.out()) == DXGI_ERROR_NOT_FOUND);

    Com<ID3D11Device> device;
    D3D_FEATURE_LEVEL chosen{};
    CHECK(create(D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, device.out(), &chosen, nullptr,
                 adapter.get()) == E_INVALIDARG);
    REQUIRE(create(D3D_DRIVER_TYPE_UNKNOWN, nullptr, 0, device.out(), &chosen, nullptr,
                   adapter.get()) == S_OK);
    auto dxgi_device = device.as<IDXGIDevice>();
    Com<IDXGIAdapter> device_adapter;
    REQUIRE(dxgi_device->GetAdapter(device_adapter.out()) == S_OK);
    CHECK(static_cast<void*>(device_adapter.get()) == static_cast<void*>(adapter.get()));
    Com<IDXGIFactory1> parent;
    REQUIRE(device_adapter->GetParent(__uuidof(IDXGIFactory1), parent.out_void()) == S_OK);
    CHECK(static_cast<void*>(parent.get()) == static_cast<void*>(dxgi.get()));

    Com<IDXGIFactory> other;
    CHECK(CreateDXGIFactory2(0x2, __uuidof(IDXGIFactory2), other.out_void()) == E_INVALIDARG);
    REQUIRE(CreateDXGIFactory(__uuidof(IDXGIFactory), other.out_void()) == S_OK);
}

TEST_CASE("A composition swap chain presents / counts frames and gives its buffers",
          "[dxgi][swapchain]") {
    TestDevice test;
    auto dxgi = factory();
    Com<IDXGISwapChain1> chain;
    const auto desc1 = chain_desc(64, 32);
    REQUIRE(dxgi->CreateSwapChainForComposition(test.device.get(), &desc1, nullptr, chain.out()) ==
            S_OK);
    Com<ID3D11Texture2D> back;
    REQUIRE(chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back.out_void()) == S_OK);
    D3D11_TEXTURE2D_DESC desc{};
    back->GetDesc(&desc);
    CHECK(desc.Width == 64);
    CHECK(desc.Height == 32);
    CHECK(desc.Format == DXGI_FORMAT_R8G8B8A8_UNORM);
    CHECK(desc.BindFlags == D3D11_BIND_RENDER_TARGET);
    Com<ID3D11Device> owner;
    back->GetDevice(owner.out());
    CHECK(static_cast<void*>(owner.get()) == static_cast<void*>(test.device.get()));
    Com<ID3D11Texture2D> second;
    REQUIRE(chain->GetBuffer(1, __uuidof(ID3D11Texture2D), second.out_void()) == S_OK);
    CHECK(second.get() != back.get());
    CHECK(chain->GetBuffer(2, __uuidof(ID3D11Texture2D), second.out_void()) ==
          DXGI_ERROR_INVALID_CALL);

    UINT presents = 9;
    REQUIRE(chain->GetLastPresentCount(&presents) == S_OK);
    CHECK(presents == 0);
    REQUIRE(chain->Present(1, 0) == S_OK);
    REQUIRE(chain->Present(0, DXGI_PRESENT_TEST) == S_OK);  // tests only
    REQUIRE(chain->Present1(0, 0, nullptr) == S_OK);
    CHECK(chain->Present(5, 0) == DXGI_ERROR_INVALID_CALL);
    REQUIRE(chain->GetLastPresentCount(&presents) == S_OK);
    CHECK(presents == 2);

    DXGI_SWAP_CHAIN_DESC1 read{};
    REQUIRE(chain->GetDesc1(&read) == S_OK);
    CHECK(read.BufferCount == 2);
    BOOL fullscreen = TRUE;
    REQUIRE(chain->GetFullscreenState(&fullscreen, nullptr) == S_OK);
    CHECK(fullscreen == FALSE);
    CHECK(chain->SetFullscreenState(TRUE, nullptr) == DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
    HWND window = test_window(5);
    CHECK(chain->GetHwnd(&window) == DXGI_ERROR_INVALID_CALL);
    Com<ID3D11Device> device;
    REQUIRE(chain->GetDevice(__uuidof(ID3D11Device), device.out_void()) == S_OK);
    CHECK(static_cast<void*>(device.get()) == static_cast<void*>(test.device.get()));

    // Composition chains need a size and a flip model.
    auto bad = chain_desc(0, 32);
    CHECK(dxgi->CreateSwapChainForComposition(test.device.get(), &bad, nullptr, chain.out()) ==
          DXGI_ERROR_INVALID_CALL);
}

TEST_CASE("A back buffer of UNORM takes UNORM_SRGB render-target views, whatever the swap effect",
          "[dxgi][swapchain]") {
    TestDevice test;
    auto dxgi = factory();
    for (const DXGI_SWAP_EFFECT effect :
         {DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL, DXGI_SWAP_EFFECT_FLIP_DISCARD, DXGI_SWAP_EFFECT_DISCARD,
          DXGI_SWAP_EFFECT_SEQUENTIAL}) {
        DXGI_SWAP_CHAIN_DESC1 desc = chain_desc(32, 32);
        desc.SwapEffect = effect;
        if (effect == DXGI_SWAP_EFFECT_DISCARD || effect == DXGI_SWAP_EFFECT_SEQUENTIAL)
            desc.BufferCount = 1;
        Com<IDXGISwapChain1> chain;
        REQUIRE(dxgi->CreateSwapChainForHwnd(test.device.get(), test_window(1), &desc, nullptr,
                                             nullptr, chain.out()) == S_OK);
        Com<ID3D11Texture2D> back;
        REQUIRE(chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back.out_void()) == S_OK);
        D3D11_RENDER_TARGET_VIEW_DESC view{};
        view.Format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
        view.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
        Com<ID3D11RenderTargetView> rtv;
        const HRESULT hr = test.device->CreateRenderTargetView(back.get(), &view, rtv.out());
        INFO("swap effect " << effect);
        // As Windows allows for the bitblt model too (a typed resource
        // otherwise takes views of its own format only).
        CHECK(hr == S_OK);
    }
}

TEST_CASE("The adapter's one output is a 1920x1080 desktop with the common display modes",
          "[dxgi][output]") {
    auto dxgi = factory();
    Com<IDXGIAdapter1> adapter;
    REQUIRE(dxgi->EnumAdapters1(0, adapter.out()) == S_OK);
    Com<IDXGIOutput> output;
    REQUIRE(adapter->EnumOutputs(0, output.out()) == S_OK);
    DXGI_OUTPUT_DESC desc{};
    REQUIRE(output->GetDesc(&desc) == S_OK);
    CHECK(std::wstring(desc.DeviceName) == L"\\\\.\\DISPLAY1");
    CHECK(desc.DesktopCoordinates.right == 1920);
    CHECK(desc.DesktopCoordinates.bottom == 1080);
    CHECK(desc.AttachedToDesktop == TRUE);
    CHECK(desc.Rotation == DXGI_MODE_ROTATION_IDENTITY);

    UINT count = 0;
    REQUIRE(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &count, nullptr) == S_OK);
    REQUIRE(count == 9);
    std::vector<DXGI_MODE_DESC> modes(count);
    REQUIRE(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &count, modes.data()) ==
            S_OK);
    CHECK((modes.front().Width == 640 && modes.front().Height == 480));
    CHECK((modes.back().Width == 1920 && modes.back().Height == 1080));
    CHECK(modes.back().RefreshRate.Numerator == 60);
    CHECK(modes.back().RefreshRate.Denominator == 1);
    UINT too_few = 2;
    CHECK(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &too_few, modes.data()) ==
          DXGI_ERROR_MORE_DATA);
    CHECK(too_few == 2);
    UINT none = 5;
    CHECK(output->GetDisplayModeList(DXGI_FORMAT_BC1_UNORM, 0, &none, nullptr) == S_OK);
    CHECK(none == 0);
    CHECK(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, nullptr, nullptr) ==
          DXGI_ERROR_INVALID_CALL);

    DXGI_MODE_DESC wanted{};
    wanted.Width = 1000;
    wanted.Height = 700;
    wanted.Format = DXGI_FORMAT_B8G8R8A8_UNORM;
    DXGI_MODE_DESC closest{};
    REQUIRE(output->FindClosestMatchingMode(&wanted, &closest, nullptr) == S_OK);
    CHECK((closest.Width == 1024 && closest.Height == 768));
    CHECK(closest.Format == DXGI_FORMAT_B8G8R8A8_UNORM);
    wanted.Format = DXGI_FORMAT_UNKNOWN;  // needs a device to say which formats
    CHECK(output->FindClosestMatchingMode(&wanted, &closest, nullptr) == DXGI_ERROR_INVALID_CALL);

    // A replay lists the modes its trace recorded.
    DXGI_MODE_DESC recorded = modes[2];
    recorded.Width = 1366;
    recorded.Height = 768;
    REQUIRE(
        d3dcap::runtime::set_output_modes(output.get(), DXGI_FORMAT_R8G8B8A8_UNORM, {recorded}));
    REQUIRE(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &count, nullptr) == S_OK);
    CHECK(count == 1);
    wanted.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    REQUIRE(output->FindClosestMatchingMode(&wanted, &closest, nullptr) == S_OK);
    CHECK(closest.Width == 1366);

    // Nothing is on a screen: no gamma ramp, no duplication.
    DXGI_GAMMA_CONTROL gamma{};
    CHECK(output->GetGammaControl(&gamma) == DXGI_ERROR_NOT_CURRENTLY_AVAILABLE);
    auto output1 = output.as<IDXGIOutput1>();
    REQUIRE(output1);
    Com<IDXGIOutputDuplication> duplication;
    CHECK(output1->DuplicateOutput(nullptr, duplication.out()) == DXGI_ERROR_UNSUPPORTED);
}

TEST_CASE("ResizeBuffers needs every back-buffer reference released", "[dxgi][swapchain]") {
    TestDevice test;
    auto dxgi = factory();
    DXGI_SWAP_CHAIN_DESC desc{};
    desc.BufferDesc = {320,
                       200,
                       {60, 1},
                       DXGI_FORMAT_B8G8R8A8_UNORM,
                       DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED,
                       DXGI_MODE_SCALING_UNSPECIFIED};
    desc.SampleDesc = {1, 0};
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 1;
    desc.OutputWindow = test_window(42);  // ignored: there are no windows
    desc.Windowed = TRUE;
    desc.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
    Com<IDXGISwapChain> chain;
    REQUIRE(dxgi->CreateSwapChain(test.device.get(), &desc, chain.out()) == S_OK);
    DXGI_SWAP_CHAIN_DESC read{};
    REQUIRE(chain->GetDesc(&read) == S_OK);
    CHECK(read.OutputWindow == test_window(42));
    CHECK(read.BufferDesc.RefreshRate.Numerator == 60);

    Com<ID3D11Texture2D> back;
    REQUIRE(chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back.out_void()) == S_OK);
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(back.get(), nullptr, rtv.out()) == S_OK);
    ID3D11RenderTargetView* views[1] = {rtv.get()};
    test.context->OMSetRenderTargets(1, views, nullptr);
    back.reset();
    rtv.reset();
    // Still bound through the view.
    CHECK(chain->ResizeBuffers(0, 640, 480, DXGI_FORMAT_UNKNOWN, 0) == DXGI_ERROR_INVALID_CALL);
    test.context->OMSetRenderTargets(0, nullptr, nullptr);
    REQUIRE(chain->ResizeBuffers(0, 640, 480, DXGI_FORMAT_UNKNOWN, 0) == S_OK);
    REQUIRE(chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back.out_void()) == S_OK);
    D3D11_TEXTURE2D_DESC texture{};
    back->GetDesc(&texture);
    CHECK(texture.Width == 640);
    CHECK(texture.Height == 480);
    CHECK(texture.Format == DXGI_FORMAT_B8G8R8A8_UNORM);
    back.reset();
    CHECK(chain->ResizeBuffers(0, 0, 0, DXGI_FORMAT_BC1_UNORM, 0) == DXGI_ERROR_INVALID_CALL);
    // DISCARD swap chains give buffer 0 only.
    CHECK(chain->GetBuffer(1, __uuidof(ID3D11Texture2D), back.out_void()) ==
          DXGI_ERROR_INVALID_CALL);
}

TEST_CASE("Present writes frame PNGs when asked - the NULL device writes none",
          "[dxgi][swapchain]") {
    const std::string directory = temporary_directory();
    {
        TestDevice test;
        auto dxgi = factory();
        Com<IDXGISwapChain1> chain;
        const auto desc2 = chain_desc(48, 16);
        REQUIRE(dxgi->CreateSwapChainForHwnd(test.device.get(), test_window(1), &desc2, nullptr,
                                             nullptr, chain.out()) == S_OK);
        HWND window = nullptr;
        REQUIRE(chain->GetHwnd(&window) == S_OK);
        CHECK(window == test_window(1));
        Com<ID3D11Texture2D> back;
        REQUIRE(chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back.out_void()) == S_OK);
        Com<ID3D11RenderTargetView> rtv;
        REQUIRE(test.device->CreateRenderTargetView(back.get(), nullptr, rtv.out()) == S_OK);
        const FLOAT red[4] = {1, 0, 0, 1};
        test.context->ClearRenderTargetView(rtv.get(), red);
        REQUIRE(chain->Present(0, 0) == S_OK);  // not asked yet: no file
        d3dcap::runtime::set_screenshot_directory(chain.get(), directory.c_str());
        REQUIRE(chain->Present(0, 0) == S_OK);
        CHECK_FALSE(std::filesystem::exists(directory + "/frame-00000.png"));
        const Png frame = read_png(directory + "/frame-00001.png");
        CHECK(frame.width == 48);
        CHECK(frame.height == 16);
        CHECK(frame.depth == 8);
        CHECK(frame.color_type == 6);  // RGBA
        CHECK(frame.count(255, 0, 0, 255) == 48 * 16);
        std::string error;
        CHECK(d3dcap::runtime::write_swap_chain_png(chain.get(), (directory + "/now.png").c_str(),
                                                    &error));
        CHECK(error.empty());
        // The back buffer now: red, with a green 16x8 rectangle cleared into it.
        const FLOAT green[4] = {0, 1, 0, 1};
        const D3D11_RECT rect{4, 2, 20, 10};
        test.context->ClearView(rtv.get(), green, &rect, 1);
        CHECK(d3dcap::runtime::write_swap_chain_png(chain.get(), (directory + "/now.png").c_str(),
                                                    &error));
        const Png now = read_png(directory + "/now.png");
        CHECK(now.count(0, 255, 0, 255) == 16 * 8);
        CHECK(now.count(255, 0, 0, 255) == 48 * 16 - 16 * 8);
        CHECK(now.rgba[(2 * 48 + 4) * 4 + 1] == 255);  // the rectangle's first texel
        CHECK(now.rgba[(2 * 48 + 3) * 4 + 1] == 0);    // and the one left of it
    }
    {
        setenv("D3DCAP_SCREENSHOT_DIR", directory.c_str(), 1);
        TestDevice test(D3D_DRIVER_TYPE_NULL);
        auto dxgi = factory();
        Com<IDXGISwapChain1> chain;
        const auto desc3 = chain_desc(8, 8);
        REQUIRE(dxgi->CreateSwapChainForComposition(test.device.get(), &desc3, nullptr,
                                                    chain.out()) == S_OK);
        unsetenv("D3DCAP_SCREENSHOT_DIR");
        std::filesystem::remove(directory + "/frame-00000.png");
        REQUIRE(chain->Present(0, 0) == S_OK);
        CHECK_FALSE(std::filesystem::exists(directory + "/frame-00000.png"));
        std::string error;
        CHECK_FALSE(d3dcap::runtime::write_swap_chain_png(
            chain.get(), (directory + "/null.png").c_str(), &error));
        CHECK(error == "the device keeps no texels (NULL driver type)");
    }
    {
        setenv("D3DCAP_SCREENSHOT_DIR", directory.c_str(), 1);
        TestDevice test;
        auto dxgi = factory();
        Com<IDXGISwapChain1> chain;
        const auto desc4 = chain_desc(8, 4);
        REQUIRE(dxgi->CreateSwapChainForComposition(test.device.get(), &desc4, nullptr,
                                                    chain.out()) == S_OK);
        unsetenv("D3DCAP_SCREENSHOT_DIR");
        REQUIRE(chain->Present(0, 0) == S_OK);
        const Png untouched = read_png(directory + "/frame-00000.png");
        CHECK(untouched.height == 4);
        CHECK(untouched.count(0, 0, 0, 0) == 8 * 4);  // a new back buffer holds zeros
    }
    std::filesystem::remove_all(directory);
}

TEST_CASE("D3D11CreateDeviceAndSwapChain makes both", "[dxgi][entry]") {
    DXGI_SWAP_CHAIN_DESC desc{};
    desc.BufferDesc.Width = 16;
    desc.BufferDesc.Height = 16;
    desc.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc = {1, 0};
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 2;
    desc.Windowed = TRUE;
    desc.SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD;
    Com<IDXGISwapChain> chain;
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    D3D_FEATURE_LEVEL chosen{};
    REQUIRE(D3D11CreateDeviceAndSwapChain(nullptr, D3D_DRIVER_TYPE_WARP, nullptr, 0, nullptr, 0,
                                          D3D11_SDK_VERSION, &desc, chain.out(), device.out(),
                                          &chosen, context.out()) == S_OK);
    CHECK(chosen == D3D_FEATURE_LEVEL_11_0);
    Com<ID3D11Device> chain_device;
    REQUIRE(chain->GetDevice(__uuidof(ID3D11Device), chain_device.out_void()) == S_OK);
    CHECK(chain_device.get() == device.get());
    CHECK(D3D11CreateDeviceAndSwapChain(nullptr, D3D_DRIVER_TYPE_WARP, nullptr, 0, nullptr, 0,
                                        D3D11_SDK_VERSION, nullptr, chain.out(), device.out(),
                                        &chosen, context.out()) == E_INVALIDARG);
    CHECK(D3D11CreateDeviceAndSwapChain(nullptr, D3D_DRIVER_TYPE_SOFTWARE, nullptr, 0, nullptr, 0,
                                        D3D11_SDK_VERSION, &desc, chain.out(), device.out(),
                                        &chosen, context.out()) == E_INVALIDARG);
}

TEST_CASE("EnqueueSetEvent signals an eventfd - other handles are rejected", "[dxgi][device]") {
    TestDevice test;
    auto dxgi = test.device.as<IDXGIDevice2>();
    const int event = eventfd(0, EFD_NONBLOCK);
    REQUIRE(event >= 0);
    REQUIRE(dxgi->EnqueueSetEvent(reinterpret_cast<HANDLE>(static_cast<std::intptr_t>(event))) ==
            S_OK);
    std::uint64_t value = 0;
    REQUIRE(read(event, &value, sizeof value) == sizeof value);
    CHECK(value == 1);
    close(event);

    int pipe_ends[2];
    REQUIRE(pipe(pipe_ends) == 0);
    CHECK(dxgi->EnqueueSetEvent(
              reinterpret_cast<HANDLE>(static_cast<std::intptr_t>(pipe_ends[1]))) == E_INVALIDARG);
    CHECK(test.messages().back().parameter == "hEvent");
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    CHECK(dxgi->EnqueueSetEvent(nullptr) == E_INVALIDARG);
}

TEST_CASE("OfferResources unbinds and blocks Map - ReclaimResources reports discards",
          "[dxgi][device]") {
    TestDevice test;
    auto dxgi = test.device.as<IDXGIDevice2>();
    auto buffer =
        test.buffer(64, D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    ID3D11Buffer* raw = buffer.get();
    const UINT stride = 4, offset = 0;
    test.context->IASetVertexBuffers(0, 1, &raw, &stride, &offset);
    auto resource = buffer.as<IDXGIResource>();
    IDXGIResource* resources[1] = {resource.get()};
    CHECK(dxgi->OfferResources(1, resources, static_cast<DXGI_OFFER_RESOURCE_PRIORITY>(4)) ==
          E_INVALIDARG);
    REQUIRE(dxgi->OfferResources(1, resources, DXGI_OFFER_RESOURCE_PRIORITY_LOW) == S_OK);
    ID3D11Buffer* bound = reinterpret_cast<ID3D11Buffer*>(1);
    UINT got_stride = 0, got_offset = 0;
    test.context->IAGetVertexBuffers(0, 1, &bound, &got_stride, &got_offset);
    CHECK(bound == nullptr);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    CHECK(test.context->Map(buffer.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == E_INVALIDARG);
    CHECK(dxgi->OfferResources(1, resources, DXGI_OFFER_RESOURCE_PRIORITY_LOW) == E_INVALIDARG);
    BOOL discarded = FALSE;
    REQUIRE(dxgi->ReclaimResources(1, resources, &discarded) == S_OK);
    CHECK(discarded == TRUE);  // the reference device always discards
    CHECK(dxgi->ReclaimResources(1, resources, &discarded) == E_INVALIDARG);
    REQUIRE(test.context->Map(buffer.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    test.context->Unmap(buffer.get(), 0);

    DXGI_RESIDENCY residency{};
    IUnknown* unknowns[1] = {buffer.get()};
    REQUIRE(dxgi->QueryResourceResidency(unknowns, &residency, 1) == S_OK);
    CHECK(residency == DXGI_RESIDENCY_FULLY_RESIDENT);
    UINT latency = 0;
    REQUIRE(dxgi->GetMaximumFrameLatency(&latency) == S_OK);
    CHECK(latency == 3);
    REQUIRE(dxgi->SetMaximumFrameLatency(1) == S_OK);
    REQUIRE(dxgi->GetMaximumFrameLatency(&latency) == S_OK);
    CHECK(latency == 1);
    CHECK(dxgi->SetMaximumFrameLatency(17) == E_INVALIDARG);
    INT priority = 0;
    REQUIRE(dxgi->SetGPUThreadPriority(-7) == S_OK);
    REQUIRE(dxgi->GetGPUThreadPriority(&priority) == S_OK);
    CHECK(priority == -7);
    CHECK(dxgi->SetGPUThreadPriority(8) == E_INVALIDARG);
}

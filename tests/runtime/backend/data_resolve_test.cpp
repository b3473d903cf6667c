// ResolveSubresource on a device: each texel is the average of
// its samples, in the resolve format.
#include <catch2/catch.hpp>

#include "data_support.h"

using namespace data_tests;

TEST_CASE("resolving 4 samples averages them per channel", "[data]") {
    DataDevice device;
    ResourceInfo msaa = texture2d(1, 2, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    msaa.sample_count = 4;
    // Texel 0: samples 0, 100, 200, 255 in every channel; texel 1: all 40.
    const Bytes samples{0,  0,  0,  0,  100, 100, 100, 100, 200, 200, 200, 200, 255, 255, 255, 255,
                        40, 40, 40, 40, 40,  40,  40,  40,  40,  40,  40,  40,  40,  40,  40,  40};
    device.create_with(msaa, samples, 32);
    device.create(texture2d(2, 2, 1, DXGI_FORMAT_R8G8B8A8_UNORM));

    device.backend->resolve_subresource(2, 0, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM);

    // (0 + 100 + 200 + 255) / 4 = 138.75 -> 139 after UNORM rounding.
    CHECK(device.read(2) == Bytes{139, 139, 139, 139, 40, 40, 40, 40});
}

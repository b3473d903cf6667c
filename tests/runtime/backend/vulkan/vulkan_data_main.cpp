// The runtime's data tests on the Vulkan device: the same calls and the same
// expected bytes as on the reference device, under the Khronos validation
// layer with synchronization validation. Without a Vulkan device (lavapipe is
// installed with the rest) it fails under CI and skips elsewhere; the tiled
// tests skip without sparse residency (a GPU's), saying why.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "data_support.h"
#include "runtime/inspection.h"
#include "support/catch_run.h"
#include "support/skip.h"

std::unique_ptr<data_tests::Backend> data_tests::make_test_backend() {
    std::string error;
    std::unique_ptr<Backend> backend = d3dcap::runtime::backend::make_vulkan_backend(error);
    if (!backend) FAIL("no Vulkan device: " << error);
    return backend;
}

int main(int argc, char** argv) {
    // Every message of the validation layer fails the run.
    setenv("D3DCAP_VULKAN_VALIDATION", "1", 0);
    std::unique_ptr<data_tests::Backend> probe;  // kept while the tests run
    const int failed = test_support::run_catch(argc, argv, [&] {
        std::string error;
        probe = d3dcap::runtime::backend::make_vulkan_backend(error);
        if (!probe) test_support::missing_dependency("no Vulkan device: " + error);
        if (D3DCAP_NEEDS_TILED_RESOURCES &&
            probe->tiled_resources_tier() == D3D11_TILED_RESOURCES_NOT_SUPPORTED) {
            test_support::skip_test("no tiled resources: " + probe->tier_reason());
        }
    });
    if (const std::uint64_t messages = d3dcap::runtime::vulkan_validation_messages()) {
        std::fprintf(stderr, "the Vulkan validation layer reported %llu messages\n",
                     static_cast<unsigned long long>(messages));
        return 1;
    }
    return failed;
}

// The device's message sink: kept for tools, printed to stderr on request.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "object_support.h"

using namespace object_tests;

namespace {

// Everything written to file descriptor 2 while `action` runs.
template <class Action>
std::string capture_stderr(Action action) {
    std::fflush(stderr);
    FILE* file = std::tmpfile();
    REQUIRE(file);
    const int saved = dup(2);
    dup2(fileno(file), 2);
    action();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::rewind(file);
    std::string text;
    char chunk[256];
    while (std::size_t count = std::fread(chunk, 1, sizeof chunk, file)) text.append(chunk, count);
    std::fclose(file);
    return text;
}

}  // namespace

TEST_CASE("D3DCAP_DEBUG_MESSAGES=1 prints each message as d3dcap: call: parameter: text",
          "[object][messages]") {
    setenv("D3DCAP_DEBUG_MESSAGES", "1", 1);
    TestDevice test;
    unsetenv("D3DCAP_DEBUG_MESSAGES");
    const std::string printed = capture_stderr([&] {
        D3D11_BUFFER_DESC desc{0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
        Com<ID3D11Buffer> buffer;
        CHECK(test.device->CreateBuffer(&desc, nullptr, buffer.out()) == E_INVALIDARG);
    });
    CHECK(printed ==
          "d3dcap: ID3D11Device::CreateBuffer: pDesc->ByteWidth: is 0; a buffer needs at least "
          "one byte\n");
}

TEST_CASE("Without D3DCAP_DEBUG_MESSAGES messages are only kept", "[object][messages]") {
    unsetenv("D3DCAP_DEBUG_MESSAGES");
    TestDevice test;
    const std::string printed = capture_stderr([&] { test.context->Dispatch(1, 1, 70000); });
    CHECK(printed.empty());
    const auto messages = test.messages();
    REQUIRE(messages.size() == 1);
    CHECK(messages[0].severity == d3dcap::runtime::Severity::Error);
    CHECK(messages[0].call == "ID3D11DeviceContext::Dispatch");
    CHECK(messages[0].parameter == "ThreadGroupCount");
    CHECK(messages[0].text == "1x1x70000 has a dimension above 65535; dropped");
    test.clear_messages();
    CHECK(test.messages().empty());
}

TEST_CASE("The sink keeps the last 256 messages", "[object][messages]") {
    TestDevice test;
    for (UINT i = 0; i < 300; ++i) test.context->Dispatch(70000 + i, 1, 1);
    const auto messages = test.messages();
    REQUIRE(messages.size() == 256);
    CHECK(messages.front().text == "70044x1x1 has a dimension above 65535; dropped");
    CHECK(messages.back().text == "70299x1x1 has a dimension above 65535; dropped");
}

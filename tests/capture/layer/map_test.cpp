// Map/Unmap through the layer: the application writes into a shadow copy,
// the Unmap record holds exactly the byte ranges it changed, and the real
// resource receives everything it wrote.
#include <cstring>
#include <ostream>
#include <vector>

#include "capture/layer/layer_test.h"

namespace capture_tests {
namespace {

using Bytes = std::vector<std::uint8_t>;

struct Write {
    std::uint64_t offset;
    Bytes bytes;
    friend bool operator==(const Write&, const Write&) = default;
};

std::ostream& operator<<(std::ostream& out, const Write& w) {
    return out << "{" << w.offset << ", " << w.bytes.size() << " bytes}";
}

std::vector<Write> writes_of(const fb::Record& unmap) {
    std::vector<Write> out;
    if (unmap.map_writes() == nullptr) return out;
    for (const fb::MappedWrite* w : *unmap.map_writes())
        out.push_back({w->offset(), w->data() != nullptr
                                        ? Bytes(w->data()->begin(), w->data()->end())
                                        : Bytes()});
    return out;
}

// The content of a buffer, copied to a staging buffer and mapped for reading.
Bytes read_buffer(ID3D11Device* device, ID3D11DeviceContext* context, ID3D11Buffer* buffer) {
    D3D11_BUFFER_DESC desc{};
    buffer->GetDesc(&desc);
    Com<ID3D11Buffer> staging;
    const D3D11_BUFFER_DESC staging_desc =
        buffer_desc(desc.ByteWidth, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ);
    REQUIRE(device->CreateBuffer(&staging_desc, nullptr, staging.out()) == S_OK);
    context->CopyResource(staging.get(), buffer);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    const auto* data = static_cast<const std::uint8_t*>(mapped.pData);
    Bytes out(data, data + desc.ByteWidth);
    context->Unmap(staging.get(), 0);
    return out;
}

// The rows of mip 0 of a texture, tightly packed, read the same way.
Bytes read_texture(ID3D11Device* device, ID3D11DeviceContext* context, ID3D11Texture2D* texture,
                   UINT row_bytes) {
    D3D11_TEXTURE2D_DESC desc{};
    texture->GetDesc(&desc);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    Com<ID3D11Texture2D> staging;
    REQUIRE(device->CreateTexture2D(&desc, nullptr, staging.out()) == S_OK);
    context->CopyResource(staging.get(), texture);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    Bytes out;
    for (UINT row = 0; row < desc.Height; ++row) {
        const auto* data = static_cast<const std::uint8_t*>(mapped.pData) + row * mapped.RowPitch;
        out.insert(out.end(), data, data + row_bytes);
    }
    context->Unmap(staging.get(), 0);
    return out;
}

Bytes pattern(std::size_t size, std::uint8_t seed) {
    Bytes out(size);
    for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<std::uint8_t>(i * 37 + seed);
    return out;
}

TEST_CASE(
    "Unmap of a dynamic buffer records exactly the changed byte ranges, WRITE_DISCARD then "
    "WRITE_NO_OVERWRITE, and the buffer holds all that was written") {
    Capture capture;
    const D3D11_BUFFER_DESC desc =
        buffer_desc(1024, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE);
    Com<ID3D11Buffer> buffer;
    REQUIRE(capture.device->CreateBuffer(&desc, nullptr, buffer.out()) == S_OK);

    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    auto* data = static_cast<std::uint8_t*>(mapped.pData);
    // The layer hands out the content the trace has given the buffer: none yet.
    CHECK(Bytes(data, data + 1024) == Bytes(1024, 0));
    Bytes expected(1024, 0);
    auto write = [&](std::size_t offset, Bytes bytes) {
        std::memcpy(data + offset, bytes.data(), bytes.size());
        std::memcpy(expected.data() + offset, bytes.data(), bytes.size());
    };
    write(10, {1, 2, 3, 4});
    write(200, {0x11});  // 19 equal bytes to the next change: one range
    write(220, {0x22});
    write(500, {0xab});
    write(1020, {9, 8, 7, 6});
    capture.context->Unmap(buffer.get(), 0);
    CHECK(read_buffer(capture.device.get(), capture.context.get(), buffer.get()) == expected);

    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) ==
            S_OK);
    data = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(data, data + 1024) == expected);
    write(600, {0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7});
    write(10, {1, 2, 3, 4});  // the same bytes again: no change
    capture.context->Unmap(buffer.get(), 0);
    CHECK(read_buffer(capture.device.get(), capture.context.get(), buffer.get()) == expected);
    TraceRecords records = capture.stop();

    const auto maps = records.params<fb::ID3D11DeviceContext_Map>();
    REQUIRE(maps.size() == 4);  // two of the buffer, two of the staging copies
    CHECK(maps[0]->map_type() == D3D11_MAP_WRITE_DISCARD);
    CHECK(maps[2]->map_type() == D3D11_MAP_WRITE_NO_OVERWRITE);
    const auto unmaps = records.calls(CallId::ID3D11DeviceContext_Unmap);
    REQUIRE(unmaps.size() == 4);
    Bytes range_200(21, 0);
    range_200.front() = 0x11;
    range_200.back() = 0x22;
    CHECK(writes_of(*unmaps[0]) ==
          std::vector<Write>{
              {10, {1, 2, 3, 4}}, {200, range_200}, {500, {0xab}}, {1020, {9, 8, 7, 6}}});
    CHECK(writes_of(*unmaps[2]) ==
          std::vector<Write>{{600, {0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7}}});
    // A mapping for reading changes nothing: no writes.
    CHECK(writes_of(*unmaps[1]).empty());
    CHECK(writes_of(*unmaps[3]).empty());
}

TEST_CASE(
    "Unmap of a dynamic texture records the changed texels and the texture holds every "
    "write of both WRITE_DISCARD maps") {
    Capture capture;
    const D3D11_TEXTURE2D_DESC desc =
        texture2d_desc(16, 8, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DYNAMIC,
                       D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE);
    Com<ID3D11Texture2D> texture;
    REQUIRE(capture.device->CreateTexture2D(&desc, nullptr, texture.out()) == S_OK);
    constexpr UINT kRowBytes = 16 * 4;
    Bytes expected(kRowBytes * 8, 0);

    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(capture.context->Map(texture.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    REQUIRE(mapped.RowPitch >= kRowBytes);
    const UINT pitch = mapped.RowPitch;
    auto texel = [&](std::uint8_t* data, UINT x, UINT y, std::uint32_t value) {
        std::memcpy(data + y * pitch + x * 4, &value, 4);
        std::memcpy(expected.data() + y * kRowBytes + x * 4, &value, 4);
    };
    texel(static_cast<std::uint8_t*>(mapped.pData), 3, 2, 0x04030201);
    texel(static_cast<std::uint8_t*>(mapped.pData), 10, 7, 0xddccbbaa);
    capture.context->Unmap(texture.get(), 0);

    REQUIRE(capture.context->Map(texture.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    REQUIRE(mapped.RowPitch == pitch);
    texel(static_cast<std::uint8_t*>(mapped.pData), 0, 5, 0x0a0b0c0d);
    capture.context->Unmap(texture.get(), 0);
    CHECK(read_texture(capture.device.get(), capture.context.get(), texture.get(), kRowBytes) ==
          expected);
    TraceRecords records = capture.stop();

    const auto unmaps = records.calls(CallId::ID3D11DeviceContext_Unmap);
    REQUIRE(unmaps.size() == 3);
    CHECK(writes_of(*unmaps[0]) == std::vector<Write>{{2 * pitch + 12, {0x01, 0x02, 0x03, 0x04}},
                                                      {7 * pitch + 40, {0xaa, 0xbb, 0xcc, 0xdd}}});
    // The second map changed one texel; the first ones were already given.
    CHECK(writes_of(*unmaps[1]) == std::vector<Write>{{5 * pitch, {0x0d, 0x0c, 0x0b, 0x0a}}});
    const auto maps = records.params<fb::ID3D11DeviceContext_Map>();
    REQUIRE(maps.size() == 3);
    REQUIRE(maps[0]->p_mapped_resource() != nullptr);
    CHECK(maps[0]->p_mapped_resource()->row_pitch() == pitch);
}

TEST_CASE(
    "Map hands out a shadow copy for writing, but the real memory of a STAGING resource "
    "for reading") {
    // The runtime maps a staging buffer at its storage, every time.
    DirectDevice direct;
    const D3D11_BUFFER_DESC desc =
        buffer_desc(256, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
    const Bytes initial = pattern(256, 3);
    const D3D11_SUBRESOURCE_DATA init{initial.data(), 0, 0};
    Com<ID3D11Buffer> direct_buffer;
    REQUIRE(direct.device->CreateBuffer(&desc, &init, direct_buffer.out()) == S_OK);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(direct.context->Map(direct_buffer.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    void* const direct_read = mapped.pData;
    direct.context->Unmap(direct_buffer.get(), 0);
    REQUIRE(direct.context->Map(direct_buffer.get(), 0, D3D11_MAP_WRITE, 0, &mapped) == S_OK);
    REQUIRE(mapped.pData == direct_read);
    direct.context->Unmap(direct_buffer.get(), 0);

    Capture capture;
    Com<ID3D11Buffer> buffer;
    REQUIRE(capture.device->CreateBuffer(&desc, &init, buffer.out()) == S_OK);
    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    void* const real = mapped.pData;
    auto* data = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(data, data + 256) == initial);
    capture.context->Unmap(buffer.get(), 0);

    // WRITE: a shadow that starts from the real content.
    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_WRITE, 0, &mapped) == S_OK);
    CHECK(mapped.pData != real);
    data = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(data, data + 256) == initial);
    Bytes expected = initial;
    data[7] = expected[7] = 0xee;
    data[8] = expected[8] = 0xef;
    data[130] = expected[130] = 0x00;
    capture.context->Unmap(buffer.get(), 0);

    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    CHECK(mapped.pData == real);
    data = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(data, data + 256) == expected);
    capture.context->Unmap(buffer.get(), 0);

    // READ_WRITE: a shadow too, with the real content.
    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_READ_WRITE, 0, &mapped) == S_OK);
    CHECK(mapped.pData != real);
    data = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(data, data + 256) == expected);
    data[255] = expected[255] = static_cast<std::uint8_t>(expected[255] + 1);
    capture.context->Unmap(buffer.get(), 0);
    CHECK(read_buffer(capture.device.get(), capture.context.get(), buffer.get()) == expected);
    TraceRecords records = capture.stop();

    const auto unmaps = records.calls(CallId::ID3D11DeviceContext_Unmap);
    REQUIRE(unmaps.size() == 5);
    CHECK(writes_of(*unmaps[0]).empty());
    CHECK(writes_of(*unmaps[1]) == std::vector<Write>{{7, {0xee, 0xef}}, {130, {0x00}}});
    CHECK(writes_of(*unmaps[2]).empty());
    CHECK(writes_of(*unmaps[3]) == std::vector<Write>{{255, {expected[255]}}});
}

TEST_CASE(
    "A first WRITE_NO_OVERWRITE map of a buffer made with initial data keeps every byte "
    "written, and its records rebuild the content from nothing") {
    Capture capture;
    const D3D11_BUFFER_DESC desc =
        buffer_desc(256, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE);
    const Bytes initial(256, 0x5a);
    const D3D11_SUBRESOURCE_DATA init{initial.data(), 0, 0};
    Com<ID3D11Buffer> buffer;
    REQUIRE(capture.device->CreateBuffer(&desc, &init, buffer.out()) == S_OK);

    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) ==
            S_OK);
    auto* data = static_cast<std::uint8_t*>(mapped.pData);
    Bytes expected = initial;
    // Zeros over the initial data, and a new value further on.
    std::memset(data + 16, 0, 16);
    std::memset(expected.data() + 16, 0, 16);
    data[100] = expected[100] = 0x77;
    capture.context->Unmap(buffer.get(), 0);
    CHECK(read_buffer(capture.device.get(), capture.context.get(), buffer.get()) == expected);

    // A later WRITE_DISCARD starts from what the trace has given the buffer.
    REQUIRE(capture.context->Map(buffer.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    data = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(data, data + 256) == expected);
    data[200] = expected[200] = 0x01;
    capture.context->Unmap(buffer.get(), 0);
    CHECK(read_buffer(capture.device.get(), capture.context.get(), buffer.get()) == expected);
    TraceRecords records = capture.stop();

    // Replay applies each Unmap's writes to a copy that starts as zeros; a
    // WRITE_DISCARD then hands over the whole copy.
    const auto unmaps = records.calls(CallId::ID3D11DeviceContext_Unmap);
    REQUIRE(unmaps.size() == 4);
    Bytes replayed(256, 0);
    for (const fb::Record* unmap : {unmaps[0], unmaps[2]})
        for (const Write& w : writes_of(*unmap)) {
            REQUIRE(w.offset + w.bytes.size() <= replayed.size());
            std::memcpy(replayed.data() + w.offset, w.bytes.data(), w.bytes.size());
        }
    CHECK(replayed == expected);
    CHECK(writes_of(*unmaps[2]) == std::vector<Write>{{200, {0x01}}});
}

TEST_CASE(
    "Maps on a deferred context record their writes on that context and reach the buffer "
    "when the command list executes") {
    Capture capture;
    const D3D11_BUFFER_DESC desc =
        buffer_desc(256, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE);
    Com<ID3D11Buffer> buffer;
    REQUIRE(capture.device->CreateBuffer(&desc, nullptr, buffer.out()) == S_OK);
    Com<ID3D11DeviceContext> deferred;
    REQUIRE(capture.device->CreateDeferredContext(0, deferred.out()) == S_OK);

    Bytes expected(256, 0);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(deferred->Map(buffer.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    auto* data = static_cast<std::uint8_t*>(mapped.pData);
    data[5] = expected[5] = 0x55;
    data[100] = expected[100] = 0x64;
    deferred->Unmap(buffer.get(), 0);
    REQUIRE(deferred->Map(buffer.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) == S_OK);
    data = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(data, data + 256) == expected);
    data[200] = expected[200] = 0xc8;
    deferred->Unmap(buffer.get(), 0);
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    // Nothing reaches the buffer before the list runs.
    CHECK(read_buffer(capture.device.get(), capture.context.get(), buffer.get()) == Bytes(256, 0));
    capture.context->ExecuteCommandList(list.get(), FALSE);
    CHECK(read_buffer(capture.device.get(), capture.context.get(), buffer.get()) == expected);
    TraceRecords records = capture.stop();

    const auto created = records.params<fb::ID3D11Device_CreateDeferredContext>();
    REQUIRE(created.size() == 1);
    const std::uint64_t deferred_id = created[0]->pp_deferred_context();
    std::vector<const fb::Record*> deferred_unmaps;
    for (const fb::Record* r : records.calls(CallId::ID3D11DeviceContext_Unmap))
        if (r->header()->context() == deferred_id) deferred_unmaps.push_back(r);
    REQUIRE(deferred_unmaps.size() == 2);
    CHECK(writes_of(*deferred_unmaps[0]) == std::vector<Write>{{5, {0x55}}, {100, {0x64}}});
    CHECK(writes_of(*deferred_unmaps[1]) == std::vector<Write>{{200, {0xc8}}});
}

}  // namespace
}  // namespace capture_tests

// Our generated C++ interfaces put every method at the slot the table says.
//
// With the Itanium C++ ABI (g++ and clang on Linux), a pointer to a virtual
// member function holds 1 + the method's byte offset in the vtable.
#include <d3d11_4.h>
#include <dxgi1_6.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

struct SlotRow {
    const char* interface_name;
    const char* method;
    int table_slot;
    int header_slot;
};

template <typename MemberFunction>
int vtable_slot(MemberFunction member) {
    static_assert(sizeof(MemberFunction) == 2 * sizeof(std::uintptr_t));
    std::uintptr_t raw[2];
    std::memcpy(raw, &member, sizeof raw);
    if ((raw[0] & 1) == 0) return -1;  // not virtual
    return static_cast<int>((raw[0] - 1) / sizeof(void*));
}

#define D3DCAP_SLOT(Interface, Method, Slot) \
    SlotRow{#Interface, #Method, Slot, vtable_slot(&Interface::Method)},
const std::vector<SlotRow> kRows = {
#include "slot_table.inc"
};
#undef D3DCAP_SLOT

}  // namespace

TEST_CASE("every method of our C++ headers sits at the table's vtable slot") {
    REQUIRE(kRows.size() > 300);
    for (const SlotRow& row : kRows) {
        INFO(row.interface_name << "::" << row.method);
        CHECK(row.header_slot == row.table_slot);
    }
}

TEST_CASE("our headers give the tiled-resource structs the Windows layout") {
    CHECK(sizeof(D3D11_TILE_REGION_SIZE) == 16);
    CHECK(offsetof(D3D11_TILE_REGION_SIZE, Height) == 12);
    CHECK(sizeof(D3D11_TILED_RESOURCE_COORDINATE) == 16);
    CHECK(sizeof(D3D11_SUBRESOURCE_TILING) == 12);
    CHECK(sizeof(D3D11_PACKED_MIP_DESC) == 12);
    CHECK(offsetof(D3D11_PACKED_MIP_DESC, NumTilesForPackedMips) == 4);
    CHECK(D3D11_TILE_RANGE_REUSE_SINGLE_TILE == 4);
    CHECK(D3D11_2_TILED_RESOURCE_TILE_SIZE_IN_BYTES == 65536);
}

TEST_CASE("IIDs are defined by libd3dcap and agree with __uuidof") {
    CHECK(IID_ID3D11DeviceContext2 == __uuidof(ID3D11DeviceContext2));
    CHECK(IID_ID3D11DeviceContext2.Data1 == 0x420d5b32u);
    CHECK(IID_IDXGIDevice2.Data1 == 0x05008617u);
}

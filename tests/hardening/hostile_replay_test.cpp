// Replay of hostile traces: records of a captured example changed (bytes
// flipped, object ids, counts, sizes and dimensions), written back with
// right checksums and replayed on the null and reference devices. Every run
// ends with a clear error or a reported mismatch, never a crash, a hang or
// an unbounded allocation; sizes past D3D11's limits or the memory cap stop
// replay before anything is allocated.
#include <d3dcap/api/call_dispatch.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <functional>
#include <random>

#include "format/trace/reader.h"
#include "hardening/trace_parts.h"
#include "replay/engine/replayer.h"
#include "support/temp_dir.h"

using namespace d3dcap;
using hardening::Bytes;

namespace {

constexpr std::uint64_t kMemoryCap = std::uint64_t{256} << 20;

const hardening::TraceParts& source() {
    static const hardening::TraceParts parts = [] {
        hardening::TraceParts p;
        std::string error;
        if (!hardening::read_trace_parts(D3DCAP_HOSTILE_SOURCE_TRACE, p, error)) FAIL(error);
        return p;
    }();
    return parts;
}

fb::Record& record_of(Bytes& bytes) {
    return *flatbuffers::GetMutableSizePrefixedRoot<fb::Record>(bytes.data());
}

template <class Params>
Params* params_of(Bytes& bytes) {
    return const_cast<Params*>(api::CallOf<Params>::get(record_of(bytes)));
}

// The index of the first record of call id for which pick says yes.
std::size_t find_record(const std::vector<Bytes>& records, api::CallId id,
                        const std::function<bool(const fb::Record&)>& pick = {}) {
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& record = *flatbuffers::GetSizePrefixedRoot<fb::Record>(records[i].data());
        if (record.header()->call() == static_cast<std::uint16_t>(id) && (!pick || pick(record)))
            return i;
    }
    FAIL("the source trace has no record of call " << static_cast<int>(id));
    return 0;
}

struct Outcome {
    bool ok = false;
    std::string error;
    std::size_t mismatches = 0;
};

Outcome replay_records(const std::vector<Bytes>& records, D3D_DRIVER_TYPE driver,
                       const testing::TempDir& dir) {
    const std::string path = dir.file("hostile.d3dcap");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(hardening::write_trace(fd, source().header, records));
    ::close(fd);
    replay::ReplayOptions options;
    options.driver = driver;
    options.memory_cap = kMemoryCap;
    auto replayer = replay::Replayer::open(path, options);
    REQUIRE(replayer.ok());
    const replay::Status status = replayer.value()->run_all();
    Outcome outcome;
    outcome.ok = status.ok();
    if (!status.ok()) outcome.error = status.error().to_string();
    outcome.mismatches = replayer.value()->mismatches().size();
    return outcome;
}

bool is_tiled_texture(const fb::Record& record) {
    const auto* p = api::CallOf<fb::ID3D11Device_CreateTexture2D>::get(record);
    return p != nullptr && p->p_desc() != nullptr &&
           (p->p_desc()->misc_flags() & D3D11_RESOURCE_MISC_TILED) != 0;
}

bool is_plain_texture(const fb::Record& record) {
    const auto* p = api::CallOf<fb::ID3D11Device_CreateTexture2D>::get(record);
    return p != nullptr && p->p_desc() != nullptr && !is_tiled_texture(record) &&
           record.header()->result() == S_OK;
}

}  // namespace

TEST_CASE("the unchanged source trace replays with no mismatch", "[hardening][replay]") {
    testing::TempDir dir;
    REQUIRE(source().records.size() > 100);
    for (const D3D_DRIVER_TYPE driver : {D3D_DRIVER_TYPE_NULL, D3D_DRIVER_TYPE_REFERENCE}) {
        const Outcome outcome = replay_records(source().records, driver, dir);
        INFO(outcome.error);
        CHECK(outcome.ok);
        CHECK(outcome.mismatches == 0);
    }
}

TEST_CASE("sizes and dimensions past the limits stop replay before allocating",
          "[hardening][replay]") {
    testing::TempDir dir;
    struct Case {
        const char* what;
        std::function<void(std::vector<Bytes>&)> change;
        const char* expected;
    };
    const std::vector<Case> cases = {
        {"tiled texture width",
         [](std::vector<Bytes>& r) {
             auto i = find_record(r, api::CallId::ID3D11Device_CreateTexture2D, is_tiled_texture);
             params_of<fb::ID3D11Device_CreateTexture2D>(r[i])->mutable_p_desc()->mutate_width(
                 20000);
         },
         "ID3D11Device::CreateTexture2D: pDesc->Width 20000 is more than 16384"},
        {"tiled texture array size",
         [](std::vector<Bytes>& r) {
             auto i = find_record(r, api::CallId::ID3D11Device_CreateTexture2D, is_tiled_texture);
             params_of<fb::ID3D11Device_CreateTexture2D>(r[i])->mutable_p_desc()->mutate_array_size(
                 0xffffffffu);
         },
         "pDesc->ArraySize 4294967295 is more than 2048"},
        {"tiled texture tiles",
         [](std::vector<Bytes>& r) {
             auto i = find_record(r, api::CallId::ID3D11Device_CreateTexture2D, is_tiled_texture);
             params_of<fb::ID3D11Device_CreateTexture2D>(r[i])->mutable_p_desc()->mutate_array_size(
                 2048);
         },
         "the tile state of the tiled texture needs"},
        {"texture bytes",
         [](std::vector<Bytes>& r) {
             auto i = find_record(r, api::CallId::ID3D11Device_CreateTexture2D, is_plain_texture);
             auto* desc = params_of<fb::ID3D11Device_CreateTexture2D>(r[i])->mutable_p_desc();
             desc->mutate_width(16384);
             desc->mutate_height(16384);
             desc->mutate_array_size(64);
         },
         "the texture needs"},
        {"tile pool size",
         [](std::vector<Bytes>& r) {
             auto i = find_record(r, api::CallId::ID3D11DeviceContext2_ResizeTilePool);
             params_of<fb::ID3D11DeviceContext2_ResizeTilePool>(r[i])->mutate_new_size_in_bytes(
                 std::uint64_t{1} << 50);
         },
         "a tile pool of NewSizeInBytes needs 1125899906842624 bytes, more than the replay "
         "memory cap of 268435456 (D3DCAP_REPLAY_MEMORY_CAP)"},
        {"buffer size",
         [](std::vector<Bytes>& r) {
             auto i = find_record(r, api::CallId::ID3D11Device_CreateBuffer);
             params_of<fb::ID3D11Device_CreateBuffer>(r[i])->mutable_p_desc()->mutate_byte_width(
                 0xfffffff0u);
         },
         "a buffer of pDesc->ByteWidth needs 4294967280 bytes"},
    };
    for (const Case& c : cases) {
        for (const D3D_DRIVER_TYPE driver : {D3D_DRIVER_TYPE_NULL, D3D_DRIVER_TYPE_REFERENCE}) {
            CAPTURE(c.what, driver);
            std::vector<Bytes> records = source().records;
            c.change(records);
            const Outcome outcome = replay_records(records, driver, dir);
            CHECK_FALSE(outcome.ok);
            CHECK_THAT(outcome.error, Catch::Contains(c.expected));
            CHECK_THAT(outcome.error, Catch::Contains("event "));
        }
    }
}

TEST_CASE("replay of randomly changed records ends with an error or a mismatch, never a crash",
          "[hardening][replay]") {
    testing::TempDir dir;
    const std::vector<Bytes>& original = source().records;
    std::mt19937 random(20250611);
    int completed = 0, with_mismatches = 0, stopped = 0;
    for (int round = 0; round < 240; ++round) {
        std::vector<Bytes> records = original;
        const std::size_t which = random() % records.size();
        Bytes& bytes = records[which];
        switch (round % 4) {
            case 0:  // bytes flipped inside the record, past its size prefix
                for (int attempt = 0; attempt < 50; ++attempt) {
                    bytes = original[which];
                    for (int flips = 1 + static_cast<int>(random() % 4); flips > 0; --flips)
                        bytes[4 + random() % (bytes.size() - 4)] ^=
                            static_cast<std::uint8_t>(1 + random() % 255);
                    if (trace::verify_record(bytes.data(), bytes.size())) break;
                }
                break;
            case 1:  // another object, or one that never existed
                record_of(bytes).mutable_header()->mutate_object(random() % 2 ? random() % 64
                                                                              : random());
                break;
            case 2:  // another call id: the parameters no longer fit the call
                record_of(bytes).mutable_header()->mutate_call(
                    static_cast<std::uint16_t>(random() % 420));
                break;
            case 3:  // a record lost: every later event moves up one
                records.erase(records.begin() + static_cast<std::ptrdiff_t>(which));
                break;
        }
        const D3D_DRIVER_TYPE driver =
            round % 8 < 6 ? D3D_DRIVER_TYPE_NULL : D3D_DRIVER_TYPE_REFERENCE;
        const Outcome outcome = replay_records(records, driver, dir);
        if (!outcome.ok) {
            ++stopped;
            // A clear error names the trace and the event.
            CHECK_THAT(outcome.error,
                       Catch::Contains("hostile.d3dcap") && Catch::Contains("event "));
        } else {
            ++(outcome.mismatches > 0 ? with_mismatches : completed);
        }
    }
    // All three outcomes happen; none crashed to get here.
    CHECK(completed > 0);
    CHECK(with_mismatches > 0);
    CHECK(stopped > 0);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    CHECK(usage.ru_maxrss < 1024 * 1024);  // KiB: no allocation grew past 1 GiB
}

// Shared by the capture layer tests: a reference-owning pointer, a capture
// of one test process (layer, trace file, device) and the records of the
// trace it wrote, read back after the capture stops.
#pragma once

#include <d3d11_2.h>
#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/api/calls.h>
#include <dxgi1_2.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capture/support/capture_session.h"
#include "format/trace/reader.h"
#include "support/com.h"
#include "support/temp_dir.h"

namespace capture_tests {

using namespace d3dcap;
using api::CallId;

using d3dcap::testing::Com;

// Every record of a closed trace, with its index.
class TraceRecords {
  public:
    explicit TraceRecords(const std::string& path) {
        auto opened = trace::TraceReader::open(path);
        REQUIRE(opened.ok());
        reader_ = std::move(opened.value());
        REQUIRE_FALSE(reader_->recovered());
        for (std::size_t i = 0; i < reader_->chunk_count(); ++i) {
            auto chunk = reader_->read_chunk(i);
            REQUIRE(chunk.ok());
            chunks_.push_back(std::make_unique<trace::Chunk>(std::move(chunk.value())));
            for (std::size_t r = 0; r < chunks_.back()->record_count(); ++r)
                records_.push_back(&chunks_.back()->record(r));
        }
    }

    const fb::TraceIndex& index() const { return reader_->index(); }
    trace::TraceReader& reader() { return *reader_; }
    const trace::MarkerList& markers() const { return reader_->markers(); }
    std::size_t size() const { return records_.size(); }
    const fb::Record& operator[](std::size_t i) const { return *records_[i]; }
    const std::vector<const fb::Record*>& all() const { return records_; }

    // The records of one call, in event order.
    std::vector<const fb::Record*> calls(CallId id) const {
        std::vector<const fb::Record*> out;
        for (const fb::Record* r : records_)
            if (r->header()->call() == static_cast<std::uint16_t>(id)) out.push_back(r);
        return out;
    }
    // The parameters of every record of the call Params is the table of.
    template <class Params>
    std::vector<const Params*> params() const {
        std::vector<const Params*> out;
        for (const fb::Record* r : calls(api::CallOf<Params>::id)) {
            const Params* p = api::CallOf<Params>::get(*r);
            REQUIRE(p != nullptr);
            out.push_back(p);
        }
        return out;
    }
    std::vector<const fb::Record*> meta(fb::Meta type) const {
        std::vector<const fb::Record*> out;
        for (const fb::Record* r : records_)
            if (r->meta_type() == type) out.push_back(r);
        return out;
    }

  private:
    std::unique_ptr<trace::TraceReader> reader_;
    std::vector<std::unique_ptr<trace::Chunk>> chunks_;
    std::vector<const fb::Record*> records_;
};

// The layer loaded into this process, recording to a trace in a scratch
// directory, and a reference device made through it.
struct Capture {
    testing::TempDir dir;
    testing::CaptureSession session;
    Com<ID3D11Device2> device;
    Com<ID3D11DeviceContext2> context;

    explicit Capture(const std::string& frames = "", bool manual = false)
        : session(testing::CaptureSession::load(dir.file("capture.d3dcap"), frames, manual)) {
        REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, device.out(), context.out()) == S_OK);
    }

    // Stops recording and reads the trace back.
    TraceRecords stop() {
        REQUIRE(session.api->stop() == 0);
        return TraceRecords(session.trace_path);
    }
};

// A device made directly with the runtime (no layer), to compare with.
struct DirectDevice {
    Com<ID3D11Device2> device;
    Com<ID3D11DeviceContext2> context;

    DirectDevice() {
        Com<ID3D11Device> base;
        Com<ID3D11DeviceContext> base_context;
        const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
        REQUIRE(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1,
                                  D3D11_SDK_VERSION, base.out(), nullptr,
                                  base_context.out()) == S_OK);
        device = base.as<ID3D11Device2>();
        context = base_context.as<ID3D11DeviceContext2>();
        REQUIRE(device.get() != nullptr);
        REQUIRE(context.get() != nullptr);
    }
};

// The id the trace gives an object handed out by a call of an earlier
// record: the ObjectCreated record names it.
inline std::vector<std::uint64_t> created_ids(const TraceRecords& records,
                                              const std::string& interface_name) {
    std::vector<std::uint64_t> ids;
    for (const fb::Record* r : records.meta(fb::Meta::ObjectCreated)) {
        const fb::ObjectCreated* created = r->meta_as_ObjectCreated();
        if (created->interface_name() != nullptr &&
            created->interface_name()->str() == interface_name)
            ids.push_back(created->id());
    }
    return ids;
}

inline D3D11_BUFFER_DESC buffer_desc(UINT bytes, D3D11_USAGE usage, UINT bind, UINT cpu) {
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = bytes;
    desc.Usage = usage;
    desc.BindFlags = bind;
    desc.CPUAccessFlags = cpu;
    return desc;
}

inline D3D11_TEXTURE2D_DESC texture2d_desc(UINT width, UINT height, DXGI_FORMAT format,
                                           D3D11_USAGE usage, UINT bind, UINT cpu, UINT mips = 1) {
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = width;
    desc.Height = height;
    desc.MipLevels = mips;
    desc.ArraySize = 1;
    desc.Format = format;
    desc.SampleDesc = {1, 0};
    desc.Usage = usage;
    desc.BindFlags = bind;
    desc.CPUAccessFlags = cpu;
    return desc;
}

}  // namespace capture_tests

// Test support: a trace written record by record (calls and meta records in
// order, state snapshots), for tests that make their own traces. A write that
// fails throws, so that the Catch2 tests and the viewer's QtTest tests both
// stop there with the writer's message.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "format/trace/records.h"
#include "format/trace/writer.h"
#include "support/trace_fixture.h"

namespace d3dcap::testing {

using MapWrites = flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::MappedWrite>>>;

class RecordWriter {
  public:
    explicit RecordWriter(std::string path, const trace::WriterOptions& options = {})
        : path_(std::move(path)) {
        auto writer = trace::TraceWriter::create(path_, sample_header(), options);
        if (!writer.ok()) throw std::runtime_error(writer.error().to_string());
        writer_ = std::move(writer.value());
    }

    flatbuffers::FlatBufferBuilder b;
    const std::string& path() const { return path_; }

    // A call on object self (a context call when context is not 0) with its
    // result (none for a void call).
    template <typename Params>
    std::uint64_t call_record(std::uint64_t self, std::uint64_t context,
                              flatbuffers::Offset<Params> params, std::optional<HRESULT> result,
                              MapWrites writes = 0) {
        trace::CallContext who;
        who.object = self;
        who.context = context;
        who.result = result.value_or(0);
        who.result_is_hresult = result.has_value();
        who.thread = 1;
        trace::finish_call(b, who, params, writes);
        return submit();
    }

    template <typename Meta>
    std::uint64_t meta(flatbuffers::Offset<Meta> meta) {
        trace::finish_meta(b, 1, meta);
        return submit();
    }

    // Submits a record the test finished in b itself.
    std::uint64_t submit_built() { return submit(); }

    // Until end_snapshot(), records go into a StateSnapshot instead.
    void begin_snapshot() { in_snapshot_ = true; }
    std::uint64_t end_snapshot(std::uint64_t frame) { return snapshot_of(take_snapshot(), frame); }
    // The records collected since begin_snapshot(), unwritten.
    std::vector<std::vector<std::uint8_t>> take_snapshot() {
        in_snapshot_ = false;
        return std::exchange(snapshot_, {});
    }
    // Writes a StateSnapshot holding these records.
    std::uint64_t snapshot_of(const std::vector<std::vector<std::uint8_t>>& records,
                              std::uint64_t frame) {
        std::vector<flatbuffers::Offset<fb::NestedRecord>> nested;
        for (const auto& bytes : records) nested.push_back(fb::CreateNestedRecordDirect(b, &bytes));
        return meta(fb::CreateStateSnapshotDirect(b, frame, &nested));
    }

    // The number of events written.
    std::uint64_t close() {
        if (auto closed = writer_->close(); !closed.ok())
            throw std::runtime_error(closed.error().to_string());
        return events_;
    }

  private:
    std::uint64_t submit() {
        if (in_snapshot_) {
            snapshot_.emplace_back(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
            b.Clear();
            return events_;
        }
        if (!writer_->submit(b).has_value())
            throw std::runtime_error(path_ + ": a record was refused");
        b.Clear();
        return events_++;
    }

    std::string path_;
    std::unique_ptr<trace::TraceWriter> writer_;
    std::uint64_t events_ = 0;
    bool in_snapshot_ = false;
    std::vector<std::vector<std::uint8_t>> snapshot_;
};

}  // namespace d3dcap::testing

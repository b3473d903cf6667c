// Queries and predicates, and the counts of work still on the device.
#pragma once

#include <d3d11_2.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/d3d11/device_child.h"

namespace d3dcap::runtime::d3d11 {

// A draw's or dispatch's counts still in the device's command stream (a
// ticket of its backend), shared by the queries that ran around it; the
// device forgets them with the last of those queries.
class PendingResults {
  public:
    PendingResults(backend::Backend& backend, std::uint64_t ticket)
        : backend_(backend), ticket_(ticket) {}
    ~PendingResults() { backend_.forget_results(ticket_); }
    PendingResults(const PendingResults&) = delete;
    PendingResults& operator=(const PendingResults&) = delete;
    // The counts (zero when the device was lost), waiting for the work the
    // first time; without wait, null while it is not done.
    const backend::WorkResults* values(bool wait);
    std::uint64_t ticket() const { return ticket_; }

  private:
    backend::Backend& backend_;
    std::uint64_t ticket_;
    std::optional<backend::WorkResults> values_;
};

// Queries and predicates. The CPU devices count at each call; the GPU
// counts in the command stream, added in when the result is asked for.
class Query final : public ChildObject<DeviceChildBase, ID3D11Predicate> {
  public:
    Query(Device& device, const D3D11_QUERY_DESC& desc)
        : ChildObject(ObjectKind::Query, device), desc_(desc) {}
    ~Query() override;
    void* find_interface(REFIID riid) override;
    UINT STDMETHODCALLTYPE GetDataSize() override;
    void STDMETHODCALLTYPE GetDesc(D3D11_QUERY_DESC* desc) override {
        if (desc) *desc = desc_;
    }
    const D3D11_QUERY_DESC& desc() const { return desc_; }
    bool needs_begin() const {
        return desc_.Query != D3D11_QUERY_EVENT && desc_.Query != D3D11_QUERY_TIMESTAMP;
    }
    static UINT data_size(D3D11_QUERY query);

    enum class State { Idle, Building, Issued };
    State state = State::Idle;
    std::uint64_t timestamp = 0;                        // TIMESTAMP: the device's clock at End
    std::uint64_t frequency = 1000000000ull;            // TIMESTAMP_DISJOINT: its ticks per second
    std::uint64_t samples_passed = 0;                   // OCCLUSION(_PREDICATE): since Begin
    D3D11_QUERY_DATA_PIPELINE_STATISTICS statistics{};  // PIPELINE_STATISTICS: since Begin
    // SO_STATISTICS(_STREAMn), SO_OVERFLOW_PREDICATE(_STREAMn): per stream
    // since Begin.
    std::array<D3D11_QUERY_DATA_SO_STATISTICS, D3D11_SO_STREAM_COUNT> stream_output{};
    bool occlusion() const {
        return desc_.Query == D3D11_QUERY_OCCLUSION ||
               desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE;
    }
    bool counts_stream_output() const {
        return desc_.Query == D3D11_QUERY_SO_STATISTICS ||
               desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
               (desc_.Query >= D3D11_QUERY_SO_STATISTICS_STREAM0 &&
                desc_.Query <= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3);
    }
    // What a stream-output query reports: its stream's counts (all streams
    // summed for the queries without a stream) and whether they overflowed.
    D3D11_QUERY_DATA_SO_STATISTICS stream_output_counts() const;
    bool stream_output_overflowed() const;
    // What one draw or dispatch counted, added to what this query counts
    // (a TIMESTAMP query: its time); counts still on the device are added
    // when settle() is called (waits).
    void add(const backend::WorkResults& results);
    void add_later(std::shared_ptr<PendingResults> pending);
    void settle() { settle_pending(true); }
    // Begin: counting starts again from zero.
    void restart();
    // A predicate's result (whether samples passed, whether stream output
    // overflowed) where it is known without waiting for the device: all
    // its counts in, or enough of them to decide.
    std::optional<bool> known_result() const;
    // The predicate evaluated by the device in its command stream from
    // the counts still there, made once per issue (0: the device cannot).
    std::uint64_t gpu_predicate(backend::Backend& backend);

  private:
    D3D11_QUERY_DESC desc_;
    // A query that runs for long keeps adding in the counts of finished
    // work once it holds this many, so its memory stays bounded.
    void settle_pending(bool wait);
    void forget_gpu_predicate();
    std::vector<std::shared_ptr<PendingResults>> pending_;
    std::uint64_t gpu_predicate_ = 0;
    backend::Backend* gpu_predicate_backend_ = nullptr;
    std::size_t settle_at_ = kSettleAfter;
    static constexpr std::size_t kSettleAfter = 1024;
};

}  // namespace d3dcap::runtime::d3d11

// The replay engine: decodes every recorded call of a trace and re-issues it
// through the standard D3D11/DXGI API on a device of the chosen driver type
// (created by the recorded D3D11CreateDevice*), mapping recorded object ids
// to the replayed objects.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "format/trace/error.h"

namespace d3dcap::fb {
struct Record;
}  // namespace d3dcap::fb

namespace d3dcap::replay {

using trace::Result;
using trace::Status;

struct ReplayOptions {
    // REFERENCE (or WARP): the CPU reference device; NULL: the state-only device.
    D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_REFERENCE;
};

// A replayed call whose HRESULT differs from the recorded one (a call that
// failed when recorded and fails again is no difference), or, with detail,
// another difference replay noticed.
struct Mismatch {
    std::uint64_t event = 0;
    std::string call;  // "ID3D11Device::CreateBuffer"
    std::int64_t recorded = 0;
    std::int64_t replayed = 0;
    std::string detail;  // empty for an HRESULT difference
    // The call's index among the records of the event's state snapshot; -1
    // for a call that is the event itself.
    std::int64_t snapshot_record = -1;
};

class Replayer {
  public:
    // Opens the trace (header and index only); nothing is replayed yet.
    static Result<std::unique_ptr<Replayer>> open(const std::string& trace_path,
                                                  const ReplayOptions& options = {});
    ~Replayer();
    Replayer(const Replayer&) = delete;
    Replayer& operator=(const Replayer&) = delete;

    // Replays events from next_event() through last_event (or the last
    // event of the trace). A record that cannot be decoded or replayed stops
    // it with an error naming the event, the call and the parameter; that
    // event is then next_event().
    Status run_to(std::uint64_t last_event);
    Status run_all();
    std::uint64_t next_event() const;
    std::uint64_t event_count() const;

    // The replayed object of a recorded id (no new reference), or nullptr.
    IUnknown* object(std::uint64_t id) const;
    std::vector<Mismatch> mismatches() const;
    // The runtime's content hash of a replayed resource's subresource; 0
    // for ids that are no resource of this runtime.
    std::uint64_t content_hash(std::uint64_t id, UINT subresource) const;

  private:
    struct State;
    explicit Replayer(std::unique_ptr<State> state);
    Status replay_record(const fb::Record& record, const std::string& where);
    Status replay_meta(const fb::Record& record, const std::string& where);

    std::unique_ptr<State> state_;
};

}  // namespace d3dcap::replay

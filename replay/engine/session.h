// The state of one replay, shared by the engine's parts: the replayed
// objects, the decode context, the mappings and what differed.
#pragma once

#include <d3dcap/api/call_decoders.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "replay/engine/mapped_memory.h"
#include "replay/engine/object_table.h"
#include "replay/engine/replayer.h"
#include "replay/engine/size_rules.h"
#include "replay/engine/tiling_adaptation.h"

namespace d3dcap::replay {

struct Session {
    explicit Session(const ReplayOptions& replay_options) : options(replay_options) {
        objects.set_difference_sink([this](const std::string& detail) { mismatch(0, 0, detail); });
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    void mismatch(std::int64_t recorded, std::int64_t replayed, std::string detail = {}) {
        // D3D11's and DXGI's capability queries are the methods named Check*.
        const bool capability = call.find("::Check") != std::string_view::npos;
        mismatches.push_back(Mismatch{event, std::string(call), recorded, replayed,
                                      std::move(detail), snapshot_record, capability});
    }

    ReplayOptions options;
    ObjectTable objects;
    SizeRuleChecks rules;
    api::Arena arena;
    api::DecodeContext ctx{arena, objects, rules, {}};
    MappedMemory mapped;
    std::vector<Mismatch> mismatches;
    std::vector<Adaptation> adaptations;
    TilingAdaptation adaptation;
    // The buffers each swap chain handed out (GetBuffer), by swap chain id.
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> back_buffers;
    std::uint64_t event = 0;            // the event being replayed
    std::string_view call;              // "Interface::Method" being replayed
    std::int64_t snapshot_record = -1;  // its index in the event's state snapshot
};

// Replays one of api::kHandWrittenReplays; ok is false with session.ctx.error set
// when the record cannot be decoded.
api::Invoked replay_by_hand(Session& session, api::CallId id, const fb::Record& record);

}  // namespace d3dcap::replay

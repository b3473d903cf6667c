// Queries (Begin, End, GetData), the counts draws and dispatches add to the
// running ones, and predication.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "runtime/d3d11/context.h"
#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

// Predicated work (draws, dispatches, copies, updates, clears, GenerateMips,
// ResolveSubresource) is skipped when the predicate's result equals the
// value given to SetPredication: occlusion and stream-output overflow
// predicates, on devices that run the draws they count (elsewhere the
// result is unknown, and nothing is skipped).
// Draws and dispatches (with `gpu`) whose predicate's counts are still on
// the device are predicated there instead, where it can; other work waits
// for the counts once.
bool Context::predicated(backend::GpuPredicate* gpu) const {
    Query* predicate = state_.predicate.get();
    if (predicate == nullptr || predicate->state != Query::State::Issued) return false;
    if (!device().backend().executes_shaders()) return false;
    if (predicate->desc().Query != D3D11_QUERY_OCCLUSION_PREDICATE &&
        !predicate->counts_stream_output())
        return false;
    const bool skip_when = state_.predicate_value != FALSE;
    std::optional<bool> result = predicate->known_result();
    if (!result && gpu != nullptr) {
        if (const std::uint64_t id = predicate->gpu_predicate(device().backend())) {
            *gpu = {id, skip_when};
            return false;
        }
    }
    if (!result) {
        predicate->settle();
        result = predicate->known_result();
    }
    return result.value_or(false) == skip_when;
}

void Context::count_results(const backend::WorkResults& results) {
    if (running_occlusion_.empty() && running_statistics_.empty() && running_stream_output_.empty())
        return;  // nothing counts this work
    std::shared_ptr<PendingResults> pending;
    if (results.ticket != 0)
        pending = std::make_shared<PendingResults>(device().backend(), results.ticket);
    for (auto* running : {&running_occlusion_, &running_statistics_, &running_stream_output_})
        for (const Ref<Query>& query : *running) {
            if (pending)
                query->add_later(pending);
            else
                query->add(results);
        }
}

// Queries

namespace {

Query* to_query(ID3D11Asynchronous* async) {
    Object* object = object_of(async);
    return object && object->kind() == ObjectKind::Query ? static_cast<Query*>(object) : nullptr;
}

std::uint64_t now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

}  // namespace

void Context::Begin(ID3D11Asynchronous* async) {
    const char* call = "ID3D11DeviceContext::Begin";
    Query* query = to_query(async);
    if (!query) {
        log().error(call, "pAsync", "is NULL or not a query of this runtime; dropped");
        return;
    }
    if (!query->needs_begin()) {
        log().error(call, "pAsync", "EVENT and TIMESTAMP queries take End only; dropped");
        return;
    }
    if (deferred_) {
        record([ref = Ref<Query>(query)](Context& target) { target.Begin(ref.get()); });
        return;
    }
    query->state = Query::State::Building;
    const bool statistics = query->desc().Query == D3D11_QUERY_PIPELINE_STATISTICS;
    if (query->occlusion() || statistics || query->counts_stream_output()) {
        query->restart();
        auto& running = statistics                      ? running_statistics_
                        : query->counts_stream_output() ? running_stream_output_
                                                        : running_occlusion_;
        if (std::find(running.begin(), running.end(), Ref<Query>(query)) == running.end())
            running.emplace_back(query);
        ++counting_epoch_;
    }
}

void Context::End(ID3D11Asynchronous* async) {
    const char* call = "ID3D11DeviceContext::End";
    Query* query = to_query(async);
    if (!query) {
        log().error(call, "pAsync", "is NULL or not a query of this runtime; dropped");
        return;
    }
    if (deferred_) {
        record([ref = Ref<Query>(query)](Context& target) { target.End(ref.get()); });
        return;
    }
    // End without Begin is a Begin and End with nothing between.
    if (query->needs_begin() && query->state != Query::State::Building) query->restart();
    query->state = Query::State::Issued;
    for (auto* running : {&running_occlusion_, &running_statistics_, &running_stream_output_})
        running->erase(std::remove(running->begin(), running->end(), Ref<Query>(query)),
                       running->end());
    ++counting_epoch_;
    const D3D11_QUERY kind = query->desc().Query;
    if (kind != D3D11_QUERY_TIMESTAMP && kind != D3D11_QUERY_TIMESTAMP_DISJOINT) return;
    // The device's own clock where it has one: a GPU's timestamp, written in
    // the command stream and read when asked for.
    auto guard = device().lock();
    backend::Backend& backend = device().backend();
    std::uint64_t frequency = 0;
    if (!backend.timestamp_frequency(&frequency)) {
        query->timestamp = now_ns();
        query->frequency = 1000000000ull;
        return;
    }
    query->frequency = frequency;
    if (kind != D3D11_QUERY_TIMESTAMP) return;
    query->restart();
    if (const std::uint64_t ticket = backend.write_timestamp())
        query->add_later(std::make_shared<PendingResults>(backend, ticket));
}

HRESULT Context::GetData(ID3D11Asynchronous* async, void* data, UINT size, UINT flags) {
    const char* call = "ID3D11DeviceContext::GetData";
    Query* query = to_query(async);
    if (!query) {
        log().error(call, "pAsync", "is NULL or not a query of this runtime");
        return E_INVALIDARG;
    }
    if (deferred_) {
        log().error(call, "", "deferred contexts cannot read query data");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (flags & ~UINT{D3D11_ASYNC_GETDATA_DONOTFLUSH}) {
        log().error(call, "GetDataFlags", hex(flags) + " has bits other than DONOTFLUSH");
        return E_INVALIDARG;
    }
    const UINT needed = query->GetDataSize();
    // NULL data or a size of 0 polls; otherwise the size must be the query's.
    if (data && size == 0) data = nullptr;
    if ((data && size != needed) || (!data && size != 0)) {
        log().error(call, "DataSize",
                    std::to_string(size) + " with " + (data ? "data" : "no data") +
                        "; this query " + "returns " + std::to_string(needed) +
                        " bytes (or pass NULL and 0 to poll)");
        return E_INVALIDARG;
    }
    if (query->state != Query::State::Issued) {
        log().error(call, "pAsync",
                    query->state == Query::State::Building ? "Begin without End yet"
                                                           : "the query was never issued (End)");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (!data) return S_OK;
    std::memset(data, 0, size);  // OCCLUSION 0, statistics 0, predicates FALSE
    {
        auto guard = device().lock();
        query->settle();  // what the device still counts: the result waits for it
    }
    switch (query->desc().Query) {
        case D3D11_QUERY_EVENT: {
            {
                auto guard = device().lock();
                device().backend().wait_for_work();  // "done" must be true of the GPU
            }
            const BOOL done = TRUE;
            std::memcpy(data, &done, sizeof done);
            break;
        }
        case D3D11_QUERY_TIMESTAMP:
            std::memcpy(data, &query->timestamp, sizeof(UINT64));
            break;
        case D3D11_QUERY_OCCLUSION:
            std::memcpy(data, &query->samples_passed, sizeof(UINT64));
            break;
        case D3D11_QUERY_PIPELINE_STATISTICS:
            std::memcpy(data, &query->statistics, sizeof query->statistics);
            break;
        case D3D11_QUERY_OCCLUSION_PREDICATE: {
            const BOOL passed = query->samples_passed != 0;
            std::memcpy(data, &passed, sizeof passed);
            break;
        }
        case D3D11_QUERY_SO_STATISTICS:
        case D3D11_QUERY_SO_STATISTICS_STREAM0:
        case D3D11_QUERY_SO_STATISTICS_STREAM1:
        case D3D11_QUERY_SO_STATISTICS_STREAM2:
        case D3D11_QUERY_SO_STATISTICS_STREAM3: {
            const D3D11_QUERY_DATA_SO_STATISTICS counts = query->stream_output_counts();
            std::memcpy(data, &counts, sizeof counts);
            break;
        }
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3: {
            const BOOL overflowed = query->stream_output_overflowed();
            std::memcpy(data, &overflowed, sizeof overflowed);
            break;
        }
        case D3D11_QUERY_TIMESTAMP_DISJOINT: {
            // The clock of the device's timestamps (steady-clock nanoseconds
            // on the CPU devices).
            const D3D11_QUERY_DATA_TIMESTAMP_DISJOINT disjoint{query->frequency, FALSE};
            std::memcpy(data, &disjoint, sizeof disjoint);
            break;
        }
        default:
            break;
    }
    return S_OK;
}

}  // namespace d3dcap::runtime::d3d11

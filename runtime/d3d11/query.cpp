// Queries and predicates.
#include "runtime/d3d11/query.h"

#include <cstring>

#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

void* Query::find_interface(REFIID riid) {
    const bool predicate = desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0 ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1 ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2 ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3;
    if (predicate && iid_is<ID3D11Predicate>(riid)) return static_cast<ID3D11Predicate*>(this);
    if (iid_is<ID3D11Query, ID3D11Asynchronous, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11Predicate*>(this);
    }
    return nullptr;
}

UINT Query::data_size(D3D11_QUERY query) {
    switch (query) {
        case D3D11_QUERY_EVENT:
        case D3D11_QUERY_OCCLUSION_PREDICATE:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3:
            return sizeof(BOOL);
        case D3D11_QUERY_OCCLUSION:
        case D3D11_QUERY_TIMESTAMP:
            return sizeof(UINT64);
        case D3D11_QUERY_TIMESTAMP_DISJOINT:
            return sizeof(D3D11_QUERY_DATA_TIMESTAMP_DISJOINT);
        case D3D11_QUERY_PIPELINE_STATISTICS:
            return sizeof(D3D11_QUERY_DATA_PIPELINE_STATISTICS);
        case D3D11_QUERY_SO_STATISTICS:
        case D3D11_QUERY_SO_STATISTICS_STREAM0:
        case D3D11_QUERY_SO_STATISTICS_STREAM1:
        case D3D11_QUERY_SO_STATISTICS_STREAM2:
        case D3D11_QUERY_SO_STATISTICS_STREAM3:
            return sizeof(D3D11_QUERY_DATA_SO_STATISTICS);
    }
    return 0;
}

UINT Query::GetDataSize() {
    return data_size(desc_.Query);
}

D3D11_QUERY_DATA_SO_STATISTICS Query::stream_output_counts() const {
    if (desc_.Query >= D3D11_QUERY_SO_STATISTICS_STREAM0)
        return stream_output[(desc_.Query - D3D11_QUERY_SO_STATISTICS_STREAM0) / 2];
    D3D11_QUERY_DATA_SO_STATISTICS all{};
    for (const D3D11_QUERY_DATA_SO_STATISTICS& stream : stream_output) {
        all.NumPrimitivesWritten += stream.NumPrimitivesWritten;
        all.PrimitivesStorageNeeded += stream.PrimitivesStorageNeeded;
    }
    return all;
}

// SO_OVERFLOW_PREDICATE is true when any stream overflowed.
bool Query::stream_output_overflowed() const {
    if (desc_.Query >= D3D11_QUERY_SO_STATISTICS_STREAM0) {
        const D3D11_QUERY_DATA_SO_STATISTICS counts = stream_output_counts();
        return counts.PrimitivesStorageNeeded > counts.NumPrimitivesWritten;
    }
    for (const D3D11_QUERY_DATA_SO_STATISTICS& stream : stream_output)
        if (stream.PrimitivesStorageNeeded > stream.NumPrimitivesWritten) return true;
    return false;
}

const backend::WorkResults* PendingResults::values(bool wait) {
    if (!values_) {
        backend::WorkResults counts;
        if (!backend_.read_results(ticket_, wait, counts)) {
            if (!wait) return nullptr;
            counts = {};
        }
        counts.ticket = 0;
        values_ = counts;
    }
    return &*values_;
}

void Query::add(const backend::WorkResults& results) {
    if (occlusion()) {
        samples_passed += results.samples_passed;
    } else if (counts_stream_output()) {
        for (std::size_t stream = 0; stream < stream_output.size(); ++stream) {
            stream_output[stream].NumPrimitivesWritten +=
                results.stream_output[stream].NumPrimitivesWritten;
            stream_output[stream].PrimitivesStorageNeeded +=
                results.stream_output[stream].PrimitivesStorageNeeded;
        }
    } else if (desc_.Query == D3D11_QUERY_PIPELINE_STATISTICS) {
        // The statistics are eleven UINT64 counters.
        std::array<UINT64, sizeof statistics / sizeof(UINT64)> add{}, sum{};
        std::memcpy(add.data(), &results.statistics, sizeof add);
        std::memcpy(sum.data(), &statistics, sizeof sum);
        for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += add[i];
        std::memcpy(&statistics, sum.data(), sizeof sum);
    } else if (desc_.Query == D3D11_QUERY_TIMESTAMP) {
        timestamp = results.timestamp;
    }
}

void Query::add_later(std::shared_ptr<PendingResults> pending) {
    pending_.push_back(std::move(pending));
    if (pending_.size() < settle_at_) return;
    settle_pending(false);
    settle_at_ = std::max(kSettleAfter, 2 * pending_.size());
}

void Query::settle_pending(bool wait) {
    std::erase_if(pending_, [&](const std::shared_ptr<PendingResults>& pending) {
        const backend::WorkResults* values = pending->values(wait);
        if (values) add(*values);
        return values != nullptr;
    });
}

void Query::restart() {
    samples_passed = 0;
    statistics = {};
    stream_output = {};
    pending_.clear();
    settle_at_ = kSettleAfter;
    forget_gpu_predicate();
}

Query::~Query() {
    forget_gpu_predicate();
}

void Query::forget_gpu_predicate() {
    if (gpu_predicate_ != 0) gpu_predicate_backend_->forget_predicate(gpu_predicate_);
    gpu_predicate_ = 0;
}

// Counts only grow: passed samples, or one draw's overflow (no draw writes
// more than it needs), decide before the rest is in. The device counts
// stream 0 only.
std::optional<bool> Query::known_result() const {
    const bool counted = desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE
                             ? samples_passed != 0
                             : stream_output_overflowed();
    const bool stream_zero = desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE ||
                             desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
                             desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0;
    if (counted || pending_.empty() || !stream_zero) return counted;
    return std::nullopt;
}

std::uint64_t Query::gpu_predicate(backend::Backend& backend) {
    if (gpu_predicate_ == 0) {
        std::vector<std::uint64_t> tickets;
        tickets.reserve(pending_.size());
        for (const std::shared_ptr<PendingResults>& pending : pending_)
            tickets.push_back(pending->ticket());
        gpu_predicate_ = backend.gpu_predicate(tickets, counts_stream_output());
        gpu_predicate_backend_ = &backend;
    }
    return gpu_predicate_;
}

HRESULT Device::CreateQuery(const D3D11_QUERY_DESC* desc, ID3D11Query** query) {
    const char* call = "ID3D11Device::CreateQuery";
    if (query) *query = nullptr;
    if (!desc) {
        log_.error(call, "pQueryDesc", "is NULL");
        return E_INVALIDARG;
    }
    if (Query::data_size(desc->Query) == 0) {
        log_.error(call, "pQueryDesc->Query",
                   std::to_string(desc->Query) + " is not a D3D11_QUERY");
        return E_INVALIDARG;
    }
    if (desc->MiscFlags & ~UINT{D3D11_QUERY_MISC_PREDICATEHINT}) {
        log_.error(call, "pQueryDesc->MiscFlags", hex(desc->MiscFlags) + " has unknown bits");
        return E_INVALIDARG;
    }
    if (!query) return S_FALSE;
    *query = new Query(*this, *desc);
    return S_OK;
}

HRESULT Device::CreatePredicate(const D3D11_QUERY_DESC* desc, ID3D11Predicate** predicate) {
    const char* call = "ID3D11Device::CreatePredicate";
    if (predicate) *predicate = nullptr;
    if (!desc) {
        log_.error(call, "pPredicateDesc", "is NULL");
        return E_INVALIDARG;
    }
    const bool is_predicate =
        desc->Query == D3D11_QUERY_OCCLUSION_PREDICATE ||
        desc->Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
        (desc->Query >= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0 &&
         desc->Query <= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3 && desc->Query % 2 == 1);
    if (!is_predicate) {
        log_.error(call, "pPredicateDesc->Query",
                   std::to_string(desc->Query) +
                       " is no predicate (OCCLUSION_PREDICATE or SO_OVERFLOW_PREDICATE*)");
        return E_INVALIDARG;
    }
    ID3D11Query* created = nullptr;
    HRESULT hr = CreateQuery(desc, predicate ? &created : nullptr);
    if (predicate) *predicate = static_cast<Query*>(created);
    return hr;
}

HRESULT Device::CreateCounter(const D3D11_COUNTER_DESC* desc, ID3D11Counter** counter) {
    if (counter) *counter = nullptr;
    log_.error("ID3D11Device::CreateCounter", "pCounterDesc",
               desc ? "counter " + hex(desc->Counter) +
                          " does not exist: this device has no counters (CheckCounterInfo)"
                    : std::string("is NULL"));
    return E_INVALIDARG;
}

}  // namespace d3dcap::runtime::d3d11

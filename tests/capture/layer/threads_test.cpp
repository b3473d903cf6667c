// Threads: deferred contexts filled on eight threads at once, their command
// lists executed on the immediate context. Every call is in the trace once,
// each context's calls in the order it made them, events without gaps.
#include <algorithm>
#include <latch>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "capture/layer/layer_test.h"

namespace capture_tests {
namespace {

constexpr int kThreads = 8;
constexpr int kCalls = 2000;

TEST_CASE(
    "Eight threads filling their own deferred contexts: every call is recorded once, in "
    "order per context, and the command lists reach ExecuteCommandList") {
    Capture capture;
    std::vector<Com<ID3D11DeviceContext2>> deferred(kThreads);
    for (auto& context : deferred) {
        Com<ID3D11DeviceContext> base;
        REQUIRE(capture.device->CreateDeferredContext(0, base.out()) == S_OK);
        context = base.as<ID3D11DeviceContext2>();
        REQUIRE(context.get() != nullptr);
    }

    std::vector<Com<ID3D11CommandList>> lists(kThreads);
    std::vector<HRESULT> finished(kThreads, E_FAIL);
    std::latch ready(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            ID3D11DeviceContext2* context = deferred[t].get();
            const std::wstring label = L"thread " + std::to_wstring(t);
            ready.arrive_and_wait();  // all threads record at the same time
            for (int i = 0; i < kCalls; ++i) {
                // Two kinds of call, both carrying the sequence number.
                if (i % 2 == 0)
                    context->SetMarkerInt(label.c_str(), i);
                else
                    context->OMSetBlendState(nullptr, nullptr, static_cast<UINT>(i));
            }
            finished[t] = context->FinishCommandList(FALSE, lists[t].out());
        });
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) {
        REQUIRE(finished[t] == S_OK);
        capture.context->ExecuteCommandList(lists[t].get(), FALSE);
    }
    TraceRecords records = capture.stop();

    // Events are contiguous, each record carries its own number, no placeholder.
    REQUIRE(records.size() == records.reader().event_count());
    for (std::size_t e = 0; e < records.size(); ++e) {
        const fb::Record& r = records[e];
        REQUIRE(r.header()->event() == e);
        REQUIRE((r.header()->call() != 0 || r.meta_type() != fb::Meta::NONE));
    }

    // The deferred contexts, in the order they were made.
    const auto creations = records.params<fb::ID3D11Device_CreateDeferredContext>();
    REQUIRE(creations.size() == kThreads);
    std::vector<std::uint64_t> context_ids;
    for (const auto* c : creations) context_ids.push_back(c->pp_deferred_context());
    REQUIRE(std::set<std::uint64_t>(context_ids.begin(), context_ids.end()).size() == kThreads);

    const auto markers = records.calls(CallId::ID3D11DeviceContext2_SetMarkerInt);
    const auto blends = records.calls(CallId::ID3D11DeviceContext_OMSetBlendState);
    CHECK(markers.size() == kThreads * kCalls / 2);
    CHECK(blends.size() == kThreads * kCalls / 2);
    std::map<std::uint64_t, std::vector<const fb::Record*>> by_context;
    for (const fb::Record* r : records.all()) {
        const auto call = static_cast<CallId>(r->header()->call());
        if (call == CallId::ID3D11DeviceContext2_SetMarkerInt ||
            call == CallId::ID3D11DeviceContext_OMSetBlendState)
            by_context[r->header()->context()].push_back(r);
    }
    REQUIRE(by_context.size() == kThreads);
    std::set<std::uint32_t> thread_numbers;
    for (int t = 0; t < kThreads; ++t) {
        INFO("thread " << t);
        const auto& calls = by_context[context_ids[t]];
        REQUIRE(calls.size() == kCalls);
        const std::uint32_t thread = calls[0]->header()->thread();
        thread_numbers.insert(thread);
        for (int i = 0; i < kCalls; ++i) {
            const fb::Record& r = *calls[i];
            REQUIRE(r.header()->thread() == thread);
            REQUIRE(r.header()->object() == context_ids[t]);
            if (i % 2 == 0) {
                const auto* p = api::CallOf<fb::ID3D11DeviceContext2_SetMarkerInt>::get(r);
                REQUIRE(p != nullptr);
                REQUIRE(p->data() == i);
                REQUIRE(p->p_label()->str() == "thread " + std::to_string(t));
            } else {
                const auto* p = api::CallOf<fb::ID3D11DeviceContext_OMSetBlendState>::get(r);
                REQUIRE(p != nullptr);
                REQUIRE(p->sample_mask() == static_cast<std::uint32_t>(i));
            }
        }
    }
    // One trace thread per recording thread, none of them the main thread's.
    CHECK(thread_numbers.size() == kThreads);
    const std::uint32_t main_thread =
        records.calls(CallId::ID3D11Device_CreateDeferredContext)[0]->header()->thread();
    CHECK(thread_numbers.count(main_thread) == 0);
    CHECK(records.index().thread_count() == kThreads + 1);

    // Each context's FinishCommandList comes after its calls and makes one
    // list; ExecuteCommandList gets them in the order the main thread used.
    const auto finishes = records.calls(CallId::ID3D11DeviceContext_FinishCommandList);
    REQUIRE(finishes.size() == kThreads);
    std::map<std::uint64_t, std::uint64_t> list_of_context;
    for (const fb::Record* r : finishes) {
        CHECK(r->header()->result() == S_OK);
        const auto& calls = by_context[r->header()->context()];
        REQUIRE_FALSE(calls.empty());
        CHECK(r->header()->event() > calls.back()->header()->event());
        list_of_context[r->header()->context()] =
            api::CallOf<fb::ID3D11DeviceContext_FinishCommandList>::get(*r)->pp_command_list();
    }
    const auto executes = records.params<fb::ID3D11DeviceContext_ExecuteCommandList>();
    REQUIRE(executes.size() == kThreads);
    std::vector<std::uint64_t> executed, expected;
    for (int t = 0; t < kThreads; ++t) {
        executed.push_back(executes[t]->p_command_list());
        expected.push_back(list_of_context[context_ids[t]]);
    }
    CHECK(executed == expected);
    CHECK(std::set<std::uint64_t>(expected.begin(), expected.end()).size() == kThreads);
    CHECK(std::count(expected.begin(), expected.end(), std::uint64_t{0}) == 0);
    const auto list_ids = created_ids(records, "ID3D11CommandList");
    CHECK(std::set<std::uint64_t>(list_ids.begin(), list_ids.end()) ==
          std::set<std::uint64_t>(expected.begin(), expected.end()));

    // The index counts the same calls.
    std::map<std::uint16_t, std::uint64_t> counts;
    for (const fb::CallCount* c : *records.index().call_counts()) counts[c->call()] = c->count();
    CHECK(counts[static_cast<std::uint16_t>(CallId::ID3D11DeviceContext2_SetMarkerInt)] ==
          kThreads * kCalls / 2);
    CHECK(counts[static_cast<std::uint16_t>(CallId::ID3D11DeviceContext_ExecuteCommandList)] ==
          kThreads);
    CHECK(records.markers().entries.size() == kThreads * kCalls / 2);
}

}  // namespace
}  // namespace capture_tests

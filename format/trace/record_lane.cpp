#include "record_lane.h"

#include <cstring>
#include <mutex>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define D3DCAP_LANE_FLUSH 1
#else
#define D3DCAP_LANE_FLUSH 0
#endif

namespace d3dcap::trace {

namespace {

constexpr std::size_t kHeaderBytes = 16;

constexpr std::uint64_t padded8(std::uint64_t size) {
    return (size + 7) & ~std::uint64_t{7};
}

}  // namespace

namespace {

struct LanePool {
    std::mutex mutex;
    std::vector<RecordLane*> free;
};

LanePool& lane_pool() {
    static LanePool* pool = new LanePool();  // reachable to the end, never destroyed
    return *pool;
}

std::atomic<std::uint64_t> g_next_owner_token{1};

}  // namespace

RecordLane* RecordLane::take(std::size_t capacity) {
    LanePool& pool = lane_pool();
    {
        std::lock_guard lock(pool.mutex);
        for (auto lane = pool.free.begin(); lane != pool.free.end(); ++lane) {
            if ((*lane)->capacity() != capacity) continue;
            RecordLane* taken = *lane;
            pool.free.erase(lane);
            return taken;
        }
    }
    return new RecordLane(capacity);
}

void RecordLane::give_back(RecordLane* lane) {
    // Its writer is gone: no thread fills or empties it any more.
    lane->head_.store(0, std::memory_order_relaxed);
    lane->tail_.store(0, std::memory_order_relaxed);
    lane->cached_tail_ = 0;
    lane->cached_head_ = 0;
    lane->owner.store(0, std::memory_order_relaxed);
    lane->producer_waiting.store(false, std::memory_order_relaxed);
    lane->wake_sent.store(false, std::memory_order_relaxed);
    LanePool& pool = lane_pool();
    std::lock_guard lock(pool.mutex);
    pool.free.push_back(lane);
}

std::uint64_t RecordLane::new_owner_token() {
    return g_next_owner_token.fetch_add(1, std::memory_order_relaxed);
}

RecordLane::RecordLane(std::size_t capacity)
    : capacity_(capacity), bytes_(new std::uint8_t[capacity]) {
    static_assert(sizeof(EntryHeader) == kHeaderBytes);
}

bool RecordLane::push(const std::uint8_t* record, std::uint32_t size, std::uint64_t event,
                      bool end_of_frame) {
    const std::uint64_t need = kHeaderBytes + padded8(size);
    std::uint64_t head = head_.load(std::memory_order_relaxed);
    std::size_t offset = static_cast<std::size_t>(head & (capacity_ - 1));
    const std::size_t to_end = capacity_ - offset;
    const std::uint64_t skip = to_end < need ? to_end : 0;
    if (capacity_ - (head - cached_tail_) < need + skip) {
        cached_tail_ = tail_.load(std::memory_order_acquire);
        if (capacity_ - (head - cached_tail_) < need + skip) return false;
    }
    if (skip != 0) {
        // Fewer than 16 bytes left mean a wrap to the reader without a header.
        if (to_end >= kHeaderBytes) {
            const EntryHeader wrap{0, kWrap, 0};
            std::memcpy(bytes_.get() + offset, &wrap, sizeof wrap);
        }
        head += skip;
        offset = 0;
    }
    const EntryHeader header{size, end_of_frame ? kEndOfFrame : 0, event};
    std::memcpy(bytes_.get() + offset, &header, sizeof header);
    std::memcpy(bytes_.get() + offset + kHeaderBytes, record, size);
    head_.store(head + need, std::memory_order_release);
    return true;
}

bool RecordLane::should_wake() {
    const std::uint64_t head = head_.load(std::memory_order_relaxed);
    const std::uint64_t threshold = capacity_ / 4;
    if (head - cached_tail_ < threshold) return false;
    cached_tail_ = tail_.load(std::memory_order_acquire);
    if (head - cached_tail_ < threshold || wake_sent.load(std::memory_order_relaxed)) return false;
    wake_sent.store(true, std::memory_order_relaxed);
    return true;
}

bool RecordLane::at(std::uint64_t& position, Entry& entry) const {
    for (;;) {
        if (position == cached_head_) {
            cached_head_ = head_.load(std::memory_order_acquire);
            if (position == cached_head_) return false;
        }
        const std::size_t offset = static_cast<std::size_t>(position & (capacity_ - 1));
        const std::size_t to_end = capacity_ - offset;
        EntryHeader header;
        if (to_end >= kHeaderBytes) std::memcpy(&header, bytes_.get() + offset, sizeof header);
        if (to_end < kHeaderBytes || (header.flags & kWrap) != 0) {
            position += to_end;
            continue;
        }
        entry.record = bytes_.get() + offset + kHeaderBytes;
        entry.size = header.size;
        entry.event = header.event;
        entry.end_of_frame = (header.flags & kEndOfFrame) != 0;
        return true;
    }
}

#if D3DCAP_LANE_FLUSH
namespace {

// CLFLUSHOPT (CPUID.(EAX=7,ECX=0):EBX bit 23) evicts a line without waiting
// for the flushes before it, as CLFLUSH does; where that wait is long (server
// parts) the writer thread would fall behind the capturing threads.
bool has_clflushopt() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) != 0 && (b & (1u << 23)) != 0;
}

__attribute__((target("clflushopt"))) void evict_unordered(const std::uint8_t* line) {
    _mm_clflushopt(const_cast<std::uint8_t*>(line));
}

}  // namespace
#endif

void RecordLane::release_to(std::uint64_t position) {
#if D3DCAP_LANE_FLUSH
    // The lines read are evicted from this core's cache: the producer's next
    // writes to them then need no snoop of this core, which costs the
    // producer more than the records themselves (measured: 170 -> 90 ns for
    // a 120-byte record).
    static const bool unordered = has_clflushopt();
    const std::uint64_t tail = tail_.load(std::memory_order_relaxed);
    for (std::uint64_t line = tail & ~std::uint64_t{63}; line < position; line += 64) {
        const std::uint8_t* at = bytes_.get() + (line & (capacity_ - 1));
        if (unordered)
            evict_unordered(at);
        else
            _mm_clflush(at);
    }
#endif
    tail_.store(position, std::memory_order_release);
}

std::uint64_t RecordLane::next(std::uint64_t position, const Entry& entry) {
    return position + kHeaderBytes + padded8(entry.size);
}

}  // namespace d3dcap::trace

// The records of one capturing thread on their way to the trace writer: a
// ring the thread fills without a lock and the writer thread empties (one
// producer, one consumer). Each entry is a 16-byte header (record size, flags,
// event number) and the size-prefixed record, padded to 8 bytes; an entry
// never wraps around the end of the ring.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace d3dcap::trace {

class RecordLane {
  public:
    struct Entry {
        const std::uint8_t* record = nullptr;
        std::uint32_t size = 0;
        std::uint64_t event = 0;
        bool end_of_frame = false;
    };

    // capacity: a power of two.
    explicit RecordLane(std::size_t capacity);

    // The largest record push() takes; larger ones go another way.
    std::size_t max_record() const { return capacity_ / 4; }

    // Producer: copies the record in; false when the ring has no room now.
    bool push(const std::uint8_t* record, std::uint32_t size, std::uint64_t event,
              bool end_of_frame);
    // Producer: true when the ring has filled past a quarter since the
    // consumer last cleared wake_sent (the consumer is then worth waking).
    bool should_wake();
    // Bytes the ring holds now (either side).
    std::size_t used() const {
        return static_cast<std::size_t>(head_.load(std::memory_order_acquire) -
                                        tail_.load(std::memory_order_acquire));
    }
    std::size_t capacity() const { return capacity_; }

    // Consumer: the entry at position, false when none is there. position
    // starts at begin() and moves on with next().
    std::uint64_t begin() const { return tail_.load(std::memory_order_relaxed); }
    bool at(std::uint64_t& position, Entry& entry) const;
    static std::uint64_t next(std::uint64_t position, const Entry& entry);
    // Consumer: frees everything before position.
    void release_to(std::uint64_t position);

    // The lanes of a process are never freed (a thread that ends while the
    // system ends the process must not touch the heap): a writer takes them
    // from this pool and gives them back when it is destroyed.
    static RecordLane* take(std::size_t capacity);
    static void give_back(RecordLane* lane);

    // Who fills the lane: a token handed out with it, 0 once that thread has
    // ended (a new thread may then take the lane over).
    std::atomic<std::uint64_t> owner{0};
    static std::uint64_t new_owner_token();
    // The producer waits for room.
    std::atomic<bool> producer_waiting{false};
    // The producer has woken the writer since the ring was last emptied.
    std::atomic<bool> wake_sent{false};

  private:
    static constexpr std::uint32_t kEndOfFrame = 1;
    static constexpr std::uint32_t kWrap = 2;  // the rest of the ring is unused
    struct EntryHeader {
        std::uint32_t size;
        std::uint32_t flags;
        std::uint64_t event;
    };

    const std::size_t capacity_;
    std::unique_ptr<std::uint8_t[]> bytes_;
    // Each side keeps the other's position as last read, so that it reads
    // the other side's cache line only when the ring looks full or empty.
    alignas(64) std::atomic<std::uint64_t> head_{0};  // written by the producer
    std::uint64_t cached_tail_ = 0;
    alignas(64) std::atomic<std::uint64_t> tail_{0};  // written by the consumer
    mutable std::uint64_t cached_head_ = 0;
};

}  // namespace d3dcap::trace

// The trace writer's own threads: the writer thread merges the capturing
// threads' lanes into chunks in event order and builds the index; the
// compressor threads compress chunks and write them in order.
#include <algorithm>
#include <cstring>

#include "chunk_codec.h"
#include "container.h"
#include "file_output.h"
#include "writer.h"

namespace d3dcap::trace {

namespace {

const std::uint8_t kZeros[kRecordAlignment] = {};

}  // namespace

void TraceWriter::writer_loop() {
    // A record waits in its lane at most one poll and in the open chunk at
    // most half the flush interval and a poll, so it is written within the
    // interval. Capturing threads wake this one only when a lane fills up,
    // at a frame's end and while closing: a wake costs more than a thousand
    // records (and under Wine, a thread that wakes every millisecond is
    // sometimes caught mid-wait by TerminateProcess and crashes).
    const auto poll = std::max(std::chrono::milliseconds(1), options_.flush_interval / 8);
    const auto chunk_age = options_.flush_interval / 2;
    std::unique_lock lock(mutex_);
    for (;;) {
        work_ready_.wait_for(lock, poll, [&] { return work_requested_ || stopping_ || failed_; });
        // A thread the system did not end yet (Wine ends them while the
        // process detaches its DLLs) leaves the rest to that closing thread.
        if (threads_ended_) return;
        work_requested_ = false;
        const bool stop = stopping_;
        const bool cut = cut_requested_;
        cut_requested_ = false;
        const std::uint64_t flush_request = flush_requests_;
        collect_locked();
        merging_ = true;
        lock.unlock();

        merge();
        if (stop) {
            finish_merging();
        } else if (open_.record_count > 0 &&
                   (cut || std::chrono::steady_clock::now() - open_.opened >= chunk_age)) {
            queue_open_chunk();
        }

        lock.lock();
        merging_ = false;
        written_events_.store(next_written_, std::memory_order_relaxed);
        bool waiting = false;
        for (RecordLane* lane : merge_lanes_) {
            if (lane->used() < lane->capacity() / 4)
                lane->wake_sent.store(false, std::memory_order_relaxed);
            waiting = waiting || lane->producer_waiting.load(std::memory_order_relaxed);
        }
        if (waiting) lane_room_.notify_all();
        if (closing_) written_.notify_all();
        if (stop) {
            compressors_stop_ = true;
            compress_ready_.notify_all();
            return;
        }
        if (flush_request > flushes_done_) {
            written_.wait(lock, [&] { return chunks_in_flight_ == 0 || failed_; });
            flushes_done_ = flush_request;
            written_.notify_all();
        }
    }
}

void TraceWriter::collect_locked() {
    if (merge_lanes_version_ != lanes_version_) {
        merge_lanes_ = lanes_;
        merge_lanes_version_ = lanes_version_;
    }
    incoming_taken_.swap(incoming_);
}

void TraceWriter::merge() {
    {
        std::lock_guard lock(mutex_);
        if (failed_) {
            // Nothing more is written; the lanes are emptied so that no
            // producer waits for room.
            for (RecordLane* lane : merge_lanes_) {
                std::uint64_t position = lane->begin();
                RecordLane::Entry entry;
                while (lane->at(position, entry)) position = RecordLane::next(position, entry);
                lane->release_to(position);
            }
            incoming_taken_.clear();
            return;
        }
    }
    for (Incoming& record : incoming_taken_)
        hold(record.bytes.data(), record.bytes.size(), record.event, record.end_of_frame);
    incoming_taken_.clear();
    for (;;) {
        bool progress = append_held();
        for (RecordLane* lane : merge_lanes_) progress |= merge_lane(*lane);
        if (progress) continue;
        // Stopped at an event whose record is not at the head of any lane.
        bool found = false;
        for (RecordLane* lane : merge_lanes_) {
            if (find_in_lane(*lane)) {
                found = true;
                break;
            }
        }
        if (found) continue;
        // Its call has not finished: a producer waiting for room gets it by
        // having its records held.
        for (RecordLane* lane : merge_lanes_) {
            if (lane->producer_waiting.load(std::memory_order_relaxed)) hold_whole_lane(*lane);
        }
        return;
    }
}

bool TraceWriter::merge_lane(RecordLane& lane) {
    std::uint64_t position = lane.begin();
    const std::uint64_t start = position;
    RecordLane::Entry entry;
    while (lane.at(position, entry)) {
        if (entry.event != next_written_) {
            if (entry.event > next_written_) break;
            hold(entry.record, entry.size, entry.event, entry.end_of_frame);  // a second record
        } else {
            append(entry.record, entry.size, entry.end_of_frame);
        }
        position = RecordLane::next(position, entry);
    }
    if (position == start) return false;
    lane.release_to(position);
    return true;
}

bool TraceWriter::find_in_lane(RecordLane& lane) {
    std::uint64_t position = lane.begin();
    RecordLane::Entry entry;
    bool found = false;
    while (!found && lane.at(position, entry)) {
        found = entry.event == next_written_;
        position = RecordLane::next(position, entry);
    }
    if (!found) return false;
    position = lane.begin();
    while (lane.at(position, entry) && entry.event != next_written_) {
        hold(entry.record, entry.size, entry.event, entry.end_of_frame);
        position = RecordLane::next(position, entry);
    }
    lane.release_to(position);
    return true;
}

void TraceWriter::hold_whole_lane(RecordLane& lane) {
    std::uint64_t position = lane.begin();
    RecordLane::Entry entry;
    while (lane.at(position, entry)) {
        hold(entry.record, entry.size, entry.event, entry.end_of_frame);
        position = RecordLane::next(position, entry);
    }
    lane.release_to(position);
}

void TraceWriter::hold(const std::uint8_t* data, std::size_t size, std::uint64_t event,
                       bool end_of_frame) {
    Held* slot = event >= next_written_ ? &held_slot(event) : nullptr;
    if (slot == nullptr || slot->filled) {
        std::lock_guard lock(mutex_);
        if (!doubled_) doubled_ = event;
        return;
    }
    slot->bytes.assign(data, data + size);
    slot->filled = true;
    slot->end_of_frame = end_of_frame;
    ++held_count_;
}

TraceWriter::Held& TraceWriter::held_slot(std::uint64_t event) {
    const std::uint64_t distance = event - next_written_;
    if (distance >= held_.size()) {
        std::size_t size = held_.empty() ? 64 : held_.size();
        while (size <= distance) size *= 2;
        std::vector<Held> grown(size);
        // The old ring covers the events from next_written_ on, one slot each.
        for (std::size_t i = 0; i < held_.size(); ++i) {
            const std::uint64_t e = next_written_ + i;
            grown[e & (size - 1)] = std::move(held_[e & (held_.size() - 1)]);
        }
        held_.swap(grown);
    }
    return held_[event & (held_.size() - 1)];
}

bool TraceWriter::append_held() {
    bool progress = false;
    while (held_count_ > 0) {
        Held& slot = held_[next_written_ & (held_.size() - 1)];
        if (!slot.filled) break;
        slot.filled = false;
        --held_count_;
        append(slot.bytes.data(), slot.bytes.size(), slot.end_of_frame);
        // Buffers are kept for the next early record, but not huge ones.
        if (slot.bytes.capacity() > options_.chunk_bytes) {
            std::vector<std::uint8_t>().swap(slot.bytes);
        } else {
            slot.bytes.clear();
        }
        progress = true;
    }
    return progress;
}

void TraceWriter::append(const std::uint8_t* data, std::size_t size, bool end_of_frame) {
    const std::size_t padded_size = padded(size);
    if (open_.record_count > 0 && open_.bytes.size() + padded_size > options_.chunk_bytes) {
        queue_open_chunk();
    }
    if (open_.record_count == 0) {
        open_.first_event = next_written_;
        open_.opened = std::chrono::steady_clock::now();
    }
    // insert() copies without first zeroing, as resize() would.
    open_.bytes.insert(open_.bytes.end(), data, data + size);
    open_.bytes.insert(open_.bytes.end(), kZeros, kZeros + (padded_size - size));
    index_.add_record(*flatbuffers::GetSizePrefixedRoot<fb::Record>(data), size);
    ++open_.record_count;
    ++next_written_;
    if (end_of_frame) queue_open_chunk();
}

void TraceWriter::queue_open_chunk() {
    if (open_.record_count == 0) return;
    std::unique_lock lock(mutex_);
    chunk_room_.wait(lock, [&] {
        return chunks_in_flight_ < options_.queued_chunks || failed_ || threads_ended_;
    });
    if (failed_) {
        open_.bytes.clear();
        open_.record_count = 0;
        return;
    }
    Chunk next;
    if (!spare_bytes_.empty()) {
        next.bytes = std::move(spare_bytes_.back());
        spare_bytes_.pop_back();
    } else {
        next.bytes.reserve(chunk_capacity());
    }
    open_.sequence = next_sequence_++;
    ++chunks_in_flight_;
    to_compress_.push_back(std::move(open_));
    open_ = std::move(next);
    if (!threads_ended_) compress_ready_.notify_one();
}

void TraceWriter::finish_merging() {
    std::uint64_t reserved;
    {
        std::lock_guard lock(mutex_);
        if (failed_) return;
        reserved = reserved_end_;
    }
    // Records still in lanes wait behind a missing one; each missing one
    // gets a placeholder so that the records after it are written too.
    for (RecordLane* lane : merge_lanes_) hold_whole_lane(*lane);
    std::uint8_t placeholder[kPlaceholderBytes];
    for (append_held(); next_written_ < reserved; append_held()) {
        {
            std::lock_guard lock(mutex_);
            if (!missing_) missing_ = next_written_;
        }
        std::memcpy(placeholder, placeholder_.data(), placeholder_.size());
        number_record(placeholder, next_written_);
        append(placeholder, placeholder_.size(), false);
    }
    queue_open_chunk();
}

void TraceWriter::compressor_loop() {
    DeltaEncoder deltas;
    std::unique_lock lock(mutex_);
    for (;;) {
        compress_ready_.wait(lock, [&] { return !to_compress_.empty() || compressors_stop_; });
        if (to_compress_.empty() || threads_ended_) return;
        Chunk chunk = std::move(to_compress_.front());
        to_compress_.pop_front();
        compress_and_write(lock, std::move(chunk), deltas);
    }
}

void TraceWriter::compress_and_write(std::unique_lock<std::mutex>& lock, Chunk chunk,
                                     DeltaEncoder& deltas) {
    ++compressing_;
    if (!spare_compressed_.empty()) {
        chunk.compressed = std::move(spare_compressed_.back());
        spare_compressed_.pop_back();
    }
    const bool skip = failed_;
    lock.unlock();
    // Deltas only help LZ4; a chunk stored as literals keeps its records whole.
    const bool compress = options_.compress;
    if (compress && !skip) deltas.encode(chunk.bytes.data(), chunk.bytes.size());
    const bool encoded =
        skip || encode_chunk(chunk.bytes.data(), chunk.bytes.size(), compress, chunk.compressed);
    lock.lock();
    --compressing_;
    if (!encoded) fail_locked("LZ4 could not compress a chunk", 0);
    compressed_.push_back(std::move(chunk));
    // One thread at a time writes, in sequence; the one writing takes over
    // chunks that others finish meanwhile.
    if (writing_) return;
    writing_ = true;
    for (;;) {
        const auto ready =
            std::find_if(compressed_.begin(), compressed_.end(),
                         [&](const Chunk& c) { return c.sequence == next_to_write_; });
        if (ready == compressed_.end()) break;
        Chunk done = std::move(*ready);
        compressed_.erase(ready);
        const bool failed = failed_;
        lock.unlock();
        if (!failed) write_chunk(done);
        lock.lock();
        ++next_to_write_;
        --chunks_in_flight_;
        done.bytes.clear();
        spare_bytes_.push_back(std::move(done.bytes));
        spare_compressed_.push_back(std::move(done.compressed));
        if (!threads_ended_) {
            chunk_room_.notify_all();
            written_.notify_all();
        }
    }
    writing_ = false;
}

void TraceWriter::write_chunk(const Chunk& chunk) {
    ChunkHeader header{kChunkMagic,
                       static_cast<std::uint32_t>(chunk.compressed.size()),
                       static_cast<std::uint32_t>(chunk.bytes.size()),
                       chunk.record_count,
                       chunk.first_event,
                       0};
    header.checksum = chunk_checksum(header, chunk.compressed.data(), header.compressed_size);
    const std::uint64_t chunk_offset = file_offset_;
    if (!write_all(&header, sizeof header) ||
        !write_all(chunk.compressed.data(), header.compressed_size)) {
        return;
    }
    chunk_entries_.push_back(fb::ChunkEntry(chunk_offset, chunk.first_event, header.compressed_size,
                                            header.uncompressed_size, header.record_count));
}

bool TraceWriter::write_all(const void* data, std::size_t size) {
    if (const int error = write_fully(fd_, data, size); error != 0) {
        fail("cannot write the trace", error);
        return false;
    }
    file_offset_ += size;
    return true;
}

}  // namespace d3dcap::trace

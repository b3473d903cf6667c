// Writes a trace. A capturing thread only copies its finished record into a
// lane of its own (no lock, no allocation); the writer thread merges the
// lanes into chunks in event order and builds the index; a pool of
// compressor threads compresses chunks and writes them in order. Events may
// be numbered when a call starts (reserve) and their records submitted later
// from any thread: records that arrive early wait in a held store.
#pragma once

#include <d3dcap/fb/trace_generated.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "block_bytes.h"
#include "error.h"
#include "index_builder.h"
#include "record_delta.h"
#include "record_lane.h"
#include "thread_pointer.h"

namespace d3dcap::trace {

struct WriterOptions {
    std::size_t chunk_bytes = 1 << 20;  // uncompressed size at which a chunk is closed
    // Closed chunks being compressed or waiting to be written; 0: two per
    // compressor and at least 4, enough to keep them busy, few enough that a writer behind
    // its program holds little (each chunk holds about 2.25 chunk_bytes).
    std::size_t queued_chunks = 0;
    // Threads compressing chunks; 0: one per core, at least 2, at most 4.
    std::size_t compressor_threads = 0;
    // Bytes of each capturing thread's lane (a power of two); a record over a
    // quarter of it goes under the writer's lock instead.
    std::size_t lane_bytes = std::size_t{4} << 20;
    std::chrono::milliseconds flush_interval{100};  // at most this much data unwritten
    std::size_t max_record_bytes = std::size_t{1} << 30;
    // How long close() waits for the records of events reserved before it:
    // calls still in flight on other threads (a program that exits while a
    // thread draws).
    std::chrono::milliseconds close_grace{1000};
    // LZ4-compress chunks; off (or a build without LZ4), they are stored as
    // LZ4 blocks of literals, read the same way.
    bool compress = true;
};

class TraceWriter {
  public:
    // Creates the file and writes its header. header_buffer is a finished
    // (not size-prefixed) TraceHeader FlatBuffer.
    static Result<std::unique_ptr<TraceWriter>> create(const std::string& path,
                                                       const flatbuffers::DetachedBuffer& header,
                                                       const WriterOptions& options = {});
    static Result<std::unique_ptr<TraceWriter>> create(const std::string& path,
                                                       const std::uint8_t* header,
                                                       std::size_t header_size,
                                                       const WriterOptions& options = {});
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    // Hands out the next event number; every number handed out must later be
    // given to submit() or abandon() exactly once. Returns nothing once the
    // trace has stopped after an error or is closing.
    std::optional<std::uint64_t> reserve();

    // Takes a finished, size-prefixed Record from builder for a reserved
    // event (the event number is written into its header) and queues it. A
    // record that comes before an earlier event's is held until that one is
    // in. Returns event, or nothing when the trace has stopped or event was
    // never reserved or is written already; a record that comes twice for an
    // event still held is dropped and close() names the event. end_of_frame
    // closes the chunk after this record and wakes the writer thread.
    std::optional<std::uint64_t> submit(flatbuffers::FlatBufferBuilder& builder,
                                        std::uint64_t event, bool end_of_frame = false);

    // submit() of a record built with event already in its header.
    std::optional<std::uint64_t> submit_numbered(flatbuffers::FlatBufferBuilder& builder,
                                                 std::uint64_t event) {
        return put(builder.GetBufferPointer(), builder.GetSize(), event, false);
    }
    std::optional<std::uint64_t> submit_numbered(const std::uint8_t* record, std::size_t size,
                                                 std::uint64_t event) {
        return put(record, size, event, false);
    }

    // reserve() then submit(): returns the event number, or nothing when the
    // trace has stopped.
    std::optional<std::uint64_t> submit(flatbuffers::FlatBufferBuilder& builder,
                                        bool end_of_frame = false);

    // submit() of a finished size-prefixed Record held elsewhere (a record
    // read from another trace): copied, then numbered with the next event.
    std::optional<std::uint64_t> submit_copy(const std::uint8_t* record, std::size_t size,
                                             bool end_of_frame);

    // For a reserved event whose record could not be built: writes a record
    // with only a header (call 0, no meta) in its place, so that event numbers
    // stay contiguous.
    void abandon(std::uint64_t event);

    // Asks the writer thread to write what it has now, without waiting.
    void flush();

    // Flushes and waits until everything submitted so far is in the file
    // (the index is written only by close()), except records still held
    // behind an event whose record has not come.
    void wait_written();

    // Writes everything queued, the index and the trailer, and closes the
    // file. Events reserved before it get close_grace to be submitted; one
    // still neither submitted nor abandoned then is written as abandon() would, the held records
    // after it follow, and the result is an error naming the first such event. Returns the first
    // error the trace met, if any (a write error before a missing event).
    Status close();

    // close() for a process the system is ending, whose other threads (the
    // writer's among them) it has already ended, as Windows does before it
    // unloads DLLs: what the lanes and the writer's threads left is merged,
    // compressed and written on this thread (a writer thread still running,
    // as under Wine, stops at its next step), and events reserved but not
    // submitted are written as abandon() would at once. When an ended thread
    // held the writer's lock or was merging, compressing or writing a chunk,
    // nothing more is written and the error says so (the trace reads as a
    // cut one; d3dcap repack repairs it). Prints its error (error() could
    // wait for the lock forever).
    Status close_after_threads_ended();

    // Lanes this writer has handed to capturing threads so far (a thread
    // that ended leaves its lane, once emptied, to the next one).
    std::size_t lane_count() const;

    // The first write error ("path: No space left on device"), or empty.
    std::string error() const;

  private:
    struct Chunk {
        std::vector<std::uint8_t> bytes;
        BlockBytes compressed;
        std::uint32_t record_count = 0;
        std::uint64_t first_event = 0;
        std::uint64_t sequence = 0;  // order in the file
        std::chrono::steady_clock::time_point opened;
    };

    // A record the writer thread took out of order, or one too large for a
    // lane.
    struct Held {
        std::vector<std::uint8_t> bytes;  // kept for reuse once written
        bool filled = false;
        bool end_of_frame = false;
    };
    struct Incoming {
        std::uint64_t event;
        std::vector<std::uint8_t> bytes;
        bool end_of_frame;
    };

    // Room for the placeholder record, copied to the stack to be numbered.
    static constexpr std::size_t kPlaceholderBytes = 64;
    // Set in reserved_ once the trace stops handing out events.
    static constexpr std::uint64_t kStopped = std::uint64_t{1} << 63;

    TraceWriter(std::string path, int fd, std::uint64_t offset, const WriterOptions& options);
    static void number_record(std::uint8_t* data, std::uint64_t event);

    // -- capturing threads (writer.cpp) ------------------------------------
    // Hands a numbered record to the writer thread: through this thread's
    // lane, or under the lock when it is too large for one.
    std::optional<std::uint64_t> put(const std::uint8_t* data, std::size_t size,
                                     std::uint64_t event, bool end_of_frame);
    // Null once this thread's lanes are released, as it ends.
    RecordLane* lane_of_this_thread();
    // Waits under the lock until lane has room for size bytes; false once
    // the trace refuses records.
    bool wait_for_lane(RecordLane& lane, std::size_t size);
    void request_work_locked();
    void request_work();
    // Stops reserve(); returns how many events were handed out.
    std::uint64_t stop_reserving_locked();
    // The first error: a write error, else a missing or doubled record.
    Status result_locked() const;
    void fail(const std::string& what, int error_number);
    void fail_locked(const std::string& what, int error_number);

    // -- the writer thread (writer_thread.cpp) --------------------------------
    void writer_loop();
    // Moves what the lanes and incoming_ hold into chunks, in event order.
    // It stops when the lanes are empty or at an event whose record has not
    // come.
    void merge();
    bool merge_lane(RecordLane& lane);
    // Finds next_written_ deeper in a lane (a thread that submitted an inner
    // call's record before the outer one's), holding the entries before it.
    bool find_in_lane(RecordLane& lane);
    void hold_whole_lane(RecordLane& lane);
    void hold(const std::uint8_t* data, std::size_t size, std::uint64_t event, bool end_of_frame);
    Held& held_slot(std::uint64_t event);
    bool append_held();
    void append(const std::uint8_t* data, std::size_t size, bool end_of_frame);
    // Puts the open chunk into the compression queue, waiting for room.
    void queue_open_chunk();
    // What a new chunk's buffer reserves (it is closed at chunk_bytes).
    std::size_t chunk_capacity() const { return options_.chunk_bytes + options_.chunk_bytes / 4; }
    // Writes placeholders for the events reserved but not submitted, then
    // queues the open chunk (the last step before the writer thread ends).
    void finish_merging();
    // Takes the lane list and incoming_ over; lock held.
    void collect_locked();

    // -- compression and file writes (writer_thread.cpp) ----------------------
    void compressor_loop();
    // Compresses chunk, then writes every compressed chunk whose turn it is.
    void compress_and_write(std::unique_lock<std::mutex>& lock, Chunk chunk, DeltaEncoder& deltas);
    void write_chunk(const Chunk& chunk);
    bool write_all(const void* data, std::size_t size);
    // The part of close() after the threads are done: index, trailer.
    Status finish_file();

    const std::string path_;
    const int fd_;
    const WriterOptions options_;
    const std::uint64_t serial_;             // tells this writer's lanes from an earlier one's
    std::vector<std::uint8_t> placeholder_;  // a header-only Record, numbered before each use

    // Events handed out by reserve(), with kStopped once it refuses; on a
    // cache line of its own, as every call bumps it.
    alignas(64) std::atomic<std::uint64_t> reserved_{0};
    // Read by capturing threads on every call.
    alignas(64) std::atomic<bool> refusing_{false};  // failed or stopping
    std::atomic<bool> closing_flag_{false};          // submitters wake the writer thread
    std::atomic<std::uint64_t> written_events_{0};   // next_written_ as others may see it

    alignas(64) mutable std::mutex mutex_;
    std::condition_variable work_ready_;      // writer thread: records, a request, or stop
    std::condition_variable lane_room_;       // submitters: their lane has room
    std::condition_variable chunk_room_;      // writer thread: the compression queue has room
    std::condition_variable compress_ready_;  // compressors: a chunk is queued, or stop
    std::condition_variable written_;         // wait_written and close(): progress
    std::vector<RecordLane*> lanes_;          // taken from the lane pool, given back at destruction
    std::uint64_t lanes_version_ = 0;
    std::vector<Incoming> incoming_;
    bool work_requested_ = false;
    bool cut_requested_ = false;        // flush() or wait_written(): write the open chunk
    std::uint64_t flush_requests_ = 0;  // wait_written() calls
    std::uint64_t flushes_done_ = 0;
    std::uint64_t reserved_end_ = 0;  // reserved_ when it stopped
    bool closing_ = false;   // reserving has stopped; records of reserved events still come
    bool stopping_ = false;  // no more records: the writer thread finishes
    bool merging_ = false;   // the writer thread is moving records
    // The compression queue: chunks in it, being compressed, or compressed
    // and waiting for an earlier one to be written.
    std::deque<Chunk> to_compress_;
    std::vector<Chunk> compressed_;  // in any order; written by sequence
    std::vector<std::vector<std::uint8_t>> spare_bytes_;
    std::vector<BlockBytes> spare_compressed_;
    std::size_t chunks_in_flight_ = 0;
    std::size_t compressing_ = 0;
    std::uint64_t next_sequence_ = 0;
    std::uint64_t next_to_write_ = 0;
    bool writing_ = false;  // a thread is writing a chunk to the file
    bool compressors_stop_ = false;
    // close_after_threads_ended(): an ended thread may have died inside a
    // condition variable's bookkeeping, so none is signalled any more.
    bool threads_ended_ = false;
    bool failed_ = false;
    std::string error_;
    std::optional<std::uint64_t> missing_;       // first event close() found without a record
    std::optional<std::uint64_t> doubled_;       // first event whose record came twice
    std::vector<fb::ChunkEntry> chunk_entries_;  // by whoever writes chunks, in order
    std::uint64_t file_offset_;

    // Owned by the writer thread (or the thread that closes after it).
    std::vector<RecordLane*> merge_lanes_;
    std::vector<Incoming> incoming_taken_;
    std::uint64_t merge_lanes_version_ = 0;
    std::uint64_t next_written_ = 0;  // the event whose record goes into the open chunk next
    // Ring of held records: event e is at held_[e % size], for events from
    // next_written_ on; the size is a power of two.
    std::vector<Held> held_;
    std::size_t held_count_ = 0;
    Chunk open_;
    IndexBuilder index_;
    std::thread thread_;
    std::vector<std::thread> compressors_;
};

}  // namespace d3dcap::trace

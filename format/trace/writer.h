// Writes a trace: the capturing thread only copies a finished record into the
// open chunk; a background thread compresses chunks, writes them and builds
// the index. Events may be numbered when a call starts (reserve) and their
// records submitted later from any thread: records are put in the chunks in
// event order, those that arrive early wait in a pending store.
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

#include "error.h"
#include "index_builder.h"

namespace d3dcap::trace {

struct WriterOptions {
    std::size_t chunk_bytes = 1 << 20;              // uncompressed size at which a chunk is closed
    std::size_t queued_chunks = 16;                 // closed chunks waiting for the writer thread
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
    // in. Returns event, or nothing when the trace has stopped or event is not
    // a reserved event still waiting for its record. end_of_frame hands the
    // open chunk to the writer thread once this record is in it.
    std::optional<std::uint64_t> submit(flatbuffers::FlatBufferBuilder& builder,
                                        std::uint64_t event, bool end_of_frame = false);

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

    // Hands the open chunk to the writer thread.
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
    // writer thread among them) it has already ended, as Windows does before
    // it unloads DLLs: what the writer thread left queued is written on this
    // thread, and events reserved but not submitted are written as abandon()
    // would at once. When an ended thread held the writer's lock or was
    // writing a chunk, nothing more is written and the error says so (the
    // trace reads as a cut one; d3dcap repack repairs it). Prints its error
    // (error() could wait for the lock forever).
    Status close_after_threads_ended();

    // The first write error ("path: No space left on device"), or empty.
    std::string error() const;

  private:
    struct Chunk {
        std::vector<std::uint8_t> bytes;
        std::uint32_t record_count = 0;
        std::uint64_t first_event = 0;
        std::chrono::steady_clock::time_point opened;
    };

    // A record that arrived before an earlier event's.
    struct Pending {
        std::vector<std::uint8_t> bytes;  // kept for reuse once drained
        bool filled = false;
        bool end_of_frame = false;
    };

    // Set in reserved_ once the trace stops handing out events.
    static constexpr std::uint64_t kStopped = std::uint64_t{1} << 63;

    TraceWriter(std::string path, int fd, std::uint64_t offset, const WriterOptions& options);
    // Queues the open chunk, waiting while the queue is full.
    void close_open_chunk_locked(std::unique_lock<std::mutex>& lock);
    // The part of close() after the writer thread is done: index, trailer.
    Status finish_file();
    // Stops handing out events and puts every reserved one, submitted or not,
    // into the queue (close()'s last step under the lock).
    void queue_everything_locked(std::uint64_t reserved);
    // Queues the open chunk without waiting (the caller waited, or is closing).
    void queue_open_chunk_locked();
    // Puts the record of event next_written_ into the open chunk.
    void append_locked(const std::uint8_t* data, std::size_t size, bool end_of_frame);
    // Appends held records while the next one is there.
    void drain_locked();
    // Waits while the queue is full; false once the trace has stopped.
    bool wait_for_room_locked(std::unique_lock<std::mutex>& lock);
    // Takes the record of a reserved event: appends it or holds it.
    std::optional<std::uint64_t> accept_locked(std::unique_lock<std::mutex>& lock,
                                               const std::uint8_t* data, std::size_t size,
                                               std::uint64_t event, bool end_of_frame);
    Pending& pending_slot_locked(std::uint64_t event);
    // Stops reserve(); returns how many events were handed out.
    std::uint64_t stop_reserving_locked();
    // The first error: a write error, else a missing record.
    Status result_locked() const;
    void writer_loop();
    void write_chunk(Chunk& chunk);
    bool write_all(const void* data, std::size_t size);
    void fail(const std::string& what, int error_number);

    const std::string path_;
    const int fd_;
    const WriterOptions options_;
    std::vector<std::uint8_t> placeholder_;  // a header-only Record, numbered before each use
    std::vector<std::uint8_t> copied_;       // the record of submit_copy(), numbered

    // Events handed out by reserve(), with kStopped once it refuses; on a
    // cache line of its own, as every call bumps it.
    alignas(64) std::atomic<std::uint64_t> reserved_{0};

    alignas(64) mutable std::mutex mutex_;  // not on reserved_'s cache line
    std::condition_variable work_ready_;    // writer thread: a chunk is queued, or stop
    std::condition_variable space_ready_;   // submitters: the queue has room
    std::condition_variable written_;       // wait_written: the queue is empty, nothing in flight
    std::condition_variable records_in_;    // close(): a record came while closing
    Chunk open_;
    std::deque<Chunk> queue_;
    std::vector<std::vector<std::uint8_t>> spare_buffers_;
    std::uint64_t reserved_end_ = 0;  // reserved_ when it stopped
    std::uint64_t next_written_ = 0;  // the event whose record goes into the open chunk next
    // Ring of held records: event e is at pending_[e % size], for events from
    // next_written_ on; the size is a power of two.
    std::vector<Pending> pending_;
    std::size_t pending_count_ = 0;
    bool closing_ = false;   // reserving has stopped; records of reserved events still come
    bool stopping_ = false;  // no more records
    bool writing_ = false;   // the writer thread holds a chunk
    // close_after_threads_ended(): an ended thread may have died inside a
    // condition variable's bookkeeping, so none is signalled any more.
    bool threads_ended_ = false;
    bool failed_ = false;
    std::string error_;
    std::optional<std::uint64_t> missing_;  // first event close() found without a record

    // Owned by the writer thread.
    std::uint64_t file_offset_;
    IndexBuilder index_;
    std::vector<char> compressed_;
    std::thread thread_;
};

}  // namespace d3dcap::trace

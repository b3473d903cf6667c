// Writes a trace: the capturing thread only copies a finished record into the
// open chunk; a background thread compresses chunks, writes them and builds
// the index.
#pragma once

#include <d3dcap/fb/trace_generated.h>

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
};

class TraceWriter {
  public:
    // Creates the file and writes its header. header_buffer is a finished
    // (not size-prefixed) TraceHeader FlatBuffer.
    static Result<std::unique_ptr<TraceWriter>> create(const std::string& path,
                                                       const flatbuffers::DetachedBuffer& header,
                                                       const WriterOptions& options = {});
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    // Takes a finished, size-prefixed Record from builder, numbers it (the
    // event number is written into its header) and queues it. Returns the
    // event number, or nothing when the trace has stopped after an error.
    // end_of_frame hands the open chunk to the writer thread at once.
    std::optional<std::uint64_t> submit(flatbuffers::FlatBufferBuilder& builder,
                                        bool end_of_frame = false);

    // Hands the open chunk to the writer thread.
    void flush();

    // Flushes and waits until everything submitted so far is in the file
    // (the index is written only by close()).
    void wait_written();

    // Writes everything queued, the index and the trailer, and closes the
    // file. Returns the first error the trace met, if any.
    Status close();

    // The first write error ("path: No space left on device"), or empty.
    std::string error() const;

  private:
    struct Chunk {
        std::vector<std::uint8_t> bytes;
        std::uint32_t record_count = 0;
        std::uint64_t first_event = 0;
        std::chrono::steady_clock::time_point opened;
    };

    TraceWriter(std::string path, int fd, std::uint64_t offset, const WriterOptions& options);
    // Queues the open chunk, waiting while the queue is full.
    void close_open_chunk_locked(std::unique_lock<std::mutex>& lock);
    void writer_loop();
    void write_chunk(Chunk& chunk);
    bool write_all(const void* data, std::size_t size);
    void fail(const std::string& what, int error_number);

    const std::string path_;
    const int fd_;
    const WriterOptions options_;

    mutable std::mutex mutex_;
    std::condition_variable work_ready_;   // writer thread: a chunk is queued, or stop
    std::condition_variable space_ready_;  // submitters: the queue has room
    std::condition_variable written_;      // wait_written: the queue is empty, nothing in flight
    Chunk open_;
    std::deque<Chunk> queue_;
    std::vector<std::vector<std::uint8_t>> spare_buffers_;
    std::uint64_t next_event_ = 0;
    bool stopping_ = false;
    bool writing_ = false;  // the writer thread holds a chunk
    bool failed_ = false;
    std::string error_;

    // Owned by the writer thread.
    std::uint64_t file_offset_;
    IndexBuilder index_;
    std::vector<char> compressed_;
    std::thread thread_;
};

}  // namespace d3dcap::trace

// One worker thread that reads the next chunk of a trace while its reader's
// caller uses the current one. The thread lives as long as the reader: a
// thread per chunk costs more than a small chunk takes to decompress.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "error.h"
#include "reader_chunk.h"

namespace d3dcap::trace {

class ChunkReadAhead {
  public:
    // Reads chunk `number` into the buffers of `reuse`.
    using ReadChunk = std::function<Result<Chunk>(std::size_t number, Chunk* reuse)>;

    explicit ChunkReadAhead(ReadChunk read) : read_(std::move(read)) {}
    ~ChunkReadAhead();
    ChunkReadAhead(const ChunkReadAhead&) = delete;
    ChunkReadAhead& operator=(const ChunkReadAhead&) = delete;

    // Starts reading chunk `number` into `buffers` (after any read still
    // going has ended); false when no thread could be started.
    bool start(std::size_t number, Chunk buffers);
    // Whether a read of chunk `number` was started and not taken yet.
    bool holds(std::size_t number) const { return pending_ && number_ == number; }
    // The chunk last started, once read; nullopt when none was started.
    std::optional<Result<Chunk>> take();

  private:
    void run();

    ReadChunk read_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool pending_ = false;  // started and not taken (the caller's view)
    bool requested_ = false, stopping_ = false;
    std::atomic<bool> done_{false};  // the read requested last has ended
    std::size_t number_ = 0;
    Chunk buffers_;
    std::optional<Result<Chunk>> result_;
};

}  // namespace d3dcap::trace

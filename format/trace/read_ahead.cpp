#include "read_ahead.h"

#include <chrono>
#include <system_error>

namespace d3dcap::trace {

ChunkReadAhead::~ChunkReadAhead() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

bool ChunkReadAhead::start(std::size_t number, Chunk buffers) {
    if (!thread_.joinable()) {
        try {
            thread_ = std::thread([this] { run(); });
        } catch (const std::system_error&) {
            return false;  // the caller reads the chunk when it needs it
        }
    }
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !requested_; });
        number_ = number;
        buffers_ = std::move(buffers);
        result_.reset();
        requested_ = true;
        done_.store(false, std::memory_order_relaxed);
    }
    pending_ = true;
    changed_.notify_all();
    return true;
}

std::optional<Result<Chunk>> ChunkReadAhead::take() {
    if (!pending_) return std::nullopt;
    pending_ = false;
    // A chunk nearly read is waited for without sleeping: waking a sleeping
    // thread costs about as much as a small chunk takes to decompress.
    const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
    while (!done_.load(std::memory_order_acquire) &&
           std::chrono::steady_clock::now() < spin_until) {
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !requested_; });
    std::optional<Result<Chunk>> out = std::move(result_);
    result_.reset();
    return out;
}

void ChunkReadAhead::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return requested_ || stopping_; });
        if (stopping_) return;
        const std::size_t number = number_;
        Chunk buffers = std::move(buffers_);
        lock.unlock();
        Result<Chunk> chunk = read_(number, &buffers);
        lock.lock();
        result_ = std::move(chunk);
        requested_ = false;
        done_.store(true, std::memory_order_release);
        changed_.notify_all();
    }
}

}  // namespace d3dcap::trace

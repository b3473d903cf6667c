#include "writer.h"

#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "chunk_codec.h"
#include "container.h"
#include "file_output.h"

namespace d3dcap::trace {

namespace {

const std::uint8_t kZeros[kRecordAlignment] = {};

void number_record(std::uint8_t* data, std::uint64_t event) {
    flatbuffers::GetMutableSizePrefixedRoot<fb::Record>(data)->mutable_header()->mutate_event(
        event);
}

}  // namespace

Result<std::unique_ptr<TraceWriter>> TraceWriter::create(const std::string& path,
                                                         const flatbuffers::DetachedBuffer& header,
                                                         const WriterOptions& options) {
    return create(path, header.data(), header.size(), options);
}

Result<std::unique_ptr<TraceWriter>> TraceWriter::create(const std::string& path,
                                                         const std::uint8_t* header,
                                                         std::size_t header_size,
                                                         const WriterOptions& options) {
    const int fd = create_output_file(path);
    if (fd < 0) {
        return TraceError{path, std::string("cannot create the trace: ") + std::strerror(errno)};
    }
    Prologue prologue{};
    std::memcpy(prologue.magic, kFileMagic.data(), sizeof prologue.magic);
    prologue.major = kFormatMajor;
    prologue.minor = kFormatMinor;
    prologue.header_size = static_cast<std::uint32_t>(header_size);
    std::vector<std::uint8_t> start(sizeof prologue + padded(header_size), 0);
    std::memcpy(start.data(), &prologue, sizeof prologue);
    std::memcpy(start.data() + sizeof prologue, header, header_size);
    if (const int error = write_fully(fd, start.data(), start.size()); error != 0) {
        close_output_file(fd);
        return TraceError{path, std::string("cannot write the trace: ") + std::strerror(error)};
    }
    std::unique_ptr<TraceWriter> writer(new TraceWriter(path, fd, start.size(), options));
    writer->thread_ = std::thread([w = writer.get()] { w->writer_loop(); });
    return writer;
}

TraceWriter::TraceWriter(std::string path, int fd, std::uint64_t offset,
                         const WriterOptions& options)
    : path_(std::move(path)), fd_(fd), options_(options), file_offset_(offset) {
    open_.bytes.reserve(options_.chunk_bytes + options_.chunk_bytes / 4);
    flatbuffers::FlatBufferBuilder builder(64);
    const fb::RecordHeader header(0, 0, 0, 0, 0, 0, 0);
    fb::RecordBuilder record(builder);
    record.add_header(&header);
    builder.FinishSizePrefixed(record.Finish());
    placeholder_.assign(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

TraceWriter::~TraceWriter() {
    close();
    // The thread of a process the system ended cannot be joined or detached
    // safely (its library's bookkeeping may be mid-change): its handle is
    // left behind.
    if (thread_.joinable()) new std::thread(std::move(thread_));
}

std::optional<std::uint64_t> TraceWriter::reserve() {
    // The stop flag shares the counter's word, so every number handed out is
    // one that close() sees.
    const std::uint64_t event = reserved_.fetch_add(1, std::memory_order_relaxed);
    if (event & kStopped) return std::nullopt;
    return event;
}

std::optional<std::uint64_t> TraceWriter::submit(flatbuffers::FlatBufferBuilder& builder,
                                                 std::uint64_t event, bool end_of_frame) {
    std::uint8_t* data = builder.GetBufferPointer();
    number_record(data, event);
    std::unique_lock lock(mutex_);
    if (!wait_for_room_locked(lock)) return std::nullopt;
    return accept_locked(lock, data, builder.GetSize(), event, end_of_frame);
}

std::optional<std::uint64_t> TraceWriter::submit(flatbuffers::FlatBufferBuilder& builder,
                                                 bool end_of_frame) {
    std::uint8_t* data = builder.GetBufferPointer();
    std::unique_lock lock(mutex_);
    if (!wait_for_room_locked(lock)) return std::nullopt;
    // Reserved under the lock, so records that only come this way are never
    // held.
    const std::uint64_t event = reserved_.fetch_add(1, std::memory_order_relaxed);
    number_record(data, event);
    return accept_locked(lock, data, builder.GetSize(), event, end_of_frame);
}

std::optional<std::uint64_t> TraceWriter::submit_copy(const std::uint8_t* record, std::size_t size,
                                                      bool end_of_frame) {
    std::unique_lock lock(mutex_);
    if (!wait_for_room_locked(lock)) return std::nullopt;
    copied_.assign(record, record + size);
    const std::uint64_t event = reserved_.fetch_add(1, std::memory_order_relaxed);
    number_record(copied_.data(), event);
    return accept_locked(lock, copied_.data(), copied_.size(), event, end_of_frame);
}

void TraceWriter::abandon(std::uint64_t event) {
    std::unique_lock lock(mutex_);
    if (!wait_for_room_locked(lock)) return;
    number_record(placeholder_.data(), event);
    accept_locked(lock, placeholder_.data(), placeholder_.size(), event, false);
}

bool TraceWriter::wait_for_room_locked(std::unique_lock<std::mutex>& lock) {
    // Waiting before a record is taken, never while appending, bounds the
    // queue without waiting on an earlier event's record.
    space_ready_.wait(
        lock, [&] { return queue_.size() < options_.queued_chunks || failed_ || stopping_; });
    return !failed_ && !stopping_;
}

std::optional<std::uint64_t> TraceWriter::accept_locked(std::unique_lock<std::mutex>& lock,
                                                        const std::uint8_t* data, std::size_t size,
                                                        std::uint64_t event, bool end_of_frame) {
    // Not stopped, so reserved_ holds no flag; past events and events never
    // handed out are refused.
    if (event < next_written_ || event >= reserved_.load(std::memory_order_relaxed)) {
        return std::nullopt;
    }
    if (size > options_.max_record_bytes) {
        lock.unlock();
        fail("a record of " + std::to_string(size) + " bytes is larger than the limit of " +
                 std::to_string(options_.max_record_bytes),
             0);
        return std::nullopt;
    }
    if (event == next_written_) {
        append_locked(data, size, end_of_frame);
        drain_locked();
        if (closing_) records_in_.notify_all();
        return event;
    }
    Pending& slot = pending_slot_locked(event);
    if (slot.filled) return std::nullopt;
    slot.bytes.assign(data, data + size);
    slot.filled = true;
    slot.end_of_frame = end_of_frame;
    ++pending_count_;
    return event;
}

void TraceWriter::append_locked(const std::uint8_t* data, std::size_t size, bool end_of_frame) {
    if (open_.record_count > 0 && open_.bytes.size() + padded(size) > options_.chunk_bytes) {
        queue_open_chunk_locked();
    }
    if (open_.record_count == 0) {
        open_.first_event = next_written_;
        open_.opened = std::chrono::steady_clock::now();
    }
    open_.bytes.insert(open_.bytes.end(), data, data + size);
    open_.bytes.insert(open_.bytes.end(), kZeros, kZeros + (padded(size) - size));
    ++open_.record_count;
    ++next_written_;
    if (end_of_frame) queue_open_chunk_locked();
}

void TraceWriter::drain_locked() {
    while (pending_count_ > 0) {
        Pending& slot = pending_[next_written_ & (pending_.size() - 1)];
        if (!slot.filled) return;
        slot.filled = false;
        --pending_count_;
        append_locked(slot.bytes.data(), slot.bytes.size(), slot.end_of_frame);
        // Buffers are kept for the next early record, but not huge ones.
        if (slot.bytes.capacity() > options_.chunk_bytes) {
            std::vector<std::uint8_t>().swap(slot.bytes);
        } else {
            slot.bytes.clear();
        }
    }
}

TraceWriter::Pending& TraceWriter::pending_slot_locked(std::uint64_t event) {
    const std::uint64_t distance = event - next_written_;
    if (distance >= pending_.size()) {
        std::size_t size = pending_.empty() ? 64 : pending_.size();
        while (size <= distance) size *= 2;
        std::vector<Pending> grown(size);
        // The old ring covers the events from next_written_ on, one slot each.
        for (std::size_t i = 0; i < pending_.size(); ++i) {
            const std::uint64_t e = next_written_ + i;
            grown[e & (size - 1)] = std::move(pending_[e & (pending_.size() - 1)]);
        }
        pending_.swap(grown);
    }
    return pending_[event & (pending_.size() - 1)];
}

std::uint64_t TraceWriter::stop_reserving_locked() {
    const std::uint64_t before = reserved_.fetch_or(kStopped, std::memory_order_relaxed);
    if (!(before & kStopped)) reserved_end_ = before;
    return reserved_end_;
}

void TraceWriter::flush() {
    std::unique_lock lock(mutex_);
    if (open_.record_count > 0 && !stopping_) close_open_chunk_locked(lock);
}

void TraceWriter::wait_written() {
    std::unique_lock lock(mutex_);
    if (open_.record_count > 0 && !stopping_) close_open_chunk_locked(lock);
    written_.wait(lock, [&] { return (queue_.empty() && !writing_) || failed_; });
}

void TraceWriter::close_open_chunk_locked(std::unique_lock<std::mutex>& lock) {
    space_ready_.wait(lock, [&] { return queue_.size() < options_.queued_chunks || failed_; });
    if (failed_) return;
    queue_open_chunk_locked();
}

void TraceWriter::queue_open_chunk_locked() {
    // Another thread may have queued it while this one waited.
    if (open_.record_count == 0) return;
    queue_.push_back(std::move(open_));
    open_ = Chunk{};
    if (!spare_buffers_.empty()) {
        open_.bytes = std::move(spare_buffers_.back());
        spare_buffers_.pop_back();
    } else {
        open_.bytes.reserve(options_.chunk_bytes + options_.chunk_bytes / 4);
    }
    if (!threads_ended_) work_ready_.notify_one();
}

void TraceWriter::writer_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (queue_.empty()) {
            written_.notify_all();
            if (stopping_) return;
            // An open chunk is due flush_interval after its first record, so
            // that a killed process loses at most that much; waking when it is
            // due (not a full interval after the last check) keeps the bound.
            const auto due = open_.record_count > 0
                                 ? open_.opened + options_.flush_interval
                                 : std::chrono::steady_clock::now() + options_.flush_interval;
            work_ready_.wait_until(lock, due);
            if (queue_.empty() && open_.record_count > 0 &&
                std::chrono::steady_clock::now() >= open_.opened + options_.flush_interval) {
                queue_open_chunk_locked();
            }
            continue;
        }
        Chunk chunk = std::move(queue_.front());
        queue_.pop_front();
        space_ready_.notify_all();
        const bool skip = failed_;
        writing_ = true;
        lock.unlock();
        if (!skip) write_chunk(chunk);
        lock.lock();
        writing_ = false;
        chunk.bytes.clear();
        spare_buffers_.push_back(std::move(chunk.bytes));
    }
}

void TraceWriter::write_chunk(Chunk& chunk) {
    if (!encode_chunk(chunk.bytes.data(), chunk.bytes.size(), options_.compress, compressed_)) {
        fail("LZ4 could not compress a chunk", 0);
        return;
    }
    ChunkHeader header{kChunkMagic,
                       static_cast<std::uint32_t>(compressed_.size()),
                       static_cast<std::uint32_t>(chunk.bytes.size()),
                       chunk.record_count,
                       chunk.first_event,
                       0};
    header.checksum = chunk_checksum(header, compressed_.data(), header.compressed_size);
    const std::uint64_t chunk_offset = file_offset_;
    if (!write_all(&header, sizeof header) ||
        !write_all(compressed_.data(), header.compressed_size)) {
        return;
    }
    for (std::size_t offset = 0; offset < chunk.bytes.size();) {
        std::uint32_t size;
        std::memcpy(&size, chunk.bytes.data() + offset, sizeof size);
        const auto* record =
            flatbuffers::GetSizePrefixedRoot<fb::Record>(chunk.bytes.data() + offset);
        index_.add_record(*record, sizeof size + size);
        offset += padded(sizeof size + size);
    }
    index_.add_chunk(fb::ChunkEntry(chunk_offset, chunk.first_event, header.compressed_size,
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

void TraceWriter::fail(const std::string& what, int error_number) {
    std::lock_guard lock(mutex_);
    if (failed_) return;
    failed_ = true;
    stop_reserving_locked();
    error_ = what;
    if (error_number != 0) error_ += std::string(": ") + std::strerror(error_number);
    std::fprintf(stderr, "d3dcap: %s: %s; capture stopped\n", path_.c_str(), error_.c_str());
    if (threads_ended_) return;
    space_ready_.notify_all();
    written_.notify_all();
}

Status TraceWriter::close() {
    {
        std::unique_lock lock(mutex_);
        if (stopping_ || closing_) return result_locked();
        closing_ = true;
        const std::uint64_t reserved = stop_reserving_locked();
        records_in_.wait_for(lock, options_.close_grace,
                             [&] { return failed_ || next_written_ >= reserved; });
        queue_everything_locked(reserved);
        work_ready_.notify_all();
        space_ready_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
    return finish_file();
}

void TraceWriter::queue_everything_locked(std::uint64_t reserved) {
    stopping_ = true;
    if (failed_) return;
    // A missing record gets a placeholder so that the held records after it
    // are written too.
    for (drain_locked(); next_written_ < reserved; drain_locked()) {
        if (!missing_) missing_ = next_written_;
        number_record(placeholder_.data(), next_written_);
        append_locked(placeholder_.data(), placeholder_.size(), false);
    }
    queue_open_chunk_locked();
}

Status TraceWriter::close_after_threads_ended() {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || writing_) {
        // The ended thread's chunk, or the state it was changing, is lost;
        // error() would wait for the lock forever, so this says it here.
        const TraceError error{path_,
                               "the process ended while a thread was writing the trace; it is "
                               "left without its index"};
        std::fprintf(stderr, "d3dcap: %s\n", error.to_string().c_str());
        return error;
    }
    if (stopping_ || closing_) return result_locked();
    threads_ended_ = true;
    closing_ = true;
    queue_everything_locked(stop_reserving_locked());
    while (!queue_.empty() && !failed_) {
        Chunk chunk = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        write_chunk(chunk);
        lock.lock();
    }
    lock.unlock();
    const Status status = finish_file();
    // A write error was printed when it happened; a missing event was not.
    if (!status.ok() && error().empty())
        std::fprintf(stderr, "d3dcap: %s\n", status.error().to_string().c_str());
    return status;
}

Status TraceWriter::finish_file() {
    bool failed;
    {
        std::lock_guard lock(mutex_);
        failed = failed_;
    }
    if (!failed) {
        const std::vector<std::uint8_t> index = index_.finish();
        IndexHeader header{kIndexMagic, static_cast<std::uint32_t>(index.size()),
                           XXH3_64bits(index.data(), index.size())};
        Trailer trailer{file_offset_, {}};
        std::memcpy(trailer.magic, kTrailerMagic.data(), sizeof trailer.magic);
        if (write_all(&header, sizeof header) && write_all(index.data(), index.size())) {
            write_all(&trailer, sizeof trailer);
        }
    }
    if (const int error = close_output_file(fd_); error != 0) fail("cannot close the trace", error);
    std::lock_guard lock(mutex_);
    return result_locked();
}

Status TraceWriter::result_locked() const {
    if (failed_) return TraceError{path_, error_};
    if (missing_) {
        return TraceError{
            path_, "event " + std::to_string(*missing_) + " was reserved but never submitted"};
    }
    return ok_status();
}

std::string TraceWriter::error() const {
    std::lock_guard lock(mutex_);
    return failed_ ? path_ + ": " + error_ : std::string();
}

}  // namespace d3dcap::trace

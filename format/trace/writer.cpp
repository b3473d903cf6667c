#include "writer.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "container.h"
#include "file_output.h"
#include "thread_end.h"
#include "thread_pointer.h"

namespace d3dcap::trace {

namespace {

std::atomic<std::uint64_t> g_next_writer_serial{1};

// The lanes this thread fills, one per writer it has submitted to (almost
// always one); on the heap, ended through a thread key (thread_end.h says
// why not as a thread_local object).
struct ThreadLanes {
    struct Slot {
        std::uint64_t writer_serial = 0;
        RecordLane* lane = nullptr;
        std::uint64_t owner = 0;  // the token the lane was taken with
    };
    static constexpr std::size_t kSlots = 4;
    Slot slots[kSlots];
};
// Gone once this thread's lanes are released: records made later (objects
// released by thread_local destructors) go under the writer's lock.
D3DCAP_THREAD_POINTER(ThreadLanes, ThisThreadLanes);

// The thread's end marks its lanes free for another thread.
void end_lanes(void* state) {
    auto* lanes = static_cast<ThreadLanes*>(state);
    for (ThreadLanes::Slot& slot : lanes->slots) {
        std::uint64_t owner = slot.owner;
        if (slot.lane != nullptr)
            slot.lane->owner.compare_exchange_strong(owner, 0, std::memory_order_release);
    }
    ThisThreadLanes::set(ThisThreadLanes::gone());
    delete lanes;
}

// This thread's lanes, made on first use; null once they are released.
ThreadLanes* this_thread_lanes() {
    ThreadLanes* lanes = ThisThreadLanes::get();
    if (lanes == ThisThreadLanes::gone()) return nullptr;
    if (lanes == nullptr) {
        static const ThreadEnd lanes_end(end_lanes);
        lanes = new ThreadLanes{};
        ThisThreadLanes::set(lanes);
        lanes_end.watch(lanes);
    }
    return lanes;
}

// The options with their defaults (0) resolved.
WriterOptions resolved(WriterOptions options) {
    if (options.compressor_threads == 0) {
        const std::size_t cores = std::thread::hardware_concurrency();
        options.compressor_threads = std::clamp<std::size_t>(cores, 2, 4);
    }
    if (options.queued_chunks == 0)
        options.queued_chunks = std::max<std::size_t>(4, 2 * options.compressor_threads);
    return options;
}

}  // namespace

void TraceWriter::number_record(std::uint8_t* data, std::uint64_t event) {
    flatbuffers::GetMutableSizePrefixedRoot<fb::Record>(data)->mutable_header()->mutate_event(
        event);
}

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
    TraceWriter* w = writer.get();
    for (std::size_t i = 0; i < w->options_.compressor_threads; ++i)
        w->compressors_.emplace_back([w] { w->compressor_loop(); });
    w->thread_ = std::thread([w] { w->writer_loop(); });
    return writer;
}

TraceWriter::TraceWriter(std::string path, int fd, std::uint64_t offset,
                         const WriterOptions& options)
    : path_(std::move(path)),
      fd_(fd),
      options_(resolved(options)),
      serial_(g_next_writer_serial.fetch_add(1)),
      file_offset_(offset) {
    flatbuffers::FlatBufferBuilder builder(64);
    const fb::RecordHeader header(0, 0, 0, 0, 0, 0, 0);
    fb::RecordBuilder record(builder);
    record.add_header(&header);
    builder.FinishSizePrefixed(record.Finish());
    placeholder_.assign(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
    if (placeholder_.size() > kPlaceholderBytes) std::abort();  // a header-only record: 48 bytes
    open_.bytes.reserve(chunk_capacity());  // grown by copying, it would touch its pages twice
}

TraceWriter::~TraceWriter() {
    close();
    // The threads of a process the system ended cannot be joined or
    // detached safely (their library's bookkeeping may be mid-change): their
    // handles are left behind.
    if (thread_.joinable() || std::any_of(compressors_.begin(), compressors_.end(),
                                          [](const std::thread& t) { return t.joinable(); })) {
        if (thread_.joinable()) new std::thread(std::move(thread_));
        for (std::thread& compressor : compressors_)
            if (compressor.joinable()) new std::thread(std::move(compressor));
        return;  // the lanes too, as those threads may still look at them
    }
    for (RecordLane* lane : lanes_) RecordLane::give_back(lane);
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
    return put(data, builder.GetSize(), event, end_of_frame);
}

std::optional<std::uint64_t> TraceWriter::submit(flatbuffers::FlatBufferBuilder& builder,
                                                 bool end_of_frame) {
    const std::optional<std::uint64_t> event = reserve();
    if (!event) return std::nullopt;
    return submit(builder, *event, end_of_frame);
}

std::optional<std::uint64_t> TraceWriter::submit_copy(const std::uint8_t* record, std::size_t size,
                                                      bool end_of_frame) {
    const std::optional<std::uint64_t> event = reserve();
    if (!event) return std::nullopt;
    std::vector<std::uint8_t> copy(record, record + size);
    number_record(copy.data(), *event);
    return put(copy.data(), copy.size(), *event, end_of_frame);
}

void TraceWriter::abandon(std::uint64_t event) {
    std::uint8_t placeholder[kPlaceholderBytes];
    std::memcpy(placeholder, placeholder_.data(), placeholder_.size());
    number_record(placeholder, event);
    put(placeholder, placeholder_.size(), event, false);
}

std::optional<std::uint64_t> TraceWriter::put(const std::uint8_t* data, std::size_t size,
                                              std::uint64_t event, bool end_of_frame) {
    if (refusing_.load(std::memory_order_acquire)) return std::nullopt;
    // Events never handed out, and events written already, are refused; a
    // record of an event still held is dropped by the writer thread.
    if (event >= (reserved_.load(std::memory_order_relaxed) & ~kStopped) ||
        event < written_events_.load(std::memory_order_relaxed)) {
        return std::nullopt;
    }
    if (size > options_.max_record_bytes) {
        fail("a record of " + std::to_string(size) + " bytes is larger than the limit of " +
                 std::to_string(options_.max_record_bytes),
             0);
        return std::nullopt;
    }
    RecordLane* lane = lane_of_this_thread();
    if (lane == nullptr || size > lane->max_record()) {
        std::lock_guard lock(mutex_);
        if (failed_ || stopping_) return std::nullopt;
        incoming_.push_back(Incoming{event, {data, data + size}, end_of_frame});
        request_work_locked();
        return event;
    }
    const auto size32 = static_cast<std::uint32_t>(size);
    while (!lane->push(data, size32, event, end_of_frame)) {
        if (!wait_for_lane(*lane, size)) return std::nullopt;
    }
    // The writer thread polls; it is woken when a lane fills up, at a frame's
    // end and while closing.
    if (end_of_frame || closing_flag_.load(std::memory_order_relaxed)) {
        request_work();
    } else if (lane->should_wake()) {
        request_work();
    }
    return event;
}

RecordLane* TraceWriter::lane_of_this_thread() {
    ThreadLanes* lanes = this_thread_lanes();
    if (lanes == nullptr) return nullptr;
    ThreadLanes::Slot* slots = lanes->slots;
    if (slots[0].writer_serial == serial_) return slots[0].lane;
    for (std::size_t i = 1; i < ThreadLanes::kSlots; ++i) {
        if (slots[i].writer_serial == serial_) {
            std::swap(slots[i], slots[0]);
            return slots[0].lane;
        }
    }
    // The slot of the writer used longest ago makes room; its lane stays
    // that writer's.
    std::rotate(slots, slots + ThreadLanes::kSlots - 1, slots + ThreadLanes::kSlots);
    const std::uint64_t owner = RecordLane::new_owner_token();
    RecordLane* lane = nullptr;
    {
        std::lock_guard lock(mutex_);
        // A lane whose thread ended, emptied, serves the next thread.
        for (RecordLane* candidate : lanes_) {
            std::uint64_t free = 0;
            if (!candidate->owner.compare_exchange_strong(free, owner, std::memory_order_acquire))
                continue;
            if (candidate->used() == 0) {
                lane = candidate;
                break;
            }
            candidate->owner.store(0, std::memory_order_release);  // not emptied yet
        }
        if (lane == nullptr) {
            lane =
                RecordLane::take(std::bit_ceil(std::max<std::size_t>(options_.lane_bytes, 4096)));
            lane->owner.store(owner, std::memory_order_relaxed);
            lanes_.push_back(lane);
            ++lanes_version_;
        }
    }
    slots[0] = ThreadLanes::Slot{serial_, lane, owner};
    return lane;
}

bool TraceWriter::wait_for_lane(RecordLane& lane, std::size_t size) {
    std::unique_lock lock(mutex_);
    lane.producer_waiting.store(true, std::memory_order_relaxed);
    request_work_locked();
    // The entry and a skip to the ring's start fit in twice its size.
    const std::size_t room =
        std::min(lane.capacity(), std::max(lane.capacity() / 2, 2 * size + 48));
    lane_room_.wait(lock,
                    [&] { return lane.capacity() - lane.used() >= room || failed_ || stopping_; });
    lane.producer_waiting.store(false, std::memory_order_relaxed);
    return !failed_ && !stopping_;
}

void TraceWriter::request_work_locked() {
    work_requested_ = true;
    if (!threads_ended_) work_ready_.notify_one();
}

void TraceWriter::request_work() {
    std::lock_guard lock(mutex_);
    request_work_locked();
}

std::uint64_t TraceWriter::stop_reserving_locked() {
    const std::uint64_t before = reserved_.fetch_or(kStopped, std::memory_order_relaxed);
    if (!(before & kStopped)) reserved_end_ = before;
    return reserved_end_;
}

void TraceWriter::flush() {
    std::lock_guard lock(mutex_);
    cut_requested_ = true;
    request_work_locked();
}

void TraceWriter::wait_written() {
    std::unique_lock lock(mutex_);
    const std::uint64_t request = ++flush_requests_;
    cut_requested_ = true;
    request_work_locked();
    written_.wait(lock, [&] { return flushes_done_ >= request || failed_ || stopping_; });
}

void TraceWriter::fail(const std::string& what, int error_number) {
    std::lock_guard lock(mutex_);
    fail_locked(what, error_number);
}

void TraceWriter::fail_locked(const std::string& what, int error_number) {
    if (failed_) return;
    failed_ = true;
    refusing_.store(true, std::memory_order_release);
    stop_reserving_locked();
    error_ = what;
    if (error_number != 0) error_ += std::string(": ") + std::strerror(error_number);
    std::fprintf(stderr, "d3dcap: %s: %s; capture stopped\n", path_.c_str(), error_.c_str());
    if (threads_ended_) return;
    lane_room_.notify_all();
    chunk_room_.notify_all();
    written_.notify_all();
    work_ready_.notify_all();
}

Status TraceWriter::close() {
    {
        std::unique_lock lock(mutex_);
        if (stopping_ || closing_) return result_locked();
        closing_ = true;
        closing_flag_.store(true, std::memory_order_relaxed);
        const std::uint64_t reserved = stop_reserving_locked();
        request_work_locked();
        written_.wait_for(lock, options_.close_grace, [&] {
            return failed_ || written_events_.load(std::memory_order_relaxed) >= reserved;
        });
        stopping_ = true;
        refusing_.store(true, std::memory_order_release);
        request_work_locked();
        lane_room_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
    for (std::thread& compressor : compressors_)
        if (compressor.joinable()) compressor.join();
    return finish_file();
}

Status TraceWriter::close_after_threads_ended() {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || writing_ || merging_ || compressing_ > 0) {
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
    stopping_ = true;
    refusing_.store(true, std::memory_order_release);
    stop_reserving_locked();
    // What the writer and compressor threads would have done, on this one.
    collect_locked();
    lock.unlock();
    merge();
    finish_merging();
    lock.lock();
    DeltaEncoder deltas;
    while (!to_compress_.empty() && !failed_) {
        Chunk chunk = std::move(to_compress_.front());
        to_compress_.pop_front();
        compress_and_write(lock, std::move(chunk), deltas);
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
        for (const fb::ChunkEntry& entry : chunk_entries_) index_.add_chunk(entry);
        chunk_entries_.clear();
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
    if (doubled_) {
        return TraceError{path_, "event " + std::to_string(*doubled_) +
                                     " was submitted twice; the first record is kept"};
    }
    return ok_status();
}

std::size_t TraceWriter::lane_count() const {
    std::lock_guard lock(mutex_);
    return lanes_.size();
}

std::string TraceWriter::error() const {
    std::lock_guard lock(mutex_);
    return failed_ ? path_ + ": " + error_ : std::string();
}

}  // namespace d3dcap::trace

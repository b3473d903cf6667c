#include "reader.h"

#include <fcntl.h>
#include <lz4.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "container.h"
#include "index_builder.h"
#include "read_ahead.h"
#include "record_delta.h"

namespace d3dcap::trace {

std::uint32_t Chunk::record_size(std::size_t i) const {
    std::uint32_t size;
    std::memcpy(&size, bytes.data() + record_offsets[i], sizeof size);
    return size + static_cast<std::uint32_t>(sizeof size);
}

namespace {

bool verify_record_at_depth(const std::uint8_t* data, std::size_t size, int depth) {
    flatbuffers::Verifier verifier(data, size);
    if (!verifier.VerifySizePrefixedBuffer<fb::Record>(nullptr)) return false;
    const fb::Record* record = flatbuffers::GetSizePrefixedRoot<fb::Record>(data);
    if (record->header() == nullptr) return false;
    const fb::StateSnapshot* snapshot = record->meta_as_StateSnapshot();
    if (snapshot == nullptr || snapshot->records() == nullptr) return true;
    if (depth > 0) return false;  // a snapshot holds plain records only
    for (const fb::NestedRecord* nested : *snapshot->records()) {
        const flatbuffers::Vector<std::uint8_t>* bytes = nested->data();
        if (bytes == nullptr || bytes->size() < sizeof(std::uint32_t)) return false;
        if (!verify_record_at_depth(bytes->data(), bytes->size(), depth + 1)) return false;
    }
    return true;
}

}  // namespace

bool verify_record(const std::uint8_t* data, std::size_t size) {
    return verify_record_at_depth(data, size, 0);
}

TraceReader::TraceReader(std::string path, int fd, std::uint64_t size, const ReaderOptions& options)
    : path_(std::move(path)), fd_(fd), file_size_(size), options_(options) {}

TraceReader::~TraceReader() {
    read_ahead_.reset();  // it reads from fd_
    ::close(fd_);
}

Result<std::unique_ptr<TraceReader>> TraceReader::open(const std::string& path,
                                                       const ReaderOptions& options) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return TraceError{path, std::string("cannot open: ") + std::strerror(errno)};
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return TraceError{path, "not a regular file"};
    }
    std::unique_ptr<TraceReader> reader(
        new TraceReader(path, fd, static_cast<std::uint64_t>(info.st_size), options));
    if (Status status = reader->read_prologue(); !status) return status.error();
    if (Status status = reader->read_index(); !status) return status.error();
    return reader;
}

TraceError TraceReader::error_at(std::string message, std::int64_t offset, std::int64_t chunk,
                                 std::int64_t event) const {
    return TraceError{path_, std::move(message), chunk, event, offset};
}

Status TraceReader::read_at(std::uint64_t offset, void* data, std::size_t size) const {
    if (offset > file_size_ || size > file_size_ - offset) {
        return error_at("needs " + std::to_string(size) + " bytes but the file ends at " +
                            std::to_string(file_size_),
                        static_cast<std::int64_t>(offset));
    }
    auto* bytes = static_cast<std::uint8_t*>(data);
    while (size > 0) {
        const ssize_t got = ::pread(fd_, bytes, size, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            return error_at(std::string("read failed: ") +
                                (got < 0 ? std::strerror(errno) : "unexpected end of file"),
                            static_cast<std::int64_t>(offset));
        }
        bytes += got;
        size -= static_cast<std::size_t>(got);
        offset += static_cast<std::uint64_t>(got);
    }
    return ok_status();
}

Status TraceReader::read_prologue() {
    Prologue prologue{};
    if (file_size_ < sizeof prologue) {
        return error_at("too short to be a d3dcap trace (" + std::to_string(file_size_) +
                        " bytes)");
    }
    if (Status s = read_at(0, &prologue, sizeof prologue); !s) return s;
    if (std::memcmp(prologue.magic, kFileMagic.data(), sizeof prologue.magic) != 0) {
        return error_at("not a d3dcap trace (the file does not start with D3DCAPTR)", 0);
    }
    major_ = prologue.major;
    minor_ = prologue.minor;
    if (major_ > kFormatMajor) {
        return error_at("written in trace format " + std::to_string(major_) + "." +
                        std::to_string(minor_) + ", newer than the format " +
                        std::to_string(kFormatMajor) + ".x this d3dcap reads; use a newer d3dcap");
    }
    if (prologue.header_size > options_.max_index_bytes ||
        prologue.header_size > file_size_ - sizeof prologue) {
        return error_at(
            "header size " + std::to_string(prologue.header_size) + " does not fit in the file", 8);
    }
    header_bytes_.resize(prologue.header_size);
    if (Status s = read_at(sizeof prologue, header_bytes_.data(), header_bytes_.size()); !s) {
        return s;
    }
    flatbuffers::Verifier verifier(header_bytes_.data(), header_bytes_.size());
    if (!verifier.VerifyBuffer<fb::TraceHeader>(nullptr)) {
        return error_at("the trace header is damaged (FlatBuffers verification failed)",
                        sizeof prologue);
    }
    chunks_start_ = sizeof prologue + padded(prologue.header_size);
    return ok_status();
}

Status TraceReader::read_index() {
    auto fallback = [&](const std::string& reason, std::int64_t offset) -> Status {
        if (options_.allow_recovery) return recover(reason);
        return error_at(reason, offset);
    };
    const std::uint64_t footer = sizeof(IndexHeader) + sizeof(Trailer);
    if (file_size_ < chunks_start_ + footer) return fallback("no index: the file ends early", -1);
    Trailer trailer{};
    const std::uint64_t trailer_offset = file_size_ - sizeof trailer;
    if (Status s = read_at(trailer_offset, &trailer, sizeof trailer); !s) return s;
    if (std::memcmp(trailer.magic, kTrailerMagic.data(), sizeof trailer.magic) != 0) {
        return fallback("no index: the file does not end with a trailer (cut short?)",
                        static_cast<std::int64_t>(trailer_offset));
    }
    if (trailer.index_offset < chunks_start_ || trailer.index_offset > file_size_ - footer) {
        return fallback("the trailer points outside the file",
                        static_cast<std::int64_t>(trailer_offset));
    }
    IndexHeader header{};
    if (Status s = read_at(trailer.index_offset, &header, sizeof header); !s) return s;
    const std::uint64_t expected_size = trailer_offset - trailer.index_offset - sizeof header;
    if (header.magic != kIndexMagic || header.size != expected_size ||
        header.size > options_.max_index_bytes) {
        return fallback("the index header is damaged",
                        static_cast<std::int64_t>(trailer.index_offset));
    }
    index_bytes_.resize(header.size);
    if (Status s = read_at(trailer.index_offset + sizeof header, index_bytes_.data(), header.size);
        !s) {
        return s;
    }
    if (XXH3_64bits(index_bytes_.data(), index_bytes_.size()) != header.checksum) {
        return fallback("the index checksum does not match",
                        static_cast<std::int64_t>(trailer.index_offset));
    }
    // Every table takes at least 4 bytes: a bound on tables that grows with
    // the index (the default of one million refuses a trace of more markers)
    // and still keeps verification linear in its size.
    const auto max_tables = static_cast<flatbuffers::uoffset_t>(
        std::min<std::size_t>(index_bytes_.size() / 4 + 1, UINT32_MAX));
    flatbuffers::Verifier verifier(index_bytes_.data(), index_bytes_.size(), 64, max_tables);
    if (!verifier.VerifyBuffer<fb::TraceIndex>(nullptr)) {
        return fallback("the index is damaged (FlatBuffers verification failed)",
                        static_cast<std::int64_t>(trailer.index_offset));
    }
    // The chunk table must describe consecutive events inside the file.
    std::uint64_t next_event = 0;
    if (const auto* chunks = index().chunks()) {
        for (const fb::ChunkEntry* chunk : *chunks) {
            if (chunk->first_event() != next_event || chunk->offset() < chunks_start_ ||
                chunk->offset() >= trailer.index_offset) {
                return fallback("the index's chunk table is inconsistent",
                                static_cast<std::int64_t>(trailer.index_offset));
            }
            next_event += chunk->record_count();
        }
    }
    if (next_event != index().event_count()) {
        return fallback("the index's event count does not match its chunks",
                        static_cast<std::int64_t>(trailer.index_offset));
    }
    if (const fb::MarkerTable* table = index().marker_table()) {
        if (std::string error = visit_marker_table(*table, [](const Marker&) {}); !error.empty())
            return fallback("the index's " + error,
                            static_cast<std::int64_t>(trailer.index_offset));
    }
    return ok_status();
}

std::uint64_t TraceReader::marker_count() const {
    if (const fb::MarkerTable* table = index().marker_table()) return table->count();
    return index().markers() ? index().markers()->size() : 0;
}

// The marker table was checked at open (or made by recovery), so it decodes.
const MarkerList& TraceReader::markers() const {
    std::call_once(markers_decoded_, [&] {
        if (const fb::MarkerTable* table = index().marker_table()) {
            if (auto markers = read_marker_table(*table); markers.ok())
                markers_ = std::move(*markers);
            return;
        }
        // Format 1: an entry per marker, each with its label.
        std::unordered_map<std::string_view, std::uint32_t> numbers;
        visit_markers([&](const Marker& marker, std::string_view label) {
            const auto [at, added] =
                numbers.try_emplace(label, static_cast<std::uint32_t>(markers_.labels.size()));
            if (added) markers_.labels.emplace_back(label);
            markers_.entries.push_back(marker);
            markers_.entries.back().label = at->second;
        });
    });
    return markers_;
}

void TraceReader::visit_markers(
    const std::function<void(const Marker&, std::string_view label)>& visit) const {
    if (const fb::MarkerTable* table = index().marker_table()) {
        // A marker's label number is below the label count: checked before the visit.
        (void)visit_marker_table(*table, [&](const Marker& marker) {
            visit(marker, table->labels()->Get(marker.label)->string_view());
        });
    } else if (index().markers() != nullptr) {
        for (const fb::MarkerEntry* entry : *index().markers()) {
            visit(Marker{entry->event(), entry->data(), 0, entry->depth(), entry->kind(),
                         entry->has_data()},
                  entry->label() ? entry->label()->string_view() : std::string_view());
        }
    }
}

Status TraceReader::recover(const std::string& reason) {
    IndexBuilder builder;
    std::uint64_t offset = chunks_start_;
    std::string stop;
    for (std::size_t number = 0;; ++number) {
        if (file_size_ - offset < sizeof(ChunkHeader)) {
            stop = offset == file_size_ ? "the file ends after it"
                                        : "the file ends inside the next chunk header";
            break;
        }
        std::uint32_t magic = 0;
        if (Status s = read_at(offset, &magic, sizeof magic); !s) return s;
        if (magic == kIndexMagic) {
            stop = "the index after it is damaged";
            break;
        }
        Result<Chunk> chunk =
            load_chunk(number, fb::ChunkEntry(offset, builder.event_count(), 0, 0, 0), offset);
        if (!chunk) {
            stop = chunk.error().to_string();
            break;
        }
        ChunkHeader header{};
        if (Status s = read_at(offset, &header, sizeof header); !s) return s;
        for (std::size_t i = 0; i < chunk->record_count(); ++i) {
            builder.add_record(chunk->record(i), chunk->record_size(i));
        }
        builder.add_chunk(fb::ChunkEntry(offset, chunk->first_event, header.compressed_size,
                                         header.uncompressed_size, header.record_count));
        offset += sizeof header + header.compressed_size;
    }
    index_bytes_ = builder.finish();
    recovered_ = true;
    recovery_note_ = reason + "; recovered " + std::to_string(builder.event_count()) +
                     " events in " + std::to_string(builder.chunk_count()) +
                     " complete chunks up to offset " + std::to_string(offset) + " (" + stop + ")";
    return ok_status();
}

Result<Chunk> TraceReader::load_chunk(std::size_t number, const fb::ChunkEntry& expected,
                                      std::uint64_t offset, Chunk* reuse) const {
    const auto at = static_cast<std::int64_t>(offset);
    const auto chunk_no = static_cast<std::int64_t>(number);
    ChunkHeader header{};
    if (Status s = read_at(offset, &header, sizeof header); !s) {
        return error_at("the chunk header is cut short", at, chunk_no);
    }
    if (header.magic != kChunkMagic) return error_at("no chunk header here", at, chunk_no);
    if (header.uncompressed_size > options_.max_chunk_bytes ||
        header.compressed_size >
            static_cast<std::uint64_t>(LZ4_compressBound(static_cast<int>(
                std::min<std::uint64_t>(header.uncompressed_size, LZ4_MAX_INPUT_SIZE))))) {
        return error_at("chunk sizes out of range (" + std::to_string(header.compressed_size) +
                            " compressed, " + std::to_string(header.uncompressed_size) +
                            " uncompressed)",
                        at, chunk_no);
    }
    // LZ4 expands at most 255-fold: a larger claim is damage, not a reason to allocate.
    if (header.uncompressed_size > std::uint64_t{header.compressed_size} * 255 + 64) {
        return error_at("chunk claims " + std::to_string(header.uncompressed_size) +
                            " bytes from " + std::to_string(header.compressed_size) +
                            " compressed, more than LZ4 can expand",
                        at, chunk_no);
    }
    if (header.first_event != expected.first_event()) {
        return error_at("chunk starts at event " + std::to_string(header.first_event) +
                            ", expected " + std::to_string(expected.first_event()),
                        at, chunk_no);
    }
    if (file_size_ - offset - sizeof header < header.compressed_size) {
        return error_at("the chunk is cut short: " + std::to_string(header.compressed_size) +
                            " bytes of data, " +
                            std::to_string(file_size_ - offset - sizeof header) + " in the file",
                        at, chunk_no);
    }
    std::vector<char> compressed(header.compressed_size);
    if (Status s = read_at(offset + sizeof header, compressed.data(), compressed.size()); !s) {
        return s.error();
    }
    if (chunk_checksum(header, compressed.data(), compressed.size()) != header.checksum) {
        return error_at("bad checksum", at, chunk_no);
    }
    Chunk chunk;
    if (reuse != nullptr) {
        chunk.bytes = std::move(reuse->bytes);
        // A larger chunk grows without copying the old one; one that fits
        // zero-fills no byte it is about to overwrite.
        if (chunk.bytes.capacity() < header.uncompressed_size) chunk.bytes.clear();
        chunk.record_offsets = std::move(reuse->record_offsets);
        chunk.record_offsets.clear();
    }
    chunk.number = number;
    chunk.first_event = header.first_event;
    chunk.bytes.resize(header.uncompressed_size);
    const int got = LZ4_decompress_safe(
        compressed.data(), reinterpret_cast<char*>(chunk.bytes.data()),
        static_cast<int>(compressed.size()), static_cast<int>(chunk.bytes.size()));
    if (got < 0 || static_cast<std::uint32_t>(got) != header.uncompressed_size) {
        return error_at("LZ4 data does not decompress to the recorded size", at, chunk_no);
    }
    chunk.record_offsets.reserve(std::min<std::uint32_t>(header.record_count, got / 8 + 1));
    DeltaDecoder deltas;
    for (std::size_t pos = 0; pos < chunk.bytes.size();) {
        const auto event =
            static_cast<std::int64_t>(header.first_event + chunk.record_offsets.size());
        std::uint32_t size = 0;
        if (chunk.bytes.size() - pos < sizeof size) {
            return error_at("a record is cut short at chunk byte " + std::to_string(pos), at,
                            chunk_no, event);
        }
        std::memcpy(&size, chunk.bytes.data() + pos, sizeof size);
        const bool delta = major_ >= 2 && (size & kDeltaRecordFlag) != 0;
        if (delta) {
            size &= ~kDeltaRecordFlag;
            if (padded(sizeof size + size) > chunk.bytes.size() - pos) {
                return error_at("delta record at chunk byte " + std::to_string(pos) +
                                    " runs past the chunk's end",
                                at, chunk_no, event);
            }
        }
        if (!deltas.restore(chunk.bytes.data(), pos, size, delta)) {
            return error_at("delta record at chunk byte " + std::to_string(pos) + " of " +
                                std::to_string(size) + " bytes has no earlier record of its size",
                            at, chunk_no, event);
        }
        if (size > chunk.bytes.size() - pos - sizeof size ||
            !verify_record(chunk.bytes.data() + pos, sizeof size + size)) {
            return error_at("record at chunk byte " + std::to_string(pos) + " fails verification",
                            at, chunk_no, event);
        }
        const fb::Record* record =
            flatbuffers::GetSizePrefixedRoot<fb::Record>(chunk.bytes.data() + pos);
        if (record->header()->event() != static_cast<std::uint64_t>(event)) {
            return error_at("record is numbered " + std::to_string(record->header()->event()), at,
                            chunk_no, event);
        }
        chunk.record_offsets.push_back(static_cast<std::uint32_t>(pos));
        pos += padded(sizeof size + size);
    }
    if (chunk.record_offsets.size() != header.record_count) {
        return error_at("chunk holds " + std::to_string(chunk.record_offsets.size()) +
                            " records, its header says " + std::to_string(header.record_count),
                        at, chunk_no);
    }
    return chunk;
}

const fb::TraceHeader& TraceReader::header() const {
    return *flatbuffers::GetRoot<fb::TraceHeader>(header_bytes_.data());
}

const fb::TraceIndex& TraceReader::index() const {
    return *flatbuffers::GetRoot<fb::TraceIndex>(index_bytes_.data());
}

std::size_t TraceReader::chunk_count() const {
    return index().chunks() ? index().chunks()->size() : 0;
}

Result<Chunk> TraceReader::read_chunk(std::size_t i) const {
    return read_chunk_reusing(i, nullptr);
}

Result<Chunk> TraceReader::read_chunk_reusing(std::size_t i, Chunk* reuse) const {
    if (i >= chunk_count()) {
        return error_at("chunk " + std::to_string(i) + " does not exist (the trace has " +
                        std::to_string(chunk_count()) + ")");
    }
    const fb::ChunkEntry& entry = *index().chunks()->Get(static_cast<flatbuffers::uoffset_t>(i));
    return load_chunk(i, entry, entry.offset(), reuse);
}

std::size_t TraceReader::chunk_of(std::uint64_t event) const {
    const auto* chunks = index().chunks();
    std::size_t lo = 0, hi = chunk_count();
    while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        if (chunks->Get(static_cast<flatbuffers::uoffset_t>(mid))->first_event() <= event) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

Result<const fb::Record*> TraceReader::record(std::uint64_t event) {
    if (event >= event_count()) {
        return error_at("event " + std::to_string(event) + " is past the end (the trace has " +
                        std::to_string(event_count()) + " events)");
    }
    // Events are read in order: most are in the chunk read last.
    if (cache_valid_ && event >= cached_.first_event &&
        event - cached_.first_event < cached_.record_count())
        return &cached_.record(event - cached_.first_event);
    const std::size_t number = chunk_of(event);
    if (!cache_valid_ || cached_.number != number) {
        if (Status s = cache_chunk(number); !s) return s.error();
    }
    const std::uint64_t i = event - cached_.first_event;
    if (i >= cached_.record_count()) {
        return error_at("event is not in the chunk the index names", -1,
                        static_cast<std::int64_t>(number), static_cast<std::int64_t>(event));
    }
    return &cached_.record(i);
}

Status TraceReader::cache_chunk(std::size_t number) {
    if (!read_ahead_) {
        read_ahead_ = std::make_unique<ChunkReadAhead>(
            [this](std::size_t n, Chunk* reuse) { return read_chunk_reusing(n, reuse); });
    }
    const bool ahead = read_ahead_->holds(number);
    std::optional<Result<Chunk>> taken = read_ahead_->take();
    if (!ahead && taken && taken->ok()) spare_ = std::move(taken->value());
    Result<Chunk> chunk = ahead ? std::move(*taken) : read_chunk_reusing(number, &spare_);
    if (!chunk) {
        cache_valid_ = false;
        return chunk.error();
    }
    // Only events read in order (from the start, or on from the chunk
    // before) get the next chunk read ahead: a seek elsewhere would wait
    // for a read it does not use.
    const bool in_order = ahead || number == 0 || (cache_valid_ && number == cached_.number + 1);
    spare_ = std::move(cached_);
    cached_ = std::move(chunk.value());
    cache_valid_ = true;
    if (in_order && number + 1 < chunk_count()) read_ahead_->start(number + 1, std::move(spare_));
    return ok_status();
}

}  // namespace d3dcap::trace

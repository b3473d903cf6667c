#include "hardening/trace_parts.h"

#include <d3dcap/fb/trace_generated.h>
#include <lz4.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "format/trace/container.h"
#include "format/trace/reader.h"

namespace d3dcap::hardening {

namespace {

bool write_fully(int fd, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, bytes, size);
        if (n <= 0) return false;
        bytes += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

bool read_trace_parts(const std::string& path, TraceParts& parts, std::string& error) {
    auto reader = trace::TraceReader::open(path);
    if (!reader.ok()) {
        error = reader.error().to_string();
        return false;
    }
    // The header's bytes as the file holds them, after the prologue.
    std::ifstream file(path, std::ios::binary);
    trace::Prologue prologue{};
    file.read(reinterpret_cast<char*>(&prologue), sizeof prologue);
    parts.header.resize(prologue.header_size);
    file.read(reinterpret_cast<char*>(parts.header.data()),
              static_cast<std::streamsize>(parts.header.size()));
    if (!file) {
        error = path + ": cannot read the header";
        return false;
    }
    parts.records.clear();
    for (std::size_t c = 0; c < reader.value()->chunk_count(); ++c) {
        auto chunk = reader.value()->read_chunk(c);
        if (!chunk.ok()) {
            error = chunk.error().to_string();
            return false;
        }
        for (std::size_t r = 0; r < chunk->record_count(); ++r) {
            const std::uint8_t* start = chunk->bytes.data() + chunk->record_offsets[r];
            parts.records.emplace_back(start, start + chunk->record_size(r));
        }
    }
    return true;
}

Bytes join_records(const std::vector<Bytes>& records) {
    Bytes body;
    for (const Bytes& record : records) {
        body.insert(body.end(), record.begin(), record.end());
        body.resize(trace::padded(body.size()), 0);
    }
    return body;
}

std::vector<Bytes> split_records(const std::uint8_t* data, std::size_t size) {
    std::vector<Bytes> records;
    std::size_t offset = 0;
    while (size - offset >= sizeof(std::uint32_t)) {
        std::uint32_t length = 0;
        std::memcpy(&length, data + offset, sizeof length);
        if (length > size - offset - sizeof length) break;
        records.emplace_back(data + offset, data + offset + sizeof length + length);
        offset = std::min(size, trace::padded(offset + sizeof length + length));
    }
    return records;
}

bool write_trace(int fd, const Bytes& header, const std::vector<Bytes>& records) {
    trace::Prologue prologue{};
    std::memcpy(prologue.magic, trace::kFileMagic.data(), sizeof prologue.magic);
    prologue.major = trace::kFormatMajor;
    prologue.minor = trace::kFormatMinor;
    prologue.header_size = static_cast<std::uint32_t>(header.size());
    Bytes start(sizeof prologue + trace::padded(header.size()), 0);
    std::memcpy(start.data(), &prologue, sizeof prologue);
    std::memcpy(start.data() + sizeof prologue, header.data(), header.size());
    if (!write_fully(fd, start.data(), start.size())) return false;
    std::vector<char> compressed;
    for (std::size_t event = 0; event < records.size(); ++event) {
        Bytes body = records[event];
        // Records are numbered by their place; one the verifier refuses is
        // left as it is (the reader stops there).
        if (trace::verify_record(body.data(), body.size()))
            flatbuffers::GetMutableSizePrefixedRoot<fb::Record>(body.data())
                ->mutable_header()
                ->mutate_event(event);
        body.resize(trace::padded(body.size()), 0);
        const int source_size = static_cast<int>(body.size());
        compressed.resize(static_cast<std::size_t>(LZ4_compressBound(source_size)));
        const int compressed_size =
            LZ4_compress_default(reinterpret_cast<const char*>(body.data()), compressed.data(),
                                 source_size, static_cast<int>(compressed.size()));
        if (compressed_size <= 0) return false;
        trace::ChunkHeader chunk{trace::kChunkMagic,
                                 static_cast<std::uint32_t>(compressed_size),
                                 static_cast<std::uint32_t>(source_size),
                                 1,
                                 event,
                                 0};
        chunk.checksum = trace::chunk_checksum(chunk, compressed.data(), chunk.compressed_size);
        if (!write_fully(fd, &chunk, sizeof chunk) ||
            !write_fully(fd, compressed.data(), chunk.compressed_size))
            return false;
    }
    return true;
}

Bytes capture_header() {
    flatbuffers::FlatBufferBuilder b;
    const auto options = fb::CreateCaptureOptions(b, 0, 0, b.CreateString("fuzz"),
                                                  b.CreateString("fuzz"), b.CreateString(""));
    const auto device = fb::CreateDeviceDescription(b, b.CreateString("d3dcap reference device"),
                                                    0x1414, 0xd3dc, 0, 2, 0xb100, 3);
    b.Finish(fb::CreateTraceHeader(b, b.CreateString("d3dcap capture"), b.CreateString("0.1.0"), 0,
                                   options, device));
    return Bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

}  // namespace d3dcap::hardening

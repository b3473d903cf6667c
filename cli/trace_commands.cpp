#include "trace_commands.h"

#include <d3d11_2.h>
#include <d3dcap/api/calls.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "format/trace/reader.h"
#include "format/trace/record_json.h"
#include "format/trace/writer.h"

namespace d3dcap::cli {

namespace {

// D3D_DRIVER_TYPE as the capture asked for it.
std::string driver_type_name(std::uint32_t type) {
    switch (type) {
        case D3D_DRIVER_TYPE_HARDWARE:
            return "hardware driver";
        case D3D_DRIVER_TYPE_REFERENCE:
            return "reference driver";
        case D3D_DRIVER_TYPE_NULL:
            return "null driver";
        case D3D_DRIVER_TYPE_SOFTWARE:
            return "software driver";
        case D3D_DRIVER_TYPE_WARP:
            return "WARP driver";
        default:
            return "driver type " + std::to_string(type);
    }
}

// Opens a trace, printing why it cannot be opened, or (when warn_recovered)
// what recovery found in a trace that was cut short.
std::unique_ptr<trace::TraceReader> open_or_report(const std::string& path, std::ostream& err,
                                                   bool warn_recovered = true) {
    auto reader = trace::TraceReader::open(path);
    if (!reader.ok()) {
        err << "d3dcap: " << reader.error().to_string() << '\n';
        return nullptr;
    }
    if (warn_recovered && reader.value()->recovered()) {
        err << "d3dcap: " << path << ": " << reader.value()->recovery_note() << '\n';
    }
    return std::move(reader.value());
}

// Per-call counts name meta records as one group.
std::string count_name(std::uint16_t id) {
    return id == 0 ? "(meta records)" : trace::call_name(id);
}

std::string feature_level_name(std::uint32_t level) {
    return std::to_string(level >> 12) + "_" + std::to_string((level >> 8) & 0xf);
}

std::string text_of(const flatbuffers::String* text) {
    return text ? text->str() : std::string();
}

}  // namespace

int run_info(const InfoOptions& options, std::ostream& out, std::ostream& err) {
    auto reader = open_or_report(options.trace, err);
    if (!reader) return 1;
    const fb::TraceHeader& header = reader->header();
    const fb::TraceIndex& index = reader->index();
    std::uint64_t compressed = 0;
    for (const fb::ChunkEntry* chunk : *index.chunks()) compressed += chunk->compressed_size();
    const std::uint64_t uncompressed = index.uncompressed_bytes();
    std::vector<const fb::CallCount*> counts(index.call_counts()->begin(),
                                             index.call_counts()->end());
    std::stable_sort(
        counts.begin(), counts.end(),
        [](const fb::CallCount* a, const fb::CallCount* b) { return a->count() > b->count(); });
    const fb::DeviceDescription* device = header.device();

    nlohmann::ordered_json info;
    info["trace"] = options.trace;
    info["format"] =
        std::to_string(reader->format_major()) + "." + std::to_string(reader->format_minor());
    info["producer"] = text_of(header.producer()) + " " + text_of(header.producer_version());
    if (device != nullptr) {
        info["device"] = {{"adapter", text_of(device->adapter_name())},
                          {"vendor_id", device->vendor_id()},
                          {"device_id", device->device_id()},
                          {"driver", text_of(device->driver_version())},
                          {"feature_level", feature_level_name(device->feature_level())},
                          {"tiled_resources_tier", device->tiled_resources_tier()},
                          {"dedicated_video_memory", device->dedicated_video_memory()},
                          {"adapter_luid", device->adapter_luid()}};
    }
    info["events"] = index.event_count();
    info["frames"] = index.frame_first_events()->size();
    info["chunks"] = index.chunks()->size();
    info["threads"] = index.thread_count();
    info["markers"] = reader->marker_count();
    info["tiled_resources"] = index.tilings()->size();
    info["compressed_bytes"] = compressed;
    info["uncompressed_bytes"] = uncompressed;
    info["ratio"] =
        compressed ? static_cast<double>(uncompressed) / static_cast<double>(compressed) : 0.0;
    const std::string hashes = header.options() ? text_of(header.options()->content_hashes()) : "";
    if (!hashes.empty()) info["content_hashes"] = hashes;
    if (reader->recovered()) info["recovered"] = reader->recovery_note();
    nlohmann::ordered_json calls = nlohmann::json::array();
    for (const fb::CallCount* count : counts) {
        calls.push_back({{"call", count_name(count->call())},
                         {"count", count->count()},
                         {"bytes", count->bytes()}});
    }
    info["calls"] = std::move(calls);
    if (options.json) {
        out << info.dump(2) << '\n';
        return 0;
    }

    out << "trace:     " << options.trace << " (format " << info["format"].get<std::string>()
        << ")\n"
        << "producer:  " << info["producer"].get<std::string>() << '\n';
    if (device != nullptr) {
        out << "device:    " << text_of(device->adapter_name()) << ", vendor 0x" << std::hex
            << device->vendor_id() << " device 0x" << device->device_id() << std::dec;
        if (device->dedicated_video_memory() != 0)
            out << ", " << device->dedicated_video_memory() / (1024 * 1024) << " MiB";
        if (!text_of(device->driver_version()).empty())
            out << ", driver " << text_of(device->driver_version());
        out << ", " << driver_type_name(device->driver_type()) << ", feature level "
            << feature_level_name(device->feature_level()) << ", tiled resources tier "
            << device->tiled_resources_tier() << '\n';
    }
    out << "events:    " << index.event_count() << " in " << index.frame_first_events()->size()
        << " frames, " << index.thread_count() << " threads, " << reader->marker_count()
        << " markers, " << index.tilings()->size() << " tiled resources\n"
        << "chunks:    " << index.chunks()->size() << ", " << compressed << " bytes compressed, "
        << uncompressed << " uncompressed (ratio " << std::fixed << std::setprecision(2)
        << info["ratio"].get<double>() << ")\n";
    if (!hashes.empty())
        out << "hashes:    " << hashes
            << " (content hashes at each frame end and each Map that reads a staging copy)\n";
    if (reader->recovered()) out << "recovered: " << reader->recovery_note() << '\n';
    out << "calls:\n    count       bytes  bytes/call  call\n";
    for (const fb::CallCount* count : counts) {
        out << std::setw(9) << count->count() << std::setw(12) << count->bytes() << std::setw(12)
            << std::setprecision(1)
            << static_cast<double>(count->bytes()) / static_cast<double>(count->count()) << "  "
            << count_name(count->call()) << '\n';
    }
    return 0;
}

int run_dump(const DumpOptions& options, std::FILE* out, std::ostream& err) {
    auto reader = open_or_report(options.trace, err);
    if (!reader) return 1;
    const std::uint64_t events = reader->event_count();
    const std::uint64_t last =
        std::min(options.to.value_or(events ? events - 1 : 0), events ? events - 1 : 0);
    if (events == 0 || options.from > last) return 0;
    std::string text;
    text.reserve(1 << 20);
    for (std::size_t c = reader->chunk_of(options.from); c < reader->chunk_count(); ++c) {
        auto chunk = reader->read_chunk(c);
        if (!chunk.ok()) {
            std::fwrite(text.data(), 1, text.size(), out);
            std::fflush(out);
            err << "d3dcap: " << chunk.error().to_string() << '\n';
            return 1;
        }
        for (std::size_t i = 0; i < chunk->record_count(); ++i) {
            const std::uint64_t event = chunk->first_event + i;
            if (event < options.from) continue;
            if (event > last) break;
            if (options.json) {
                trace::append_record_json(chunk->record(i), text);
            } else {
                trace::append_record_text(chunk->record(i), text);
            }
            text += '\n';
        }
        std::fwrite(text.data(), 1, text.size(), out);
        text.clear();
        if (chunk->first_event + chunk->record_count() > last) break;
    }
    return std::fflush(out) == 0 ? 0 : 1;
}

int run_verify(const VerifyOptions& options, std::ostream& out, std::ostream& err) {
    auto reader = open_or_report(options.trace, err, /*warn_recovered=*/false);
    if (!reader) return 1;
    const std::size_t chunks = reader->chunk_count();
    std::size_t bad_chunks = 0;
    std::uint64_t records = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
        auto chunk = reader->read_chunk(c);
        if (!chunk.ok()) {
            ++bad_chunks;
            err << "  " << chunk.error().to_string() << '\n';
            continue;
        }
        records += chunk->record_count();
    }
    out << options.trace << ": format " << reader->format_major() << "." << reader->format_minor()
        << ", " << reader->event_count() << " events in " << chunks << " chunks, "
        << reader->index().frame_first_events()->size() << " frames\n"
        << "  " << (chunks - bad_chunks) << " of " << chunks << " chunks and " << records
        << " records passed their checksums and verification\n";
    if (reader->recovered()) {
        out << "TRUNCATED: " << reader->recovery_note() << '\n';
        return 1;
    }
    if (bad_chunks > 0) {
        out << "DAMAGED: " << bad_chunks << " of " << chunks << " chunks cannot be read\n";
        return 1;
    }
    out << "OK\n";
    return 0;
}

int run_repack(const RepackOptions& options, std::ostream& out, std::ostream& err) {
    auto reader = open_or_report(options.trace, err);
    if (!reader) return 1;
    // Written beside the output and renamed at the end: a failure leaves the
    // output (which may be the input) as it was.
    const std::string temporary = options.output + ".repacking";
    trace::WriterOptions writer_options;
    writer_options.compress = !options.store;
    const std::vector<std::uint8_t>& header = reader->header_bytes();
    auto writer =
        trace::TraceWriter::create(temporary, header.data(), header.size(), writer_options);
    if (!writer.ok()) {
        err << "d3dcap: " << writer.error().to_string() << '\n';
        return 1;
    }
    const auto* frames = reader->index().frame_first_events();
    std::size_t next_frame = 0;
    auto fail = [&](const std::string& message) {
        writer.value()->close();
        std::remove(temporary.c_str());
        err << "d3dcap: " << message << "; " << options.output << " was not written\n";
        return 1;
    };
    for (std::size_t c = 0; c < reader->chunk_count(); ++c) {
        auto chunk = reader->read_chunk(c);
        if (!chunk.ok()) return fail(chunk.error().to_string());
        for (std::size_t r = 0; r < chunk->record_count(); ++r) {
            const std::uint64_t event = chunk->record(r).header()->event();
            // A record followed by the first event of a frame ends one.
            while (frames != nullptr && next_frame < frames->size() &&
                   frames->Get(static_cast<flatbuffers::uoffset_t>(next_frame)) <= event) {
                ++next_frame;
            }
            const bool end_of_frame =
                frames != nullptr && next_frame < frames->size() &&
                frames->Get(static_cast<flatbuffers::uoffset_t>(next_frame)) == event + 1;
            const std::uint8_t* bytes = chunk->bytes.data() + chunk->record_offsets[r];
            if (!writer.value()->submit_copy(bytes, chunk->record_size(r), end_of_frame)) {
                return fail(temporary + ": " + writer.value()->error());
            }
        }
    }
    if (trace::Status status = writer.value()->close(); !status) {
        return fail(status.error().to_string());
    }
    std::error_code error;
    std::filesystem::rename(temporary, options.output, error);
    if (error) return fail("cannot rename " + temporary + ": " + error.message());
    const std::uintmax_t size = std::filesystem::file_size(options.output, error);
    out << options.trace << " -> " << options.output << ": " << reader->event_count() << " events, "
        << reader->file_size() << " -> " << size << " bytes, chunks "
        << (options.store ? "stored" : "LZ4-compressed") << '\n';
    return 0;
}

}  // namespace d3dcap::cli

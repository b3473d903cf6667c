#include "runtime/shader/reflection.h"

#include <cstring>
#include <optional>

namespace d3dcap::runtime::shader {

namespace {

constexpr std::uint32_t kRd11 = 0x31314452;  // "RD11"
constexpr std::size_t kHeaderWords = 7, kRd11Words = 8;
constexpr std::size_t kBindingBytes = 32, kBufferBytes = 24, kMemberBytes = 12;
// Nesting and the number of types decoded per chunk are bounded: a type
// may name itself as a member, or many members share one deep type.
constexpr int kMaxTypeDepth = 8;
constexpr std::size_t kMaxTypesDecoded = 1 << 16;

class ChunkReader {
  public:
    explicit ChunkReader(std::span<const std::uint8_t> data) : data_(data) {}

    std::optional<std::uint32_t> word(std::size_t at) const {
        if (at > data_.size() || data_.size() - at < 4) return std::nullopt;
        std::uint32_t value;
        std::memcpy(&value, data_.data() + at, 4);
        return value;
    }
    std::optional<std::uint16_t> half(std::size_t at) const {
        if (at > data_.size() || data_.size() - at < 2) return std::nullopt;
        std::uint16_t value;
        std::memcpy(&value, data_.data() + at, 2);
        return value;
    }
    // A NUL-terminated string inside the chunk.
    std::optional<std::string> text(std::size_t at) const {
        if (at >= data_.size()) return std::nullopt;
        const auto* start = reinterpret_cast<const char*>(data_.data() + at);
        const void* end = std::memchr(start, 0, data_.size() - at);
        if (end == nullptr) return std::nullopt;
        return std::string(start, static_cast<const char*>(end));
    }
    bool holds(std::size_t at, std::size_t count, std::size_t each) const {
        return at <= data_.size() && (each == 0 || count <= (data_.size() - at) / each);
    }

  private:
    std::span<const std::uint8_t> data_;
};

// Shader model 5 descriptions are larger; RD11 gives a variable's size (a
// type's is checked there, its name read at a fixed offset).
struct Layout {
    std::size_t variable_bytes = 24;
    bool model5 = false;
};

class RdefReader {
  public:
    RdefReader(std::span<const std::uint8_t> data, std::string& error) : in_(data), error_(error) {}

    bool read(Reflection& out) {
        std::uint32_t header[kHeaderWords]{};
        for (std::size_t i = 0; i < kHeaderWords; ++i) {
            const auto w = in_.word(i * 4);
            if (!w) return fail("the header is cut short", i * 4);
            header[i] = *w;
        }
        out.minor = static_cast<std::uint8_t>(header[4] & 0xff);
        out.major = static_cast<std::uint8_t>((header[4] >> 8) & 0xff);
        out.program_type = static_cast<std::uint16_t>(header[4] >> 16);
        out.flags = header[5];
        if (out.major >= 5) {
            layout_ = {40, true};
            const auto magic = in_.word(kHeaderWords * 4);
            if (!magic || *magic != kRd11) return fail("no RD11 header", kHeaderWords * 4);
            const auto variable = in_.word(kHeaderWords * 4 + 16);
            const auto type = in_.word(kHeaderWords * 4 + 20);
            if (!variable || !type || *variable < 40 || *type < 36)
                return fail("the RD11 header's sizes are cut short", kHeaderWords * 4);
            layout_.variable_bytes = *variable;
        }
        if (header[6] != 0) {
            auto creator = in_.text(header[6]);
            if (!creator) return fail("the creator string leaves the chunk", header[6]);
            out.creator = *creator;
        }
        if (!in_.holds(header[3], header[2], kBindingBytes))
            return fail(std::to_string(header[2]) + " bindings leave the chunk", header[3]);
        out.bindings.resize(header[2]);
        for (std::size_t i = 0; i < header[2]; ++i) {
            if (!read_binding(header[3] + i * kBindingBytes, out.bindings[i])) return false;
        }
        if (!in_.holds(header[1], header[0], kBufferBytes))
            return fail(std::to_string(header[0]) + " constant buffers leave the chunk", header[1]);
        out.constant_buffers.resize(header[0]);
        for (std::size_t i = 0; i < header[0]; ++i) {
            if (!read_buffer(header[1] + i * kBufferBytes, out.constant_buffers[i])) return false;
        }
        return true;
    }

  private:
    bool fail(const std::string& what, std::size_t at) {
        error_ = "RDEF: " + what + " (chunk byte " + std::to_string(at) + ")";
        return false;
    }
    bool words(std::size_t at, std::uint32_t* out, std::size_t count, const char* what) {
        for (std::size_t i = 0; i < count; ++i) {
            const auto w = in_.word(at + i * 4);
            if (!w) return fail(std::string(what) + " is cut short", at);
            out[i] = *w;
        }
        return true;
    }
    bool name(std::uint32_t at, std::string& out, const char* what) {
        auto text = in_.text(at);
        if (!text) return fail(std::string(what) + "'s name leaves the chunk", at);
        out = std::move(*text);
        return true;
    }
    bool read_binding(std::size_t at, ReflectedBinding& b) {
        std::uint32_t w[8]{};
        if (!words(at, w, 8, "a binding") || !name(w[0], b.name, "a binding")) return false;
        b.input_type = w[1];
        b.return_type = w[2];
        b.dimension = w[3];
        b.samples = w[4];
        b.bind_point = w[5];
        b.bind_count = w[6];
        b.flags = w[7];
        return true;
    }
    bool read_buffer(std::size_t at, ReflectedConstantBuffer& cb) {
        std::uint32_t w[6]{};
        if (!words(at, w, 6, "a constant buffer") || !name(w[0], cb.name, "a constant buffer"))
            return false;
        cb.size = w[3];
        cb.flags = w[4];
        cb.kind = w[5];
        if (!in_.holds(w[2], w[1], layout_.variable_bytes))
            return fail("constant buffer " + cb.name + "'s " + std::to_string(w[1]) +
                            " variables leave the chunk",
                        w[2]);
        cb.variables.resize(w[1]);
        for (std::size_t i = 0; i < w[1]; ++i) {
            if (!read_variable(w[2] + i * layout_.variable_bytes, cb.variables[i])) return false;
        }
        return true;
    }
    bool read_variable(std::size_t at, ReflectedVariable& v) {
        std::uint32_t w[6]{};
        if (!words(at, w, 6, "a variable") || !name(w[0], v.name, "a variable")) return false;
        v.offset = w[1];
        v.size = w[2];
        v.flags = w[3];
        return read_type(w[4], v.type, 0);
    }
    bool read_type(std::size_t at, ReflectedType& t, int depth) {
        if (depth > kMaxTypeDepth) return fail("types nest deeper than 8", at);
        if (++types_decoded_ > kMaxTypesDecoded) return fail("more than 65536 types", at);
        std::uint16_t h[6]{};
        for (std::size_t i = 0; i < 6; ++i) {
            const auto v = in_.half(at + i * 2);
            if (!v) return fail("a type is cut short", at);
            h[i] = *v;
        }
        const auto members_at = in_.word(at + 12);
        if (!members_at) return fail("a type is cut short", at);
        t.variable_class = h[0];
        t.base_type = h[1];
        t.rows = h[2];
        t.columns = h[3];
        t.elements = h[4];
        if (layout_.model5) {
            const auto name_at = in_.word(at + 32);
            if (!name_at) return fail("a type is cut short", at);
            if (*name_at != 0 && !name(*name_at, t.name, "a type")) return false;
        }
        if (!in_.holds(*members_at, h[5], kMemberBytes))
            return fail(std::to_string(h[5]) + " struct members leave the chunk", *members_at);
        t.members.resize(h[5]);
        for (std::size_t i = 0; i < h[5]; ++i) {
            std::uint32_t m[3]{};
            ReflectedMember& member = t.members[i];
            if (!words(*members_at + i * kMemberBytes, m, 3, "a struct member") ||
                !name(m[0], member.name, "a struct member") ||
                !read_type(m[1], member.type, depth + 1))
                return false;
            member.offset = m[2];
        }
        return true;
    }

    ChunkReader in_;
    std::string& error_;
    Layout layout_;
    std::size_t types_decoded_ = 0;
};

class RdefWriter {
  public:
    explicit RdefWriter(const Reflection& r) : r_(r), model5_(r.major >= 5) {}

    std::vector<std::uint8_t> write() {
        const std::size_t variable_bytes = model5_ ? 40 : 24, type_bytes = model5_ ? 36 : 16;
        std::size_t variables = 0;
        for (const auto& cb : r_.constant_buffers) variables += cb.variables.size();
        const std::size_t header = (kHeaderWords + (model5_ ? kRd11Words : 0)) * 4;
        const std::size_t bindings_at = header;
        const std::size_t buffers_at = bindings_at + r_.bindings.size() * kBindingBytes;
        const std::size_t variables_at = buffers_at + r_.constant_buffers.size() * kBufferBytes;
        const std::size_t types_at = variables_at + variables * variable_bytes;
        out_.assign(types_at + variables * type_bytes, 0);  // strings follow

        put(0, static_cast<std::uint32_t>(r_.constant_buffers.size()));
        put(4, static_cast<std::uint32_t>(buffers_at));
        put(8, static_cast<std::uint32_t>(r_.bindings.size()));
        put(12, static_cast<std::uint32_t>(bindings_at));
        put(16, std::uint32_t{r_.minor} | std::uint32_t{r_.major} << 8 |
                    std::uint32_t{r_.program_type} << 16);
        put(20, r_.flags);
        put(24, string(r_.creator));
        if (model5_) {
            const std::uint32_t rd11[kRd11Words] = {kRd11, 60, 24, 32, 40, 36, 12, 0};
            for (std::size_t i = 0; i < kRd11Words; ++i) put(28 + i * 4, rd11[i]);
        }
        for (std::size_t i = 0; i < r_.bindings.size(); ++i) {
            const ReflectedBinding& b = r_.bindings[i];
            const std::uint32_t w[8] = {string(b.name), b.input_type, b.return_type, b.dimension,
                                        b.samples,      b.bind_point, b.bind_count,  b.flags};
            for (std::size_t k = 0; k < 8; ++k) put(bindings_at + i * kBindingBytes + k * 4, w[k]);
        }
        std::size_t variable = 0;
        for (std::size_t i = 0; i < r_.constant_buffers.size(); ++i) {
            const ReflectedConstantBuffer& cb = r_.constant_buffers[i];
            const std::size_t first = variables_at + variable * variable_bytes;
            const std::uint32_t w[6] = {string(cb.name),
                                        static_cast<std::uint32_t>(cb.variables.size()),
                                        static_cast<std::uint32_t>(first),
                                        cb.size,
                                        cb.flags,
                                        cb.kind};
            for (std::size_t k = 0; k < 6; ++k) put(buffers_at + i * kBufferBytes + k * 4, w[k]);
            for (const ReflectedVariable& v : cb.variables) {
                const std::size_t at = variables_at + variable * variable_bytes;
                const std::size_t type = types_at + variable * type_bytes;
                const std::uint32_t vw[6] = {
                    string(v.name), v.offset, v.size, v.flags, static_cast<std::uint32_t>(type), 0};
                for (std::size_t k = 0; k < 6; ++k) put(at + k * 4, vw[k]);
                if (model5_) {  // no textures or samplers: start -1, size 0
                    put(at + 24, 0xffffffffu);
                    put(at + 32, 0xffffffffu);
                }
                write_type(type, v.type);
                ++variable;
            }
        }
        return std::move(out_);
    }

  private:
    void put(std::size_t at, std::uint32_t value) { std::memcpy(out_.data() + at, &value, 4); }
    void put_half(std::size_t at, std::uint16_t value) { std::memcpy(out_.data() + at, &value, 2); }
    std::uint32_t string(const std::string& text) {
        const auto at = static_cast<std::uint32_t>(out_.size());
        out_.insert(out_.end(), text.begin(), text.end());
        out_.push_back(0);
        return at;
    }
    // Struct members are not written: the assembler declares none.
    void write_type(std::size_t at, const ReflectedType& t) {
        const std::uint16_t h[6] = {t.variable_class, t.base_type, t.rows,
                                    t.columns,        t.elements,  0};
        for (std::size_t k = 0; k < 6; ++k) put_half(at + k * 2, h[k]);
        if (model5_) {
            const std::string named = t.name.empty() ? type_name(t) : t.name;
            put(at + 32, string(named));
        }
    }

    const Reflection& r_;
    bool model5_;
    std::vector<std::uint8_t> out_;
};

}  // namespace

bool ReflectedType::operator==(const ReflectedType& other) const {
    return variable_class == other.variable_class && base_type == other.base_type &&
           rows == other.rows && columns == other.columns && elements == other.elements &&
           members == other.members && name == other.name;
}

const ReflectedConstantBuffer* Reflection::constant_buffer_at(std::uint32_t slot) const {
    for (const ReflectedBinding& b : bindings) {
        if (b.input_type != 0 || slot < b.bind_point || slot - b.bind_point >= b.bind_count)
            continue;
        for (const ReflectedConstantBuffer& cb : constant_buffers) {
            if (cb.kind == 0 && cb.name == b.name) return &cb;
        }
    }
    return nullptr;
}

namespace {

// The register file of a D3D_SHADER_INPUT_TYPE: 'b' constant buffers, 't'
// views (tbuffers, textures, structured and raw buffers), 's' samplers,
// 'u' UAVs.
char register_file(std::uint32_t input_type) {
    switch (input_type) {
        case 0:
            return 'b';
        case 1:
        case 2:
        case 5:
        case 7:
            return 't';
        case 3:
            return 's';
        default:
            return 'u';
    }
}

}  // namespace

std::string Reflection::binding_name(char file, std::uint32_t slot) const {
    for (const ReflectedBinding& b : bindings) {
        if (register_file(b.input_type) == file && slot >= b.bind_point &&
            slot - b.bind_point < b.bind_count)
            return b.name;
    }
    return {};
}

bool read_reflection(std::span<const ContainerChunk> chunks, Reflection& out, std::string& error) {
    error.clear();
    const ContainerChunk* chunk = find_chunk(chunks, "RDEF");
    if (chunk == nullptr) return false;
    out = {};
    return RdefReader(chunk->data, error).read(out);
}

std::vector<std::uint8_t> write_reflection(const Reflection& reflection) {
    return RdefWriter(reflection).write();
}

std::string reflection_text(const Reflection& reflection) {
    std::string text;
    for (const ReflectedBinding& b : reflection.bindings) {
        if (b.input_type != 0) continue;
        const ReflectedConstantBuffer* cb = reflection.constant_buffer_at(b.bind_point);
        if (cb == nullptr || cb->name != b.name) continue;
        text += ".cbuffer " + cb->name + " b" + std::to_string(b.bind_point) + " " +
                std::to_string(cb->size) + "\n";
        for (const ReflectedVariable& v : cb->variables) {
            const std::string type = type_name(v.type);
            const bool declared = !type.empty() && v.type.variable_class != 2;
            text += std::string(declared ? "" : "// ") + ".variable " + v.name + " " +
                    std::to_string(v.offset) + " " +
                    (declared              ? type
                     : v.type.name.empty() ? std::string("(a struct or object)")
                                           : v.type.name + " (not declarable)");
            if (v.type.elements > 0) text += "[" + std::to_string(v.type.elements) + "]";
            text += "\n";
        }
    }
    for (const ReflectedBinding& b : reflection.bindings) {
        const char file = register_file(b.input_type);
        if (file != 'b' && b.bind_count == 1)
            text += ".binding " + b.name + " " + file + std::to_string(b.bind_point) + "\n";
    }
    return text;
}

std::uint32_t component_bytes(const ReflectedType& type) {
    return type.base_type == 39 ? 8 : 4;
}

std::uint32_t element_bytes(const ReflectedType& type) {
    const std::uint32_t component = component_bytes(type);
    switch (type.variable_class) {
        case 2:
            return (type.rows - 1u) * 16 + type.columns * component;
        case 3:
            return (type.columns - 1u) * 16 + type.rows * component;
        default:
            return type.columns * component;
    }
}

std::uint32_t element_stride(const ReflectedType& type) {
    return (element_bytes(type) + 15) / 16 * 16;
}

std::string type_name(const ReflectedType& type) {
    const char* base = nullptr;
    switch (type.base_type) {
        case 1:
            base = "bool";
            break;
        case 2:
            base = "int";
            break;
        case 3:
            base = "float";
            break;
        case 19:
            base = "uint";
            break;
        case 39:
            base = "double";
            break;
        default:
            return {};
    }
    switch (type.variable_class) {
        case 0:
            return base;
        case 1:
            return base + std::to_string(type.columns);
        case 2:
        case 3:
            return base + std::to_string(type.rows) + "x" + std::to_string(type.columns);
        default:
            return {};
    }
}

}  // namespace d3dcap::runtime::shader

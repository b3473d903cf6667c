"""The C++ the generated call encoders carry as it is (encoders.py writes it
into call_encoders.h and call_encoders.cpp): UTF-8 of wide strings, the
scalar, object-id, blob and string helpers, the sequence helpers, and the
record-template shape and patch helpers."""

HELPERS = r"""
// The FlatBuffers scalar of a C value: numbers and enums converted, handles
// (pointers) as their value, LARGE_INTEGER as its QuadPart.
template <typename T, typename C>
T scalar(const C& value) {
    if constexpr (std::is_pointer_v<C>)
        return static_cast<T>(reinterpret_cast<std::uintptr_t>(value));
    else if constexpr (std::is_same_v<C, LARGE_INTEGER>)
        return static_cast<T>(value.QuadPart);
    else
        return static_cast<T>(value);
}

[[maybe_unused]] std::uint64_t object_id(ObjectIds& ids, const void* object) {
    return object == nullptr ? 0 : ids.id_of(object);
}

// A size the table cannot state (the blob is left absent).
[[maybe_unused]] constexpr std::size_t kUnknownSize = ~std::size_t{0};

[[maybe_unused]] flatbuffers::Offset<flatbuffers::Vector<std::uint8_t>> blob(
    flatbuffers::FlatBufferBuilder& b, const void* data, std::size_t size) {
    if (data == nullptr || size == kUnknownSize) return 0;
    return b.CreateVector(static_cast<const std::uint8_t*>(data), size);
}

[[maybe_unused]] flatbuffers::Offset<flatbuffers::String> narrow_string(
    flatbuffers::FlatBufferBuilder& b, const char* text) {
    return text == nullptr ? 0 : b.CreateString(text);
}

// A char array field: up to its first NUL.
[[maybe_unused]] flatbuffers::Offset<flatbuffers::String> narrow_string(
    flatbuffers::FlatBufferBuilder& b, const char* text, std::size_t capacity) {
    std::size_t length = 0;
    while (length < capacity && text[length] != 0) ++length;
    return b.CreateString(text, length);
}

[[maybe_unused]] flatbuffers::Offset<flatbuffers::String> wide_string(
    flatbuffers::FlatBufferBuilder& b, const wchar_t* text) {
    return text == nullptr ? 0 : wide_string_of(b, text);
}

// A WCHAR array field: up to its first NUL.
[[maybe_unused]] flatbuffers::Offset<flatbuffers::String> wide_string(
    flatbuffers::FlatBufferBuilder& b, const wchar_t* text, std::size_t capacity) {
    std::size_t length = 0;
    while (length < capacity && text[length] != 0) ++length;
    return wide_string_of(b, std::wstring_view(text, length));
}
"""

RECORD_SHAPE = r"""// What lays out a call's record besides the call: which pointers are NULL and
// the lengths of arrays, strings and blobs. Records of one shape built with
// every scalar present (FlatBufferBuilder::ForceDefaults) are laid out alike,
// so the capture layer keeps the last one as a template and patch_<Call>
// writes the next call's arguments into it instead of building anew.
// shape_<Call> is false when a call cannot be patched (a label that is not
// ASCII, more parts than kParts).
struct RecordShape {
    static constexpr std::size_t kParts = 8;
    std::array<std::uint32_t, kParts> parts{};
    std::size_t count = 0;

    bool add(std::uint64_t part) {
        if (count == kParts || part > UINT32_MAX) return false;
        parts[count++] = static_cast<std::uint32_t>(part);
        return true;
    }
    // An array or blob: absent (NULL, unknown size) or its element count.
    template <typename T>
    bool add_array(const T* data, std::size_t size) {
        return add(data == nullptr || size == ~std::size_t{0} ? 0 : std::uint64_t{size} + 1);
    }
    // A string: absent, or its length as measure gives it (false: no template).
    template <typename C>
    bool add_string(const C* text, bool (*measure)(const C*, std::size_t&)) {
        std::size_t length = 0;
        if (text != nullptr && !measure(text, length)) return false;
        return add(text == nullptr ? 0 : std::uint64_t{length} + 1);
    }
    bool operator==(const RecordShape&) const = default;
};
// The length of an all-ASCII wide string (false for any other: its UTF-8
// length differs), and of a narrow one.
bool ascii_length(const wchar_t* text, std::size_t& length);
bool narrow_length(const char* text, std::size_t& length);
"""

PATCH_HELPERS = r"""
// Writes into a template's arrays, strings and blobs, whose lengths the
// shape fixed.
template <typename T, typename C>
[[maybe_unused]] void patch_scalars(flatbuffers::Vector<T>* out, const C* values) {
    for (flatbuffers::uoffset_t i = 0; i < out->size(); ++i) out->Mutate(i, scalar<T>(values[i]));
}

template <typename Object>
[[maybe_unused]] void patch_ids(flatbuffers::Vector<std::uint64_t>* out, ObjectIds& ids,
                                Object* const* objects) {
    for (flatbuffers::uoffset_t i = 0; i < out->size(); ++i)
        out->Mutate(i, object_id(ids, objects[i]));
}

[[maybe_unused]] void patch_bytes(flatbuffers::Vector<std::uint8_t>* out, const void* data) {
    std::memcpy(out->data(), data, out->size());
}

template <typename C>
[[maybe_unused]] void patch_text(flatbuffers::String* out, const C* text) {
    auto* bytes = reinterpret_cast<char*>(out->data());
    for (flatbuffers::uoffset_t i = 0; i < out->size(); ++i) bytes[i] = static_cast<char>(text[i]);
}
"""

SEQUENCE_HELPERS = r"""
// A fixed C array as the std::array an fbs struct constructor takes.
template <typename T, std::size_t N, typename C>
std::array<T, N> array_of(const C (&values)[N]) {
    std::array<T, N> out{};
    for (std::size_t i = 0; i < N; ++i) {
        if constexpr (std::is_arithmetic_v<T>)
            out[i] = scalar<T>(values[i]);
        else
            out[i] = to_fb(values[i]);
    }
    return out;
}

template <typename T, typename C>
flatbuffers::Offset<flatbuffers::Vector<T>> scalars(flatbuffers::FlatBufferBuilder& b,
                                                    const C* values, std::size_t count) {
    if (values == nullptr) return 0;
    T* out = nullptr;
    const auto vector = b.CreateUninitializedVector(count, &out);
    for (std::size_t i = 0; i < count; ++i) flatbuffers::WriteScalar(out + i, scalar<T>(values[i]));
    return vector;
}

template <typename Object>
flatbuffers::Offset<flatbuffers::Vector<std::uint64_t>> object_ids(
    flatbuffers::FlatBufferBuilder& b, ObjectIds& ids, Object* const* objects, std::size_t count) {
    if (objects == nullptr) return 0;
    std::uint64_t* out = nullptr;
    const auto vector = b.CreateUninitializedVector(count, &out);
    for (std::size_t i = 0; i < count; ++i)
        flatbuffers::WriteScalar(out + i, object_id(ids, objects[i]));
    return vector;
}

template <typename Fb, typename C>
flatbuffers::Offset<flatbuffers::Vector<const Fb*>> structs(flatbuffers::FlatBufferBuilder& b,
                                                            const C* values, std::size_t count) {
    if (values == nullptr) return 0;
    return b.CreateVectorOfStructs<Fb>(
        count, [](std::size_t i, Fb* out, const C* from) { *out = to_fb(from[i]); }, values);
}

// Tables are built one by one before the vector that holds them.
template <typename C, typename EncodeOne,
          typename Offset = std::invoke_result_t<EncodeOne, const C&>>
flatbuffers::Offset<flatbuffers::Vector<Offset>> tables(flatbuffers::FlatBufferBuilder& b,
                                                        const C* values, std::size_t count,
                                                        EncodeOne encode_one) {
    if (values == nullptr) return 0;
    std::vector<Offset> offsets;
    offsets.reserve(count);
    for (std::size_t i = 0; i < count; ++i) offsets.push_back(encode_one(values[i]));
    return b.CreateVector(offsets);
}

// Tables whose one blob's size comes from a size rule: one size per element.
template <typename C, typename EncodeOne,
          typename Offset = std::invoke_result_t<EncodeOne, const C&, std::size_t>>
flatbuffers::Offset<flatbuffers::Vector<Offset>> sized_tables(
    flatbuffers::FlatBufferBuilder& b, const C* values, std::span<const std::size_t> sizes,
    EncodeOne encode_one) {
    std::vector<Offset> offsets;
    offsets.reserve(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) offsets.push_back(encode_one(values[i], sizes[i]));
    return b.CreateVector(offsets);
}
"""

WIDE_TO_UTF8 = r"""
namespace {

// The code point at text[i], i moved past it. Where wchar_t is UTF-16
// (Windows) a surrogate pair is one code point; a lone surrogate, or one in
// UTF-32 text, is U+FFFD.
std::uint32_t next_code_point(std::wstring_view text, std::size_t& i) {
    auto code = static_cast<std::uint32_t>(text[i++]);
    if constexpr (sizeof(wchar_t) == 2) {
        if (code >= 0xD800 && code <= 0xDBFF && i < text.size()) {
            const auto low = static_cast<std::uint32_t>(text[i]);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                ++i;
                return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
        }
    }
    if ((code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return 0xFFFD;
    return code;
}

std::size_t utf8_length(std::wstring_view text) {
    std::size_t length = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::uint32_t code = next_code_point(text, i);
        length += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    }
    return length;
}

// Writes utf8_length(text) bytes.
void write_utf8(std::wstring_view text, char* out) {
    for (std::size_t i = 0; i < text.size();) {
        const std::uint32_t code = next_code_point(text, i);
        if (code < 0x80) {
            *out++ = static_cast<char>(code);
        } else if (code < 0x800) {
            *out++ = static_cast<char>(0xC0 | (code >> 6));
            *out++ = static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            *out++ = static_cast<char>(0xE0 | (code >> 12));
            *out++ = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            *out++ = static_cast<char>(0x80 | (code & 0x3F));
        } else {
            *out++ = static_cast<char>(0xF0 | (code >> 18));
            *out++ = static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            *out++ = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            *out++ = static_cast<char>(0x80 | (code & 0x3F));
        }
    }
}

// Labels and names are short: encoded on the stack, not in a string.
flatbuffers::Offset<flatbuffers::String> wide_string_of(flatbuffers::FlatBufferBuilder& b,
                                                        std::wstring_view text) {
    char small[256];
    // Most labels are ASCII: one pass copies them.
    std::size_t ascii = 0;
    for (; ascii < text.size() && ascii < sizeof(small); ++ascii) {
        const auto code = static_cast<std::uint32_t>(text[ascii]);
        if (code >= 0x80) break;
        small[ascii] = static_cast<char>(code);
    }
    if (ascii == text.size()) return b.CreateString(small, ascii);
    const std::size_t length = utf8_length(text);
    std::string large;
    char* bytes = small;
    if (length > sizeof(small)) {
        large.resize(length);
        bytes = large.data();
    }
    write_utf8(text, bytes);
    return b.CreateString(bytes, length);
}

}  // namespace

std::string WideToUtf8(std::wstring_view text) {
    std::string out(utf8_length(text), '\0');
    write_utf8(text, out.data());
    return out;
}

bool ascii_length(const wchar_t* text, std::size_t& length) {
    for (length = 0; text[length] != 0; ++length) {
        if (static_cast<std::uint32_t>(text[length]) >= 0x80) return false;
    }
    return true;
}

bool narrow_length(const char* text, std::size_t& length) {
    length = std::strlen(text);
    return true;
}
"""

"""The C++ that decoders.py emits as it is: the decode context and the helpers
every generated invoker uses (in call_decoders.h and src/call_decoders.cpp).

Kept apart from the generator so that each stays readable.
"""

# The header's types before the size-rule interface: the arena and the
# object map the replay engine implements.
HEADER_TYPES = r"""
// Memory for one call's decoded arguments: zeroed, 16-byte aligned blocks,
// reused after reset().
class Arena {
  public:
    Arena() = default;
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    void* allocate(std::size_t bytes);
    template <typename T>
    T* make(std::size_t count) {
        static_assert(std::is_trivially_destructible_v<T> && alignof(T) <= 16);
        return static_cast<T*>(allocate(count * sizeof(T)));
    }
    template <typename T>
    T* copy(const T& value) {
        T* out = make<T>(1);
        *out = value;
        return out;
    }
    void reset();

  private:
    static constexpr std::size_t kBlockBytes = 64 * 1024;
    struct Block {
        std::unique_ptr<std::max_align_t[]> data;
        std::size_t size = 0;
    };
    std::vector<Block> blocks_;
    std::size_t block_ = 0;  // the block being filled
    std::size_t used_ = 0;   // bytes of it in use
};

// The replayed objects by recorded id; the replay engine implements it.
class ObjectMap {
  public:
    // The object recorded as id (never 0) as the interface iid (named name),
    // without a new reference; nullptr, with *why saying what is wrong, when
    // the id is unknown or the object has no such interface.
    virtual void* find(std::uint64_t id, const IID& iid, const char* name, std::string* why) = 0;
    // Takes the reference to an object a replayed call handed out, recorded
    // under id (0: none recorded; the reference is dropped). object is
    // nullptr when the call handed out none. interface_name may be empty.
    virtual void add(std::uint64_t id, IUnknown* object, const char* interface_name) = 0;

  protected:
    ~ObjectMap() = default;
};
"""

# The header after the size-rule interface and the enum ranges.
HEADER_CONTEXT = r"""
// Where a value sits in a call's arguments, built on the stack and spelled
// out only for messages: "pDesc", "pInitialData[2].pSysMem".
struct Where {
    Where(const char* parameter) : name(parameter) {}
    Where(const char* field, const Where* outer) : name(field), parent(outer) {}
    Where(std::nullptr_t, const Where* array, std::uint64_t element)
        : parent(array), index(element) {}
    std::string str() const;

    const char* name = nullptr;  // a parameter, ".Field", or nullptr for an element
    const Where* parent = nullptr;
    std::uint64_t index = 0;
};

struct DecodeContext {
    Arena& arena;
    ObjectMap& objects;
    SizeRules& rules;
    std::string error;  // after a failure: "<parameter>: <what is wrong>"

    // Sets error; returns false.
    bool fail(const Where& where, std::string_view what);
};

// What a replayed call returned; ok is false when its record could not be
// decoded (ctx.error says why) and the call was not made.
struct Invoked {
    bool ok = false;
    std::int64_t result = 0;  // HRESULT or returned value (sign-extended), 0 for void
};

// The most bytes one array or blob of out storage may take.
inline constexpr std::uint64_t kMaxOutBytes = std::uint64_t{1} << 30;

// A C value from a FlatBuffers scalar: numbers and enums converted, handles
// (pointers) from their value, LARGE_INTEGER from its QuadPart.
template <typename C, typename F>
C from_scalar(F value) {
    if constexpr (std::is_pointer_v<C>) {
        return reinterpret_cast<C>(static_cast<std::uintptr_t>(value));
    } else if constexpr (std::is_same_v<C, LARGE_INTEGER>) {
        C out{};
        out.QuadPart = static_cast<LONGLONG>(value);
        return out;
    } else {
        return static_cast<C>(value);
    }
}

// from_scalar, refusing values an enum type cannot hold (EnumRange).
template <typename C, typename F>
bool value_in(DecodeContext& ctx, F value, const Where& where, C* out) {
    if constexpr (EnumRange<C>::checked) {
        if (static_cast<std::uint64_t>(value) > EnumRange<C>::max) {
            return ctx.fail(where, std::to_string(value) + " is not a value of " +
                                       EnumRange<C>::name);
        }
    }
    *out = from_scalar<C>(value);
    return true;
}

// The replayed object for a recorded id (0 gives nullptr), or a failure naming where.
template <typename I>
bool object_in(DecodeContext& ctx, std::uint64_t id, const Where& where, const char* name,
               I** out) {
    *out = nullptr;
    if (id == 0) return true;
    std::string why;
    void* found = ctx.objects.find(id, __uuidof(I), name, &why);
    if (found == nullptr) return ctx.fail(where, why);
    *out = static_cast<I*>(found);
    return true;
}

// A blob of the record (absent gives nullptr) that must hold need bytes.
bool blob_in(DecodeContext& ctx, const flatbuffers::Vector<std::uint8_t>* blob, std::uint64_t need,
             const Where& where, const std::uint8_t** out);

// UTF-8 as a NUL-terminated wchar_t string in the arena (nullptr stays
// nullptr); bytes that are not UTF-8 become U+FFFD.
const wchar_t* wide_string_in(Arena& arena, const flatbuffers::String* text);
"""

# The source before the generated conversions and invokers.
SOURCE_HELPERS = r"""
void* Arena::allocate(std::size_t bytes) {
    bytes = (bytes + 15) & ~std::size_t{15};
    if (bytes == 0) bytes = 16;
    while (block_ < blocks_.size()) {
        Block& block = blocks_[block_];
        if (block.size - used_ >= bytes) {
            auto* out = reinterpret_cast<unsigned char*>(block.data.get()) + used_;
            used_ += bytes;
            std::memset(out, 0, bytes);
            return out;
        }
        ++block_;
        used_ = 0;
    }
    Block block;
    block.size = std::max<std::size_t>(bytes, kBlockBytes);
    block.data.reset(new std::max_align_t[(block.size + sizeof(std::max_align_t) - 1) /
                                          sizeof(std::max_align_t)]);
    blocks_.push_back(std::move(block));
    block_ = blocks_.size() - 1;
    used_ = bytes;
    std::memset(blocks_.back().data.get(), 0, bytes);
    return blocks_.back().data.get();
}

void Arena::reset() {
    // Keeps one block of the usual size: a call with large arrays does not
    // keep its memory for the calls after it.
    if (blocks_.size() > 1 || (!blocks_.empty() && blocks_[0].size > kBlockBytes)) {
        blocks_.resize(blocks_[0].size > kBlockBytes ? 0 : 1);
    }
    block_ = 0;
    used_ = 0;
}

std::string Where::str() const {
    std::string out = parent != nullptr ? parent->str() : std::string();
    if (name != nullptr)
        out += name;
    else
        out += "[" + std::to_string(index) + "]";
    return out;
}

bool DecodeContext::fail(const Where& where, std::string_view what) {
    error = where.str();
    error += ": ";
    error += what;
    return false;
}

bool blob_in(DecodeContext& ctx, const flatbuffers::Vector<std::uint8_t>* blob, std::uint64_t need,
             const Where& where, const std::uint8_t** out) {
    *out = nullptr;
    if (blob == nullptr) return true;
    if (blob->size() < need)
        return ctx.fail(where, "the record holds " + std::to_string(blob->size()) +
                                   " bytes, the call reads " + std::to_string(need));
    *out = blob->data();
    return true;
}

const wchar_t* wide_string_in(Arena& arena, const flatbuffers::String* text) {
    if (text == nullptr) return nullptr;
    const auto* s = reinterpret_cast<const unsigned char*>(text->data());
    const std::size_t n = text->size();
    wchar_t* out = arena.make<wchar_t>(n + 1);
    std::size_t length = 0;
    for (std::size_t i = 0; i < n;) {
        const unsigned char lead = s[i];
        std::uint32_t code = 0xFFFD;
        std::size_t units = 1;
        if (lead < 0x80) {
            code = lead;
        } else if (lead >= 0xC2 && lead < 0xF5) {
            const std::size_t extra = lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
            std::uint32_t value = lead & (0x3F >> extra);
            bool valid = i + extra < n;
            for (std::size_t k = 1; valid && k <= extra; ++k) {
                if ((s[i + k] & 0xC0) != 0x80) valid = false;
                else value = (value << 6) | (s[i + k] & 0x3F);
            }
            static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
            if (valid && value >= kMin[extra] && value <= 0x10FFFF &&
                (value < 0xD800 || value > 0xDFFF)) {
                code = value;
                units = extra + 1;
            }
        }
        out[length++] = static_cast<wchar_t>(code);
        i += units;
    }
    out[length] = 0;
    return out;
}

namespace {

// What the engine compares: HRESULTs and integers as they are.
template <typename T>
std::int64_t result_value(T value) {
    if constexpr (std::is_floating_point_v<T>)
        return 0;
    else
        return static_cast<std::int64_t>(value);
}

std::string too_few(std::uint32_t have, std::uint64_t need) {
    return "the record holds " + std::to_string(have) + " elements, the call reads " +
           std::to_string(need);
}

// A pointer the API does not allow to be NULL: absent only when nothing is read.
template <typename Vector>
[[maybe_unused]] bool present_if_read(DecodeContext& ctx, const Vector* recorded,
                                      std::uint64_t need, const Where& where) {
    if (recorded != nullptr || need == 0) return true;
    return ctx.fail(where, "is absent (NULL) but the call reads " + std::to_string(need) +
                               (std::is_same_v<Vector, flatbuffers::Vector<std::uint8_t>>
                                    ? " bytes"
                                    : " elements") +
                               " through it");
}

// Zeroed out storage for count elements of T, within kMaxOutBytes.
template <typename T>
bool storage_out(DecodeContext& ctx, std::uint64_t count, const Where& where, T** out) {
    if (count > kMaxOutBytes / sizeof(T))
        return ctx.fail(where, "the call would write " + std::to_string(count) +
                                   " elements, more than replay allows");
    *out = ctx.arena.make<T>(static_cast<std::size_t>(count));
    return true;
}

[[maybe_unused]] bool bytes_out(DecodeContext& ctx, std::uint64_t bytes, const Where& where,
                                void** out) {
    unsigned char* storage = nullptr;
    if (!storage_out(ctx, bytes, where, &storage)) return false;
    *out = storage;
    return true;
}

// An inout blob starts as recorded (the rest zero).
[[maybe_unused]] void copy_blob(void* storage, std::uint64_t bytes,
                                const flatbuffers::Vector<std::uint8_t>& recorded) {
    std::memcpy(storage, recorded.data(), std::min<std::uint64_t>(bytes, recorded.size()));
}

template <typename C, typename F>
bool scalars_in(DecodeContext& ctx, const flatbuffers::Vector<F>* values, std::uint64_t count,
                const Where& where, C** out) {
    *out = nullptr;
    if (values == nullptr) return true;
    if (values->size() < count) return ctx.fail(where, too_few(values->size(), count));
    C* data = ctx.arena.make<C>(static_cast<std::size_t>(count));
    for (std::uint32_t i = 0; i < count; ++i) {
        if (!value_in(ctx, values->Get(i), Where(nullptr, &where, i), &data[i])) return false;
    }
    *out = data;
    return true;
}

template <typename C, typename F>
bool structs_in(DecodeContext& ctx, const flatbuffers::Vector<const F*>* values,
                std::uint64_t count, const Where& where, C** out) {
    *out = nullptr;
    if (values == nullptr) return true;
    if (values->size() < count) return ctx.fail(where, too_few(values->size(), count));
    C* data = ctx.arena.make<C>(static_cast<std::size_t>(count));
    for (std::uint32_t i = 0; i < count; ++i) {
        if (!from_fb(*values->Get(i), data[i], ctx, Where(nullptr, &where, i))) return false;
    }
    *out = data;
    return true;
}

template <typename C, typename F>
bool tables_in(DecodeContext& ctx, const flatbuffers::Vector<flatbuffers::Offset<F>>* values,
               std::uint64_t count, const Where& where, C** out) {
    *out = nullptr;
    if (values == nullptr) return true;
    if (values->size() < count) return ctx.fail(where, too_few(values->size(), count));
    C* data = ctx.arena.make<C>(static_cast<std::size_t>(count));
    for (std::uint32_t i = 0; i < count; ++i) {
        if (!decode_table(*values->Get(i), data[i], ctx, Where(nullptr, &where, i))) return false;
    }
    *out = data;
    return true;
}

template <typename I>
bool objects_in(DecodeContext& ctx, const flatbuffers::Vector<std::uint64_t>* ids,
                std::uint64_t count, const Where& where, const char* name, I*** out) {
    *out = nullptr;
    if (ids == nullptr) return true;
    if (ids->size() < count) return ctx.fail(where, too_few(ids->size(), count));
    I** data = ctx.arena.make<I*>(static_cast<std::size_t>(count));
    for (std::uint32_t i = 0; i < count; ++i) {
        if (!object_in(ctx, ids->Get(i), Where(nullptr, &where, i), name, &data[i])) return false;
    }
    *out = data;
    return true;
}

// The objects an array out parameter received, under their recorded ids.
template <typename I>
void add_objects(DecodeContext& ctx, const flatbuffers::Vector<std::uint64_t>* ids, I** objects,
                 std::uint64_t count, const char* name) {
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint64_t id = ids != nullptr && i < ids->size() ? ids->Get(i) : 0;
        ctx.objects.add(id, objects[i], name);
    }
}

// Each recorded table's blob field must hold need bytes (sizes the API table
// cannot state, e.g. a buffer's initial data).
template <typename Table, typename Field>
bool field_blobs_cover(DecodeContext& ctx,
                       const flatbuffers::Vector<flatbuffers::Offset<Table>>* tables, Field field,
                       std::uint64_t need, const char* param, const char* name) {
    if (tables == nullptr) return true;
    for (flatbuffers::uoffset_t i = 0; i < tables->size(); ++i) {
        const auto* blob = field(*tables->Get(i));
        if (blob != nullptr && blob->size() < need) {
            const Where array(param);
            const Where element(nullptr, &array, i);
            return ctx.fail(Where(name, &element),
                            "the record holds " + std::to_string(blob->size()) +
                                " bytes, the call reads " + std::to_string(need));
        }
    }
    return true;
}

// Fixed character arrays of structs: up to their size, NUL-terminated.
template <std::size_t N>
[[maybe_unused]] void copy_narrow(char (&out)[N], const flatbuffers::String* text) {
    if (text == nullptr) return;
    const std::size_t n = std::min<std::size_t>(text->size(), N - 1);
    std::memcpy(out, text->data(), n);
    out[n] = 0;
}

template <std::size_t N>
[[maybe_unused]] void copy_wide(wchar_t (&out)[N], const flatbuffers::String* text) {
    if (text == nullptr) return;
    Arena scratch;
    const wchar_t* wide = wide_string_in(scratch, text);
    std::size_t n = 0;
    while (n + 1 < N && wide[n] != 0) {
        out[n] = wide[n];
        ++n;
    }
    out[n] = 0;
}

template <typename I, typename Params, Invoked (*invoke)(I*, const Params&, DecodeContext&)>
Invoked method(const fb::Record& record, DecodeContext& ctx, const char* interface_name) {
    const Params* params = CallOf<Params>::get(record);
    if (params == nullptr) {
        ctx.fail("parameters", "the record holds no parameter table for its call");
        return Invoked{};
    }
    const std::uint64_t self_id = record.header()->object();
    if (self_id == 0) {
        ctx.fail("this", std::string("the record names no object to call this ") +
                             interface_name + " method on");
        return Invoked{};
    }
    I* self = nullptr;
    if (!object_in(ctx, self_id, "this", interface_name, &self)) return Invoked{};
    return invoke(self, *params, ctx);
}

template <typename Params, Invoked (*invoke)(const Params&, DecodeContext&)>
Invoked function(const fb::Record& record, DecodeContext& ctx) {
    const Params* params = CallOf<Params>::get(record);
    if (params == nullptr) {
        ctx.fail("parameters", "the record holds no parameter table for its call");
        return Invoked{};
    }
    return invoke(*params, ctx);
}

}  // namespace
"""

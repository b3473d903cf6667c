// The COM base every object of the runtime shares: reference counts, the
// interface lookup behind QueryInterface, and the private-data store.
//
// Counting: each object has a public count (AddRef/Release, what the app
// sees) and an internal count (references the runtime itself holds: bindings
// in a context, a view's resource, a child's device, a command list's
// objects). Both live in one 64-bit atomic so that "both reached zero" is a
// single event; the object is destroyed then. Release returns the public
// count, as on Windows, where a bound object survives its last Release.
#pragma once

#include <d3d11_2.h>
#include <dxgi1_2.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace d3dcap::runtime {

using ObjectId = std::uint64_t;

// A new process-unique id (never 0) for the tile model and the backend.
ObjectId next_object_id();

// A private interface ID: QueryInterface with it yields the runtime's
// Object* for any interface pointer of one of its objects, without AddRef.
extern const GUID kObjectIid;

// True when riid names one of the interfaces.
template <class... Interfaces>
bool iid_is(REFIID riid) {
    return ((riid == __uuidof(Interfaces)) || ...);
}

// SetPrivateData / GetPrivateData / SetPrivateDataInterface of one object.
class PrivateDataStore {
  public:
    PrivateDataStore() = default;
    PrivateDataStore(const PrivateDataStore&) = delete;
    PrivateDataStore& operator=(const PrivateDataStore&) = delete;
    ~PrivateDataStore();

    HRESULT get(REFGUID guid, UINT* size, void* data);
    HRESULT set(REFGUID guid, UINT size, const void* data);
    HRESULT set_interface(REFGUID guid, const IUnknown* object);
    // The WKPDID_D3DDebugObjectName string, or "" when none was set.
    std::string debug_name();

  private:
    struct Entry {
        GUID guid{};
        std::vector<std::uint8_t> bytes;  // empty for interfaces
        IUnknown* object = nullptr;       // AddRef'd while stored
    };
    std::mutex mutex_;
    std::vector<Entry> entries_;
};

enum class ObjectKind : std::uint8_t {
    Device,
    Context,
    Buffer,
    Texture1D,
    Texture2D,
    Texture3D,
    ShaderResourceView,
    RenderTargetView,
    DepthStencilView,
    UnorderedAccessView,
    BlendState,
    DepthStencilState,
    RasterizerState,
    SamplerState,
    VertexShader,
    HullShader,
    DomainShader,
    GeometryShader,
    PixelShader,
    ComputeShader,
    InputLayout,
    ClassLinkage,
    ClassInstance,
    Query,
    Counter,
    CommandList,
    DeviceContextState,
    Factory,
    Adapter,
    Output,
    SwapChain,
};

class Object {
  public:
    explicit Object(ObjectKind kind) : kind_(kind), id_(next_object_id()) {}
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;
    virtual ~Object() = default;

    ObjectKind kind() const { return kind_; }
    ObjectId id() const { return id_; }
    PrivateDataStore& private_data() { return private_data_; }

    ULONG add_ref();
    ULONG release();
    void add_internal_ref() { counts_.fetch_add(kInternalOne, std::memory_order_relaxed); }
    void release_internal_ref();
    // AddRef unless the object is already on its way to destruction (for
    // caches that hold objects without a reference).
    bool try_add_ref();
    std::uint32_t public_count() const {
        return static_cast<std::uint32_t>(counts_.load(std::memory_order_acquire));
    }
    std::uint32_t internal_count() const {
        return static_cast<std::uint32_t>(counts_.load(std::memory_order_acquire) >> 32);
    }

    // The interface pointer for riid (no AddRef), or nullptr.
    virtual void* find_interface(REFIID riid) = 0;
    HRESULT query_interface(REFIID riid, void** out);

  protected:
    // Called once both counts are zero. Objects kept in a cache remove
    // themselves from it here before deleting.
    virtual void destroy() { delete this; }
    // Called when the public count drops to zero while internal references
    // remain; the device uses it to drop the references it holds itself.
    virtual void on_public_release() {}

  private:
    static constexpr std::uint64_t kInternalOne = std::uint64_t{1} << 32;

    std::atomic<std::uint64_t> counts_{1};  // one public reference at creation
    ObjectKind kind_;
    ObjectId id_;
    PrivateDataStore private_data_;
};

// The runtime's Object behind any interface pointer of its own, else nullptr.
Object* object_of(IUnknown* object);

// An internal reference to a runtime object.
template <class T>
class Ref {
  public:
    Ref() = default;
    Ref(std::nullptr_t) {}
    explicit Ref(T* object) : object_(object) {
        if (object_) object_->add_internal_ref();
    }
    Ref(const Ref& other) : Ref(other.object_) {}
    Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
    template <class U>
    Ref(const Ref<U>& other) : Ref(static_cast<T*>(other.get())) {}
    ~Ref() { reset(); }
    Ref& operator=(const Ref& other) {
        if (other.object_ != object_) Ref(other).swap(*this);
        return *this;
    }
    Ref& operator=(Ref&& other) noexcept {
        Ref(std::move(other)).swap(*this);
        return *this;
    }
    void reset() {
        if (T* object = std::exchange(object_, nullptr)) object->release_internal_ref();
    }
    void swap(Ref& other) noexcept { std::swap(object_, other.object_); }
    T* get() const { return object_; }
    T* operator->() const { return object_; }
    T& operator*() const { return *object_; }
    explicit operator bool() const { return object_ != nullptr; }
    friend bool operator==(const Ref& a, const Ref& b) { return a.object_ == b.object_; }

  private:
    T* object_ = nullptr;
};

// Turns the public reference a new object starts with into an internal one.
template <class T>
Ref<T> adopt_internal(T* fresh) {
    Ref<T> ref(fresh);
    fresh->release();
    return ref;
}

// Writes an interface pointer to an out-parameter with a public reference.
template <class Interface, class T>
void hand_out(Interface** out, T* object) {
    if (!out) return;
    if (object) object->add_ref();
    *out = object ? static_cast<Interface*>(object) : nullptr;
}

// IUnknown and the private-data methods for the interfaces a class exposes.
// Base is Object or a class derived from it; the same method overrides the
// identically declared method of every interface base at once.
template <class Base, class... Interfaces>
class ComObject : public Interfaces..., public Base {
  public:
    using Base::Base;

    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
        return this->query_interface(riid, out);
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return this->add_ref(); }
    ULONG STDMETHODCALLTYPE Release() override { return this->release(); }

    HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) {
        return this->private_data().get(guid, size, data);
    }
    HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) {
        return this->private_data().set(guid, size, data);
    }
    HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, const IUnknown* object) {
        return this->private_data().set_interface(guid, object);
    }
};

}  // namespace d3dcap::runtime

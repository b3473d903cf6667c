#include "runtime/com.h"

#include <d3dcommon.h>

#include <cstring>

namespace d3dcap::runtime {

// {d3dca9f0-5e11-4c0b-9a1e-0b1ec7000001}: private to this runtime.
const GUID kObjectIid = {
    0xd3dca9f0, 0x5e11, 0x4c0b, {0x9a, 0x1e, 0x0b, 0x1e, 0xc7, 0x00, 0x00, 0x01}};

ObjectId next_object_id() {
    static std::atomic<ObjectId> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

// Private data

PrivateDataStore::~PrivateDataStore() {
    for (Entry& entry : entries_) {
        if (entry.object) entry.object->Release();
    }
}

HRESULT PrivateDataStore::get(REFGUID guid, UINT* size, void* data) {
    if (!size) return E_INVALIDARG;
    std::lock_guard lock(mutex_);
    for (Entry& entry : entries_) {
        if (entry.guid != guid) continue;
        const UINT stored =
            entry.object ? UINT{sizeof(IUnknown*)} : static_cast<UINT>(entry.bytes.size());
        if (!data) {
            *size = stored;
            return S_OK;
        }
        if (*size < stored) {
            *size = stored;
            return DXGI_ERROR_MORE_DATA;
        }
        *size = stored;
        if (entry.object) {
            entry.object->AddRef();  // as on Windows: the caller owns a reference
            std::memcpy(data, &entry.object, sizeof(IUnknown*));
        } else if (stored) {
            std::memcpy(data, entry.bytes.data(), stored);
        }
        return S_OK;
    }
    *size = 0;
    return DXGI_ERROR_NOT_FOUND;
}

HRESULT PrivateDataStore::set(REFGUID guid, UINT size, const void* data) {
    if (size && !data) return E_INVALIDARG;
    IUnknown* released = nullptr;
    {
        std::lock_guard lock(mutex_);
        auto it = entries_.begin();
        while (it != entries_.end() && it->guid != guid) ++it;
        if (it != entries_.end()) {
            released = it->object;
            if (!data) {
                entries_.erase(it);
            } else {
                it->object = nullptr;
                it->bytes.assign(static_cast<const std::uint8_t*>(data),
                                 static_cast<const std::uint8_t*>(data) + size);
            }
        } else if (data) {
            Entry entry;
            entry.guid = guid;
            entry.bytes.assign(static_cast<const std::uint8_t*>(data),
                               static_cast<const std::uint8_t*>(data) + size);
            entries_.push_back(std::move(entry));
        }
    }
    if (released) released->Release();  // outside the lock: it may reenter
    return S_OK;
}

HRESULT PrivateDataStore::set_interface(REFGUID guid, const IUnknown* object) {
    IUnknown* stored = const_cast<IUnknown*>(object);
    if (stored) stored->AddRef();
    IUnknown* released = nullptr;
    {
        std::lock_guard lock(mutex_);
        auto it = entries_.begin();
        while (it != entries_.end() && it->guid != guid) ++it;
        if (it != entries_.end()) {
            released = it->object;
            if (!stored) {
                entries_.erase(it);
            } else {
                it->bytes.clear();
                it->object = stored;
            }
        } else if (stored) {
            Entry entry;
            entry.guid = guid;
            entry.object = stored;
            entries_.push_back(std::move(entry));
        }
    }
    if (released) released->Release();
    return S_OK;
}

std::string PrivateDataStore::debug_name() {
    std::lock_guard lock(mutex_);
    for (const Entry& entry : entries_) {
        if (entry.guid != WKPDID_D3DDebugObjectName || entry.object) continue;
        std::string name(entry.bytes.begin(), entry.bytes.end());
        if (auto end = name.find('\0'); end != std::string::npos) name.resize(end);
        return name;
    }
    return {};
}

// Counting

ULONG Object::add_ref() {
    return static_cast<ULONG>(counts_.fetch_add(1, std::memory_order_relaxed) + 1);
}

ULONG Object::release() {
    const std::uint64_t after = counts_.fetch_sub(1, std::memory_order_acq_rel) - 1;
    const auto public_after = static_cast<ULONG>(after);
    if (after == 0) {
        destroy();
    } else if (public_after == 0) {
        // Keep the object alive while it drops what it holds itself.
        add_internal_ref();
        on_public_release();
        release_internal_ref();
    }
    return public_after;
}

void Object::release_internal_ref() {
    const std::uint64_t after =
        counts_.fetch_sub(kInternalOne, std::memory_order_acq_rel) - kInternalOne;
    if (after == 0) destroy();
}

bool Object::try_add_ref() {
    std::uint64_t counts = counts_.load(std::memory_order_acquire);
    while (counts != 0) {
        if (counts_.compare_exchange_weak(counts, counts + 1, std::memory_order_acq_rel)) {
            return true;
        }
    }
    return false;
}

HRESULT Object::query_interface(REFIID riid, void** out) {
    if (!out) return E_POINTER;
    if (riid == kObjectIid) {
        *out = this;
        return S_OK;
    }
    void* found = find_interface(riid);
    *out = found;
    if (!found) return E_NOINTERFACE;
    // Through the interface: the immediate context counts on its device.
    static_cast<IUnknown*>(found)->AddRef();
    return S_OK;
}

Object* object_of(IUnknown* object) {
    if (!object) return nullptr;
    void* found = nullptr;
    if (object->QueryInterface(kObjectIid, &found) != S_OK) return nullptr;
    return static_cast<Object*>(found);
}

}  // namespace d3dcap::runtime

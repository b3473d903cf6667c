#include "replay/engine/object_table.h"

#include <algorithm>
#include <cstring>

namespace d3dcap::replay {

namespace {

bool same_iid(const IID& a, const IID& b) {
    return std::memcmp(&a, &b, sizeof(IID)) == 0;
}

// The COM identity of an object (its IUnknown), compared without keeping a reference.
IUnknown* identity(IUnknown* object) {
    IUnknown* unknown = nullptr;
    if (FAILED(object->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&unknown))) ||
        unknown == nullptr)
        return object;
    unknown->Release();
    return unknown;
}

}  // namespace

ObjectTable::~ObjectTable() {
    std::vector<Entry*> order;
    order.reserve(entries_.size());
    for (auto& [id, entry] : entries_) order.push_back(&entry);
    std::sort(order.begin(), order.end(),
              [](const Entry* a, const Entry* b) { return a->order > b->order; });
    for (Entry* entry : order) release_entry(*entry);
}

void ObjectTable::release_entry(Entry& entry) {
    for (Interface& i : entry.interfaces) static_cast<IUnknown*>(i.pointer)->Release();
    entry.interfaces.clear();
    if (entry.object != nullptr) entry.object->Release();
    entry.object = nullptr;
}

std::string ObjectTable::describe(std::uint64_t id) const {
    std::string text = "object " + std::to_string(id);
    if (auto it = entries_.find(id); it != entries_.end() && !it->second.name.empty()) {
        text += " (" + it->second.name + ")";
    } else if (auto named = names_.find(id); named != names_.end()) {
        text += " (" + named->second + ")";
    }
    return text;
}

void* ObjectTable::find(std::uint64_t id, const IID& iid, const char* name, std::string* why) {
    auto it = entries_.find(id);
    if (it == entries_.end()) {
        if (auto failed = failed_.find(id); failed != failed_.end()) {
            *why = describe(id) +
                   " does not exist: the call that created it failed in replay "
                   "at event " +
                   std::to_string(failed->second);
        } else if (auto destroyed = destroyed_.find(id); destroyed != destroyed_.end()) {
            *why = describe(id) + " was destroyed at event " + std::to_string(destroyed->second);
        } else {
            *why = "unknown object id " + std::to_string(id);
        }
        return nullptr;
    }
    Entry& entry = it->second;
    for (const Interface& i : entry.interfaces) {
        if (same_iid(i.iid, iid)) return i.pointer;
    }
    void* pointer = nullptr;
    if (FAILED(entry.object->QueryInterface(iid, &pointer)) || pointer == nullptr) {
        *why = describe(id) + " is not an " + name;
        return nullptr;
    }
    entry.interfaces.push_back(Interface{iid, pointer});
    return pointer;
}

void ObjectTable::add(std::uint64_t id, IUnknown* object, const char* interface_name) {
    if (object == nullptr) {
        if (id != 0 && entries_.count(id) == 0) failed_[id] = event_;
        return;
    }
    if (id == 0) {
        object->Release();
        return;
    }
    if (auto it = entries_.find(id); it != entries_.end()) {
        // Getters and QueryInterface hand out objects replay knows already.
        const bool same = identity(it->second.object) == identity(object);
        object->Release();
        if (!same && differences_) {
            differences_(describe(id) + " was handed out again as another object");
        }
        return;
    }
    Entry entry;
    entry.object = object;
    entry.name = interface_name != nullptr ? interface_name : "";
    if (entry.name.empty()) {
        if (auto named = names_.find(id); named != names_.end()) entry.name = named->second;
    }
    entry.order = next_order_++;
    entries_.emplace(id, std::move(entry));
    if (added_) added_(id, object);
    failed_.erase(id);
    destroyed_.erase(id);
}

IUnknown* ObjectTable::object(std::uint64_t id) const {
    auto it = entries_.find(id);
    return it == entries_.end() ? nullptr : it->second.object;
}

std::vector<std::uint64_t> ObjectTable::ids() const {
    std::vector<std::uint64_t> out;
    out.reserve(entries_.size());
    for (const auto& [id, entry] : entries_) out.push_back(id);
    std::sort(out.begin(), out.end());
    return out;
}

void ObjectTable::note_interface(std::uint64_t id, const std::string& interface_name) {
    names_[id] = interface_name;
    if (auto it = entries_.find(id); it != entries_.end() && it->second.name.empty()) {
        it->second.name = interface_name;
    }
}

bool ObjectTable::release(std::uint64_t id) {
    auto it = entries_.find(id);
    if (it == entries_.end()) return false;
    release_entry(it->second);
    entries_.erase(it);
    destroyed_[id] = event_;
    return true;
}

}  // namespace d3dcap::replay

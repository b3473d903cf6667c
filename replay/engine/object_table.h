// The replayed objects by recorded id. Each id holds the reference the call
// that handed the object out gave replay, plus the interfaces looked up
// through it; ObjectDestroyed releases them.
#pragma once

#include <d3d11_2.h>
#include <d3dcap/api/call_decoders.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace d3dcap::replay {

class ObjectTable final : public api::ObjectMap {
  public:
    // Told when a call hands out, under an id replay already knows, an
    // object other than the one the id stands for.
    using DifferenceSink = std::function<void(const std::string& detail)>;

    ObjectTable() = default;
    ObjectTable(const ObjectTable&) = delete;
    ObjectTable& operator=(const ObjectTable&) = delete;
    ~ObjectTable();

    void set_difference_sink(DifferenceSink sink) { differences_ = std::move(sink); }
    // Told of every object replay starts to hold (devices, swap chains...).
    using AddedSink = std::function<void(std::uint64_t id, IUnknown* object)>;
    void set_added_sink(AddedSink sink) { added_ = std::move(sink); }
    // The event being replayed, for the notes on missing objects.
    void set_event(std::uint64_t event) { event_ = event; }

    void* find(std::uint64_t id, const IID& iid, const char* name, std::string* why) override;
    void add(std::uint64_t id, IUnknown* object, const char* interface_name) override;

    // The object of an id (no new reference), or nullptr.
    IUnknown* object(std::uint64_t id) const;
    // Every id replay holds an object for, ascending.
    std::vector<std::uint64_t> ids() const;
    // What ObjectCreated said the id is, for messages.
    void note_interface(std::uint64_t id, const std::string& interface_name);
    // Releases the id's references; false when replay does not know the id.
    bool release(std::uint64_t id);
    // True when the call that should have created the id failed in replay.
    bool creation_failed(std::uint64_t id) const { return failed_.count(id) != 0; }
    std::size_t size() const { return entries_.size(); }

  private:
    struct Interface {
        IID iid{};
        void* pointer = nullptr;  // holds a reference
    };
    struct Entry {
        IUnknown* object = nullptr;  // the reference the call gave
        std::string name;            // interface it was handed out as, if known
        std::vector<Interface> interfaces;
        std::uint64_t order = 0;  // for releasing in reverse order of creation
    };

    static void release_entry(Entry& entry);
    std::string describe(std::uint64_t id) const;

    std::unordered_map<std::uint64_t, Entry> entries_;
    std::unordered_map<std::uint64_t, std::string> names_;        // from ObjectCreated
    std::unordered_map<std::uint64_t, std::uint64_t> destroyed_;  // id -> event
    std::unordered_map<std::uint64_t, std::uint64_t> failed_;     // id -> event
    DifferenceSink differences_;
    AddedSink added_;
    std::uint64_t event_ = 0;
    std::uint64_t next_order_ = 0;
};

}  // namespace d3dcap::replay

// A replay paused at an event in a process of its own: a fork of the
// process that replayed to the event, holding the replay as it was then
// (its memory shared with its parent until either writes it). It answers
// each request for what a resource holds after a later event from a fork of
// its own, so that it stays at its event for the next request. Only for
// replays that run on the calling thread alone (the reference and null
// devices): a fork takes no other thread along, and a GPU device's state
// is not the process's to copy.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "replay/engine/contents.h"

namespace d3dcap::replay {

class CheckpointProcess {
  public:
    // Runs in the serving fork (the checkpoint's child) and ends there.
    using Answer = std::function<trace::Result<ResourceContents>(std::uint64_t event,
                                                                 const ContentsRequest& request)>;

    // Forks the calling process at event; the child waits for requests and
    // answers each through answer in a fork of its own. Null when the
    // process cannot fork.
    static std::unique_ptr<CheckpointProcess> fork_at(std::uint64_t event, const Answer& answer);
    ~CheckpointProcess();
    CheckpointProcess(const CheckpointProcess&) = delete;
    CheckpointProcess& operator=(const CheckpointProcess&) = delete;

    std::uint64_t event() const { return event_; }
    // What answer said in the serving fork. A request no longer wanted is
    // read to its end (the checkpoint stays usable) and answered as
    // cancelled; a checkpoint that died answers with an error and is dead
    // from then on.
    trace::Result<ResourceContents> ask(std::uint64_t event, const ContentsRequest& request,
                                        const ContentsReplay::StillWanted& still_wanted,
                                        const std::string& trace_path);
    bool alive() const { return socket_ >= 0; }

  private:
    CheckpointProcess(std::uint64_t event, pid_t pid, int socket)
        : event_(event), pid_(pid), socket_(socket) {}
    void end();

    std::uint64_t event_;
    pid_t pid_;
    int socket_;  // requests out, answers in
};

}  // namespace d3dcap::replay

// Command lists: what a deferred context recorded.
#pragma once

#include <d3d11_2.h>

#include <functional>
#include <vector>

#include "runtime/d3d11/device_child.h"

namespace d3dcap::runtime::d3d11 {

class Context;

// A deferred context's recording: closures run against the executing context.
using Command = std::function<void(Context&)>;

class CommandList final : public ChildObject<DeviceChildBase, ID3D11CommandList> {
  public:
    CommandList(Device& device, UINT context_flags, std::vector<Command> commands)
        : ChildObject(ObjectKind::CommandList, device),
          context_flags_(context_flags),
          commands_(std::move(commands)) {}
    void* find_interface(REFIID riid) override;
    UINT STDMETHODCALLTYPE GetContextFlags() override { return context_flags_; }
    const std::vector<Command>& commands() const { return commands_; }

  private:
    UINT context_flags_;
    std::vector<Command> commands_;
};

}  // namespace d3dcap::runtime::d3d11

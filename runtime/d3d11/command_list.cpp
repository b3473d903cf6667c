// Command lists.
#include "runtime/d3d11/command_list.h"

namespace d3dcap::runtime::d3d11 {

void* CommandList::find_interface(REFIID riid) {
    if (iid_is<ID3D11CommandList, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11CommandList*>(this);
    }
    return nullptr;
}

}  // namespace d3dcap::runtime::d3d11

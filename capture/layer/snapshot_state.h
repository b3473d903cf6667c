// The pipeline state part of the state snapshot: the Set* calls that bind on
// a new context what a context has bound when a frame-range capture starts.
#pragma once

#include <d3d11_2.h>

#include "capture/layer/snapshot.h"

namespace d3dcap::capture {

// Appends to out one finished, size-prefixed call record per Set* call that
// recreates the pipeline state bound on context (a wrapper; its real context
// is queried, so nothing is recorded). Set* calls that would only restore
// defaults are left out, except the topology and the blend, depth-stencil and
// rasterizer states. Objects the layer does not know are recorded as NULL.
// Takes the layer's object lock: not to be called with it held.
void append_pipeline_state(ID3D11DeviceContext* context, SnapshotRecords& out);

}  // namespace d3dcap::capture

"""d3dcap's API table: load() returns the whole, checked description."""

from . import (core, d3d11_3, d3d11_constants, d3d11_context, d3d11_device, d3d11_types,
               d3d11_video, d3d11_video1, dxgi, dxgi1_3)
from .model import Api, TableError  # noqa: F401

# The number of calls (methods and entry points) in the table.  Call ids are
# append-only: a new method gets a new id and this count goes up with it.
CALL_COUNT = 336

# Declaration order matters: a header's items are emitted in this order.
_MODULES = (core, dxgi, dxgi1_3, d3d11_constants, d3d11_types, d3d11_device, d3d11_context,
            d3d11_3, d3d11_video, d3d11_video1)


def load() -> Api:
    api = Api()
    for module in _MODULES:
        module.declare(api)
    api.declared_call_count = CALL_COUNT
    api.finish()
    return api

// Defines every interface ID that the generated headers declare with DEFINE_GUID.
// The library hides its symbols by default; the IIDs are part of its interface.
#pragma GCC visibility push(default)
#define INITGUID
#include <d3d11_4.h>
#include <dxgi1_6.h>
#pragma GCC visibility pop

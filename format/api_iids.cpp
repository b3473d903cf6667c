// Defines every interface ID that the generated headers declare with DEFINE_GUID.
#define INITGUID
#include <d3d11_2.h>
#include <dxgi1_2.h>

/* The entry point of d3d11.dll and dxgi.dll: they hold only forwarders into
 * d3dcap_capture.dll, which the loader brings in with them. */
#include <windows.h>

BOOL WINAPI DllMainCRTStartup(HINSTANCE instance, DWORD reason, LPVOID reserved) {
    (void)instance;
    (void)reason;
    (void)reserved;
    return TRUE;
}

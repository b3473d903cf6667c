// The platform seam on Windows (and under Wine): the real d3d11.dll and
// dxgi.dll come from the system directory, never from the program's own
// directory where the layer's proxies sit.
#include <windows.h>
// After windows.h, which psapi.h needs.
#include <psapi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

#include "capture/interposer/platform.h"

namespace d3dcap::capture::platform {

namespace {

std::string utf8(const wchar_t* text) {
    const int size = WideCharToMultiByte(CP_UTF8, 0, text, -1, nullptr, 0, nullptr, nullptr);
    if (size <= 1) return {};
    std::string out(static_cast<std::size_t>(size), '\0');
    WideCharToMultiByte(CP_UTF8, 0, text, -1, out.data(), size, nullptr, nullptr);
    out.pop_back();
    return out;
}

std::wstring system_path(const wchar_t* dll) {
    wchar_t directory[MAX_PATH];
    const UINT length = GetSystemDirectoryW(directory, MAX_PATH);
    if (length == 0 || length >= MAX_PATH) return dll;
    return std::wstring(directory, length) + L"\\" + dll;
}

std::wstring from_environment(const wchar_t* variable, const wchar_t* dll) {
    wchar_t value[MAX_PATH];
    const DWORD length = GetEnvironmentVariableW(variable, value, MAX_PATH);
    if (length > 0 && length < MAX_PATH) return std::wstring(value, length);
    return system_path(dll);
}

std::string last_error_text() {
    const DWORD code = GetLastError();
    wchar_t* text = nullptr;
    FormatMessageW(
        FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
        nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
    std::string message = text != nullptr ? utf8(text) : std::string();
    if (text != nullptr) LocalFree(text);
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r'))
        message.pop_back();
    return "error " + std::to_string(code) + (message.empty() ? "" : " (" + message + ")");
}

// Loads one real DLL; names the problem in error when it is missing or is
// one of the layer's own proxies.
HMODULE load_real(const std::wstring& path, std::string& error) {
    HMODULE module = LoadLibraryW(path.c_str());
    if (module == nullptr) {
        error = "cannot load the real " + utf8(path.c_str()) + ": " + last_error_text();
        return nullptr;
    }
    if (GetProcAddress(module, "d3dcap_get_capture_api") != nullptr) {
        error = utf8(path.c_str()) + " is the capture layer itself, not the system DLL";
        return nullptr;
    }
    return module;
}

void* entry(HMODULE module, const char* name) {
    return module != nullptr ? reinterpret_cast<void*>(GetProcAddress(module, name)) : nullptr;
}

using ExitFn = void(WINAPI*)(UINT);

std::atomic<void (*)()> g_finish{nullptr};
// kernel32's ExitProcess (ntdll's RtlExitUserProcess where it forwards
// there, as under Wine) and ntdll's; set once, before any slot is routed.
ExitFn g_exit_process = nullptr;
ExitFn g_exit_user_process = nullptr;

template <class Fn>
Fn export_of(const wchar_t* dll, const char* name) {
    return reinterpret_cast<Fn>(
        reinterpret_cast<void (*)()>(GetProcAddress(GetModuleHandleW(dll), name)));
}

void finish_once() {
    static std::atomic<bool> finished{false};
    if (finished.exchange(true)) return;
    if (void (*finish)() = g_finish.load()) finish();
}

void WINAPI exit_process_routed(UINT code) {
    finish_once();
    g_exit_process(code);
}

void WINAPI exit_user_process_routed(UINT code) {
    finish_once();
    g_exit_user_process(code);
}

// Points the module's import slots that hold an exit function at its
// routed twin; slots are found by the address they hold, so that imports
// through forwarders and API sets are found too.
void route_exits(HMODULE module) {
    auto* base = reinterpret_cast<std::uint8_t*>(module);
    const auto* dos = reinterpret_cast<const IMAGE_DOS_HEADER*>(base);
    if (dos->e_magic != IMAGE_DOS_SIGNATURE) return;
    const auto* nt = reinterpret_cast<const IMAGE_NT_HEADERS*>(base + dos->e_lfanew);
    if (nt->Signature != IMAGE_NT_SIGNATURE ||
        nt->OptionalHeader.NumberOfRvaAndSizes <= IMAGE_DIRECTORY_ENTRY_IMPORT)
        return;
    const IMAGE_DATA_DIRECTORY& imports =
        nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
    if (imports.VirtualAddress == 0 || imports.Size == 0) return;
    for (auto* dll =
             reinterpret_cast<const IMAGE_IMPORT_DESCRIPTOR*>(base + imports.VirtualAddress);
         dll->Name != 0; ++dll) {
        for (auto* slot = reinterpret_cast<IMAGE_THUNK_DATA*>(base + dll->FirstThunk);
             slot->u1.Function != 0; ++slot) {
            const auto target = reinterpret_cast<ExitFn>(slot->u1.Function);
            const ExitFn routed = target == g_exit_process        ? exit_process_routed
                                  : target == g_exit_user_process ? exit_user_process_routed
                                                                  : nullptr;
            if (routed == nullptr) continue;
            DWORD protection = 0;
            if (!VirtualProtect(&slot->u1.Function, sizeof slot->u1.Function, PAGE_READWRITE,
                                &protection))
                continue;
            slot->u1.Function = reinterpret_cast<ULONG_PTR>(routed);
            VirtualProtect(&slot->u1.Function, sizeof slot->u1.Function, protection, &protection);
        }
    }
}

}  // namespace

void finish_before_process_exit(void (*finish)()) {
    g_finish.store(finish);
    static const bool resolved = [] {
        g_exit_process = export_of<ExitFn>(L"kernel32.dll", "ExitProcess");
        g_exit_user_process = export_of<ExitFn>(L"ntdll.dll", "RtlExitUserProcess");
        return g_exit_process != nullptr;
    }();
    if (!resolved) return;
    HMODULE modules[1024];
    DWORD bytes = 0;
    if (!EnumProcessModules(GetCurrentProcess(), modules, sizeof modules, &bytes)) return;
    const DWORD count = std::min<DWORD>(bytes / sizeof(HMODULE), std::size(modules));
    for (DWORD i = 0; i < count; ++i) route_exits(modules[i]);
}

ProviderLibrary load_provider() {
    // D3DCAP_REAL_D3D11 / D3DCAP_REAL_DXGI name other DLLs than the system's.
    const std::wstring d3d11_path = from_environment(L"D3DCAP_REAL_D3D11", L"d3d11.dll");
    const std::wstring dxgi_path = from_environment(L"D3DCAP_REAL_DXGI", L"dxgi.dll");
    ProviderLibrary provider;
    provider.name = utf8(d3d11_path.c_str()) + " and " + utf8(dxgi_path.c_str());
    // dxgi first: the real d3d11 imports it, and should find the real one.
    HMODULE dxgi = load_real(dxgi_path, provider.error);
    if (dxgi == nullptr) return provider;
    HMODULE d3d11 = load_real(d3d11_path, provider.error);
    if (d3d11 == nullptr) return provider;
    provider.create_device = entry(d3d11, "D3D11CreateDevice");
    provider.create_device_and_swap_chain = entry(d3d11, "D3D11CreateDeviceAndSwapChain");
    provider.create_factory = entry(dxgi, "CreateDXGIFactory");
    provider.create_factory1 = entry(dxgi, "CreateDXGIFactory1");
    provider.create_factory2 = entry(dxgi, "CreateDXGIFactory2");
    provider.d3d11 = d3d11;
    provider.dxgi = dxgi;
    if (provider.create_device == nullptr)
        provider.error = utf8(d3d11_path.c_str()) + " has no D3D11CreateDevice";
    return provider;
}

void* real_entry(const ProviderLibrary& provider, const char* dll, const char* name) {
    const std::string_view which(dll);
    void* module = which == "d3d11" ? provider.d3d11 : which == "dxgi" ? provider.dxgi : nullptr;
    return entry(static_cast<HMODULE>(module), name);
}

std::string process_name() {
    wchar_t path[MAX_PATH];
    const DWORD length = GetModuleFileNameW(nullptr, path, MAX_PATH);
    if (length == 0 || length >= MAX_PATH) return {};
    const std::string name = utf8(path);
    const std::size_t slash = name.find_last_of("\\/");
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

std::string command_line() {
    return utf8(GetCommandLineW());
}

}  // namespace d3dcap::capture::platform

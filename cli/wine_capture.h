// What d3dcap capture needs to run a Windows program under Wine with the
// Windows capture layer (d3d11.dll, dxgi.dll, d3dcap_capture.dll) in place.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace d3dcap::cli {

// The machine of a PE executable (IMAGE_FILE_MACHINE_*), or 0 for a file
// that is not one (an ELF program, a script, a file that cannot be read).
std::uint16_t pe_machine(const std::string& path);
constexpr std::uint16_t kPeMachineAmd64 = 0x8664;
constexpr std::uint16_t kPeMachineI386 = 0x014c;

// The path of wine on PATH (D3DCAP_WINE overrides), or empty with error set.
std::string find_wine(std::string& error);

// The folder holding the three DLLs of the Windows layer built for a
// program's machine (x86-64 or x86): D3DCAP_WINDOWS_LAYER (or, for x86,
// D3DCAP_WINDOWS_LAYER_32), else ../windows/bin (../windows32/bin) in the
// build tree, else LIBDIR/d3dcap/windows (windows32) when installed; empty
// with error set when none holds all three.
std::string find_windows_layer(const std::filesystem::path& bin, std::uint16_t machine,
                               std::string& error);

// The layer's DLLs, put next to a Windows program for one run: Wine, like
// Windows, loads a program's own d3d11.dll and dxgi.dll from its folder
// (DLLs found through WINEDLLPATH count as Wine's builtins, which the
// overrides put last). Those it copied there are removed again when it is
// destroyed; DLLs that were there already and are the same are left alone.
class PlacedLayer {
  public:
    PlacedLayer() = default;
    ~PlacedLayer();
    PlacedLayer(const PlacedLayer&) = delete;
    PlacedLayer& operator=(const PlacedLayer&) = delete;
    // False with error set when the folder cannot take them, or holds a DLL
    // of the same name that is not this layer's.
    bool place(const std::string& layer_dir, const std::filesystem::path& program_dir,
               std::string& error);

  private:
    std::vector<std::filesystem::path> placed_;
};

// The environment that puts the layer between a Windows program and Wine's
// d3d11 and dxgi (native DLLs first), with the trace at output (a Unix path,
// passed as the Windows path Wine maps it to).
std::vector<std::pair<std::string, std::string>> wine_environment(const std::string& output);

// The Windows path of an absolute Unix path on Wine's Z: drive.
std::string wine_path(const std::string& unix_path);

}  // namespace d3dcap::cli

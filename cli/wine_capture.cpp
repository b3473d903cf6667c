#include "wine_capture.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace d3dcap::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::array<const char*, 3> kLayerDlls = {"d3dcap_capture.dll", "d3d11.dll", "dxgi.dll"};

bool holds_layer(const fs::path& dir) {
    std::error_code ec;
    for (const char* dll : kLayerDlls)
        if (!fs::is_regular_file(dir / dll, ec)) return false;
    return true;
}

bool same_contents(const fs::path& a, const fs::path& b) {
    std::ifstream first(a, std::ios::binary);
    std::ifstream second(b, std::ios::binary);
    return first && second &&
           std::equal(std::istreambuf_iterator<char>(first), std::istreambuf_iterator<char>(),
                      std::istreambuf_iterator<char>(second), std::istreambuf_iterator<char>());
}

}  // namespace

std::uint16_t pe_machine(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    unsigned char dos[64] = {};
    if (!file.read(reinterpret_cast<char*>(dos), sizeof dos) || dos[0] != 'M' || dos[1] != 'Z')
        return 0;
    // e_lfanew: where the "PE\0\0" signature and the file header begin.
    const std::uint32_t pe_offset = std::uint32_t(dos[60]) | std::uint32_t(dos[61]) << 8 |
                                    std::uint32_t(dos[62]) << 16 | std::uint32_t(dos[63]) << 24;
    unsigned char pe[6] = {};
    if (!file.seekg(pe_offset) || !file.read(reinterpret_cast<char*>(pe), sizeof pe) ||
        std::memcmp(pe, "PE\0\0", 4) != 0)
        return 0;
    return static_cast<std::uint16_t>(pe[4] | pe[5] << 8);
}

std::string find_wine(std::string& error) {
    if (const char* wine = std::getenv("D3DCAP_WINE"); wine != nullptr && *wine) return wine;
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / "wine";
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    error = "Wine is not installed (no wine on PATH; on Debian: apt install wine wine64)";
    return {};
}

std::string find_windows_layer(const fs::path& bin, std::uint16_t machine, std::string& error) {
    const bool x86 = machine == kPeMachineI386;
    const char* variable = x86 ? "D3DCAP_WINDOWS_LAYER_32" : "D3DCAP_WINDOWS_LAYER";
    if (const char* dir = std::getenv(variable); dir != nullptr && *dir) {
        if (holds_layer(dir)) return fs::absolute(dir).string();
        error = std::string(variable) + " names " + dir +
                ", which does not hold d3dcap_capture.dll, d3d11.dll and dxgi.dll";
        return {};
    }
    const std::string folder = x86 ? "windows32" : "windows";
    for (const fs::path& candidate :
         {bin / ".." / folder / "bin", bin / ".." / D3DCAP_INSTALL_LIBDIR / "d3dcap" / folder}) {
        if (holds_layer(candidate)) return fs::weakly_canonical(candidate).string();
    }
    error = std::string("cannot find the ") + (x86 ? "32-bit (x86)" : "64-bit (x86-64)") +
            " Windows capture layer (d3dcap_capture.dll, d3d11.dll, dxgi.dll) next to " +
            bin.string() + " (build it with " +
            (x86 ? "i686-w64-mingw32-g++-posix" : "x86_64-w64-mingw32-g++-posix") + ", or set " +
            variable + " to its folder)";
    return {};
}

std::string wine_path(const std::string& unix_path) {
    std::string path = "Z:" + unix_path;
    for (char& c : path)
        if (c == '/') c = '\\';
    return path;
}

PlacedLayer::~PlacedLayer() {
    std::error_code ec;
    for (const fs::path& dll : placed_) fs::remove(dll, ec);
}

bool PlacedLayer::place(const std::string& layer_dir, const fs::path& program_dir,
                        std::string& error) {
    for (const char* dll : kLayerDlls) {
        const fs::path source = fs::path(layer_dir) / dll;
        const fs::path target = program_dir / dll;
        std::error_code ec;
        if (fs::exists(target, ec)) {
            if (same_contents(source, target)) continue;
            error = target.string() + " is there already and is not this d3dcap's capture layer" +
                    " (move it away to capture this program)";
            return false;
        }
        if (!fs::copy_file(source, target, ec)) {
            error = "cannot put the capture layer next to the program: " + target.string() + ": " +
                    ec.message();
            return false;
        }
        placed_.push_back(target);
    }
    return true;
}

std::vector<std::pair<std::string, std::string>> wine_environment(const std::string& output) {
    // Wine takes the last entry for a DLL, so these come after the user's.
    const char* overrides = std::getenv("WINEDLLOVERRIDES");
    std::string dll_overrides = overrides != nullptr && *overrides
                                    ? std::string(overrides) + ";d3d11,dxgi=n,b"
                                    : std::string("d3d11,dxgi=n,b");
    return {{"WINEDLLOVERRIDES", dll_overrides}, {"D3DCAP_CAPTURE_OUTPUT", wine_path(output)}};
}

}  // namespace d3dcap::cli

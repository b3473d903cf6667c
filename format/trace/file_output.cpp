#include "file_output.h"

#include <fcntl.h>

#include <cerrno>
#include <cstdint>

#ifdef _WIN32
#include <io.h>
#include <sys/stat.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

namespace d3dcap::trace {

#ifdef _WIN32

int create_output_file(const std::string& path) {
    const int length =
        MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path.c_str(), -1, nullptr, 0);
    if (length <= 0) {
        errno = EINVAL;
        return -1;
    }
    std::wstring wide(static_cast<std::size_t>(length), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path.c_str(), -1, wide.data(), length);
    // Binary: the CRT would otherwise turn every 0x0A into 0x0D 0x0A.
    return _wopen(wide.c_str(), _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY | _O_NOINHERIT,
                  _S_IREAD | _S_IWRITE);
}

int write_fully(int fd, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    while (size > 0) {
        const unsigned int part = size > (1u << 30) ? (1u << 30) : static_cast<unsigned int>(size);
        const int written = _write(fd, bytes, part);
        if (written < 0) return errno;
        bytes += written;
        size -= static_cast<std::size_t>(written);
    }
    return 0;
}

int close_output_file(int fd) {
    return _close(fd) == 0 ? 0 : errno;
}

#else

int create_output_file(const std::string& path) {
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int write_fully(int fd, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    while (size > 0) {
        const ssize_t written = ::write(fd, bytes, size);
        if (written < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        bytes += written;
        size -= static_cast<std::size_t>(written);
    }
    return 0;
}

int close_output_file(int fd) {
    return ::close(fd) == 0 ? 0 : errno;
}

#endif

}  // namespace d3dcap::trace

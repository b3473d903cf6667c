#include "replay/engine/checkpoint_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <type_traits>

namespace d3dcap::replay {

namespace {

static_assert(std::is_trivially_copyable_v<SubresourceShape>);
static_assert(std::is_trivially_copyable_v<ContentsRequest>);
static_assert(std::is_trivially_copyable_v<TexelWindow>);

struct Request {
    std::uint64_t event = 0;
    ContentsRequest contents;
};

bool send_all(int socket, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    while (size > 0) {
        const ssize_t sent = ::send(socket, bytes, size, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return false;
        bytes += sent;
        size -= static_cast<std::size_t>(sent);
    }
    return true;
}

template <class T>
bool send_value(int socket, const T& value) {
    return send_all(socket, &value, sizeof value);
}

// Waits until socket has something to read; between waits of 50 ms it
// asks still_wanted, and only notes a no (an answer is read to its end all
// the same). False when the socket failed.
bool wait_readable(int socket, const ContentsReplay::StillWanted& still_wanted, bool& unwanted) {
    for (;;) {
        pollfd ready{socket, POLLIN, 0};
        const int polled = ::poll(&ready, 1, 50);
        if (polled > 0) return true;
        if (polled < 0 && errno != EINTR) return false;
        if (polled == 0 && still_wanted && !still_wanted()) unwanted = true;
    }
}

// Reads size bytes.
bool receive_all(int socket, void* data, std::size_t size,
                 const ContentsReplay::StillWanted& still_wanted, bool& unwanted) {
    auto* bytes = static_cast<std::uint8_t*>(data);
    while (size > 0) {
        if (!wait_readable(socket, still_wanted, unwanted)) return false;
        const ssize_t got = ::recv(socket, bytes, size, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        bytes += got;
        size -= static_cast<std::size_t>(got);
    }
    return true;
}

// One byte with room for a file descriptor beside it.
struct FileMessage {
    char mark = 'f';
    iovec part{&mark, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr header{};
    FileMessage() {
        header.msg_iov = &part;
        header.msg_iovlen = 1;
        header.msg_control = control;
        header.msg_controllen = sizeof control;
    }
    FileMessage(const FileMessage&) = delete;
    FileMessage& operator=(const FileMessage&) = delete;
};

// Bytes go through a memory file whose descriptor the socket carries: one
// copy each way instead of a stream's many small ones.
bool send_bytes(int socket, const std::vector<std::uint8_t>& bytes) {
    if (bytes.empty()) return true;
    const int file = ::memfd_create("d3dcap-contents", MFD_CLOEXEC);
    if (file < 0) return false;
    bool written = true;
    for (std::size_t done = 0; written && done < bytes.size();) {
        const ssize_t wrote = ::write(file, bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        written = wrote > 0;
        done += written ? static_cast<std::size_t>(wrote) : 0;
    }
    FileMessage message;
    cmsghdr* header = CMSG_FIRSTHDR(&message.header);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &file, sizeof file);
    const bool sent = written && ::sendmsg(socket, &message.header, MSG_NOSIGNAL) == 1;
    ::close(file);
    return sent;
}

// The bytes send_bytes sent, read from the memory file it handed over.
bool receive_bytes(int socket, std::vector<std::uint8_t>& bytes,
                   const ContentsReplay::StillWanted& still_wanted, bool& unwanted) {
    if (bytes.empty()) return true;
    if (!wait_readable(socket, still_wanted, unwanted)) return false;
    FileMessage message;
    if (::recvmsg(socket, &message.header, MSG_CMSG_CLOEXEC) != 1) return false;
    const cmsghdr* header = CMSG_FIRSTHDR(&message.header);
    if (header == nullptr || header->cmsg_type != SCM_RIGHTS) return false;
    int file = -1;
    std::memcpy(&file, CMSG_DATA(header), sizeof file);
    bool read = true;
    for (std::size_t done = 0; read && done < bytes.size();) {
        const ssize_t got =
            ::pread(file, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
        if (got < 0 && errno == EINTR) continue;
        read = got > 0;
        done += read ? static_cast<std::size_t>(got) : 0;
    }
    ::close(file);
    return read;
}

bool send_string(int socket, const std::string& text) {
    const std::uint64_t length = text.size();
    return send_value(socket, length) && send_all(socket, text.data(), text.size());
}

void send_answer(int socket, const trace::Result<ResourceContents>& answer) {
    const std::uint8_t ok = answer.ok() ? 1 : 0;
    if (!send_value(socket, ok)) return;
    if (!answer.ok()) {
        const trace::TraceError& error = answer.error();
        if (send_value(socket, error.chunk) && send_value(socket, error.event) &&
            send_value(socket, error.offset))
            send_string(socket, error.message);
        return;
    }
    const ResourceContents& contents = answer.value();
    const std::uint64_t listed = contents.resources.size();
    if (!send_value(socket, contents.event) || !send_value(socket, listed)) return;
    for (const ListedResource& resource : contents.resources) {
        if (!send_value(socket, resource.id) || !send_value(socket, resource.shape) ||
            !send_string(socket, resource.debug_name))
            return;
    }
    const std::uint64_t rows = contents.pipeline.size();
    if (!send_value(socket, rows)) return;
    for (const StateRow& row : contents.pipeline) {
        if (!send_value(socket, row.depth) || !send_string(socket, row.name) ||
            !send_string(socket, row.value))
            return;
    }
    const std::uint64_t size = contents.bytes.size();
    if (send_value(socket, contents.resource) && send_value(socket, contents.subresource) &&
        send_value(socket, contents.shape) && send_value(socket, contents.window) &&
        send_string(socket, contents.problem) && send_value(socket, size))
        send_bytes(socket, contents.bytes);
}

// The checkpoint's life: a fork for each request, which answers and ends.
[[noreturn]] void serve(int socket, const CheckpointProcess::Answer& answer) {
    for (;;) {
        Request request;
        bool unwanted = false;
        if (!receive_all(socket, &request, sizeof request, {}, unwanted)) ::_exit(0);
        const pid_t worker = ::fork();
        if (worker == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            send_answer(socket, answer(request.event, request.contents));
            ::_exit(0);
        }
        int status = 0;
        if (worker < 0 || ::waitpid(worker, &status, 0) != worker || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            ::_exit(1);  // what the socket holds is not a whole answer: the parent sees it end
    }
}

}  // namespace

std::unique_ptr<CheckpointProcess> CheckpointProcess::fork_at(std::uint64_t event,
                                                              const Answer& answer) {
    int sockets[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) return nullptr;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(0);  // the parent ended before the line above
        ::close(sockets[0]);
        serve(sockets[1], answer);
    }
    ::close(sockets[1]);
    if (pid < 0) {
        ::close(sockets[0]);
        return nullptr;
    }
    return std::unique_ptr<CheckpointProcess>(new CheckpointProcess(event, pid, sockets[0]));
}

CheckpointProcess::~CheckpointProcess() {
    end();
}

void CheckpointProcess::end() {
    if (socket_ < 0) return;
    ::close(socket_);
    socket_ = -1;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
}

trace::Result<ResourceContents> CheckpointProcess::ask(
    std::uint64_t event, const ContentsRequest& asked,
    const ContentsReplay::StillWanted& still_wanted, const std::string& trace_path) {
    const auto failed = [&] {
        end();
        return trace::TraceError{
            trace_path,
            "the replay paused at event " + std::to_string(event_) + " ended before it answered",
            -1, static_cast<std::int64_t>(event), -1};
    };
    if (socket_ < 0) return failed();
    const Request request{event, asked};
    if (!send_value(socket_, request)) return failed();
    bool unwanted = false;
    const auto receive = [&](auto& value) {
        return receive_all(socket_, &value, sizeof value, still_wanted, unwanted);
    };
    // Strings are names and messages: a length past this is a broken stream.
    const auto receive_string = [&](std::string& text) {
        std::uint64_t length = 0;
        if (!receive(length) || length > (1u << 20)) return false;
        text.resize(length);
        return receive_all(socket_, text.data(), length, still_wanted, unwanted);
    };
    std::uint8_t ok = 0;
    if (!receive(ok)) return failed();
    if (ok == 0) {
        trace::TraceError error{trace_path, {}};
        if (!receive(error.chunk) || !receive(error.event) || !receive(error.offset) ||
            !receive_string(error.message))
            return failed();
        return error;
    }
    ResourceContents contents;
    std::uint64_t listed = 0;
    if (!receive(contents.event) || !receive(listed) || listed > (1u << 24)) return failed();
    contents.resources.resize(listed);
    for (ListedResource& listed_resource : contents.resources) {
        if (!receive(listed_resource.id) || !receive(listed_resource.shape) ||
            !receive_string(listed_resource.debug_name))
            return failed();
    }
    std::uint64_t rows = 0;
    if (!receive(rows) || rows > (1u << 24)) return failed();
    contents.pipeline.resize(rows);
    for (StateRow& row : contents.pipeline) {
        if (!receive(row.depth) || !receive_string(row.name) || !receive_string(row.value))
            return failed();
    }
    std::uint64_t size = 0;
    if (!receive(contents.resource) || !receive(contents.subresource) || !receive(contents.shape) ||
        !receive(contents.window) || !receive_string(contents.problem) || !receive(size))
        return failed();
    contents.bytes.resize(size);
    if (!receive_bytes(socket_, contents.bytes, still_wanted, unwanted)) return failed();
    if (unwanted) {
        return trace::TraceError{trace_path, std::string(ContentsReplay::kCancelledMessage), -1,
                                 static_cast<std::int64_t>(event), -1};
    }
    return contents;
}

}  // namespace d3dcap::replay

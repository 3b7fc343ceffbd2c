// importMeshIsolated (isolated_import.h): fork, limit, import, send the mesh through a pipe.
#include "isolated_import.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define FLAK_BAKE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLAK_BAKE_ASAN 1
#endif
#endif

namespace flak::bake {

namespace {

constexpr std::uint32_t kAnswerMagic = 0x464C4B49u; // "FLKI"

bool writeAll(int fd, const void* data, std::size_t bytes) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        bytes -= static_cast<std::size_t>(n);
    }
    return true;
}

template <typename T> bool writeArray(int fd, const std::vector<T>& v) {
    const std::uint64_t count = v.size();
    return writeAll(fd, &count, sizeof count) && writeAll(fd, v.data(), v.size() * sizeof(T));
}

// The child: limits, import, answer (magic, 0 and the mesh, or 1 and the message), exit.
[[noreturn]] void runChild(int fd, const std::string& path, const ImportOptions& options,
                           const ImportLimits& limits, pid_t parent) {
#if defined(__linux__)
    // A baker killed while it waits takes its importer with it (no orphan runs on to its limit).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(5); // the parent died before the line above
#else
    (void)parent;
#endif
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, 2); // the importer's own chatter stays out of the one line
#if !defined(FLAK_BAKE_ASAN)
    if (limits.memory_mb > 0) {
        const rlim_t bytes = static_cast<rlim_t>(limits.memory_mb) << 20;
        const struct rlimit as { bytes, bytes };
        ::setrlimit(RLIMIT_AS, &as);
    }
#endif
    if (limits.seconds > 0) {
        const struct rlimit cpu { limits.seconds, limits.seconds + 1 };
        ::setrlimit(RLIMIT_CPU, &cpu);
        ::alarm(limits.seconds);
    }
    SourceMesh mesh;
    BakeError error;
    try {
        error = importMesh(path, options, mesh);
    } catch (const std::bad_alloc&) {
        ::_exit(3); // out of the memory limit, in flak's code or in the importer's (importMesh)
    } catch (...) {
        error.message = "the importer failed on '" + path + "' (an exception)";
    }
    const std::uint32_t head[2] = {kAnswerMagic, error.failed() ? 1u : 0u};
    bool ok = writeAll(fd, head, sizeof head);
    if (error.failed()) {
        const std::uint64_t n = error.message.size();
        ok = ok && writeAll(fd, &n, sizeof n) && writeAll(fd, error.message.data(), error.message.size());
    } else {
        const std::uint32_t counts[4] = {mesh.source_triangles, mesh.source_vertices, mesh.dropped_degenerate,
                                         mesh.welded_vertices};
        std::vector<char> names; // each mesh name, '\0'-terminated
        for (const std::string& name : mesh.mesh_names)
            names.insert(names.end(), name.c_str(), name.c_str() + name.size() + 1);
        ok = ok && writeAll(fd, counts, sizeof counts) && writeArray(fd, mesh.positions) &&
             writeArray(fd, mesh.indices) && writeArray(fd, mesh.materials) &&
             writeArray(fd, mesh.mesh_first_vertex) && writeArray(fd, names);
    }
    ::_exit(ok ? 0 : 4);
}

// Reads the child's answer to the end (so it never blocks on a full pipe).
bool readAnswer(int fd, std::vector<unsigned char>& out, const std::function<void(double)>& waiting) {
    unsigned char buf[1 << 16];
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        if (waiting) { // tell the caller every second the importer is still at work
            pollfd p{fd, POLLIN, 0};
            const int ready = ::poll(&p, 1, 1000);
            if (ready == 0) {
                waiting(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
                continue;
            }
        }
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        out.insert(out.end(), buf, buf + n);
    }
}

// A reader over the answer that refuses to run past its end.
struct Cursor {
    const std::vector<unsigned char>& bytes;
    std::size_t at = 0;
    bool take(void* out, std::size_t n) {
        if (n == 0) return true; // an empty array: no pointer to copy through
        if (n > bytes.size() - at) return false;
        std::memcpy(out, bytes.data() + at, n);
        at += n;
        return true;
    }
    template <typename T> bool array(std::vector<T>& v) {
        std::uint64_t count = 0;
        if (!take(&count, sizeof count) || count > (bytes.size() - at) / sizeof(T)) return false;
        v.resize(static_cast<std::size_t>(count));
        return take(v.data(), v.size() * sizeof(T));
    }
};

std::string signalText(int sig) {
    if (sig == SIGALRM || sig == SIGXCPU) return "took longer than its time limit";
    if (sig == SIGSEGV) return "crashed (segmentation fault: a stack overflow or a bad read)";
    if (sig == SIGABRT) return "aborted (an assertion in the importer)";
    const char* name = ::strsignal(sig);
    return std::string("was killed by signal ") + std::to_string(sig) +
           (name ? std::string(" (") + name + ")" : "");
}

} // namespace

BakeError importMeshIsolated(const std::string& path, const ImportOptions& options,
                             const ImportLimits& limits, SourceMesh& out,
                             const std::function<void(double seconds)>& waiting) {
    int fds[2];
    if (::pipe(fds) != 0) return {"cannot start the importer for '" + path + "': " + std::strerror(errno)};
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return {"cannot start the importer for '" + path + "': " + std::strerror(errno)};
    }
    if (child == 0) {
        ::close(fds[0]);
        runChild(fds[1], path, options, limits, parent);
    }
    ::close(fds[1]);
    std::vector<unsigned char> answer;
    const bool read_ok = readAnswer(fds[0], answer, waiting);
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    const std::string limits_text = " (limits: " + std::to_string(limits.memory_mb) + " MB, " +
                                    std::to_string(limits.seconds) +
                                    " s; --import-memory-mb, --import-seconds)";
    if (WIFSIGNALED(status))
        return {"importing '" + path + "': the importer " + signalText(WTERMSIG(status)) + limits_text};
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
        return {"importing '" + path + "': the importer ran out of its memory limit" + limits_text};
    Cursor c{answer};
    std::uint32_t head[2] = {0, 0};
    if (!read_ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !c.take(head, sizeof head) ||
        head[0] != kAnswerMagic)
        return {"importing '" + path + "': the importer failed (exit status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")" + limits_text};
    if (head[1] != 0) {
        std::uint64_t n = 0;
        if (!c.take(&n, sizeof n) || n > answer.size() - c.at)
            return {"importing '" + path + "': a malformed answer"};
        return {
            std::string(reinterpret_cast<const char*>(answer.data() + c.at), static_cast<std::size_t>(n))};
    }
    SourceMesh mesh;
    std::uint32_t counts[4];
    std::vector<char> names;
    if (!c.take(counts, sizeof counts) || !c.array(mesh.positions) || !c.array(mesh.indices) ||
        !c.array(mesh.materials) || !c.array(mesh.mesh_first_vertex) || !c.array(names) ||
        c.at != answer.size() || (!names.empty() && names.back() != '\0'))
        return {"importing '" + path + "': a malformed answer from the importer"};
    for (std::size_t at = 0; at < names.size(); at += mesh.mesh_names.back().size() + 1)
        mesh.mesh_names.emplace_back(names.data() + at);
    if (mesh.mesh_names.size() != mesh.mesh_first_vertex.size())
        return {"importing '" + path + "': a malformed answer from the importer"};
    mesh.source_triangles = counts[0];
    mesh.source_vertices = counts[1];
    mesh.dropped_degenerate = counts[2];
    mesh.welded_vertices = counts[3];
    out = std::move(mesh);
    return {};
}

} // namespace flak::bake

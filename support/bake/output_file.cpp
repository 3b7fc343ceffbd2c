// flak_bake's file safety (output_file.h), on POSIX calls: stat to tell what a path names, mkstemp
// for the temporary file, fsync and rename to put it in place.
#include "output_file.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace flak::bake {

namespace {

// The temporary file a signal handler removes: a fixed buffer (no allocation in the handler).
char g_temp_path[4096];
volatile std::sig_atomic_t g_temp_live = 0;

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void removeTempAndDie(int sig) {
    if (g_temp_live != 0) ::unlink(g_temp_path);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

// The cleanup signals held back while the temporary file's name and g_temp_live change together
// (creating it, putting it in place), so that the handler never sees one without the other.
struct HoldSignals {
    sigset_t previous;
    HoldSignals() {
        sigset_t held;
        sigemptyset(&held);
        for (int sig : kCleanupSignals) sigaddset(&held, sig);
        sigprocmask(SIG_BLOCK, &held, &previous);
    }
    ~HoldSignals() { sigprocmask(SIG_SETMASK, &previous, nullptr); }
};

// The handlers, installed while a temporary file exists and put back afterwards.
struct CleanupOnSignal {
    struct sigaction previous[3];
    CleanupOnSignal() {
        struct sigaction action;
        std::memset(&action, 0, sizeof action);
        action.sa_handler = removeTempAndDie;
        sigemptyset(&action.sa_mask);
        for (int i = 0; i < 3; ++i) sigaction(kCleanupSignals[i], &action, &previous[i]);
    }
    ~CleanupOnSignal() {
        for (int i = 0; i < 3; ++i) sigaction(kCleanupSignals[i], &previous[i], nullptr);
    }
};

std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a fifo";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::string errnoText() { return std::strerror(errno); }

} // namespace

std::string refuseOutput(const std::string& output, const std::vector<std::string>& inputs) {
    struct stat out;
    if (::stat(output.c_str(), &out) != 0) {
        if (errno == ENOENT) return {}; // a new name (a missing directory shows when writing)
        return "cannot examine the output '" + output + "': " + errnoText();
    }
    if (!S_ISREG(out.st_mode))
        return "the output '" + output + "' is " + kindOf(out.st_mode) +
               ": the baker writes only over a regular file or a new name";
    for (const std::string& input : inputs) {
        struct stat in;
        if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
            in.st_ino == out.st_ino)
            return "the output '" + output + "' is the input '" + input + "' itself";
    }
    return {};
}

std::string writeWhole(const std::string& output, const std::vector<unsigned char>& bytes) {
    const std::size_t slash = output.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string(".") : output.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? output : output.substr(slash + 1);
    const std::string pattern =
        (slash == std::string::npos ? std::string() : dir) + "." + name + ".flak-tmp-XXXXXX";
    if (pattern.size() >= sizeof g_temp_path) return "the output path '" + output + "' is too long";
    CleanupOnSignal cleanup;
    int fd = -1;
    {
        const HoldSignals hold;
        std::memcpy(g_temp_path, pattern.c_str(), pattern.size() + 1);
        fd = ::mkstemp(g_temp_path);
        g_temp_live = fd >= 0 ? 1 : 0;
    }
    if (fd < 0) return "cannot create a temporary file in '" + dir + "' for '" + output + "': " + errnoText();
    std::string error;
    for (std::size_t done = 0; done < bytes.size() && error.empty();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            error = "cannot write '" + output + "': " + errnoText();
        else
            done += static_cast<std::size_t>(n);
    }
    const mode_t mask = ::umask(0); // the mode a plain create would give: 0666 less the umask
    ::umask(mask);
    if (error.empty() && ::fchmod(fd, 0666 & ~mask) != 0)
        error = "cannot set the mode of '" + output + "': " + errnoText();
    if (error.empty() && ::fsync(fd) != 0) error = "cannot flush '" + output + "' to disk: " + errnoText();
    if (::close(fd) != 0 && error.empty()) error = "cannot write '" + output + "': " + errnoText();
    const HoldSignals hold;
    if (error.empty() && std::rename(g_temp_path, output.c_str()) != 0)
        error = "cannot put the blob in place as '" + output + "': " + errnoText();
    if (!error.empty()) ::unlink(g_temp_path);
    g_temp_live = 0;
    return error;
}

std::string readBlobFile(const std::string& path, std::vector<unsigned char>& out) {
    out.clear();
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return "cannot read '" + path + "': " + errnoText();
    struct stat st;
    std::string error;
    if (::fstat(fd, &st) != 0)
        error = "cannot examine '" + path + "': " + errnoText();
    else if (!S_ISREG(st.st_mode))
        error = "'" + path + "' is " + kindOf(st.st_mode) + ", not a blob file";
    else if (st.st_size == 0)
        error = "'" + path + "' is empty";
    else if (static_cast<std::uint64_t>(st.st_size) > kMaxBlobFileBytes)
        error = "'" + path + "' is larger than any blob (" + std::to_string(kMaxBlobFileBytes) + " bytes)";
    if (error.empty()) {
        out.resize(static_cast<std::size_t>(st.st_size)); // what stat saw, whatever the file does next
        for (std::size_t done = 0; done < out.size() && error.empty();) {
            const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0)
                error = "cannot read '" + path + "': " + errnoText();
            else if (n == 0)
                out.resize(done); // it shrank: the loader sees the bytes there are
            else
                done += static_cast<std::size_t>(n);
        }
    }
    ::close(fd);
    if (error.empty() && out.empty()) error = "'" + path + "' is empty";
    if (!error.empty()) out.clear();
    return error;
}

} // namespace flak::bake

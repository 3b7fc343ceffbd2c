// flak_bake's blob writing under signals: a bake stopped by SIGINT, SIGTERM or SIGHUP while it
// writes its output leaves neither the output nor its temporary file, and dies of that signal.
#include "output_file.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

namespace flak::test {
namespace {

std::vector<std::string> entries(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..") names.push_back(name);
        }
        ::closedir(d);
    }
    return names;
}

std::string makeTempDir() {
    std::string pattern = ::testing::TempDir() + "flak-output-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    return ::mkdtemp(buffer.data()) != nullptr ? std::string(buffer.data()) : std::string();
}

// A child process writes 64 MiB with writeWhole; the signal is sent as soon as its temporary
// file appears, so it lands while the bytes go out. Returns false when the write finished first
// (the signal came too late to tell anything).
bool stopWhileWriting(int sig, const std::vector<unsigned char>& bytes, std::string& out_dir,
                      int& out_status) {
    out_dir = makeTempDir();
    if (out_dir.empty()) return false;
    const pid_t child = ::fork();
    if (child == 0) {
        const std::string error = bake::writeWhole(out_dir + "/out.blob", bytes);
        ::_exit(error.empty() ? 0 : 3);
    }
    if (child < 0) return false;
    for (int i = 0; i < 200000; ++i) {
        const std::vector<std::string> names = entries(out_dir);
        if (!names.empty()) {
            ::kill(child, sig);
            break;
        }
        ::usleep(50);
    }
    ::waitpid(child, &out_status, 0);
    return WIFSIGNALED(out_status);
}

TEST(BakeOutput, SignalDuringWriteLeavesNoFile) {
    const std::vector<unsigned char> bytes(64u << 20, 0xABu);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        int caught = 0;
        for (int attempt = 0; attempt < 5 && caught == 0; ++attempt) {
            std::string dir;
            int status = 0;
            if (!stopWhileWriting(sig, bytes, dir, status)) {
                // Finished before the signal: the output is whole and nothing else is there.
                EXPECT_EQ(entries(dir), std::vector<std::string>{"out.blob"});
            } else {
                ++caught;
                EXPECT_EQ(WTERMSIG(status), sig);
                EXPECT_TRUE(entries(dir).empty()) << "left behind: " << entries(dir)[0];
            }
            ::unlink((dir + "/out.blob").c_str());
            ::rmdir(dir.c_str());
        }
        EXPECT_EQ(caught, 1) << "signal " << sig << " never landed during the write";
    }
}

// A write that cannot start (the directory is missing) says why and leaves nothing.
TEST(BakeOutput, WriteIntoAMissingDirectoryFails) {
    const std::string dir = makeTempDir();
    ASSERT_FALSE(dir.empty());
    const std::string error = bake::writeWhole(dir + "/no/such/out.blob", std::vector<unsigned char>(16, 1u));
    EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
    EXPECT_TRUE(entries(dir).empty());
    ::rmdir(dir.c_str());
}

} // namespace
} // namespace flak::test

// The clocks the armada benchmark can time with: steady_clock (wall time, the default, what a
// frame budget is about) or this thread's CPU time (CLOCK_THREAD_CPUTIME_ID: leaves out the time
// the thread was preempted, for a machine shared with other busy processes).
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>

namespace flak::bench {

/// Nanoseconds of a monotonic clock; `user` is unused (the World's WorldClock signature).
using BenchClock = std::uint64_t (*)(void* user);

inline std::uint64_t steadyNs(void* = nullptr) {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

inline std::uint64_t threadCpuNs(void* = nullptr) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

} // namespace flak::bench

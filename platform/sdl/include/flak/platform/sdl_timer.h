// flak platform — time for SDL2 programs: a monotonic clock and a frame clock.
#pragma once

#include <cstdint>

namespace flak::platform {

/// Monotonic nanoseconds from SDL's performance counter (SDL need not be initialised).
/// Thread-safe.
std::uint64_t sdlNowNs();

/// The same clock in the shape of flak::WorldClock (`user` is ignored), for per-phase timings.
std::uint64_t sdlWorldClock(void* user);

/// Frame-to-frame time and a smoothed frame rate. Plain value; one thread.
class FrameClock {
public:
    /// Starts measuring from now.
    void start();
    /// Seconds since the previous tick() (or start()), clamped to [0, max_step] so a stall (a
    /// dragged window, a debugger) does not make one huge step. Updates fps().
    double tick(double max_step = 0.1);
    /// Frames per second, exponentially smoothed over about half a second; 0 before two ticks.
    double fps() const { return m_fps; }

private:
    std::uint64_t m_last_ns = 0;
    double m_fps = 0.0;
};

} // namespace flak::platform

// The SDL performance counter turned into nanoseconds and frame times.
#include <flak/platform/sdl_timer.h>

#include <SDL.h>

namespace flak::platform {

std::uint64_t sdlNowNs() {
    static const std::uint64_t frequency = SDL_GetPerformanceFrequency();
    const std::uint64_t counter = SDL_GetPerformanceCounter();
    // Split so the multiplication cannot overflow for counters of years.
    const std::uint64_t seconds = counter / frequency;
    const std::uint64_t rest = counter % frequency;
    return seconds * 1000000000ull + rest * 1000000000ull / frequency;
}

std::uint64_t sdlWorldClock(void*) { return sdlNowNs(); }

void FrameClock::start() {
    m_last_ns = sdlNowNs();
    m_fps = 0.0;
}

double FrameClock::tick(double max_step) {
    const std::uint64_t now = sdlNowNs();
    const double dt = static_cast<double>(now - m_last_ns) * 1e-9;
    m_last_ns = now;
    if (dt > 0.0) {
        const double instant = 1.0 / dt;
        m_fps = m_fps <= 0.0 ? instant : m_fps + (instant - m_fps) * (dt < 0.5 ? dt * 2.0 : 1.0);
    }
    return dt < 0.0 ? 0.0 : (dt > max_step ? max_step : dt);
}

} // namespace flak::platform

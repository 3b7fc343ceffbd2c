// Seeded SplitMix64 (the generator of docs/bench_scenes.md), shared by tests and benchmarks.
#pragma once

#include <cstdint>

namespace flak::test {

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() {
        m_state += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = m_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform double in [0, 1).
    double u() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    double range(double a, double b) { return a + (b - a) * u(); }
    float rangef(double a, double b) { return static_cast<float>(range(a, b)); }

private:
    std::uint64_t m_state;
};

} // namespace flak::test

// How many random cases a test loop runs. Normally the count the test names. Under an emulator
// (the cross build runs the tests under qemu-user, 20 to 50 times slower on float code) the
// environment variable FLAK_CASE_DIVISOR=N runs 1/N of them, at least one: fewer cases, never a
// weaker check. A coverage floor a test asserts on its cases scales with it (caseCount again).
#pragma once

#include <cstdint>
#include <cstdlib>

namespace flak::test {

/// The divisor from FLAK_CASE_DIVISOR (1 when unset or not a positive integer).
inline std::uint64_t caseDivisor() {
    static const std::uint64_t divisor = [] {
        const char* s = std::getenv("FLAK_CASE_DIVISOR");
        const unsigned long long d = s ? std::strtoull(s, nullptr, 10) : 1;
        return std::uint64_t{d == 0 ? 1 : d};
    }();
    return divisor;
}

/// `full` random cases, or full / FLAK_CASE_DIVISOR (at least 1), in the loop counter's type.
template <typename T = long> T caseCount(T full) {
    const T n = static_cast<T>(static_cast<std::uint64_t>(full) / caseDivisor());
    return n < 1 ? T{1} : n;
}

} // namespace flak::test

// Bit-for-bit equality of plain values (floats, vectors, hit records): what a test asserts when two
// computations must round alike, where == would let +0 equal -0 and no NaN equal itself.
#pragma once

#include <cstring>
#include <type_traits>

namespace flak::test {

template <typename T> bool sameBits(const T& a, const T& b) {
    static_assert(std::is_trivially_copyable<T>::value, "compared as bytes");
    return std::memcmp(static_cast<const void*>(&a), static_cast<const void*>(&b), sizeof(T)) == 0;
}

} // namespace flak::test

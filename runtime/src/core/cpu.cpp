#include <flak/cpu.h>

namespace flak {

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(FLAK_NO_AVX2)
bool cpuHasAvx2() {
    static const bool yes = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return yes;
}
#else
bool cpuHasAvx2() { return false; }
#endif

} // namespace flak

#include "flak_support/allocation_trap.h"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__GLIBC__)
#include <execinfo.h>
#include <unistd.h>
#endif

namespace {
std::atomic<bool> g_armed{false};
std::atomic<std::size_t> g_count{0};
std::atomic<bool> g_trace{false}; // FLAK_ALLOCATION_TRACE set when armed: each counted call prints its stack
#if defined(__GLIBC__)
thread_local bool t_tracing = false;
void trace() {
    if (t_tracing) return; // backtrace's own allocations (none once loaded) are not traced
    t_tracing = true;
    void* frames[32];
    const int n = backtrace(frames, 32);
    static const char kHead[] = "allocation while armed:\n";
    (void)!write(2, kHead, sizeof kHead - 1);
    backtrace_symbols_fd(frames, n, 2); // writes without allocating
    t_tracing = false;
}
#else
void trace() {}
#endif
void count() {
    if (!g_armed.load(std::memory_order_relaxed)) return;
    g_count.fetch_add(1, std::memory_order_relaxed);
    if (g_trace.load(std::memory_order_relaxed)) trace();
}
} // namespace

namespace flak::test {
void armAllocationTrap() {
#if defined(__GLIBC__)
    const bool trace_calls = std::getenv("FLAK_ALLOCATION_TRACE") != nullptr;
    g_trace.store(trace_calls, std::memory_order_relaxed);
    if (trace_calls) {
        void* frames[1];
        (void)backtrace(frames, 1); // loads the unwinder now, not inside a counted call
    }
#endif
    g_count = 0;
    g_armed = true;
}
std::size_t disarmAllocationTrap() {
    g_armed = false;
    return g_count.load();
}
} // namespace flak::test

// ---- operator new / delete (every replaceable form routes through these) ----
void* operator new(std::size_t n) {
    count();
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    count();
    return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return ::operator new(n, t); }
void* operator new(std::size_t n, std::align_val_t a) {
    count();
    void* p = nullptr;
    if (posix_memalign(
            &p, static_cast<std::size_t>(a) < sizeof(void*) ? sizeof(void*) : static_cast<std::size_t>(a),
            n ? n : 1) == 0)
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

// ---- malloc family: interposed on glibc, except under sanitizers (they own malloc) ----
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FLAK_NO_MALLOC_TRAP 1
#endif
#if defined(__has_feature) && !defined(FLAK_NO_MALLOC_TRAP)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FLAK_NO_MALLOC_TRAP 1
#endif
#endif

#if defined(__GLIBC__) && !defined(FLAK_NO_MALLOC_TRAP)
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
void* malloc(std::size_t n) {
    count();
    return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t s) {
    count();
    return __libc_calloc(n, s);
}
void* realloc(void* p, std::size_t n) {
    count();
    return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
}
bool flak::test::mallocIsTrapped() { return true; }
#else
bool flak::test::mallocIsTrapped() { return false; }
#endif

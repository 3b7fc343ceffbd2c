#include "flak_support/allocation_trap.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
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

// ---- The allocator beneath the trap ----
// Where the malloc family is interposed (glibc without sanitizers), the trap's own entry points
// forward to glibc's, so that operator new, which counts itself, is not counted again by malloc.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FLAK_NO_MALLOC_TRAP 1
#endif
#if defined(__has_feature) && !defined(FLAK_NO_MALLOC_TRAP)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FLAK_NO_MALLOC_TRAP 1
#endif
#endif

#if defined(__GLIBC__) && !defined(FLAK_NO_MALLOC_TRAP)
#define FLAK_MALLOC_TRAP 1
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* __libc_valloc(std::size_t);
void* __libc_pvalloc(std::size_t);
void __libc_free(void*);
}
#endif

namespace {
void* rawMalloc(std::size_t n) {
#if defined(FLAK_MALLOC_TRAP)
    return __libc_malloc(n);
#else
    return std::malloc(n);
#endif
}
/// `align` is a power of two at least sizeof(void*).
void* rawAligned(std::size_t align, std::size_t n) {
#if defined(FLAK_MALLOC_TRAP)
    return __libc_memalign(align, n);
#else
    void* p = nullptr;
    return posix_memalign(&p, align, n) == 0 ? p : nullptr;
#endif
}
void rawFree(void* p) {
#if defined(FLAK_MALLOC_TRAP)
    __libc_free(p);
#else
    std::free(p);
#endif
}
std::size_t newAlignment(std::align_val_t a) {
    const std::size_t align = static_cast<std::size_t>(a);
    return align < sizeof(void*) ? sizeof(void*) : align;
}
} // namespace

// ---- operator new / delete (every replaceable form routes through these) ----
void* operator new(std::size_t n) {
    count();
    if (void* p = rawMalloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    count();
    return rawMalloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return ::operator new(n, t); }
void* operator new(std::size_t n, std::align_val_t a) {
    count();
    if (void* p = rawAligned(newAlignment(a), n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return ::operator new(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    count();
    return rawAligned(newAlignment(a), n ? n : 1);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
    return ::operator new(n, a, t);
}
void operator delete(void* p) noexcept { rawFree(p); }
void operator delete[](void* p) noexcept { rawFree(p); }
void operator delete(void* p, std::size_t) noexcept { rawFree(p); }
void operator delete[](void* p, std::size_t) noexcept { rawFree(p); }
void operator delete(void* p, std::align_val_t) noexcept { rawFree(p); }
void operator delete[](void* p, std::align_val_t) noexcept { rawFree(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { rawFree(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { rawFree(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { rawFree(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { rawFree(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { rawFree(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { rawFree(p); }

// ---- malloc family: interposed on glibc, except under sanitizers (they own malloc) ----
// Every form that hands out memory glibc's free takes back: a driver's aligned buffers count
// like its plain ones.
#if defined(FLAK_MALLOC_TRAP)
extern "C" {
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
void* reallocarray(void* p, std::size_t n, std::size_t s) {
    if (s != 0 && n > SIZE_MAX / s) {
        errno = ENOMEM;
        return nullptr;
    }
    return realloc(p, n * s);
}
void* memalign(std::size_t align, std::size_t n) {
    count();
    return __libc_memalign(align, n);
}
void* aligned_alloc(std::size_t align, std::size_t n) {
    count();
    return __libc_memalign(align, n);
}
int posix_memalign(void** out, std::size_t align, std::size_t n) {
    if (align % sizeof(void*) != 0 || (align & (align - 1)) != 0 || align == 0) return EINVAL;
    count();
    void* p = __libc_memalign(align, n);
    if (p == nullptr) return ENOMEM;
    *out = p;
    return 0;
}
void* valloc(std::size_t n) {
    count();
    return __libc_valloc(n);
}
void* pvalloc(std::size_t n) {
    count();
    return __libc_pvalloc(n);
}
void free(void* p) { __libc_free(p); }
}
bool flak::test::mallocIsTrapped() { return true; }
#else
bool flak::test::mallocIsTrapped() { return false; }
#endif

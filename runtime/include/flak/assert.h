// flak — programmer-error checks with a host-settable handler.
#pragma once

namespace flak {

/// Called when FLAK_ASSERT fails. `expression` is the checked condition as text, `message` the
/// explanation, `file`/`line` the call site, `user` the pointer given to setAssertHandler.
/// If the handler returns, execution continues and the runtime takes its documented fallback
/// (a null result or an error status), so a host may log and carry on.
using AssertHandler = void (*)(const char* expression, const char* message, const char* file, int line,
                               void* user);

/// Installs `handler` for all threads (not thread-safe against concurrent calls to itself).
/// A null handler restores the default, which writes to stderr and traps.
void setAssertHandler(AssertHandler handler, void* user);

/// Dispatches a failed assertion to the current handler. Used by FLAK_ASSERT.
void reportAssert(const char* expression, const char* message, const char* file, int line);

} // namespace flak

#if defined(FLAK_ENABLE_ASSERTS)
/// Checks a programmer-error condition; on failure calls the assert handler. Compiled out unless
/// FLAK_ENABLE_ASSERTS is defined (Debug and sanitize builds, and the test suite).
#define FLAK_ASSERT(cond, msg)                                                                               \
    do {                                                                                                     \
        if (!(cond)) ::flak::reportAssert(#cond, (msg), __FILE__, __LINE__);                                 \
    } while (0)
#else
#define FLAK_ASSERT(cond, msg)                                                                               \
    do {                                                                                                     \
        (void)sizeof(cond);                                                                                  \
    } while (0)
#endif

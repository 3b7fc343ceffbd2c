#include <flak/assert.h>

#include <cstdio>

namespace flak {
namespace {

void defaultAssertHandler(const char* expression, const char* message, const char* file, int line, void*) {
    // stdio writes to a preallocated stderr stream: no heap from our side.
    std::fprintf(stderr, "flak assert failed: %s (%s) at %s:%d\n", message, expression, file, line);
    __builtin_trap();
}

AssertHandler g_handler = defaultAssertHandler;
void* g_user = nullptr;

} // namespace

void setAssertHandler(AssertHandler handler, void* user) {
    g_handler = handler != nullptr ? handler : defaultAssertHandler;
    g_user = user;
}

void reportAssert(const char* expression, const char* message, const char* file, int line) {
    g_handler(expression, message, file, line, g_user);
}

} // namespace flak

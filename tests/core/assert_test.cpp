#include <flak/assert.h>

#include "support/assert_recorder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace flak {
namespace {

struct Captured {
    const char* expression = nullptr;
    const char* message = nullptr;
    int line = 0;
    int calls = 0;
};

void capture(const char* expression, const char* message, const char*, int line, void* user) {
    auto* c = static_cast<Captured*>(user);
    c->expression = expression;
    c->message = message;
    c->line = line;
    ++c->calls;
}

TEST(Assert, HostHandlerReceivesExpressionMessageAndUserPointer) {
    Captured captured;
    setAssertHandler(capture, &captured);
    reportAssert("x > 0", "x must be positive", __FILE__, 42);
    setAssertHandler(nullptr, nullptr);
    EXPECT_EQ(captured.calls, 1);
    EXPECT_STREQ(captured.expression, "x > 0");
    EXPECT_STREQ(captured.message, "x must be positive");
    EXPECT_EQ(captured.line, 42);
}

TEST(Assert, MacroFiresOnlyOnFalseConditionsWhenEnabled) {
    test::AssertRecorder recorder;
    int evaluated = 0;
    FLAK_ASSERT((++evaluated, true), "never fires");
    FLAK_ASSERT(1 + 1 == 3, "arithmetic");
#if defined(FLAK_ENABLE_ASSERTS)
    EXPECT_EQ(recorder.count(), 1);
    EXPECT_STREQ(recorder.lastMessage(), "arithmetic");
    EXPECT_EQ(evaluated, 1);
#else
    EXPECT_EQ(recorder.count(), 0);
    EXPECT_EQ(evaluated, 0); // compiled out: the condition is not evaluated
#endif
}

TEST(AssertDeathTest, DefaultHandlerTraps) {
    // "threadsafe" re-executes the test program, which a qemu-user run (the cross build sets
    // FLAK_EMULATED) cannot do without binfmt_misc: there the child is forked ("fast") instead.
    GTEST_FLAG_SET(death_test_style, std::getenv("FLAK_EMULATED") ? "fast" : "threadsafe");
    EXPECT_DEATH(reportAssert("false", "boom", "file.cpp", 1), "flak assert failed: boom");
}

} // namespace
} // namespace flak

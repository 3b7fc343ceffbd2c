// Test helper: captures FLAK_ASSERT failures instead of trapping, for the scope of one object.
#pragma once

#include <flak/assert.h>

namespace flak::test {

class AssertRecorder {
public:
    AssertRecorder() { setAssertHandler(&AssertRecorder::record, this); }
    ~AssertRecorder() { setAssertHandler(nullptr, nullptr); }
    AssertRecorder(const AssertRecorder&) = delete;
    AssertRecorder& operator=(const AssertRecorder&) = delete;

    int count() const { return m_count; }
    const char* lastMessage() const { return m_last; }

private:
    static void record(const char*, const char* message, const char*, int, void* user) {
        auto* self = static_cast<AssertRecorder*>(user);
        ++self->m_count;
        self->m_last = message;
    }
    int m_count = 0;
    const char* m_last = "";
};

} // namespace flak::test

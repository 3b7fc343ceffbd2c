// The host-side ThreadPool (support/) keeps the TaskSystem contract (task_system.h) the World
// relies on: every item exactly once, ranges of at least min_range items except the last, on any
// worker count, task after task.
#include "flak_support/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <vector>

namespace flak::test {
namespace {

struct Record {
    std::vector<std::atomic<std::uint32_t>> runs; ///< per item
    std::atomic<std::uint32_t> short_ranges{0};   ///< ranges below min_range that do not end the task
    std::atomic<std::uint32_t> bad_worker{0};
    std::uint32_t count = 0, min_range = 1, workers = 1;
    explicit Record(std::uint32_t n) : runs(n) {}
};

void recordRange(std::uint32_t begin, std::uint32_t end, std::uint32_t worker, void* context) {
    Record& r = *static_cast<Record*>(context);
    for (std::uint32_t i = begin; i < end; ++i) r.runs[i].fetch_add(1, std::memory_order_relaxed);
    if (end - begin < r.min_range && end != r.count) r.short_ranges.fetch_add(1, std::memory_order_relaxed);
    if (worker >= r.workers) r.bad_worker.fetch_add(1, std::memory_order_relaxed);
}

TEST(ThreadPool, EveryItemOnceInRangesOfAtLeastMinRange) {
    const std::uint32_t counts[] = {0, 1, 2, 7, 31, 32, 33, 100, 1000, 4090};
    const std::uint32_t min_ranges[] = {1, 7, 32};
    long tasks = 0;
    for (const std::uint32_t workers : {1u, 2u, 3u, 4u, 8u}) {
        support::ThreadPool pool(workers);
        const TaskSystem& ts = *pool.tasks();
        for (int repeat = 0; repeat < 3; ++repeat)
            for (const std::uint32_t count : counts)
                for (const std::uint32_t min_range : min_ranges) {
                    Record r(count);
                    r.count = count;
                    r.min_range = min_range;
                    r.workers = workers;
                    void* task = ts.enqueue(&recordRange, count, min_range, &r, ts.user);
                    ts.finish(task, ts.user);
                    ++tasks;
                    std::uint32_t wrong = 0;
                    for (auto& runs : r.runs) wrong += runs.load() != 1u;
                    EXPECT_EQ(wrong, 0u)
                        << workers << " workers, " << count << " items, min_range " << min_range;
                    EXPECT_EQ(r.short_ranges.load(), 0u) << workers << " workers, " << count << " items";
                    EXPECT_EQ(r.bad_worker.load(), 0u);
                }
    }
    std::printf("  thread pool: %ld tasks checked\n", tasks);
}

} // namespace
} // namespace flak::test

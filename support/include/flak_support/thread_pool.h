// ThreadPool: a host's workers behind flak's TaskSystem (task_system.h), for the frame-budget
// runner, the samples, the benchmarks and the tests. The runtime never creates threads; a game
// plugs its own job system into the same interface.
//
// `workers` counts the calling thread: a pool of N starts N - 1 threads at construction (never
// later), and the thread that calls finish runs ranges as worker 0 while it waits. One task at a
// time. Nothing allocates after construction.
#pragma once

#include <flak/task_system.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace flak::support {

class ThreadPool {
public:
    /// workers: 1 to kMaxWorkers (clamped); 1 starts no thread and runs every range inline.
    explicit ThreadPool(std::uint32_t workers);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    /// The interface to put in WorldConfig::tasks (valid while the pool lives).
    const TaskSystem* tasks() const { return &m_tasks; }
    std::uint32_t workers() const { return m_tasks.worker_count; }

    /// Wakes the sleeping workers to watch for the next task for a while (as after a task) before
    /// they sleep again: a host calls it as a frame starts, so that the step's first task does
    /// not wait for the OS to wake a worker. Cheap when they are awake.
    void wake();

    /// Nanoseconds worker w spent running ranges since the last call, for every worker
    /// (out has workers() entries); the counters restart from zero.
    void takeBusyNs(std::uint64_t* out);

private:
    static void* enqueue(TaskFunction fn, std::uint32_t count, std::uint32_t min_range, void* context,
                         void* user);
    static void finish(void* task, void* user);
    void workerLoop(std::uint32_t worker);
    // Claims and runs ranges of the task of generation `generation` until none is left.
    void runRanges(std::uint32_t worker, std::uint32_t generation, TaskFunction fn, std::uint32_t count,
                   std::uint32_t range, void* context);

    TaskSystem m_tasks;
    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    // The current task (written under m_mutex by enqueue, read under it by the workers).
    std::uint32_t m_generation = 0;
    std::uint32_t m_wakes = 0; ///< wake() calls, to let sleeping workers go back to watching
    TaskFunction m_fn = nullptr;
    std::uint32_t m_count = 0;
    std::uint32_t m_range = 1;
    void* m_context = nullptr;
    // Claims, one per worker's share of the items (worker w starts on share w, then helps the
    // others, so the same items tend to stay with the same worker and its cache from step to
    // step): generation in the high word, the next item in the low word, so a worker that wakes
    // late never claims items of a newer task with an older task's function. A share's bounds
    // follow from the task's count and range alone, so such a worker computes its own task's.
    struct alignas(64) Share {
        std::atomic<std::uint64_t> next{0};
    };
    Share m_shares[kMaxWorkers];
    std::atomic<std::uint32_t> m_published{0}; ///< m_generation, for the workers' spin before sleeping
    std::atomic<std::uint32_t> m_done{0};
    std::atomic<std::uint64_t> m_busy_ns[kMaxWorkers];
};

} // namespace flak::support

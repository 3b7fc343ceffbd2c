// ThreadPool (thread_pool.h): one task at a time, its items in one share per worker, claimed in
// ranges through one atomic counter per share.
#include "flak_support/thread_pool.h"

#include <chrono>

namespace flak::support {

namespace {

std::uint64_t nowNs() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

// Share w of a task of `count` items in ranges of `range`: whole ranges, so that only the last
// range of all may be short.
void shareBounds(std::uint32_t count, std::uint32_t range, std::uint32_t workers, std::uint32_t w,
                 std::uint32_t& out_begin, std::uint32_t& out_end) {
    const std::uint64_t blocks = (static_cast<std::uint64_t>(count) + range - 1u) / range;
    const std::uint64_t begin = blocks * w / workers * range, end = blocks * (w + 1u) / workers * range;
    out_begin = static_cast<std::uint32_t>(begin < count ? begin : count);
    out_end = static_cast<std::uint32_t>(end < count ? end : count);
}

} // namespace

ThreadPool::ThreadPool(std::uint32_t workers) {
    if (workers < 1) workers = 1;
    if (workers > kMaxWorkers) workers = kMaxWorkers;
    for (auto& busy : m_busy_ns) busy.store(0, std::memory_order_relaxed);
    m_tasks.worker_count = workers;
    m_tasks.enqueue = &ThreadPool::enqueue;
    m_tasks.finish = &ThreadPool::finish;
    m_tasks.user = this;
    m_threads.reserve(workers - 1);
    for (std::uint32_t w = 1; w < workers; ++w) m_threads.emplace_back([this, w] { workerLoop(w); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_threads) t.join();
}

void ThreadPool::wake() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_wakes;
    }
    m_wake.notify_all();
}

void ThreadPool::takeBusyNs(std::uint64_t* out) {
    for (std::uint32_t w = 0; w < m_tasks.worker_count; ++w) out[w] = m_busy_ns[w].exchange(0);
}

void* ThreadPool::enqueue(TaskFunction fn, std::uint32_t count, std::uint32_t min_range, void* context,
                          void* user) {
    ThreadPool& pool = *static_cast<ThreadPool*>(user);
    if (count == 0) return nullptr;
    // About 32 ranges per worker, so uneven items (mesh-mesh jobs differ a hundredfold) even
    // out; never below min_range.
    const std::uint32_t workers = pool.m_tasks.worker_count;
    std::uint32_t range = count / (workers * 32u);
    if (range < min_range) range = min_range;
    if (range < 1) range = 1;
    if (workers < 2 || range >= count) {
        const std::uint64_t t0 = nowNs();
        fn(0, count, 0, context);
        pool.m_busy_ns[0].fetch_add(nowNs() - t0, std::memory_order_relaxed);
        return nullptr;
    }
    {
        std::lock_guard<std::mutex> lock(pool.m_mutex);
        ++pool.m_generation;
        pool.m_fn = fn;
        pool.m_count = count;
        pool.m_range = range;
        pool.m_context = context;
        pool.m_done.store(0, std::memory_order_relaxed);
        const std::uint64_t tag = static_cast<std::uint64_t>(pool.m_generation) << 32;
        for (std::uint32_t w = 0; w < workers; ++w) {
            std::uint32_t begin, end;
            shareBounds(count, range, workers, w, begin, end);
            pool.m_shares[w].next.store(tag | begin, std::memory_order_release);
        }
        pool.m_published.store(pool.m_generation, std::memory_order_release);
    }
    pool.m_wake.notify_all();
    return &pool;
}

void ThreadPool::finish(void* task, void* user) {
    ThreadPool& pool = *static_cast<ThreadPool*>(user);
    if (task == nullptr) return;
    std::uint32_t generation, count, range;
    TaskFunction fn;
    void* context;
    {
        std::lock_guard<std::mutex> lock(pool.m_mutex);
        generation = pool.m_generation;
        fn = pool.m_fn;
        count = pool.m_count;
        range = pool.m_range;
        context = pool.m_context;
    }
    pool.runRanges(0, generation, fn, count, range, context);
    while (pool.m_done.load(std::memory_order_acquire) < count) std::this_thread::yield();
}

void ThreadPool::runRanges(std::uint32_t worker, std::uint32_t generation, TaskFunction fn,
                           std::uint32_t count, std::uint32_t range, void* context) {
    const std::uint64_t tag = static_cast<std::uint64_t>(generation) << 32;
    const std::uint32_t workers = m_tasks.worker_count;
    for (std::uint32_t k = 0; k < workers; ++k) {
        const std::uint32_t w = (worker + k) % workers;
        std::uint32_t share_begin, share_end;
        shareBounds(count, range, workers, w, share_begin, share_end);
        Share& share = m_shares[w];
        std::uint64_t next = share.next.load(std::memory_order_acquire);
        for (;;) {
            if ((next & ~0xFFFFFFFFull) != tag) return; // a newer task (or none): not ours
            const std::uint32_t begin = static_cast<std::uint32_t>(next);
            if (begin >= share_end) break;
            const std::uint32_t end = share_end - begin > range ? begin + range : share_end;
            if (!share.next.compare_exchange_weak(next, tag | end, std::memory_order_acq_rel,
                                                  std::memory_order_acquire))
                continue; // `next` now holds the current value
            const std::uint64_t t0 = nowNs();
            fn(begin, end, worker, context);
            m_busy_ns[worker].fetch_add(nowNs() - t0, std::memory_order_relaxed);
            m_done.fetch_add(end - begin, std::memory_order_acq_rel);
            next = share.next.load(std::memory_order_acquire);
        }
    }
}

void ThreadPool::workerLoop(std::uint32_t worker) {
    std::uint32_t seen = 0;
    for (;;) {
        std::uint32_t generation, count, range;
        TaskFunction fn;
        void* context;
        // A step's tasks come a few microseconds apart: watch for the next one for a while
        // before sleeping, so a worker is not woken from the OS for every phase.
        const std::uint64_t spin_until = nowNs() + 100000u;
        for (std::uint32_t k = 0; m_published.load(std::memory_order_acquire) == seen; ++k) {
            if ((k & 63u) == 63u && nowNs() > spin_until) break;
            std::this_thread::yield();
        }
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            const std::uint32_t wakes = m_wakes;
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen || m_wakes != wakes; });
            if (m_stop) return;
            if (m_generation == seen) continue; // woken by wake(): watch for the next task again
            seen = generation = m_generation;
            fn = m_fn;
            count = m_count;
            range = m_range;
            context = m_context;
        }
        runRanges(worker, generation, fn, count, range, context);
    }
}

} // namespace flak::support

// flak — the host's workers as the runtime sees them: a worker count and two callbacks.
//
// flak creates no threads. A host that wants the step spread over its workers hands the World a
// TaskSystem at init (WorldConfig::tasks): enqueue starts a function over a range of work items,
// finish waits for it. The World calls them from the thread that calls step(), one task at a
// time, and waits for each before the next. Results never depend on how the host splits the
// items or on how many workers it has: every item writes its own output slot, and the World
// merges the slots in item order (world.h).
//
// A minimal host runs everything on the calling thread: enqueue calls fn(0, count, 0, context)
// and returns null. support/'s ThreadPool is a full one.
#pragma once

#include <cstdint>

namespace flak {

/// The most workers a TaskSystem may declare (per-worker scratch is carved for each).
constexpr std::uint32_t kMaxWorkers = 64;

/// Runs work items [begin, end) of one task on worker `worker` (0 <= worker < worker_count).
using TaskFunction = void (*)(std::uint32_t begin, std::uint32_t end, std::uint32_t worker, void* context);

/// The host's task interface (in the spirit of Box2D v3's enqueueTask / finishTask).
struct TaskSystem {
    /// Workers that may run ranges at once, the thread that calls finish included: 1 to kMaxWorkers.
    /// The World carves one scratch per worker at init from this count; while it is above that
    /// count (the host raised it afterwards), the World runs every item on the thread that calls
    /// step() instead, with the same results (a lower count is used as it is). Re-init to use
    /// more workers.
    std::uint32_t worker_count = 1;
    /// Starts `fn` over items [0, count): every item exactly once, in ranges of at least min_range
    /// items (fewer only for the last), each range on one worker. A worker index runs one range at
    /// a time (its scratch is its own). Returns a handle for finish, or null when every range has
    /// already run.
    void* (*enqueue)(TaskFunction fn, std::uint32_t count, std::uint32_t min_range, void* context,
                     void* user) = nullptr;
    /// Returns once every range of the task `enqueue` returned has run.
    void (*finish)(void* task, void* user) = nullptr;
    void* user = nullptr; ///< passed back to both calls
};

} // namespace flak

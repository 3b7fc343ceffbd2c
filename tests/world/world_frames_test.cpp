// The World over many frames of the shared scenes: no allocation during frames, repeatable hit
// streams, nothing dropped at the scenes' capacities, and the same hits for any worker count.
#include "flak_support/allocation_trap.h"
#include "flak_support/host_block.h"
#include "flak_support/thread_pool.h"
#include "scene.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

namespace flak::test {
namespace {

struct SceneRun {
    std::unique_ptr<scenes::Scene> scene = std::make_unique<scenes::Scene>();
    flak::support::HostBlock block;
    World world;

    // workers > 1: the step runs on a ThreadPool of that many workers.
    std::unique_ptr<flak::support::ThreadPool> pool;

    // wall_grid_cells >= 0: the world's wall grids get that many cells instead of the scene's.
    explicit SceneRun(const std::string& name, std::uint64_t seed = 1, std::uint32_t workers = 1,
                      std::int64_t wall_grid_cells = -1) {
        scenes::SceneParams params;
        EXPECT_TRUE(scenes::sceneParams(name, params));
        std::string error;
        EXPECT_TRUE(scene->build(name, params, seed, error)) << error;
        WorldConfig config = scene->worldConfig();
        if (wall_grid_cells >= 0) config.wall_grid_cells = static_cast<std::uint32_t>(wall_grid_cells);
        if (workers > 1) {
            pool = std::make_unique<flak::support::ThreadPool>(workers);
            config.tasks = pool->tasks();
        }
        const std::size_t bytes = World::requiredBytes(config);
        block.reset(bytes, World::kAlignment);
        EXPECT_EQ(world.init(block.data(), bytes, config), Status::Ok);
        EXPECT_TRUE(scene->setup(world, error)) << error;
    }
};

// Ten thousand frames of a busy scene (bullets spawned and despawned every frame, ships and
// beams moving) with trapping allocation functions armed around the script and the step.
TEST(WorldFrames, NoAllocationOverTenThousandFrames) {
    SceneRun run("skirmish");
    std::uint64_t hits = 0, spawned_high = 0;
    armAllocationTrap();
    for (std::uint32_t f = 0; f < 10000; ++f) {
        run.scene->update(run.world, f);
        (void)run.world.step(run.scene->dt());
        hits += run.world.hitCount();
    }
    const std::size_t allocations = disarmAllocationTrap();
    spawned_high = run.world.poolUsage(BodyKind::Bullet).high_water;
    EXPECT_EQ(allocations, 0u) << (mallocIsTrapped() ? "malloc and operator new counted"
                                                     : "operator new counted");
    EXPECT_GT(hits, 10000u);       // the scene is busy: bullets hit things
    EXPECT_GT(spawned_high, 150u); // and many bullets are alive at once
}

TEST(WorldFrames, ArmadaIsRepeatableAndDropsNothing) {
    auto play = [](std::uint32_t frames, std::uint64_t& out_hits) {
        SceneRun run("armada");
        out_hits = 0;
        for (std::uint32_t f = 0; f < frames; ++f) {
            run.scene->update(run.world, f);
            EXPECT_EQ(run.world.step(run.scene->dt()), Status::Ok) << "frame " << f;
            const StepStats& stats = run.world.stats();
            EXPECT_EQ(stats.hits_dropped + stats.pairs_dropped + stats.contacts_dropped, 0u) << "frame " << f;
            out_hits += run.world.hitCount();
        }
        return run.world.hitStreamHash();
    };
    std::uint64_t hits_a = 0, hits_b = 0;
    const std::uint64_t a = play(40, hits_a);
    const std::uint64_t b = play(40, hits_b);
    EXPECT_EQ(a, b);
    EXPECT_EQ(hits_a, hits_b);
    EXPECT_GT(hits_a, 1000u);
}

TEST(WorldFrames, SeedsChangeTheStream) {
    SceneRun one("skirmish", 1), two("skirmish", 2);
    for (std::uint32_t f = 0; f < 60; ++f) {
        one.scene->update(one.world, f);
        two.scene->update(two.world, f);
        (void)one.world.step(one.scene->dt());
        (void)two.world.step(two.scene->dt());
    }
    EXPECT_NE(one.world.hitStreamHash(), two.world.hitStreamHash());
}

// Everything a step reports but its timings.
void expectSameStep(const World& want, const World& got, const std::string& what) {
    const StepStats& x = want.stats();
    const StepStats& y = got.stats();
    EXPECT_EQ(x.pairs, y.pairs) << what;
    EXPECT_EQ(x.shot_candidates, y.shot_candidates) << what;
    EXPECT_EQ(x.pairs_dropped, y.pairs_dropped) << what;
    EXPECT_EQ(x.hits, y.hits) << what;
    EXPECT_EQ(x.hits_dropped, y.hits_dropped) << what;
    EXPECT_EQ(x.contacts_dropped, y.contacts_dropped) << what;
    EXPECT_EQ(x.skipped_bodies, y.skipped_bodies) << what;
    EXPECT_EQ(x.mesh_jobs, y.mesh_jobs) << what;
    ASSERT_EQ(want.hitCount(), got.hitCount()) << what;
    EXPECT_EQ(std::memcmp(want.hits(), got.hits(), sizeof(Hit) * want.hitCount()), 0) << what;
    EXPECT_EQ(want.hitStreamHash(), got.hitStreamHash()) << what;
}

// Every scene on 1, 2, 3, 4 and 8 workers: the same hits, stats and hash, frame by frame, and no
// allocation during the frames (the pools' threads start before).
TEST(WorldFrames, EveryWorkerCountGivesTheSameStep) {
    const struct {
        const char* scene;
        std::uint32_t frames;
    } runs[] = {{"skirmish", 120}, {"armada", 24}, {"worst", 12}};
    const std::uint32_t counts[] = {2, 3, 4, 8};
    for (const auto& r : runs) {
        SceneRun one(r.scene);
        std::vector<std::unique_ptr<SceneRun>> many;
        for (std::uint32_t n : counts) many.push_back(std::make_unique<SceneRun>(r.scene, 1, n));
        std::uint64_t hits = 0;
        for (std::uint32_t f = 0; f < r.frames; ++f) {
            one.scene->update(one.world, f);
            const Status want = one.world.step(one.scene->dt());
            hits += one.world.hitCount();
            for (std::size_t k = 0; k < many.size(); ++k) {
                SceneRun& run = *many[k];
                armAllocationTrap();
                run.scene->update(run.world, f);
                const Status got = run.world.step(run.scene->dt());
                const std::size_t allocations = disarmAllocationTrap();
                const std::string what = std::string(r.scene) + " frame " + std::to_string(f) + ", " +
                                         std::to_string(counts[k]) + " workers";
                EXPECT_EQ(allocations, 0u) << what;
                EXPECT_EQ(want, got) << what;
                expectSameStep(one.world, run.world, what);
            }
        }
        EXPECT_GT(hits, 100u) << r.scene;
    }
}

// The wall grids only speed the shots up: without one, or with a coarse one, every step of the
// scenes with walls is the same.
TEST(WorldFrames, WallGridsChangeNothing) {
    const struct {
        const char* scene;
        std::uint32_t frames;
    } runs[] = {{"skirmish", 120}, {"armada", 30}};
    for (const auto& r : runs) {
        SceneRun with(r.scene);
        SceneRun without(r.scene, 1, 1, 0);
        SceneRun coarse(r.scene, 1, 1, 12);
        for (std::uint32_t f = 0; f < r.frames; ++f) {
            for (SceneRun* run : {&with, &without, &coarse}) {
                run->scene->update(run->world, f);
                (void)run->world.step(run->scene->dt());
            }
            const std::string what = std::string(r.scene) + " frame " + std::to_string(f);
            expectSameStep(with.world, without.world, what + ", no grid");
            expectSameStep(with.world, coarse.world, what + ", 12 cells");
        }
        EXPECT_GT(with.world.stats().shot_candidates, 0u);
    }
}

// At capacity the workers keep the same hits as one thread: the first max_hits in phase and item
// order, the rest counted.
TEST(WorldFrames, WorkersDropTheSameHitsAtCapacity) {
    auto play = [](std::uint32_t workers, std::vector<Hit>& out, std::uint32_t& out_dropped) {
        scenes::Scene scene;
        scenes::SceneParams params;
        ASSERT_TRUE(scenes::sceneParams("armada", params));
        std::string error;
        ASSERT_TRUE(scene.build("armada", params, 1, error)) << error;
        WorldConfig config = scene.worldConfig();
        config.max_hits = 97;
        flak::support::ThreadPool pool(workers);
        if (workers > 1) config.tasks = pool.tasks();
        flak::support::HostBlock block(World::requiredBytes(config), World::kAlignment);
        World world;
        ASSERT_EQ(world.init(block.data(), block.size(), config), Status::Ok);
        ASSERT_TRUE(scene.setup(world, error)) << error;
        out_dropped = 0;
        for (std::uint32_t f = 0; f < 12; ++f) {
            scene.update(world, f);
            const Status status = world.step(scene.dt());
            out_dropped += world.stats().hits_dropped;
            if (world.stats().hits_dropped > 0) {
                EXPECT_EQ(status, Status::BufferFull);
            }
            out.insert(out.end(), world.hits(), world.hits() + world.hitCount());
        }
    };
    std::vector<Hit> want, got;
    std::uint32_t want_dropped = 0, got_dropped = 0;
    play(1, want, want_dropped);
    EXPECT_GT(want_dropped, 0u);
    for (std::uint32_t workers : {2u, 5u}) {
        got.clear();
        play(workers, got, got_dropped);
        EXPECT_EQ(want_dropped, got_dropped) << workers;
        ASSERT_EQ(want.size(), got.size()) << workers;
        EXPECT_EQ(std::memcmp(want.data(), got.data(), sizeof(Hit) * want.size()), 0) << workers;
    }
}

} // namespace
} // namespace flak::test

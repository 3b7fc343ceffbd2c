// The World over many frames of the shared scenes: no allocation during frames, repeatable hit
// streams, and nothing dropped at the scenes' capacities.
#include "flak_support/allocation_trap.h"
#include "flak_support/host_block.h"
#include "scene.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace flak::test {
namespace {

struct SceneRun {
    std::unique_ptr<scenes::Scene> scene = std::make_unique<scenes::Scene>();
    flak::support::HostBlock block;
    World world;

    explicit SceneRun(const std::string& name, std::uint64_t seed = 1) {
        scenes::SceneParams params;
        EXPECT_TRUE(scenes::sceneParams(name, params));
        std::string error;
        EXPECT_TRUE(scene->build(name, params, seed, error)) << error;
        const WorldConfig config = scene->worldConfig();
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

} // namespace
} // namespace flak::test

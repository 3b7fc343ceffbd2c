// Test support for the World: a host block, small baked meshes and clusters, and a random
// scene whose every body the test remembers, so a brute-force oracle can recompute each step's
// hits without the broad phase.
#pragma once

#include "bvh/bake_helpers.h"
#include "flak_support/host_block.h"
#include "flak_support/mesh_gen.h"
#include "flak_support/split_mix.h"

#include <flak/shooter/beam.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/swept_bullet.h>
#include <flak/world/world.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace flak::test {

/// A World over a host block the fixture owns.
class HostWorld {
public:
    explicit HostWorld(const WorldConfig& config) : m_config(config) {
        m_bytes = World::requiredBytes(config);
        m_block.reset(m_bytes, World::kAlignment);
        m_init = world.init(m_block.data(), m_bytes, config);
    }
    World world;
    Status initStatus() const { return m_init; }
    std::size_t bytes() const { return m_bytes; }

private:
    WorldConfig m_config;
    flak::support::HostBlock m_block;
    std::size_t m_bytes = 0;
    Status m_init = Status::InvalidArgument;
};

/// A mesh baked and loaded in memory.
struct TestMesh {
    std::unique_ptr<AlignedBytes> bytes;
    MeshBlob blob;
};

inline std::unique_ptr<TestMesh> makeTestMesh(const Mesh& mesh) {
    auto m = std::make_unique<TestMesh>();
    m->bytes = std::make_unique<AlignedBytes>(bakeBytes(mesh));
    EXPECT_EQ(loadMeshBlob(m->bytes->data(), m->bytes->size(), m->blob), Status::Ok);
    return m;
}

/// A cluster over spheres the struct owns.
struct TestCluster {
    std::vector<Sphere> spheres;
    SphereCluster cluster;
};

/// `count` spheres spread over an ellipsoid-ish ship of half-length `length`.
inline std::unique_ptr<TestCluster> makeTestCluster(std::uint32_t count, float length, std::uint64_t seed) {
    auto c = std::make_unique<TestCluster>();
    SplitMix64 rng(seed);
    for (std::uint32_t i = 0; i < count; ++i) {
        Sphere s;
        const float u = static_cast<float>(i) / static_cast<float>(count > 1 ? count - 1 : 1);
        set(-length + 2.0f * length * u, static_cast<float>(-0.3 + 0.6 * rng.u()),
            static_cast<float>(-0.2 + 0.4 * rng.u()), s.center);
        s.radius = static_cast<float>(0.4 + 0.6 * rng.u());
        c->spheres.push_back(s);
    }
    EXPECT_EQ(makeSphereCluster(c->spheres.data(), count, c->cluster), Status::Ok);
    return c;
}

inline void yawAt(float yaw, float x, float y, float z, Transform& out) {
    Quat q;
    Vec3 axis;
    set(0.0f, 0.0f, 1.0f, axis);
    fromAxisAngle(axis, yaw, q);
    Vec3 t;
    set(x, y, z, t);
    fromQuatTranslation(q, t, out);
}

} // namespace flak::test

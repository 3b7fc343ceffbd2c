// The query inputs of docs/bench_scenes.md (b) and (c), shared by the scenes that run them.
#pragma once

#include "flak_support/split_mix.h"
#include "scene_mesh.h"

#include <flak/math/sphere.h>

#include <cmath>
#include <vector>

namespace flak::bench {

// docs/bench_scenes.md (b): centre uniform in Q, then the radius; double arithmetic, floats for the query.
inline std::vector<Sphere> makeSpheres(const SceneMesh& s, long count) {
    test::SplitMix64 rng(0x5EED0001u);
    std::vector<Sphere> out(static_cast<std::size_t>(count));
    for (Sphere& q : out) {
        const double cx = rng.range(s.q_lo[0], s.q_hi[0]);
        const double cy = rng.range(s.q_lo[1], s.q_hi[1]);
        const double cz = rng.range(s.q_lo[2], s.q_hi[2]);
        const double r = s.diag * (0.01 + 0.04 * rng.u());
        set(static_cast<float>(cx), static_cast<float>(cy), static_cast<float>(cz), q.center);
        q.radius = static_cast<float>(r);
    }
    return out;
}

// docs/bench_scenes.md (c), in double: origin in Q, direction from (z, phi), length. The segment is given
// to flak as p0 = o and p1 = o + len d and to the peers as origin o, unit direction d, t in
// [0, len]; each stored to float at the end.
struct SceneSegment {
    Vec3 p0, p1, dir;
    float len;
};

inline std::vector<SceneSegment> makeSegments(const SceneMesh& s, long count) {
    test::SplitMix64 rng(0x5EED0002u);
    std::vector<SceneSegment> out(static_cast<std::size_t>(count));
    const double pi = 3.14159265358979323846;
    for (SceneSegment& q : out) {
        double o[3];
        for (int k = 0; k < 3; ++k) o[k] = rng.range(s.q_lo[k], s.q_hi[k]);
        const double z = 2.0 * rng.u() - 1.0;
        const double phi = 2.0 * pi * rng.u();
        const double sz = std::sqrt(1.0 - z * z);
        const double d[3] = {sz * std::cos(phi), sz * std::sin(phi), z};
        const double len = s.diag * (0.02 + 0.18 * rng.u());
        for (int k = 0; k < 3; ++k) {
            q.p0[k] = static_cast<float>(o[k]);
            q.p1[k] = static_cast<float>(o[k] + len * d[k]);
            q.dir[k] = static_cast<float>(d[k]);
        }
        q.len = static_cast<float>(len);
    }
    return out;
}

} // namespace flak::bench

// The query inputs of docs/bench_scenes.md (b), (c) and (d), shared by the scenes that run them.
#pragma once

#include "flak_support/split_mix.h"
#include "scene_mesh.h"

#include <flak/math/sphere.h>
#include <flak/math/transform.h>

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

// Shoemake's uniform random rotation from u1, u2, u3 = u(), u(), u(): the quaternion (x, y, z, w),
// in double.
inline void shoemake(test::SplitMix64& rng, double out[4]) {
    const double pi = 3.14159265358979323846;
    const double u1 = rng.u(), u2 = rng.u(), u3 = rng.u();
    out[0] = std::sqrt(1 - u1) * std::sin(2 * pi * u2);
    out[1] = std::sqrt(1 - u1) * std::cos(2 * pi * u2);
    out[2] = std::sqrt(u1) * std::sin(2 * pi * u3);
    out[3] = std::sqrt(u1) * std::cos(2 * pi * u3);
}

// docs/bench_scenes.md (d): Shoemake quaternion, its rotation R, then the shift t; B's points go to
// R (x - c) + c + t, i.e. the rigid map (R, c + t - R c), formed in double, stored to float.
struct Pose {
    double r[3][3];
    double t[3];
    Transform b_to_a;
};

inline std::vector<Pose> makePoses(const SceneMesh& s, long count) {
    test::SplitMix64 rng(0x5EED0003u);
    std::vector<Pose> out(static_cast<std::size_t>(count));
    for (Pose& p : out) {
        double quat[4];
        shoemake(rng, quat);
        const double x = quat[0], y = quat[1], z = quat[2], w = quat[3];
        double shift[3];
        for (int k = 0; k < 3; ++k) shift[k] = (2 * rng.u() - 1) * 1.35 * (double(s.hi[k]) - double(s.lo[k]));
        const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                                {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                                {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
        for (int i = 0; i < 3; ++i) {
            double rc = 0;
            for (int j = 0; j < 3; ++j) {
                p.r[i][j] = m[i][j];
                rc += m[i][j] * s.c[j];
            }
            p.t[i] = s.c[i] + shift[i] - rc;
        }
        Vec3* cols[3] = {&p.b_to_a.rotation.c0, &p.b_to_a.rotation.c1, &p.b_to_a.rotation.c2};
        for (int j = 0; j < 3; ++j)
            set(static_cast<float>(m[0][j]), static_cast<float>(m[1][j]), static_cast<float>(m[2][j]),
                *cols[j]);
        set(static_cast<float>(p.t[0]), static_cast<float>(p.t[1]), static_cast<float>(p.t[2]),
            p.b_to_a.translation);
    }
    return out;
}

} // namespace flak::bench

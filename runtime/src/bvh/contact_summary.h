// flak — private: the sums behind MeshContactSummary (mesh_mesh.h), shared by meshMeshSummary
// (triangle pairs in walk order) and the World's mesh-mesh phase (pairs sorted by (a, b)), so the
// two compute a summary with the very same operations.
#pragma once

#include <flak/bvh/mesh_mesh.h>
#include <flak/geom/tri_tri.h>
#include <flak/geom/triangle_normal.h>

#include <cstdint>

namespace flak::detail {

/// Summed in double, in the order the pairs are added: the midpoints of the intersection
/// segments, and both sides' unit triangle normals.
struct SummarySums {
    std::uint32_t pairs = 0;
    std::uint32_t points = 0;
    double point[3] = {0.0, 0.0, 0.0};
    double na[3] = {0.0, 0.0, 0.0};
    double nb[3] = {0.0, 0.0, 0.0};

    /// One intersecting pair: A's triangle va, B's triangle vb in A's space.
    void add(const Vec3* va, const Vec3* vb) {
        ++pairs;
        Vec3 s, e;
        bool coplanar = false;
        if (triTriIntersection(va[0], va[1], va[2], vb[0], vb[1], vb[2], s, e, coplanar)) {
            for (int c = 0; c < 3; ++c)
                point[c] += 0.5 * (static_cast<double>(s[c]) + static_cast<double>(e[c]));
            ++points;
        }
        Vec3 n;
        if (computeTriangleNormal(va[0], va[1], va[2], n))
            for (int c = 0; c < 3; ++c) na[c] += static_cast<double>(n[c]);
        if (computeTriangleNormal(vb[0], vb[1], vb[2], n))
            for (int c = 0; c < 3; ++c) nb[c] += static_cast<double>(n[c]);
    }

    /// The summary of the pairs added (mean point, unit mean normals); false and a default
    /// summary when none was.
    bool finish(MeshContactSummary& out) const {
        out = MeshContactSummary{};
        if (pairs == 0) return false;
        out.pair_count = pairs;
        if (points > 0) {
            const double inv = 1.0 / static_cast<double>(points);
            set(static_cast<float>(point[0] * inv), static_cast<float>(point[1] * inv),
                static_cast<float>(point[2] * inv), out.point);
        }
        unit(na, out.normal_a);
        unit(nb, out.normal_b);
        return true;
    }

private:
    static void unit(const double v[3], Vec3& out) {
        const Vec3 f{static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])};
        (void)normalize(f, out);
    }
};

} // namespace flak::detail

#include <flak/bvh/sphere_query.h>

#include "bvh/query_walk.h"
#include "bvh/triangle_lanes.h"
#include "bvh/wide_walk.h"

#include <flak/geom/sphere_aabb.h>
#include <flak/geom/sphere_triangle.h>
#include <flak/math/simd.h>

namespace flak {

namespace {

bool validSphere(const Sphere& s) {
    return isFinite(s.center) && std::isfinite(s.radius) && s.radius >= 0.0f;
}

// The query's ball, grown by the margin, for the node tests (its cube in the quantized grid, then
// the distance to each child's box: detail::WideBall); each triangle's exact box is then tested
// with Arvo's distance against the grown radius before the kernel runs. The filters are
// conservative beyond rounding, so the kernel sees every triangle it could accept.
struct PreparedSphere {
    detail::WideBall ball;
    float grown_radius_sq;
    float shrunk_radius_sq; ///< (radius - margin)^2, or -1 when the margin is not below the radius
    float margin;           ///< the walk margin the radius was grown by
};

void prepareSphere(const MeshBlob& blob, const Sphere& s, PreparedSphere& out) {
    out.margin = detail::walkMargin(blob, detail::maxOf(detail::maxAbs(s.center), s.radius));
    const float r = s.radius + out.margin;
    out.ball.set(blob, s.center, r, out.margin);
    out.grown_radius_sq = r * r;
    const float inner = s.radius - out.margin;
    out.shrunk_radius_sq = inner > 0.0f ? inner * inner : -1.0f;
}

// Squared distance from the centre to the triangle's box: a lower bound of its distance to the
// triangle (up to the rounding of the box arithmetic, far inside the walk margin).
float triangleBoxDistanceSq(const Sphere& s, const Vec3& a, const Vec3& b, const Vec3& c) {
    Aabb box;
    min(a, b, box.min);
    min(box.min, c, box.min);
    max(a, b, box.max);
    max(box.max, c, box.max);
    return distanceSq(s.center, box);
}

// The triangle's plane farther from the centre than sqrt(bound_sq) (the grown radius, or the
// deepest-hit walk's shrinking reach): no point of the triangle can be within it. n = ab x ac is
// not normalised: the test is dot(ap, n)^2 > bound_sq |n|^2. Its rounding is a few ulps of |ap|
// when the triangle is not a sliver (|n| at least a tenth of |ab| |ac|, so n's direction error
// is ~38 eps), far inside the margin both bounds carry, which also covers the kernel's own band;
// slivers, tiny and degenerate triangles (nn not clearly normal) go to the kernel, whose answer
// it never changes.
bool planeFar(const Sphere& s, float bound_sq, const Vec3& a, const Vec3& b, const Vec3& c) {
    Vec3 ab, ac, ap, n;
    sub(b, a, ab);
    sub(c, a, ac);
    sub(s.center, a, ap);
    cross(ab, ac, n);
    const float nn = lengthSq(n);
    if (!(nn > 1e-30f) || !(nn >= 0.01f * (lengthSq(ab) * lengthSq(ac)))) return false;
    const float d = dot(ap, n);
    return d * d > bound_sq * nn;
}

// Both cheap filters of any-hit queries for four triangles (lanes) at once. Returned, bit l:
// triangle l's box (Arvo's distance, as triangleBoxDistanceSq) is within the grown radius. Into
// out_within, bit l: a vertex of triangle l lies inside the ball shrunk by the margin, so the
// triangle's distance is at most that vertex's and the kernel, whose decision flips only within
// its band (inside the margin), accepts it: any-hit queries take this answer without calling the
// kernel. (The closest points of the three edges as well measured slower: their divisions cost
// more than the kernel calls they save.) Each lane runs triangleBoxDistanceSq's operations in
// their order (min and max as `a < b ? a : b` and `a > b ? a : b`, the clamp as max(lo, min(hi,
// v)), which is clampTo on a box that is not inverted, the sums left to right), so it decides as
// that function does. The inputs are finite (the loader proves the vertices, validSphere the
// centre), so no lane is NaN and "d <= r" is "not r < d".
unsigned quadNear(const Sphere& s, const PreparedSphere& p, const TriangleLanes& v, unsigned& out_within) {
    F4 box_sq, dist[3];
    for (int k = 0; k < 3; ++k) {
        F4 corner[3], lo, hi, centre, closest, off, sq;
        for (int i = 0; i < 3; ++i) f4Load(v.v[i][k], corner[i]);
        f4Min(corner[0], corner[1], lo);
        f4Min(lo, corner[2], lo);
        f4Max(corner[0], corner[1], hi);
        f4Max(hi, corner[2], hi);
        f4Splat(s.center[k], centre);
        f4Min(hi, centre, closest); // centre > hi ? hi : centre
        f4Max(lo, closest, closest);
        f4Sub(centre, closest, off);
        f4Mul(off, off, sq);
        if (k == 0)
            box_sq = sq;
        else
            f4Add(box_sq, sq, box_sq);
        for (int i = 0; i < 3; ++i) { // distanceSq(centre, corner i)
            f4Sub(centre, corner[i], off);
            f4Mul(off, off, sq);
            if (k == 0)
                dist[i] = sq;
            else
                f4Add(dist[i], sq, dist[i]);
        }
    }
    F4 grown, shrunk, nearest;
    f4Splat(p.grown_radius_sq, grown);
    f4Splat(p.shrunk_radius_sq, shrunk);
    f4Min(dist[0], dist[1], nearest);
    f4Min(nearest, dist[2], nearest);
    out_within = f4LessMask(nearest, shrunk);
    return ~f4LessMask(grown, box_sq) & 0xFu;
}

// Both filters before the kernel: the triangle's box (Arvo's distance), then its plane.
bool triangleNear(const Sphere& s, const PreparedSphere& p, const Vec3& a, const Vec3& b, const Vec3& c) {
    return triangleBoxDistanceSq(s, a, b, c) <= p.grown_radius_sq && !planeFar(s, p.grown_radius_sq, a, b, c);
}

void sphereToMesh(const Transform& mesh_to_world, const Sphere& world, Sphere& out) {
    inverseTransformPoint(mesh_to_world, world.center, out.center);
    out.radius = world.radius;
}

} // namespace

bool sphereAnyHit(const MeshBlob& blob, const Sphere& sphere) {
    if (blob.triangle_count == 0 || !validSphere(sphere)) return false;
    PreparedSphere prep;
    prepareSphere(blob, sphere, prep);
    // A leaf's triangles four at a time: both cheap filters on the quad (quadNear), a hit at once
    // where a near triangle has a vertex within, else the plane and the kernel for the near ones.
    const bool walked_all =
        detail::walkBallLeaves(blob, prep.ball, [&](std::uint32_t first, std::uint32_t count) {
            for (std::uint32_t group = first; group < first + count; group += 4) {
                const std::uint32_t n = first + count - group < 4 ? first + count - group : 4;
                TriangleLanes lanes;
                detail::loadTriangleQuad(blob, group, n, lanes);
                unsigned within;
                unsigned near = quadNear(sphere, prep, lanes, within) & ((1u << n) - 1u);
                if ((near & within) != 0) return false;
                for (; near != 0; near &= near - 1u) {
                    Vec3 a, b, c;
                    detail::laneTriangle(lanes, static_cast<std::uint32_t>(__builtin_ctz(near)), a, b, c);
                    if (planeFar(sphere, prep.grown_radius_sq, a, b, c)) continue;
                    Contact contact;
                    if (sphereTriangle(sphere, a, b, c, contact)) return false;
                }
            }
            return true;
        });
    return !walked_all;
}

bool sphereAnyHit(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere) {
    Sphere local;
    sphereToMesh(mesh_to_world, sphere, local);
    return sphereAnyHit(blob, local);
}

Status sphereAllHits(const MeshBlob& blob, const Sphere& sphere, OutBuffer<MeshContact>& inout_hits) {
    if (blob.triangle_count == 0 || !validSphere(sphere)) return Status::Ok;
    PreparedSphere prep;
    prepareSphere(blob, sphere, prep);
    bool full = false;
    detail::walkBallTriangles(blob, prep.ball, [&](std::uint32_t t) {
        Vec3 a, b, c;
        triangleVertices(blob, t, a, b, c);
        if (!triangleNear(sphere, prep, a, b, c)) return true;
        Contact contact;
        if (!sphereTriangle(sphere, a, b, c, contact)) return true;
        MeshContact out;
        out.contact = contact;
        out.triangle = t;
        if (!inout_hits.append(out)) full = true;
        return true;
    });
    return full ? Status::BufferFull : Status::Ok;
}

bool sphereDeepestHit(const MeshBlob& blob, const Sphere& sphere, MeshContact& out_hit) {
    if (blob.triangle_count == 0 || !validSphere(sphere)) return false;
    PreparedSphere prep;
    prepareSphere(blob, sphere, prep);
    // A triangle can only reach the best depth so far if its distance is at most the best one's;
    // the kernel's distances are good to one tolerance band (a quarter of the walk margin), so a
    // triangle or node whose box lies more than two margins beyond the best distance cannot win or
    // tie, and is skipped. `reach_sq` is that bound, squared; the walk's ball shrinks with it.
    bool found = false;
    MeshContact best;
    float reach_sq = prep.grown_radius_sq;
    detail::walkBallTriangles(blob, prep.ball, [&](std::uint32_t t) {
        Vec3 a, b, c;
        triangleVertices(blob, t, a, b, c);
        if (!(triangleBoxDistanceSq(sphere, a, b, c) <= reach_sq) || planeFar(sphere, reach_sq, a, b, c))
            return true;
        Contact contact;
        if (!sphereTriangle(sphere, a, b, c, contact)) return true;
        if (!found || contact.depth > best.contact.depth) {
            best.contact = contact;
            best.triangle = t;
            found = true;
            const float dist = sphere.radius - contact.depth;
            const float reach = (dist > 0.0f ? dist : 0.0f) + 2.0f * prep.margin;
            if (reach * reach < reach_sq) {
                reach_sq = reach * reach;
                prep.ball.set(blob, sphere.center, reach + prep.margin, prep.margin);
            }
        }
        return true;
    });
    if (found) out_hit = best;
    return found;
}

bool sphereDeepestHit(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere,
                      MeshContact& out_hit) {
    Sphere local;
    sphereToMesh(mesh_to_world, sphere, local);
    MeshContact hit;
    if (!sphereDeepestHit(blob, local, hit)) return false;
    transformPoint(mesh_to_world, hit.contact.point, hit.contact.point);
    transformVector(mesh_to_world, hit.contact.normal, hit.contact.normal);
    out_hit = hit;
    return true;
}

Status sphereAllHits(const MeshBlob& blob, const Transform& mesh_to_world, const Sphere& sphere,
                     OutBuffer<MeshContact>& inout_hits) {
    Sphere local;
    sphereToMesh(mesh_to_world, sphere, local);
    const std::uint32_t first = inout_hits.count;
    const Status s = sphereAllHits(blob, local, inout_hits);
    for (std::uint32_t k = first; k < inout_hits.count; ++k) {
        Contact& c = inout_hits.items[k].contact;
        transformPoint(mesh_to_world, c.point, c.point);
        transformVector(mesh_to_world, c.normal, c.normal);
    }
    return s;
}

} // namespace flak

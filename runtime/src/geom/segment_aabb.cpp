#include <flak/geom/segment_aabb.h>

#include <cmath>

namespace flak {
namespace {

// Ize 2013: each slab parameter (b - o) * (1 / d) carries at most four roundings (d = p1 - p0,
// the reciprocal, the difference, the product), a relative error of gamma_4 < 2.4e-7. An exact
// hit has t_near <= t_far, so the computed values satisfy t_near' <= t_far' (1 + g4) / (1 - g4);
// scaling the exit by 1 + 2^-20 (> 1 + 2 g4 plus the rounding of the scaling itself) keeps every
// exact hit. The factor is exact in float.
constexpr float kExitRoundUp = 1.0f + 1.0f / 1048576.0f;

bool isValidBox(const Aabb& box) {
    return isFinite(box.min) && isFinite(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y &&
           box.min.z <= box.max.z;
}

void prepare(const Vec3& origin, const Vec3& delta, float t_max, SlabSegment& out) {
    out.origin = origin;
    out.t_max = t_max;
    out.valid = isFinite(origin) && isFinite(delta) && std::isfinite(t_max) && t_max >= 0.0f;
    // 1 / +-0 is +-inf by IEEE 754; that is the point (Williams et al.), not an error.
    set(1.0f / delta.x, 1.0f / delta.y, 1.0f / delta.z, out.inv_delta);
}

// Williams et al. 2005: the sign of the inverse picks which plane is near, so no min/max of the
// two plane parameters is needed. Ordering of the comparisons matters: `t > enter ? t : enter`
// keeps `enter` when t is NaN (0 * inf: origin on a plane parallel to the segment), which is the
// closed-slab answer "no constraint from this axis".
bool clip(const SlabSegment& s, const Aabb& box, float& out_enter, float& out_exit) {
    float t_enter = 0.0f;
    float t_exit = s.t_max;
    for (int axis = 0; axis < 3; ++axis) {
        const float inv = s.inv_delta[axis];
        const float o = s.origin[axis];
        const bool negative = inv < 0.0f;
        const float near_plane = negative ? box.max[axis] : box.min[axis];
        const float far_plane = negative ? box.min[axis] : box.max[axis];
        const float t_near = (near_plane - o) * inv;
        const float t_far = (far_plane - o) * inv;
        t_enter = t_near > t_enter ? t_near : t_enter;
        t_exit = t_far < t_exit ? t_far : t_exit;
    }
    out_enter = t_enter;
    out_exit = t_exit;
    return t_enter <= t_exit * kExitRoundUp;
}

} // namespace

void prepareSegment(const Vec3& p0, const Vec3& p1, SlabSegment& out) {
    Vec3 delta;
    sub(p1, p0, delta);
    prepare(p0, delta, 1.0f, out);
}

void prepareRay(const Vec3& origin, const Vec3& dir, float t_max, SlabSegment& out) {
    prepare(origin, dir, t_max, out);
}

bool segmentAabb(const SlabSegment& segment, const Aabb& box, float& out_t_enter, float& out_t_exit) {
    if (!segment.valid || !isValidBox(box)) return false;
    float t_enter = 0.0f, t_exit = 0.0f;
    if (!clip(segment, box, t_enter, t_exit)) return false;
    // The rounding allowance may leave the entry a hair past the exit or t_max: report a
    // consistent pair.
    t_enter = t_enter < segment.t_max ? t_enter : segment.t_max;
    out_t_enter = t_enter;
    out_t_exit = t_exit > t_enter ? t_exit : t_enter;
    return true;
}

bool segmentAabbOverlap(const SlabSegment& segment, const Aabb& box) {
    if (!segment.valid || !isValidBox(box)) return false;
    float t_enter = 0.0f, t_exit = 0.0f;
    return clip(segment, box, t_enter, t_exit);
}

} // namespace flak

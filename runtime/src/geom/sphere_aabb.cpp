#include <flak/geom/sphere_aabb.h>

#include <cmath>

namespace flak {
namespace {

bool isValidBox(const Aabb& box) {
    return isFinite(box.min) && isFinite(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y &&
           box.min.z <= box.max.z;
}

bool isValidSphere(const Sphere& sphere) {
    return isFinite(sphere.center) && std::isfinite(sphere.radius) && sphere.radius >= 0.0f;
}

} // namespace

bool sphereAabbBoundsOverlap(const Sphere& sphere, const Aabb& box) {
    if (!isValidSphere(sphere) || !isValidBox(box)) return false;
    // Conservative in real arithmetic: fl(c - r) <= max whenever c - r <= max (rounding is
    // monotone), so a real hit is never rejected here.
    const Vec3& c = sphere.center;
    const float r = sphere.radius;
    return c.x - r <= box.max.x && c.x + r >= box.min.x && c.y - r <= box.max.y && c.y + r >= box.min.y &&
           c.z - r <= box.max.z && c.z + r >= box.min.z;
}

bool sphereAabbOverlap(const Sphere& sphere, const Aabb& box) {
    if (!sphereAabbBoundsOverlap(sphere, box)) return false;
    return distanceSq(sphere.center, box) <= sphere.radius * sphere.radius;
}

bool sphereAabb(const Sphere& sphere, const Aabb& box, Contact& out_contact) {
    if (!sphereAabbBoundsOverlap(sphere, box)) return false;
    const Vec3& c = sphere.center;
    const float r = sphere.radius;
    Vec3 closest, offset;
    const float dist_sq = detail::closestPointAndDistanceSq(c, box, closest, offset);
    if (!(dist_sq <= r * r)) return false;
    if (dist_sq > 0.0f) {
        const float dist = std::sqrt(dist_sq);
        scale(offset, 1.0f / dist, out_contact.normal);
        out_contact.point = closest;
        // sqrt(fl(r * r)) == r for normal r, but not once r * r underflows: keep depth >= 0.
        const float depth = r - dist;
        out_contact.depth = depth > 0.0f ? depth : 0.0f;
        return true;
    }
    // Centre inside or on the box: push out through the nearest face (ties: lower axis, min face).
    int best_axis = 0;
    bool best_is_max = false;
    float best = c.x - box.min.x;
    for (int axis = 0; axis < 3; ++axis) {
        const float to_min = c[axis] - box.min[axis];
        const float to_max = box.max[axis] - c[axis];
        if (to_min < best) {
            best = to_min;
            best_axis = axis;
            best_is_max = false;
        }
        if (to_max < best) {
            best = to_max;
            best_axis = axis;
            best_is_max = true;
        }
    }
    Vec3 normal{0.0f, 0.0f, 0.0f};
    normal[best_axis] = best_is_max ? 1.0f : -1.0f;
    Vec3 point = c;
    point[best_axis] = best_is_max ? box.max[best_axis] : box.min[best_axis];
    out_contact.normal = normal;
    out_contact.point = point;
    // best < 0 only when the centre lies outside by less than sqrt(FLT_MIN) (the offset squared to 0).
    const float depth = r + best;
    out_contact.depth = depth > 0.0f ? depth : 0.0f;
    return true;
}

} // namespace flak

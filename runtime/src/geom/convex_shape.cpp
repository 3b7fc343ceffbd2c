#include <flak/geom/convex_shape.h>

#include <cmath>

namespace flak {

void makeSphere(const Sphere& sphere, ConvexShape& out) {
    out = ConvexShape{};
    out.kind = ConvexKind::Sphere;
    out.center = sphere.center;
    out.radius = sphere.radius;
}

void makeCapsule(const Capsule& capsule, ConvexShape& out) {
    out = ConvexShape{};
    out.kind = ConvexKind::Capsule;
    out.center = capsule.p0;
    out.extent = capsule.p1;
    out.radius = capsule.radius;
}

void makeBox(const Obb& box, ConvexShape& out) {
    out = ConvexShape{};
    out.kind = ConvexKind::Box;
    out.center = box.center;
    out.extent = box.halfExtents;
    out.axes = box.rotation;
}

void makeHull(const Vec3* points, std::uint32_t count, ConvexShape& out) {
    out = ConvexShape{};
    out.kind = ConvexKind::Hull;
    out.points = points;
    out.count = count;
}

bool isValid(const ConvexShape& shape) {
    if (!std::isfinite(shape.radius) || !(shape.radius >= 0.0f)) return false;
    switch (shape.kind) {
    case ConvexKind::Sphere: return isFinite(shape.center);
    case ConvexKind::Capsule: return isFinite(shape.center) && isFinite(shape.extent);
    case ConvexKind::Box:
        return isFinite(shape.center) && isFinite(shape.extent) && isFinite(shape.axes) &&
               shape.extent.x >= 0.0f && shape.extent.y >= 0.0f && shape.extent.z >= 0.0f;
    case ConvexKind::Hull: {
        if (shape.points == nullptr || shape.count == 0) return false;
        float probe = 0.0f;
        for (std::uint32_t i = 0; i < shape.count; ++i) {
            const Vec3& p = shape.points[i];
            probe += (p.x - p.x) + (p.y - p.y) + (p.z - p.z);
        }
        return probe == 0.0f;
    }
    }
    return false;
}

// An invalid hull (null array or no points) is never read: it answers its centre, so a caller
// that skipped isValid() gets a defined point instead of a null dereference.
namespace {
bool hasHullPoints(const ConvexShape& shape) { return shape.points != nullptr && shape.count > 0; }
} // namespace

void corePoint(const ConvexShape& shape, Vec3& out) {
    out = shape.kind == ConvexKind::Hull && hasHullPoints(shape) ? shape.points[0] : shape.center;
}

void supportCore(const ConvexShape& shape, const Vec3& direction, Vec3& out) {
    switch (shape.kind) {
    case ConvexKind::Sphere: out = shape.center; return;
    case ConvexKind::Capsule: {
        Vec3 e;
        sub(shape.extent, shape.center, e);
        out = dot(e, direction) > 0.0f ? shape.extent : shape.center;
        return;
    }
    case ConvexKind::Box: {
        Vec3 local;
        mulTransposed(shape.axes, direction, local);
        Vec3 corner;
        set(!(local.x < 0.0f) ? shape.extent.x : -shape.extent.x,
            !(local.y < 0.0f) ? shape.extent.y : -shape.extent.y,
            !(local.z < 0.0f) ? shape.extent.z : -shape.extent.z, corner);
        Vec3 w;
        mul(shape.axes, corner, w);
        add(shape.center, w, out);
        return;
    }
    case ConvexKind::Hull: {
        if (!hasHullPoints(shape)) {
            out = shape.center;
            return;
        }
        // Compare relative to the first point so that far-away hulls do not lose the ordering.
        std::uint32_t best = 0;
        float best_dot = 0.0f;
        for (std::uint32_t i = 1; i < shape.count; ++i) {
            Vec3 r;
            sub(shape.points[i], shape.points[0], r);
            const float s = dot(r, direction);
            if (s > best_dot) {
                best_dot = s;
                best = i;
            }
        }
        out = shape.points[best];
        return;
    }
    }
}

void supportPoint(const ConvexShape& shape, const Vec3& direction, Vec3& out) {
    Vec3 core;
    supportCore(shape, direction, core);
    Vec3 unit;
    if (shape.radius > 0.0f && normalize(direction, unit)) {
        addScaled(core, unit, shape.radius, out);
    } else {
        out = core;
    }
}

} // namespace flak

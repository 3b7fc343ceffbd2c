#include <flak/geom/gjk_raycast.h>

#include <flak/geom/tolerance.h>

#include "geom/gjk_simplex.h"

#include <cmath>

namespace flak {
namespace {

using detail::DVec3;
using detail::PlacedShape;
using detail::Simplex;

// Rewrites each vertex's w as x - (b - a): the vector from the point b - a of B - A to the ray
// point x, so that the simplex solver's closest point to the origin is x minus the closest point
// of B - A's sub-hull to x.
void aimAt(const DVec3& x, Simplex& s) {
    for (int i = 0; i < s.count; ++i)
        s.v[i].w = detail::dsub(x, detail::dsub(detail::toDVec(s.v[i].b), detail::toDVec(s.v[i].a)));
}

bool castImpl(const ConvexShape& a, const Transform* xa, const ConvexShape& b, const Transform* xb,
              const Vec3& translation, RayHit& out_hit, GjkInfo* out_info) {
    GjkInfo info;
    if (out_info != nullptr) *out_info = info;
    if (!isValid(a) || !isValid(b) || !isFinite(translation)) return false;
    if ((xa != nullptr && !isFinite(*xa)) || (xb != nullptr && !isFinite(*xb))) return false;
    Vec3 origin;
    PlacedShape pa, pb;
    if (!detail::placePair(a, xa, b, xb, origin, pa, pb)) return false;

    const double radii = double(a.radius) + double(b.radius);
    const DVec3 r = detail::toDVec(translation);
    double lambda = 0.0;
    DVec3 x; // the ray point lambda * r
    DVec3 n; // normal of the last separating plane
    // x minus the core point of B - A: a point of B - A, only to give the first direction.
    DVec3 v = detail::dsub(detail::toDVec(pa.offset), detail::toDVec(pb.offset));
    Simplex s;
    s.count = 0;
    double extent = double(detail::maxAbs(pa.offset));
    if (double(detail::maxAbs(pb.offset)) > extent) extent = double(detail::maxAbs(pb.offset));
    if (detail::dmaxAbs(r) > extent) extent = detail::dmaxAbs(r);
    info.exit = GjkExit::IterationCap;
    bool done = false;
    // Once x is within the radii plus the tolerance of B - A's core, t is final: the remaining
    // iterations only converge the closest point (for the normal and the point), without advancing
    // (conservative advancement would otherwise creep towards the contact in ever smaller steps).
    bool touching = false;
    for (int it = 1; it <= kMaxGjkIterations && !done; ++it) {
        info.iterations = it;
        const double tol = detail::kGjkTolerance * extent;
        const double vv = detail::ddot(v, v);
        if (vv <= tol * tol) {
            // x is on B - A's core (within the tolerance).
            info.exit = lambda > 0.0 ? GjkExit::Converged : GjkExit::Overlap;
            break;
        }
        const double reach = radii + tol;
        if (vv <= reach * reach) touching = true;
        // Support of B - A in direction v: the point of B - A furthest towards x.
        const Vec3 vf = detail::toVec(v);
        Vec3 neg, sa, sb;
        scale(vf, -1.0f, neg);
        detail::supportPlaced(pa, neg, sa);
        detail::supportPlaced(pb, vf, sb);
        const DVec3 w = detail::dsub(x, detail::dsub(detail::toDVec(sb), detail::toDVec(sa)));
        const double ea = double(detail::maxAbs(sa)), eb = double(detail::maxAbs(sb));
        if (ea > extent) extent = ea;
        if (eb > extent) extent = eb;
        const double vlen = std::sqrt(vv);
        const double vw = detail::ddot(v, w);
        const bool had_vertices = s.count > 0;
        bool advanced = false;
        if (!touching && vw > radii * vlen) {
            // The plane through the support point with normal v is more than the radii away from x:
            // advance x onto it (never past the time of impact).
            const double vr = detail::ddot(v, r);
            if (!(vr < 0.0)) {
                info.exit = GjkExit::Separated;
                if (out_info != nullptr) *out_info = info;
                return false;
            }
            lambda -= (vw - radii * vlen) / vr;
            if (!(lambda <= 1.0)) {
                info.exit = GjkExit::Separated;
                if (out_info != nullptr) *out_info = info;
                return false;
            }
            x = detail::dscale(r, lambda);
            n = v;
            advanced = true;
        } else if (had_vertices && vv - vw <= detail::kGjkTolerance * extent * vlen) {
            // Converged at x without a separating plane beyond the radii (or already touching): x
            // is within the radii plus the tolerance of B - A's core. The time of impact.
            info.exit = lambda > 0.0 ? GjkExit::Converged : GjkExit::Overlap;
            break;
        }
        bool duplicate = false;
        for (int k = 0; k < s.count; ++k)
            duplicate = duplicate || (equal(s.v[k].a, sa) && equal(s.v[k].b, sb));
        if (!duplicate) {
            s.v[s.count].a = sa;
            s.v[s.count].b = sb;
            ++s.count;
        }
        aimAt(x, s);
        DVec3 closest;
        const bool outside = detail::solveSimplex(s, closest);
        const double closest_sq = detail::ddot(closest, closest);
        v = closest;
        if (!outside) {
            info.exit = lambda > 0.0 ? GjkExit::Converged : GjkExit::Overlap; // x inside B - A's core
            done = true;
        } else if (!advanced && had_vertices && !(closest_sq < vv)) {
            // Rounding stopped the progress at x before the bounds met: x is as near as float
            // support points can tell. A hit (conservative).
            info.exit = GjkExit::NoProgress;
            done = true;
        }
    }

    // Contact normal: between the cores when they are apart by a measurable amount, else the last
    // separating plane, else against the motion.
    const double tol = detail::kGjkTolerance * extent;
    DVec3 normal;
    if (detail::ddot(v, v) > tol * tol) {
        normal = detail::dscale(v, 1.0 / std::sqrt(detail::ddot(v, v)));
    } else if (detail::ddot(n, n) > 0.0) {
        normal = detail::dscale(n, 1.0 / std::sqrt(detail::ddot(n, n)));
    } else if (detail::ddot(r, r) > 0.0) {
        normal = detail::dscale(r, -1.0 / std::sqrt(detail::ddot(r, r)));
    }
    DVec3 wa, wb;
    if (s.count > 0) {
        detail::witnessPoints(s, wa, wb);
    } else {
        wb = detail::toDVec(pb.offset);
    }
    const DVec3 point =
        detail::dadd(detail::daddScaled(wb, normal, double(b.radius)), detail::toDVec(origin));
    out_hit.t = float(lambda);
    out_hit.u = 0.0f;
    out_hit.v = 0.0f;
    out_hit.point = detail::toVec(point);
    out_hit.normal = detail::toVec(normal);
    if (out_info != nullptr) *out_info = info;
    return true;
}

} // namespace

bool gjkShapeCast(const ConvexShape& a, const ConvexShape& b, const Vec3& translation, RayHit& out_hit,
                  GjkInfo* out_info) {
    return castImpl(a, nullptr, b, nullptr, translation, out_hit, out_info);
}

bool gjkShapeCast(const ConvexShape& a, const Transform& xa, const ConvexShape& b, const Transform& xb,
                  const Vec3& translation, RayHit& out_hit, GjkInfo* out_info) {
    return castImpl(a, &xa, b, &xb, translation, out_hit, out_info);
}

} // namespace flak

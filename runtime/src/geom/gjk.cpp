#include <flak/geom/gjk.h>

#include <flak/geom/tolerance.h>

#include "geom/gjk_simplex.h"

#include <cmath>

namespace flak {
namespace {

using detail::DVec3;
using detail::PlacedShape;
using detail::Simplex;

struct GjkRun {
    Simplex simplex;
    DVec3 v; // closest point of the simplex to the origin (a* - b*)
    double vv = 0.0;
    GjkInfo info;
};

// GJK distance loop (van den Bergen 2003, Algorithm 4.5; Ericson, RTCD 9.5.2). With
// `intersect_radius` >= 0 the loop also stops as soon as the answer to "distance <= radius" is
// known (the separating-axis early out of the boolean variant). Support points in float, the rest
// in double (see gjk_simplex.h).
void runGjk(const PlacedShape& pa, const PlacedShape& pb, double intersect_radius, GjkRun& run) {
    const bool intersect = intersect_radius >= 0.0;
    const double r2 = intersect_radius * intersect_radius;
    Simplex& s = run.simplex;
    // Start from the support points in the direction between the core points (van den Bergen:
    // any point of A - B gives the first direction). Only support points enter the simplex: an
    // interior point would sit in it as a false vertex, and when rounding stops the progress the
    // result must be a point of the boundary.
    Vec3 dir, a, b;
    sub(pb.offset, pa.offset, dir);
    if (lengthSq(dir) == 0.0f) set(1.0f, 0.0f, 0.0f, dir);
    detail::supportPlaced(pa, dir, a);
    scale(dir, -1.0f, dir);
    detail::supportPlaced(pb, dir, b);
    s.count = 1;
    s.v[0].a = a;
    s.v[0].b = b;
    s.v[0].w = detail::dsub(detail::toDVec(a), detail::toDVec(b));
    s.weight[0] = 1.0;
    run.v = s.v[0].w;
    run.vv = detail::ddot(run.v, run.v);
    // Scale of the support points seen so far (for the convergence tolerance).
    double extent = double(detail::maxAbs(a) > detail::maxAbs(b) ? detail::maxAbs(a) : detail::maxAbs(b));
    for (int it = 1; it <= kMaxGjkIterations; ++it) {
        run.info.iterations = it;
        const double tol = detail::kGjkTolerance * extent;
        if (run.vv <= tol * tol) {
            run.info.exit = GjkExit::Overlap;
            return;
        }
        const Vec3 vf = detail::toVec(run.v);
        scale(vf, -1.0f, dir);
        detail::supportPlaced(pa, dir, a);
        detail::supportPlaced(pb, vf, b);
        const DVec3 w = detail::dsub(detail::toDVec(a), detail::toDVec(b));
        const double sa = double(detail::maxAbs(a)), sb = double(detail::maxAbs(b));
        if (sa > extent) extent = sa;
        if (sb > extent) extent = sb;
        const double vw = detail::ddot(run.v, w);
        if (intersect && vw > 0.0 && vw * vw > r2 * run.vv) {
            run.info.exit = GjkExit::Separated; // the plane through w separates by more than r
            return;
        }
        if (run.vv - vw <= detail::kGjkTolerance * extent * std::sqrt(run.vv)) {
            run.info.exit = GjkExit::Converged;
            return;
        }
        for (int k = 0; k < s.count; ++k) {
            if (equal(s.v[k].a, a) && equal(s.v[k].b, b)) {
                run.info.exit = GjkExit::NoProgress; // no new support point: converged as far as float goes
                return;
            }
        }
        const Simplex before = s;
        s.v[s.count].w = w;
        s.v[s.count].a = a;
        s.v[s.count].b = b;
        ++s.count;
        DVec3 closest;
        if (!detail::solveSimplex(s, closest)) {
            run.v = closest;
            run.vv = 0.0;
            run.info.exit = GjkExit::Overlap;
            return;
        }
        const double closest_sq = detail::ddot(closest, closest);
        if (!(closest_sq < run.vv)) {
            // The distance must strictly decrease; when rounding stops it, keep the better simplex.
            // This is what rules out cycling.
            s = before;
            run.info.exit = GjkExit::NoProgress;
            return;
        }
        run.v = closest;
        run.vv = closest_sq;
        if (intersect && run.vv <= r2) {
            run.info.exit = GjkExit::Overlap;
            return;
        }
    }
    run.info.exit = GjkExit::IterationCap;
}

bool validPair(const ConvexShape& a, const Transform* xa, const ConvexShape& b, const Transform* xb) {
    if (!isValid(a) || !isValid(b)) return false;
    if (xa != nullptr && !isFinite(*xa)) return false;
    if (xb != nullptr && !isFinite(*xb)) return false;
    return true;
}

bool distanceImpl(const ConvexShape& a, const Transform* xa, const ConvexShape& b, const Transform* xb,
                  GjkResult& out) {
    if (!validPair(a, xa, b, xb)) return false;
    Vec3 origin;
    PlacedShape pa, pb;
    if (!detail::placePair(a, xa, b, xb, origin, pa, pb)) return false;
    GjkRun run;
    runGjk(pa, pb, -1.0, run);
    DVec3 wa, wb;
    detail::witnessPoints(run.simplex, wa, wb);
    const DVec3 o = detail::toDVec(origin);
    const double core = run.info.exit == GjkExit::Overlap ? 0.0 : std::sqrt(run.vv);
    const double radii = double(a.radius) + double(b.radius);
    GjkResult r;
    r.info = run.info;
    if (core > 0.0) {
        const DVec3 n = detail::dscale(run.v, 1.0 / core);
        r.normal = detail::toVec(n);
        r.point_a = detail::toVec(detail::dadd(detail::daddScaled(wa, n, -double(a.radius)), o));
        r.point_b = detail::toVec(detail::dadd(detail::daddScaled(wb, n, double(b.radius)), o));
        r.distance = core > radii ? float(core - radii) : 0.0f;
        r.overlap = r.distance == 0.0f;
    } else {
        set(0.0f, 0.0f, 0.0f, r.normal);
        r.point_a = detail::toVec(detail::dadd(wa, o));
        r.point_b = detail::toVec(detail::dadd(wb, o));
        r.distance = 0.0f;
        r.overlap = true;
    }
    out = r;
    return true;
}

bool intersectImpl(const ConvexShape& a, const Transform* xa, const ConvexShape& b, const Transform* xb,
                   GjkInfo* out_info) {
    if (!validPair(a, xa, b, xb)) {
        if (out_info != nullptr) *out_info = GjkInfo{};
        return false;
    }
    Vec3 origin;
    PlacedShape pa, pb;
    if (!detail::placePair(a, xa, b, xb, origin, pa, pb)) {
        if (out_info != nullptr) *out_info = GjkInfo{};
        return false;
    }
    GjkRun run;
    const double radii = double(a.radius) + double(b.radius);
    runGjk(pa, pb, radii, run);
    if (out_info != nullptr) *out_info = run.info;
    switch (run.info.exit) {
    case GjkExit::Overlap: return true;
    case GjkExit::Separated: return false;
    default: return !(std::sqrt(run.vv) > radii);
    }
}

} // namespace

bool gjkDistance(const ConvexShape& a, const ConvexShape& b, GjkResult& out_result) {
    return distanceImpl(a, nullptr, b, nullptr, out_result);
}

bool gjkDistance(const ConvexShape& a, const Transform& xa, const ConvexShape& b, const Transform& xb,
                 GjkResult& out_result) {
    return distanceImpl(a, &xa, b, &xb, out_result);
}

bool gjkIntersect(const ConvexShape& a, const ConvexShape& b, GjkInfo* out_info) {
    return intersectImpl(a, nullptr, b, nullptr, out_info);
}

bool gjkIntersect(const ConvexShape& a, const Transform& xa, const ConvexShape& b, const Transform& xb,
                  GjkInfo* out_info) {
    return intersectImpl(a, &xa, b, &xb, out_info);
}

} // namespace flak

// Test helper: double-precision references for the GJK kernels that share no code with them:
// closed forms (point-point, point-segment, segment-segment, point-box) and, for boxes and point
// hulls, the minimum over feature pairs (vertex-triangle, triangle-vertex, edge-edge) of the two
// cores, confirmed by a separating-plane check. Shapes are converted to double around an origin
// (A's core point) so that world position costs no precision. Vectors, band, seeding and tally:
// support/oracle.h.
#pragma once

#include <flak/geom/convex_shape.h>
#include <flak/math/transform.h>

#include "support/oracle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace flak::test {

constexpr double kInfD = std::numeric_limits<double>::infinity();

/// Closest point of segment [a, b] to p.
inline D3 closestOnSegment(const D3& p, const D3& a, const D3& b) {
    const D3 e = b - a;
    const double ee = dot(e, e);
    if (ee <= 0.0) return a;
    return a + e * std::clamp(dot(p - a, e) / ee, 0.0, 1.0);
}

/// Closest points between segments [p1, q1] and [p2, q2] (Ericson, RTCD 5.1.9, in double).
inline double segmentSegment(const D3& p1, const D3& q1, const D3& p2, const D3& q2, D3& c1, D3& c2) {
    const D3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 0.0 && e <= 0.0) {
        c1 = p1;
        c2 = p2;
        return len(c1 - c2);
    }
    if (a <= 0.0) {
        t = std::clamp(f / e, 0.0, 1.0);
    } else {
        const double c = dot(d1, r);
        if (e <= 0.0) {
            s = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = std::clamp(-c / a, 0.0, 1.0);
            } else if (t > 1.0) {
                t = 1.0;
                s = std::clamp((b - c) / a, 0.0, 1.0);
            }
        }
    }
    c1 = p1 + d1 * s;
    c2 = p2 + d2 * t;
    return len(c1 - c2);
}

/// Closest point of triangle (a, b, c) to p (Ericson, RTCD 5.1.5, in double).
inline D3 closestOnTriangle(const D3& p, const D3& a, const D3& b, const D3& c) {
    const D3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return a;
    const D3 bp = p - b;
    const double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return b;
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + ab * (d1 / (d1 - d3));
    const D3 cp = p - c;
    const double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return c;
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + ac * (d2 / (d2 - d6));
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    const double sum = va + vb + vc;
    if (!(sum > 0.0)) { // degenerate: the best edge
        const D3 e1 = closestOnSegment(p, a, b), e2 = closestOnSegment(p, b, c),
                 e3 = closestOnSegment(p, c, a);
        const double l1 = len(p - e1), l2 = len(p - e2), l3 = len(p - e3);
        return l1 <= l2 && l1 <= l3 ? e1 : (l2 <= l3 ? e2 : e3);
    }
    return a + ab * (vb / sum) + ac * (vc / sum);
}

/// A shape's core in double, relative to the test's origin, with the radius. Boxes keep their
/// frame (closed form against points) and their corners with the box topology; hulls get their
/// facets (triplets with every point on one side, with a tiny tolerance: extra triangles are
/// harmless, every true facet is kept) and the edges of those facets.
struct RefShape {
    ConvexKind kind = ConvexKind::Sphere;
    std::vector<D3> pts;
    std::vector<std::array<std::size_t, 3>> tris;
    std::vector<std::array<std::size_t, 2>> edges;
    double radius = 0.0;
    // box frame (double, not re-orthonormalised: the float axes as given)
    D3 center, axis[3], half;
    double local_extent = 0.0; // largest local coordinate (transformed shapes count it in the scale)
};

inline D3 place(const D3& p, const Transform* xf, const D3& origin) {
    if (!xf) return p - origin;
    const D3 c0 = d3(xf->rotation.c0), c1 = d3(xf->rotation.c1), c2 = d3(xf->rotation.c2);
    return c0 * p.x + c1 * p.y + c2 * p.z + (d3(xf->translation) - origin);
}
inline D3 rotateOnly(const D3& v, const Transform* xf) {
    if (!xf) return v;
    return d3(xf->rotation.c0) * v.x + d3(xf->rotation.c1) * v.y + d3(xf->rotation.c2) * v.z;
}

inline void buildHullTopology(RefShape& s) {
    const std::size_t n = s.pts.size();
    double scale = 0.0;
    for (const D3& p : s.pts) scale = std::max(scale, maxAbs(p - s.pts[0]));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            for (std::size_t k = j + 1; k < n; ++k) {
                const D3 nrm = cross(s.pts[j] - s.pts[i], s.pts[k] - s.pts[i]);
                const double nl = len(nrm);
                if (!(nl > 0.0)) continue;
                // Generous: extra triangles only cost time, a missed facet would be wrong. Up to
                // five points, every triangle is kept.
                const double tol = n <= 5 ? kInfD : 1e-6 * scale * nl;
                bool pos = false, neg = false;
                for (std::size_t m = 0; m < n; ++m) {
                    const double sd = dot(nrm, s.pts[m] - s.pts[i]);
                    pos = pos || sd > tol;
                    neg = neg || sd < -tol;
                }
                if (!(pos && neg)) s.tris.push_back({i, j, k});
            }
    std::vector<std::array<std::size_t, 2>> e;
    for (const auto& t : s.tris) {
        e.push_back({t[0], t[1]});
        e.push_back({t[1], t[2]});
        e.push_back({t[0], t[2]});
    }
    if (s.tris.empty())
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) e.push_back({i, j});
    std::sort(e.begin(), e.end());
    e.erase(std::unique(e.begin(), e.end()), e.end());
    s.edges = e;
}

/// The reference form of `shape` placed by `xf` (null: identity), relative to `origin`.
inline RefShape makeRef(const ConvexShape& shape, const Transform* xf, const D3& origin) {
    RefShape s;
    s.kind = shape.kind;
    s.radius = shape.radius;
    switch (shape.kind) {
    case ConvexKind::Sphere:
        s.pts = {place(d3(shape.center), xf, origin)};
        s.local_extent = maxAbs(d3(shape.center)) + shape.radius;
        break;
    case ConvexKind::Capsule:
        s.pts = {place(d3(shape.center), xf, origin), place(d3(shape.extent), xf, origin)};
        s.local_extent = std::max(maxAbs(d3(shape.center)), maxAbs(d3(shape.extent))) + shape.radius;
        break;
    case ConvexKind::Box: {
        s.center = place(d3(shape.center), xf, origin);
        s.axis[0] = rotateOnly(d3(shape.axes.c0), xf);
        s.axis[1] = rotateOnly(d3(shape.axes.c1), xf);
        s.axis[2] = rotateOnly(d3(shape.axes.c2), xf);
        s.half = d3(shape.extent);
        for (int m = 0; m < 8; ++m) {
            const double sx = (m & 1) ? 1 : -1, sy = (m & 2) ? 1 : -1, sz = (m & 4) ? 1 : -1;
            s.pts.push_back(s.center + s.axis[0] * (sx * s.half.x) + s.axis[1] * (sy * s.half.y) +
                            s.axis[2] * (sz * s.half.z));
        }
        // Faces (two triangles each) and the 12 edges of the box, by corner bits.
        static const std::size_t kFaces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                                 {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
        for (const auto& f : kFaces) {
            s.tris.push_back({f[0], f[1], f[2]});
            s.tris.push_back({f[0], f[2], f[3]});
        }
        for (std::size_t m = 0; m < 8; ++m)
            for (std::size_t bit = 1; bit < 8; bit <<= 1)
                if (!(m & bit)) s.edges.push_back({m, m | bit});
        s.local_extent = maxAbs(d3(shape.center)) + s.half.x + s.half.y + s.half.z;
        break;
    }
    case ConvexKind::Hull:
        for (std::uint32_t i = 0; i < shape.count; ++i) {
            s.pts.push_back(place(d3(shape.points[i]), xf, origin));
            s.local_extent = std::max(s.local_extent, maxAbs(d3(shape.points[i])));
        }
        buildHullTopology(s);
        break;
    }
    return s;
}

/// Largest |coordinate| of the core points, plus the radius (the shape's contribution to the
/// tolerance scale; local coordinates too when the shape is transformed).
inline double refScale(const RefShape& s, bool transformed) {
    double m = 0.0;
    for (const D3& p : s.pts) m = std::max(m, maxAbs(p));
    m = std::max(m, s.radius);
    if (transformed) m = std::max(m, s.local_extent);
    return m;
}

/// Closest point of a box to p, in closed form. The box is the parallelepiped of the float axes
/// as given (orthonormal to about 1e-7): a point inside it (solved exactly with the inverse of the
/// axis matrix) is its own closest point; outside, the clamp of the projections is exact for
/// orthonormal axes and off by about 1e-7 of the distance otherwise, far inside the band.
inline D3 closestOnBox(const RefShape& box, const D3& p) {
    const D3 d = p - box.center;
    const double h[3] = {box.half.x, box.half.y, box.half.z};
    const D3 c0 = cross(box.axis[1], box.axis[2]), c1 = cross(box.axis[2], box.axis[0]),
             c2 = cross(box.axis[0], box.axis[1]);
    const double det = dot(box.axis[0], c0);
    if (det != 0.0) {
        const double u[3] = {dot(d, c0) / det, dot(d, c1) / det, dot(d, c2) / det};
        if (std::fabs(u[0]) <= h[0] && std::fabs(u[1]) <= h[1] && std::fabs(u[2]) <= h[2]) return p;
    }
    D3 q = box.center;
    for (int i = 0; i < 3; ++i) {
        const double ai = dot(box.axis[i], box.axis[i]);
        const double t = ai > 0.0 ? std::clamp(dot(d, box.axis[i]) / ai, -h[i], h[i]) : 0.0;
        q = q + box.axis[i] * t;
    }
    return q;
}

/// Distance between the cores of a and b (0 when they overlap), with closest points.
inline double coreDistance(const RefShape& a, const RefShape& b, D3& ca, D3& cb) {
    const std::size_t na = a.pts.size(), nb = b.pts.size();
    if (na <= 2 && nb <= 2) {
        return segmentSegment(a.pts[0], a.pts[na - 1], b.pts[0], b.pts[nb - 1], ca, cb);
    }
    // Point against a box with volume: closed form. A flat box takes the feature-pair route (the
    // closed form's 1e-7 approximation would never let a point cross it exactly).
    const auto solidBox = [](const RefShape& s) {
        return s.kind == ConvexKind::Box && s.half.x > 0.0 && s.half.y > 0.0 && s.half.z > 0.0;
    };
    if (na == 1 && solidBox(b)) {
        ca = a.pts[0];
        cb = closestOnBox(b, ca);
        return len(ca - cb);
    }
    if (nb == 1 && solidBox(a)) {
        cb = b.pts[0];
        ca = closestOnBox(a, cb);
        return len(ca - cb);
    }
    double best = kInfD;
    auto keep = [&](const D3& p, const D3& q) {
        const double d = len(p - q);
        if (d < best) {
            best = d;
            ca = p;
            cb = q;
        }
    };
    for (const auto& t : b.tris)
        for (const D3& p : a.pts) keep(p, closestOnTriangle(p, b.pts[t[0]], b.pts[t[1]], b.pts[t[2]]));
    for (const auto& t : a.tris)
        for (const D3& q : b.pts) keep(closestOnTriangle(q, a.pts[t[0]], a.pts[t[1]], a.pts[t[2]]), q);
    auto edgesOf = [](const RefShape& s) {
        std::vector<std::array<std::size_t, 2>> e = s.edges;
        if (s.pts.size() == 1) e.push_back({0, 0});
        if (s.pts.size() == 2 && e.empty()) e.push_back({0, 1});
        return e;
    };
    const auto ea = edgesOf(a), eb = edgesOf(b);
    for (const auto& e1 : ea)
        for (const auto& e2 : eb) {
            D3 p, q;
            segmentSegment(a.pts[e1[0]], a.pts[e1[1]], b.pts[e2[0]], b.pts[e2[1]], p, q);
            keep(p, q);
        }
    // The feature minimum is the distance when the cores are disjoint; then the direction v between
    // the closest points separates them with a gap of |v|^2 along v. Overlapping cores have no
    // positive gap along any direction, so half of |v|^2 tells the two apart robustly.
    const D3 v = ca - cb;
    if (best > 0.0) {
        double min_a = kInfD, max_b = -kInfD;
        for (const D3& p : a.pts) min_a = std::min(min_a, dot(p, v));
        for (const D3& q : b.pts) max_b = std::max(max_b, dot(q, v));
        if (!(min_a - max_b > 0.5 * dot(v, v))) return 0.0;
    }
    return best;
}

/// Upper bound of the cores' penetration depth (the least overlap of their projections over
/// a superset of the separating-axis candidates: facet normals, edge-edge cross products, edge
/// directions and the coordinate axes). Every axis gives at least the true depth, so forgiving
/// only when this is within the band is never lenient.
inline double corePenetrationBound(const RefShape& a, const RefShape& b) {
    std::vector<D3> axes{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    auto addTris = [&](const RefShape& s) {
        for (const auto& t : s.tris)
            axes.push_back(cross(s.pts[t[1]] - s.pts[t[0]], s.pts[t[2]] - s.pts[t[0]]));
    };
    addTris(a);
    addTris(b);
    auto dirs = [](const RefShape& s) {
        std::vector<D3> d;
        for (std::size_t i = 0; i < s.pts.size(); ++i)
            for (std::size_t j = i + 1; j < s.pts.size(); ++j) d.push_back(s.pts[j] - s.pts[i]);
        return d;
    };
    const auto da = dirs(a), db = dirs(b);
    for (const D3& x : da) {
        axes.push_back(x);
        for (const D3& y : db) axes.push_back(cross(x, y));
    }
    for (const D3& y : db) axes.push_back(y);
    double best = kInfD;
    for (const D3& u0 : axes) {
        const double l = len(u0);
        if (!(l > 0.0)) continue;
        const D3 u = u0 * (1.0 / l);
        double a0 = kInfD, a1 = -kInfD, b0 = kInfD, b1 = -kInfD;
        for (const D3& p : a.pts) {
            a0 = std::min(a0, dot(p, u));
            a1 = std::max(a1, dot(p, u));
        }
        for (const D3& q : b.pts) {
            b0 = std::min(b0, dot(q, u));
            b1 = std::max(b1, dot(q, u));
        }
        best = std::min(best, std::min(a1 - b0, b1 - a0));
    }
    return std::max(best, 0.0);
}

/// Distance between the shapes (cores minus radii, >= 0).
inline double shapeDistance(const RefShape& a, const RefShape& b) {
    D3 ca, cb;
    return std::max(0.0, coreDistance(a, b, ca, cb) - a.radius - b.radius);
}

/// Penetration depth bound of the shapes: radii minus core distance when the cores are apart,
/// radii plus the cores' penetration bound when they overlap.
inline double penetrationBound(const RefShape& a, const RefShape& b) {
    D3 ca, cb;
    const double d = coreDistance(a, b, ca, cb);
    if (d > 0.0) return std::max(0.0, a.radius + b.radius - d);
    return a.radius + b.radius + corePenetrationBound(a, b);
}

/// Distance from a point to a shape (0 inside).
inline double pointDistance(const D3& p, const RefShape& s) {
    RefShape pt;
    pt.pts = {p};
    D3 ca, cb;
    return std::max(0.0, coreDistance(pt, s, ca, cb) - s.radius);
}

/// The shape moved by d.
inline RefShape translated(const RefShape& s, const D3& d) {
    RefShape r = s;
    for (D3& p : r.pts) p = p + d;
    r.center = r.center + d;
    return r;
}

} // namespace flak::test

#include <flak/geom/tri_tri.h>

#include <flak/cpu.h>
#include <flak/geom/contact.h>
#include <flak/geom/segment_triangle.h>

#include "geom/tri_tri_classify.h"
#include "geom/tri_tri_impl.h"

#include <cmath>
#include <limits>

namespace flak {
namespace {

using detail::TriTriKind;

// The construction is done in double, relative to p1: float vertices give exact differences and
// products there, so the points come out within a couple of 2^-53 roundings of the truth plus
// the final rounding to float, even for nearly parallel planes, where the intersection line is
// ill-conditioned. The decision itself stays triTriOverlap's float one.
struct D3 {
    double x, y, z;
};
D3 toLocal(const Vec3& v, const Vec3& o) {
    return {static_cast<double>(v.x) - o.x, static_cast<double>(v.y) - o.y, static_cast<double>(v.z) - o.z};
}
D3 dsub(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 dadd(const D3& a, const D3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 dscale(const D3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double ddot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 dcross(const D3& a, const D3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
D3 dlerp(const D3& a, const D3& b, double t) { return dadd(a, dscale(dsub(b, a), t)); }
void toWorld(const D3& p, const Vec3& o, Vec3& out) {
    set(static_cast<float>(p.x + o.x), static_cast<float>(p.y + o.y), static_cast<float>(p.z + o.z), out);
}
bool isZero(const Vec3& v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

// Closest point on segment [a, b] to p.
D3 closestOnSegment(const D3& p, const D3& a, const D3& b) {
    const D3 e = dsub(b, a);
    const double ee = ddot(e, e);
    double s = ee > 0.0 ? ddot(dsub(p, a), e) / ee : 0.0;
    s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    return dlerp(a, b, s);
}

// Where triangle t (signed plane distances d) meets the other plane, as an interval along the
// direction dir: candidates are vertices on the plane and edge crossings. With no candidate
// (the float test said "touching" where double sees a hair of gap) the vertex nearest the plane.
void chord(const D3* t, const double* d, const D3& dir, D3& out_lo, D3& out_hi, double& out_slo,
           double& out_shi) {
    double slo = std::numeric_limits<double>::infinity(), shi = -slo;
    bool any = false;
    for (int i = 0; i < 3; ++i) {
        const int j = i == 2 ? 0 : i + 1;
        D3 cands[2];
        int n = 0;
        if (d[i] == 0.0) cands[n++] = t[i];
        if ((d[i] < 0.0 && d[j] > 0.0) || (d[i] > 0.0 && d[j] < 0.0))
            cands[n++] = dlerp(t[i], t[j], d[i] / (d[i] - d[j]));
        for (int k = 0; k < n; ++k) {
            const double s = ddot(cands[k], dir);
            if (s < slo) {
                slo = s;
                out_lo = cands[k];
            }
            if (s > shi) {
                shi = s;
                out_hi = cands[k];
            }
            any = true;
        }
    }
    if (!any) {
        int best = 0;
        for (int i = 1; i < 3; ++i)
            if (std::fabs(d[i]) < std::fabs(d[best])) best = i;
        out_lo = out_hi = t[best];
        slo = shi = ddot(t[best], dir);
    }
    out_slo = slo;
    out_shi = shi;
}

// One point of the overlap of two coplanar (or nearly parallel) triangles: the centroid of t1
// clipped by t2's edge half-planes (Sutherland-Hodgman), else of t2 clipped by t1, else the
// midpoint of the closest vertex-edge pair (they only touch).
bool clipCentroid(const D3* t1, const D3* t2, const D3& n2, D3& out_point) {
    D3 poly[9], next[9];
    int count = 3;
    for (int i = 0; i < 3; ++i) poly[i] = t1[i];
    for (int e = 0; e < 3 && count > 0; ++e) {
        const D3& a = t2[e];
        const D3& b = t2[e == 2 ? 0 : e + 1];
        const D3 inward = dcross(n2, dsub(b, a));
        int m = 0;
        for (int i = 0; i < count; ++i) {
            const D3& p = poly[i];
            const D3& q = poly[i + 1 == count ? 0 : i + 1];
            const double sp = ddot(dsub(p, a), inward), sq = ddot(dsub(q, a), inward);
            if (sp >= 0.0) next[m++] = p;
            if ((sp >= 0.0) != (sq >= 0.0)) next[m++] = dlerp(p, q, sp / (sp - sq));
        }
        count = m;
        for (int i = 0; i < m; ++i) poly[i] = next[i];
    }
    if (count == 0) return false;
    D3 sum{0.0, 0.0, 0.0};
    for (int i = 0; i < count; ++i) sum = dadd(sum, poly[i]);
    out_point = dscale(sum, 1.0 / count);
    return true;
}

void closestPairMidpoint(const D3* t1, const D3* t2, D3& out_point) {
    double best = std::numeric_limits<double>::infinity();
    for (int pass = 0; pass < 2; ++pass) {
        const D3* tv = pass == 0 ? t1 : t2;
        const D3* te = pass == 0 ? t2 : t1;
        for (int i = 0; i < 3; ++i)
            for (int e = 0; e < 3; ++e) {
                const D3 q = closestOnSegment(tv[i], te[e], te[e == 2 ? 0 : e + 1]);
                const D3 d = dsub(q, tv[i]);
                const double dd = ddot(d, d);
                if (dd < best) {
                    best = dd;
                    out_point = dscale(dadd(q, tv[i]), 0.5);
                }
            }
    }
}

void coplanarPoint(const D3* t1, const D3* t2, const D3& n1, const D3& n2, D3& out_point) {
    // Orient each clipping normal so that the triangle's edges turn counter-clockwise about it.
    if (!clipCentroid(t1, t2, n2, out_point) && !clipCentroid(t2, t1, n1, out_point))
        closestPairMidpoint(t1, t2, out_point);
}

void crossingSegment(const D3* t1, const D3* t2, D3& out_start, D3& out_end) {
    const D3 n1 = dcross(dsub(t1[1], t1[0]), dsub(t1[2], t1[0]));
    const D3 n2 = dcross(dsub(t2[1], t2[0]), dsub(t2[2], t2[0]));
    const D3 dir = dcross(n1, n2);
    if (!(ddot(dir, dir) > 0.0)) { // parallel planes in double: treat as coplanar
        coplanarPoint(t1, t2, n1, n2, out_start);
        out_end = out_start;
        return;
    }
    double d1[3], d2[3];
    for (int i = 0; i < 3; ++i) {
        d1[i] = ddot(dsub(t1[i], t2[0]), n2);
        d2[i] = ddot(dsub(t2[i], t1[0]), n1);
    }
    D3 lo1, hi1, lo2, hi2;
    double slo1, shi1, slo2, shi2;
    chord(t1, d1, dir, lo1, hi1, slo1, shi1);
    chord(t2, d2, dir, lo2, hi2, slo2, shi2);
    const D3& lo = slo1 >= slo2 ? lo1 : lo2;
    const D3& hi = shi1 <= shi2 ? hi1 : hi2;
    const double slo = slo1 >= slo2 ? slo1 : slo2;
    const double shi = shi1 <= shi2 ? shi1 : shi2;
    if (slo <= shi) {
        out_start = lo;
        out_end = hi;
    } else { // the float test saw a touch that double sees as a hair of gap: meet in the middle
        out_start = out_end = dscale(dadd(lo, hi), 0.5);
    }
}

// triTriIntersection for a pair classified `kind` (not Disjoint).
void intersectionOfKind(TriTriKind kind, const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                        const Vec3& q2, const Vec3& r2, Vec3& out_start, Vec3& out_end, bool& out_coplanar) {
    const D3 t1[3] = {toLocal(p1, p1), toLocal(q1, p1), toLocal(r1, p1)};
    const D3 t2[3] = {toLocal(p2, p1), toLocal(q2, p1), toLocal(r2, p1)};
    D3 start{0.0, 0.0, 0.0}, end{0.0, 0.0, 0.0};
    if (kind == TriTriKind::Coplanar) {
        out_coplanar = true;
        const D3 n1 = dcross(dsub(t1[1], t1[0]), dsub(t1[2], t1[0]));
        const D3 n2 = dcross(dsub(t2[1], t2[0]), dsub(t2[2], t2[0]));
        coplanarPoint(t1, t2, n1, n2, start);
        end = start;
    } else if (kind == TriTriKind::Degenerate) {
        // The zero-area triangle's edges that cross the other triangle; keep the two hits
        // farthest apart.
        Vec3 n;
        sub(q1, p1, n);
        Vec3 e2;
        sub(r1, p1, e2);
        cross(n, e2, n);
        const bool flat1 = isZero(n);
        const Vec3* s[3] = {flat1 ? &p1 : &p2, flat1 ? &q1 : &q2, flat1 ? &r1 : &r2};
        const Vec3* t[3] = {flat1 ? &p2 : &p1, flat1 ? &q2 : &q1, flat1 ? &r2 : &r1};
        D3 hits[3];
        int count = 0;
        for (int i = 0; i < 3; ++i) {
            RayHit hit;
            if (segmentTriangle(*s[i], *s[i == 2 ? 0 : i + 1], *t[0], *t[1], *t[2], hit)) {
                // Rebuild the point in double from the barycentrics on the proper triangle.
                const D3 a = toLocal(*t[0], p1), b = toLocal(*t[1], p1), c = toLocal(*t[2], p1);
                const double u = hit.u, v = hit.v;
                hits[count++] = dadd(a, dadd(dscale(dsub(b, a), u), dscale(dsub(c, a), v)));
            }
        }
        start = end = hits[0];
        double best = -1.0;
        for (int i = 0; i < count; ++i)
            for (int j = i + 1; j < count; ++j) {
                const D3 d = dsub(hits[i], hits[j]);
                if (ddot(d, d) > best) {
                    best = ddot(d, d);
                    start = hits[i];
                    end = hits[j];
                }
            }
    } else {
        crossingSegment(t1, t2, start, end);
    }
    // Both ends before either output: an output may alias p1 (the math layer's aliasing rule).
    Vec3 world_start, world_end;
    toWorld(start, p1, world_start);
    toWorld(end, p1, world_end);
    out_start = world_start;
    out_end = world_end;
}

void pairVertices(const TriTriPairs4& pairs, int lane, Vec3* out) {
    for (int i = 0; i < 6; ++i) set(pairs.v[i][0][lane], pairs.v[i][1][lane], pairs.v[i][2][lane], out[i]);
}
} // namespace

bool triTriIntersection(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                        const Vec3& r2, Vec3& out_start, Vec3& out_end, bool& out_coplanar) {
    out_coplanar = false;
    const TriTriKind kind = detail::classifyTriTri(p1, q1, r1, p2, q2, r2);
    if (kind == TriTriKind::Disjoint) return false;
    intersectionOfKind(kind, p1, q1, r1, p2, q2, r2, out_start, out_end, out_coplanar);
    return true;
}

unsigned triTriIntersection4(const TriTriPairs4& pairs, unsigned count, Vec3 out_start[4], Vec3 out_end[4],
                             unsigned& out_coplanar, unsigned known_crossing) {
    const unsigned n = count < 4u ? count : 4u;
    out_coplanar = 0u;
    const unsigned in_use = (1u << n) - 1u;
    unsigned crossing = known_crossing & in_use, hits = crossing;
    for (unsigned l = 0; l < 4u; ++l) {
        set(0.0f, 0.0f, 0.0f, out_start[l]);
        set(0.0f, 0.0f, 0.0f, out_end[l]);
    }
    for (unsigned l = 0; l < n; ++l) {
        if ((crossing >> l) & 1u) continue;
        Vec3 v[6];
        pairVertices(pairs, static_cast<int>(l), v);
        const TriTriKind kind = detail::classifyTriTri(v[0], v[1], v[2], v[3], v[4], v[5]);
        if (kind == TriTriKind::Disjoint) continue;
        hits |= 1u << l;
        if (kind == TriTriKind::Crossing) {
            crossing |= 1u << l;
            continue;
        }
        bool coplanar = false;
        intersectionOfKind(kind, v[0], v[1], v[2], v[3], v[4], v[5], out_start[l], out_end[l], coplanar);
        out_coplanar |= coplanar ? 1u << l : 0u;
    }
    // The crossing pairs four at a time where the CPU has AVX2 (a short group repeats its first).
    unsigned scalar = crossing;
#if defined(FLAK_TRI_TRI_AVX2)
    if (crossing != 0u && cpuHasAvx2()) {
        int lane[4];
        int crossings = 0;
        for (unsigned l = 0; l < n; ++l)
            if ((crossing >> l) & 1u) lane[crossings++] = static_cast<int>(l);
        for (int k = crossings; k < 4; ++k) lane[k] = lane[0];
        const unsigned parallel = detail::crossingSegments4(pairs, lane, out_start, out_end);
        scalar = 0u;
        for (int k = 0; k < crossings; ++k) scalar |= ((parallel >> k) & 1u) << lane[k];
    }
#endif
    for (unsigned l = 0; l < n; ++l) {
        if (((scalar >> l) & 1u) == 0u) continue;
        Vec3 v[6];
        pairVertices(pairs, static_cast<int>(l), v);
        bool coplanar = false;
        intersectionOfKind(TriTriKind::Crossing, v[0], v[1], v[2], v[3], v[4], v[5], out_start[l], out_end[l],
                           coplanar);
    }
    return hits;
}

} // namespace flak

#include "geom/gjk_simplex.h"

#include <cmath>
#include <limits>

namespace flak::detail {

void queryOrigin(const ConvexShape& a, const Transform* xa, Vec3& out) {
    if (xa != nullptr) {
        out = xa->translation;
    } else {
        corePoint(a, out);
    }
}

void placeShape(const ConvexShape& shape, const Transform* xf, const Vec3& origin, PlacedShape& out) {
    out.shape = &shape;
    corePoint(shape, out.core_point);
    if (xf != nullptr) {
        out.rotated = true;
        out.rotation = xf->rotation;
        Vec3 rc, t;
        mul(xf->rotation, out.core_point, rc);
        sub(xf->translation, origin, t);
        add(rc, t, out.offset);
    } else {
        out.rotated = false;
        setIdentity(out.rotation);
        sub(out.core_point, origin, out.offset);
    }
}

bool placePair(const ConvexShape& a, const Transform* xa, const ConvexShape& b, const Transform* xb,
               Vec3& out_origin, PlacedShape& out_a, PlacedShape& out_b) {
    queryOrigin(a, xa, out_origin);
    placeShape(a, xa, out_origin, out_a);
    placeShape(b, xb, out_origin, out_b);
    return isFinite(out_a.offset) && isFinite(out_b.offset);
}

void supportPlaced(const PlacedShape& placed, const Vec3& direction, Vec3& out) {
    const ConvexShape& shape = *placed.shape;
    Vec3 d = direction;
    if (placed.rotated) mulTransposed(placed.rotation, direction, d);
    Vec3 rel; // local support minus the core point
    switch (shape.kind) {
    case ConvexKind::Sphere: set(0.0f, 0.0f, 0.0f, rel); break;
    case ConvexKind::Capsule: {
        Vec3 e;
        sub(shape.extent, shape.center, e);
        if (dot(e, d) > 0.0f) {
            rel = e;
        } else {
            set(0.0f, 0.0f, 0.0f, rel);
        }
        break;
    }
    case ConvexKind::Box: {
        Vec3 local, corner;
        mulTransposed(shape.axes, d, local);
        set(!(local.x < 0.0f) ? shape.extent.x : -shape.extent.x,
            !(local.y < 0.0f) ? shape.extent.y : -shape.extent.y,
            !(local.z < 0.0f) ? shape.extent.z : -shape.extent.z, corner);
        mul(shape.axes, corner, rel);
        break;
    }
    case ConvexKind::Hull: {
        // A linear scan relative to the first point (the core point); ties keep the lowest index.
        float best_dot = 0.0f;
        set(0.0f, 0.0f, 0.0f, rel);
        for (std::uint32_t i = 1; i < shape.count; ++i) {
            Vec3 r;
            sub(shape.points[i], shape.points[0], r);
            const float s = dot(r, d);
            if (s > best_dot) {
                best_dot = s;
                rel = r;
            }
        }
        break;
    }
    }
    if (placed.rotated) mul(placed.rotation, rel, rel);
    add(rel, placed.offset, out);
}

void witnessPoints(const Simplex& simplex, DVec3& out_a, DVec3& out_b) {
    DVec3 a, b;
    for (int i = 0; i < simplex.count; ++i) {
        a = daddScaled(a, toDVec(simplex.v[i].a), simplex.weight[i]);
        b = daddScaled(b, toDVec(simplex.v[i].b), simplex.weight[i]);
    }
    out_a = a;
    out_b = b;
}

namespace {

bool sameSign(double a, double b) { return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0); }

int largestAxis(const DVec3& v) {
    const double ax = std::fabs(v.x), ay = std::fabs(v.y), az = std::fabs(v.z);
    return ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
}

// The closest feature found by a sub-solver: indices into the caller's points, weights, point.
struct Feature {
    int count = 0;
    int index[4] = {0, 0, 0, 0};
    double weight[4] = {0.0, 0.0, 0.0, 0.0};
    DVec3 point;
    double dist_sq = std::numeric_limits<double>::infinity();
};

void setVertex(const DVec3* p, int i, Feature& out) {
    out.count = 1;
    out.index[0] = i;
    out.weight[0] = 1.0;
    out.point = p[i];
    out.dist_sq = ddot(p[i], p[i]);
}

// Segment: project the origin on the line, read its barycentric coordinates on the axis where the
// segment is longest (S1D of Montanari et al.); outside, the nearer end.
void solveSegment(const DVec3* p, int i0, int i1, Feature& out) {
    const DVec3& s1 = p[i0];
    const DVec3& s2 = p[i1];
    const DVec3 t = dsub(s2, s1);
    const double tt = ddot(t, t);
    if (tt > 0.0) {
        const DVec3 p0 = daddScaled(s1, t, -ddot(s1, t) / tt);
        const int k = largestAxis(t);
        const double mu = s1[k] - s2[k];
        const double c1 = p0[k] - s2[k];
        const double c2 = s1[k] - p0[k];
        if (sameSign(mu, c1) && sameSign(mu, c2)) {
            out.count = 2;
            out.index[0] = i0;
            out.index[1] = i1;
            // Normalised by their own sum (not mu): rounding can then never make the weights leave
            // [0, 1] or stop summing to 1, so witness points stay inside their shapes.
            const double sum = c1 + c2;
            out.weight[0] = c1 / sum;
            out.weight[1] = c2 / sum;
            out.point = p0;
            out.dist_sq = ddot(p0, p0);
            return;
        }
    }
    if (ddot(s2, s2) < ddot(s1, s1)) {
        setVertex(p, i1, out);
    } else {
        setVertex(p, i0, out);
    }
}

// 2D signed area of (a, b, c) on the axes (j, k).
double area2D(const DVec3& a, const DVec3& b, const DVec3& c, int j, int k) {
    return (b[j] - a[j]) * (c[k] - a[k]) - (b[k] - a[k]) * (c[j] - a[j]);
}

// Triangle: project the origin on the plane, read barycentric coordinates from signed areas in the
// coordinate plane where the triangle's projection is largest (S2D); outside, the best of the
// edges the origin's projection lies beyond (all three when the triangle is degenerate).
void solveTriangle(const DVec3* p, int i0, int i1, int i2, Feature& out) {
    const DVec3& s1 = p[i0];
    const DVec3& s2 = p[i1];
    const DVec3& s3 = p[i2];
    const DVec3 n = dcross(dsub(s2, s1), dsub(s3, s1));
    const double nn = ddot(n, n);
    double mu = 0.0, c[3] = {0.0, 0.0, 0.0};
    if (nn > 0.0) {
        const DVec3 p0 = dscale(n, ddot(s1, n) / nn);
        const int drop = largestAxis(n);
        const int j = drop == 0 ? 1 : (drop == 1 ? 2 : 0);
        const int k = drop == 0 ? 2 : (drop == 1 ? 0 : 1);
        mu = area2D(s1, s2, s3, j, k);
        c[0] = area2D(p0, s2, s3, j, k);
        c[1] = area2D(s1, p0, s3, j, k);
        c[2] = area2D(s1, s2, p0, j, k);
        if (sameSign(mu, c[0]) && sameSign(mu, c[1]) && sameSign(mu, c[2])) {
            out.count = 3;
            out.index[0] = i0;
            out.index[1] = i1;
            out.index[2] = i2;
            const double sum = c[0] + c[1] + c[2];
            out.weight[0] = c[0] / sum;
            out.weight[1] = c[1] / sum;
            out.weight[2] = c[2] / sum;
            // The projection itself, not the weighted sum of the vertices: it is exactly along the
            // face normal, which keeps the next search direction accurate.
            out.point = p0;
            out.dist_sq = ddot(p0, p0);
            return;
        }
    }
    const int idx[3] = {i0, i1, i2};
    Feature best;
    for (int m = 0; m < 3; ++m) {
        if (sameSign(mu, c[m])) continue; // the origin is on the triangle's side of that edge
        Feature f;
        solveSegment(p, idx[(m + 1) % 3], idx[(m + 2) % 3], f);
        if (f.dist_sq < best.dist_sq) best = f;
    }
    out = best;
}

// Signed volume (times 6) of (a, b, c, d).
double volume(const DVec3& a, const DVec3& b, const DVec3& c, const DVec3& d) {
    return ddot(dsub(b, a), dcross(dsub(c, a), dsub(d, a)));
}

// Tetrahedron (S3D): the origin's barycentric coordinates are volumes with the origin in place of
// each vertex; all of the sign of the whole volume means inside. Otherwise the best of the faces
// the origin lies beyond (all four when the tetrahedron is flat).
bool solveTetrahedron(const DVec3* p, Feature& out) {
    const DVec3 o{};
    const double mu = volume(p[0], p[1], p[2], p[3]);
    const double c[4] = {volume(o, p[1], p[2], p[3]), volume(p[0], o, p[2], p[3]),
                         volume(p[0], p[1], o, p[3]), volume(p[0], p[1], p[2], o)};
    if (sameSign(mu, c[0]) && sameSign(mu, c[1]) && sameSign(mu, c[2]) && sameSign(mu, c[3])) {
        out.count = 4;
        const double sum = c[0] + c[1] + c[2] + c[3];
        DVec3 q;
        for (int m = 0; m < 4; ++m) {
            out.index[m] = m;
            out.weight[m] = c[m] / sum;
            q = daddScaled(q, p[m], out.weight[m]);
        }
        // The weights only serve the witness points. A thin tetrahedron (the origin just inside a
        // face, as at a time of impact) has ill-conditioned volumes: then the nearest face gives a
        // combination closer to the origin, and that one is kept.
        const double residual = ddot(q, q);
        Feature face;
        for (int m = 0; m < 4 && residual > 0.0; ++m) {
            Feature f;
            solveTriangle(p, m == 0 ? 1 : 0, m <= 1 ? 2 : 1, m <= 2 ? 3 : 2, f);
            if (f.dist_sq < face.dist_sq) face = f;
        }
        if (face.dist_sq < residual) out = face;
        out.point = DVec3{};
        out.dist_sq = 0.0;
        return false;
    }
    Feature best;
    for (int m = 0; m < 4; ++m) {
        if (sameSign(mu, c[m])) continue;
        Feature f;
        solveTriangle(p, m == 0 ? 1 : 0, m <= 1 ? 2 : 1, m <= 2 ? 3 : 2, f);
        if (f.dist_sq < best.dist_sq) best = f;
    }
    out = best;
    return true;
}

} // namespace

bool solveSimplex(Simplex& simplex, DVec3& out_closest) {
    DVec3 p[4];
    for (int i = 0; i < simplex.count; ++i) p[i] = simplex.v[i].w;
    Feature f;
    bool outside = true;
    switch (simplex.count) {
    case 1: setVertex(p, 0, f); break;
    case 2: solveSegment(p, 0, 1, f); break;
    case 3: solveTriangle(p, 0, 1, 2, f); break;
    default: outside = solveTetrahedron(p, f); break;
    }
    Simplex reduced;
    reduced.count = f.count;
    for (int m = 0; m < f.count; ++m) {
        reduced.v[m] = simplex.v[f.index[m]];
        reduced.weight[m] = f.weight[m];
    }
    simplex = reduced;
    out_closest = f.point;
    return outside;
}

} // namespace flak::detail

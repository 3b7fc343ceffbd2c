// flak — the exact orientation sign (exact_orient.h).
//
// det[b - a; c - a; d - a] = det(b, c, d) - det(a, c, d) + det(a, b, d) - det(a, b, c), where
// det(u, v, w) = u . (v x w) of the raw coordinates: 24 signed products x * y * z of floats. In
// double, x * y is exact (48 significant bits); splitting it into two 26-bit halves (Veltkamp)
// makes each half times z exact too (at most 50 bits). Coordinates of at most 2^128 and at least
// 2^-149 keep every such value between 2^-500 and 2^400: no overflow, no underflow. The 48 exact
// terms go into a nonoverlapping expansion one at a time (Grow-Expansion with zero elimination);
// the sign of the sum is the sign of the expansion's largest component, its last. Two filters
// come first: a repeated point gives zero, and a double evaluation far enough from zero gives the
// sign; only the rest (sides truly zero, or within about 1e-15 of it) pays for the expansion.
#include "geom/exact_orient.h"

#include <cmath>

namespace flak::detail {
namespace {

constexpr int kTerms = 48;

struct Expansion {
    double e[kTerms];
    int n = 0;

    // Adds b exactly: each component in turn is summed into the running value with its rounding
    // error kept (Knuth's branch-free two-sum).
    void add(double b) {
        double q = b;
        int m = 0;
        for (int i = 0; i < n; ++i) {
            const double s = q + e[i];
            const double bv = s - q;
            const double av = s - bv;
            const double err = (q - av) + (e[i] - bv);
            q = s;
            if (err != 0.0) e[m++] = err;
        }
        if (q != 0.0) e[m++] = q;
        n = m;
    }

    int sign() const { return n == 0 ? 0 : (e[n - 1] > 0.0 ? 1 : -1); }
};

// Adds sign * x * y * z exactly (two terms).
void addProduct(Expansion& sum, double sign, float x, float y, float z) {
    const double xy = static_cast<double>(x) * static_cast<double>(y);
    const double c = 134217729.0 * xy; // 2^27 + 1
    const double big = c - xy;
    const double hi = c - big;
    const double lo = xy - hi;
    const double zd = static_cast<double>(z);
    sum.add(sign * (hi * zd));
    sum.add(sign * (lo * zd));
}

// Adds sign * u . (v x w).
void addDet3(Expansion& sum, double sign, const Vec3& u, const Vec3& v, const Vec3& w) {
    addProduct(sum, sign, u.x, v.y, w.z);
    addProduct(sum, -sign, u.x, v.z, w.y);
    addProduct(sum, sign, u.y, v.z, w.x);
    addProduct(sum, -sign, u.y, v.x, w.z);
    addProduct(sum, sign, u.z, v.x, w.y);
    addProduct(sum, -sign, u.z, v.y, w.x);
}

bool same(const Vec3& u, const Vec3& v) { return u.x == v.x && u.y == v.y && u.z == v.z; }

} // namespace

int exactOrientSign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    // A repeated point: exactly zero (shared vertices, the common case of meshes in contact).
    if (same(a, b) || same(a, c) || same(a, d) || same(b, c) || same(b, d) || same(c, d)) return 0;
    // In double first: differences, cross and dot of float inputs are each off by at most half
    // an ulp, which sums to under 8 eps (2^-53) times the permanent (Shewchuk's orient3d bound
    // is 7 eps); twice that is trusted. Values stay far from double's overflow and underflow.
    const double bx = double(b.x) - a.x, by = double(b.y) - a.y, bz = double(b.z) - a.z;
    const double cx = double(c.x) - a.x, cy = double(c.y) - a.y, cz = double(c.z) - a.z;
    const double dx = double(d.x) - a.x, dy = double(d.y) - a.y, dz = double(d.z) - a.z;
    const double m0 = cy * dz, m1 = cz * dy, m2 = cz * dx, m3 = cx * dz, m4 = cx * dy, m5 = cy * dx;
    const double det = bx * (m0 - m1) + by * (m2 - m3) + bz * (m4 - m5);
    const double permanent = std::fabs(bx) * (std::fabs(m0) + std::fabs(m1)) +
                             std::fabs(by) * (std::fabs(m2) + std::fabs(m3)) +
                             std::fabs(bz) * (std::fabs(m4) + std::fabs(m5));
    const double bound = 0x1p-49 * permanent;
    if (det > bound) return 1;
    if (det < -bound) return -1;
    return exactOrientSignExpanded(a, b, c, d);
}

int exactOrientSignExpanded(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    Expansion sum;
    addDet3(sum, 1.0, b, c, d);
    addDet3(sum, -1.0, a, c, d);
    addDet3(sum, 1.0, a, b, d);
    addDet3(sum, -1.0, a, b, c);
    return sum.sign();
}

} // namespace flak::detail

#include <flak/geom/obb_obb.h>

#include <cmath>

namespace flak {
namespace {

// Bound, relative to |T|_1 + the six half extents, on the error of one float edge-axis value
// d - (ra + rb): about 20 float roundings (~1.2e-6) plus five times the rotations' departure from
// orthonormality (Gottschalk's terms use R's cofactor identities), for departures up to 1e-6.
constexpr float kEdgeAxisFilter = 1e-5f;

// sin^2 of the angle below which two edges count as parallel in the double re-evaluation. At
// sin(theta) = 1e-9 the double rounding of L (~1e-16 absolute) is still 1e-7 of |L|.
constexpr double kParallelSinSq = 1e-18;

bool isValid(const Obb& box) {
    return isFinite(box.center) && isFinite(box.halfExtents) && isFinite(box.rotation) &&
           box.halfExtents.x >= 0.0f && box.halfExtents.y >= 0.0f && box.halfExtents.z >= 0.0f;
}

struct D3 {
    double x, y, z;
};

D3 toDouble(const Vec3& v) { return D3{v.x, v.y, v.z}; }
double dotD(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 crossD(const D3& a, const D3& b) {
    return D3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
const Vec3& column(const Mat33& m, int i) { return i == 0 ? m.c0 : (i == 1 ? m.c1 : m.c2); }

// The edge axis A_i x B_j decided in double with every projection formed explicitly (no identity
// that assumes orthonormal rotations). True when the axis separates the boxes.
bool separatesOnEdgeAxisDouble(const Obb& a, const Obb& b, int i, int j) {
    const D3 ai = toDouble(column(a.rotation, i));
    const D3 bj = toDouble(column(b.rotation, j));
    const D3 axis = crossD(ai, bj);
    const double len_sq = dotD(axis, axis);
    if (!(len_sq > kParallelSinSq * dotD(ai, ai) * dotD(bj, bj))) return false;
    const D3 t{double(b.center.x) - double(a.center.x), double(b.center.y) - double(a.center.y),
               double(b.center.z) - double(a.center.z)};
    double ra = 0.0, rb = 0.0;
    for (int k = 0; k < 3; ++k) {
        ra += double(a.halfExtents[k]) * std::fabs(dotD(toDouble(column(a.rotation, k)), axis));
        rb += double(b.halfExtents[k]) * std::fabs(dotD(toDouble(column(b.rotation, k)), axis));
    }
    return std::fabs(dotD(t, axis)) > ra + rb;
}

} // namespace

bool obbObbOverlap(const Obb& a, const Obb& b) {
    if (!isValid(a) || !isValid(b)) return false;
    const Vec3& ea = a.halfExtents;
    const Vec3& eb = b.halfExtents;

    // Gottschalk 1996 / Ericson RTCD 4.4.1: R = A^T B, T = A^T (cb - ca).
    float r[3][3], abs_r[3][3];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            r[i][j] = dot(column(a.rotation, i), column(b.rotation, j));
            abs_r[i][j] = std::fabs(r[i][j]);
        }
    }
    Vec3 t;
    sub(b.center, a.center, t);
    float ta[3];
    for (int i = 0; i < 3; ++i) ta[i] = dot(t, column(a.rotation, i));

    // A's face axes.
    for (int i = 0; i < 3; ++i) {
        const float rb = eb.x * abs_r[i][0] + eb.y * abs_r[i][1] + eb.z * abs_r[i][2];
        if (std::fabs(ta[i]) > ea[i] + rb) return false;
    }
    // B's face axes, with T projected on B's axes directly (no orthonormality assumed).
    for (int j = 0; j < 3; ++j) {
        const float ra = ea.x * abs_r[0][j] + ea.y * abs_r[1][j] + ea.z * abs_r[2][j];
        if (std::fabs(dot(t, column(b.rotation, j))) > ra + eb[j]) return false;
    }

    // Edge axes A_i x B_j; (i1, i2) and (j1, j2) are the other two indices in cyclic order.
    const float error_bound = kEdgeAxisFilter * (std::fabs(ta[0]) + std::fabs(ta[1]) + std::fabs(ta[2]) +
                                                 ea.x + ea.y + ea.z + eb.x + eb.y + eb.z);
    for (int i = 0; i < 3; ++i) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const float ra = ea[i1] * abs_r[i2][j] + ea[i2] * abs_r[i1][j];
            const float rb = eb[j1] * abs_r[i][j2] + eb[j2] * abs_r[i][j1];
            const float d = std::fabs(ta[i2] * r[i1][j] - ta[i1] * r[i2][j]);
            const float margin = d - (ra + rb);
            if (margin < -error_bound) continue; // certainly not separating on this axis
            if (margin > error_bound || separatesOnEdgeAxisDouble(a, b, i, j)) return false;
        }
    }
    return true;
}

} // namespace flak

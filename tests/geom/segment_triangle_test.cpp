// Oracle tests of segmentTriangle (Moller-Trumbore) and segmentTriangleWatertight (Woop, Benthin,
// Wald) against a double-precision reference, plus the watertightness test on closed meshes.
#include <flak/geom/segment_triangle.h>

#include "flak_support/triangle_families.h"
#include "support/case_count.h"
#include "support/triangle_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace flak::test {
namespace {

constexpr std::uint64_t kSeed = 0x5EED7A5002ull;

struct SegCase {
    Tri t;
    Vec3 p0, p1;
};

void pack(const SegCase& k, float* in) {
    const Vec3* v[5] = {&k.p0, &k.p1, &k.t.a, &k.t.b, &k.t.c};
    for (int i = 0; i < 5; ++i) {
        in[3 * i] = v[i]->x;
        in[3 * i + 1] = v[i]->y;
        in[3 * i + 2] = v[i]->z;
    }
}

using SegmentKernel = bool (*)(const Vec3&, const Vec3&, const Vec3&, const Vec3&, const Vec3&, RayHit&);

void checkKernel(OracleTally& tally, std::uint64_t index, const SegCase& k, SegmentKernel kernel) {
    float in[15];
    pack(k, in);
    ++tally.cases;
    const DTri T = dtri(k.t.a, k.t.b, k.t.c);
    const D3 P0 = d3(k.p0), P1 = d3(k.p1), dir = P1 - P0;
    const double scale = std::max({maxAbs(T.a - P0), maxAbs(T.b - P0), maxAbs(T.c - P0), maxAbs(dir)});
    const double band = bandOf(scale);
    double t_ref = 0.0;
    const bool ref = segmentCrossesTriangle(P0, P1, T, &t_ref);
    RayHit hit;
    const bool got = kernel(k.p0, k.p1, k.t.a, k.t.b, k.t.c, hit);
    tally.hits += ref;
    if (got != ref) {
        const double decisive = ref ? segmentHitEventDistance(P0, P1, T) : segmentTriangleDistance(P0, P1, T);
        tally.disagree(index, decisive, band, in, 15, got ? "hit where the reference misses" : "missed hit");
    }
    if (!(got && ref)) return;
    // t: the reported point is within the band of the plane (the gap along the normal);
    // point: on the segment, and on the triangle up to the conditioning of a grazing crossing
    // (a crossing at angle phi to the plane moves by rounding / sin(phi) within the plane).
    const D3 n = cross(T.b - T.a, T.c - T.a);
    const D3 nh = n * (1.0 / len(n));
    const double sin_phi = std::fabs(dot(dir, nh)) / len(dir);
    const D3 X = P0 + dir * static_cast<double>(hit.t);
    tally.check(index, std::fabs(dot(X - T.a, nh)), band, in, 15, "t off the plane");
    const D3 pt = d3(hit.point);
    const double tol_pt = band + outputRounding(pt);
    const double cond = 8.0 * FLT_EPSILON * scale / std::max(sin_phi, 1e-30);
    tally.check(index, pointTriangleDistance(pt, T), tol_pt + cond, in, 15, "point off the triangle");
    tally.check(index, len(pt - X), tol_pt, in, 15, "point is not p0 + t (p1 - p0)");
    const double lmax = std::max({len(T.b - T.a), len(T.c - T.b), len(T.a - T.c)});
    const double kappa = lmax * lmax / len(n);
    const D3 rec = T.a + (T.b - T.a) * hit.u + (T.c - T.a) * hit.v;
    tally.check(index, len(rec - pt), tol_pt + cond + 8.0 * FLT_EPSILON * scale * kappa, in, 15,
                "barycentrics do not reproduce the point");
    // Facing against the direction; at a grazing angle the side is within rounding, either will do.
    const D3 nf = d3(hit.normal);
    if (sin_phi > 1e-4)
        tally.check(index, len(nf - (dot(nh, dir) > 0.0 ? nh * -1.0 : nh)), 1e-6, in, 15, "normal");
    else
        tally.check(index, std::min(len(nf - nh), len(nf + nh)), 1e-6, in, 15, "normal");
}

bool fastKernel(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c, RayHit& hit) {
    return segmentTriangle(p0, p1, a, b, c, hit);
}
bool watertightKernel(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b, const Vec3& c,
                      RayHit& hit) {
    return segmentTriangleWatertight(p0, p1, a, b, c, hit);
}

// A segment from a random point towards a random point near the triangle, stopping short of it or
// passing through.
SegCase randomCase(SplitMix64& rng, Shape shape = Shape::Random) {
    SegCase k;
    k.t = makeShape(rng, shape, 1.0);
    k.p0 = randomPoint(rng, 2.0);
    const Vec3 target = randomPoint(rng, 0.3, randomPointOn(rng, k.t));
    const double s = rng.range(0.4, 2.5);
    k.p1 = vec(k.p0.x + (static_cast<double>(target.x) - k.p0.x) * s,
               k.p0.y + (static_cast<double>(target.y) - k.p0.y) * s,
               k.p0.z + (static_cast<double>(target.z) - k.p0.z) * s);
    return k;
}

// Aimed through an edge or vertex (or a point a hair away from one), grazing at shallow angles,
// or ending a hair before / after the plane.
SegCase familyCase(SplitMix64& rng, Shape shape, const Placement& where) {
    SegCase k;
    Tri t = makeShape(rng, shape, 1.0);
    Vec3 target;
    const unsigned kind = static_cast<unsigned>(rng.next() % 4u);
    if (kind == 0u) {
        target = rng.u() < 0.5 ? t.a : t.c;
    } else if (kind == 1u) {
        const double s = rng.u();
        target = vec(t.a.x + (static_cast<double>(t.b.x) - t.a.x) * s,
                     t.a.y + (static_cast<double>(t.b.y) - t.a.y) * s,
                     t.a.z + (static_cast<double>(t.b.z) - t.a.z) * s);
    } else {
        target = randomPointOn(rng, t);
    }
    double dir[3];
    randomDirection(rng, dir);
    if (kind == 3u) { // grazing: direction nearly in the plane
        const DTri T = dtri(t.a, t.b, t.c);
        D3 n = cross(T.b - T.a, T.c - T.a);
        if (len(n) > 0.0) {
            n = n * (1.0 / len(n));
            const D3 d{dir[0], dir[1], dir[2]};
            D3 in_plane = d - n * dot(d, n);
            if (len(in_plane) > 0.0) {
                in_plane = in_plane * (1.0 / len(in_plane));
                const double tilt = signedLogUniform(rng, -7.0, -1.0);
                const D3 g = in_plane + n * tilt;
                dir[0] = g.x;
                dir[1] = g.y;
                dir[2] = g.z;
            }
        }
    }
    const double before = rng.range(0.05, 2.0);
    double after = rng.range(-0.5, 2.0);
    if (rng.u() < 0.2) after = signedLogUniform(rng, -8.0, -3.0); // ends at the plane
    const Vec3 p0 = vec(target.x - dir[0] * before, target.y - dir[1] * before, target.z - dir[2] * before);
    const Vec3 p1 = vec(target.x + dir[0] * after, target.y + dir[1] * after, target.z + dir[2] * after);
    k.t = place(where, t);
    k.p0 = place(where, p0);
    k.p1 = place(where, p1);
    return k;
}

// Grid triangle and a segment through an exact point of an edge or a vertex, or through an exact
// interior point with an exactly representable direction.
SegCase gridCase(SplitMix64& rng) {
    SegCase k;
    k.t = {gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8), gridPoint(rng, 1.0, 8)};
    int i = static_cast<int>(rng.next() % 17u), j = static_cast<int>(rng.next() % 17u);
    if (i + j > 16) {
        i = 16 - i;
        j = 16 - j;
    }
    if (rng.u() < 0.6) j = 16 - i; // on edge bc
    const Vec3 q = pointOn(k.t, i, j, 4);
    const Vec3 d = gridPoint(rng, 1.0, 4);
    k.p0 =
        vec(q.x - static_cast<double>(d.x), q.y - static_cast<double>(d.y), q.z - static_cast<double>(d.z));
    k.p1 =
        vec(q.x + static_cast<double>(d.x), q.y + static_cast<double>(d.y), q.z + static_cast<double>(d.z));
    return k;
}

TEST(SegmentTriangle, Random1M) {
    OracleTally fast("moller-trumbore random", kSeed), tight("watertight random", kSeed);
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(1000000); ++i) {
        SplitMix64 rng = caseRng(kSeed, i + 1);
        const SegCase k = randomCase(rng);
        checkKernel(fast, i, k, fastKernel);
        checkKernel(tight, i, k, watertightKernel);
    }
    fast.print();
    tight.print();
    EXPECT_EQ(fast.failures, 0);
    EXPECT_EQ(tight.failures, 0);
    const double frac = static_cast<double>(fast.hits) / static_cast<double>(fast.cases);
    EXPECT_GT(frac, 0.2);
    EXPECT_LT(frac, 0.8);
}

TEST(SegmentTriangle, AdversarialFamilies) {
    long failures = 0;
    std::uint64_t seed = kSeed + 1;
    for (int s = 0; s < static_cast<int>(Shape::Count); ++s) {
        for (const Placement& where : kPlacements) {
            char name_fast[96], name_tight[96];
            std::snprintf(name_fast, sizeof name_fast, "MT %s %s", shapeName(static_cast<Shape>(s)),
                          where.name);
            std::snprintf(name_tight, sizeof name_tight, "WT %s %s", shapeName(static_cast<Shape>(s)),
                          where.name);
            ++seed;
            OracleTally fast(name_fast, seed), tight(name_tight, seed);
            for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(8000); ++i) {
                SplitMix64 rng = caseRng(fast.seed, i + 1);
                const SegCase k = familyCase(rng, static_cast<Shape>(s), where);
                checkKernel(fast, i, k, fastKernel);
                checkKernel(tight, i, k, watertightKernel);
            }
            fast.print();
            tight.print();
            failures += fast.failures + tight.failures;
        }
    }
    ++seed;
    OracleTally fast("MT exact grid (through edges)", seed), tight("WT exact grid (through edges)", seed);
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(50000); ++i) {
        SplitMix64 rng = caseRng(fast.seed, i + 1);
        const SegCase k = gridCase(rng);
        checkKernel(fast, i, k, fastKernel);
        checkKernel(tight, i, k, watertightKernel);
    }
    fast.print();
    tight.print();
    failures += fast.failures + tight.failures;
    EXPECT_EQ(failures, 0);
}

// A segment whose start is some 1e20 from the triangle: the watertight test's sheared edge
// functions overflow (inf - inf is NaN, which passed its sign tests and reported a hit 1e20 away
// from the triangle). No hit, as the fast test says.
TEST(SegmentTriangle, WatertightOverflowIsNoHit) {
    const Vec3 a{1, 0, 0}, b{0, 1, 0}, c{0, 0, 1};
    const Vec3 p0{9e19f, -1.2e20f, 8e19f}, p1{9e19f, -4e19f, 1.8e20f};
    RayHit hit;
    EXPECT_FALSE(segmentTriangleWatertight(p0, p1, a, b, c, hit));
    EXPECT_FALSE(segmentTriangle(p0, p1, a, b, c, hit));
}

TEST(SegmentTriangle, NonFiniteInputsGiveNoHit) {
    long bad = 0;
    for (std::uint64_t i = 0; i < caseCount<std::uint64_t>(100000); ++i) {
        SplitMix64 rng = caseRng(kSeed + 99, i + 1);
        const SegCase k = randomCase(rng);
        float in[15];
        pack(k, in);
        poison(rng, in, 15);
        const Vec3 p0{in[0], in[1], in[2]}, p1{in[3], in[4], in[5]}, a{in[6], in[7], in[8]},
            b{in[9], in[10], in[11]}, c{in[12], in[13], in[14]};
        RayHit hit;
        hit.t = 7.0f;
        WatertightRay ray;
        Vec3 dir;
        sub(p1, p0, dir);
        makeWatertightRay(p0, dir, 1.0f, ray);
        const bool any = segmentTriangle(p0, p1, a, b, c, hit) ||
                         segmentTriangleWatertight(p0, p1, a, b, c, hit) ||
                         rayTriangleWatertight(ray, a, b, c, hit);
        if (any || hit.t != 7.0f) {
            if (++bad <= 5) ADD_FAILURE() << "case " << i << " inputs " << hexInputs(in, 15);
        }
    }
    std::printf("  non-finite inputs: 100000 cases, %ld with a hit\n", bad);
    EXPECT_EQ(bad, 0);
    WatertightRay ray;
    EXPECT_FALSE(makeWatertightRay(Vec3{}, Vec3{}, 1.0f, ray)); // zero direction
    RayHit hit;
    EXPECT_FALSE(rayTriangleWatertight(ray, Vec3{-1, -1, 1}, Vec3{1, -1, 1}, Vec3{0, 1, 1}, hit));
}

// ---- the four-lane filter in front of rayTriangleWatertight -----------------------------------

// One ray against four lanes: a lane may be cleared only where rayTriangleWatertight says no.
// Returns the lanes that broke that rule; counts the cleared lanes.
int checkFourLanes(const SegCase& own, const SegCase* others, long& cleared, long& accepted) {
    Vec3 dir;
    sub(own.p1, own.p0, dir);
    WatertightRay ray;
    if (!makeWatertightRay(own.p0, dir, 1.0f, ray)) return 0;
    const Tri* tris[4] = {&own.t, &others[0].t, &others[1].t, &others[2].t};
    TriangleLanes lanes;
    for (int l = 0; l < 4; ++l) setTriangleLane(l, tris[l]->a, tris[l]->b, tris[l]->c, lanes);
    const unsigned keep = watertightCandidates(ray, lanes, 0xFu);
    int broken = 0;
    for (int l = 0; l < 4; ++l) {
        RayHit hit;
        const bool hits = rayTriangleWatertight(ray, tris[l]->a, tris[l]->b, tris[l]->c, hit);
        accepted += hits;
        cleared += ((keep >> l) & 1u) == 0u;
        if (hits && ((keep >> l) & 1u) == 0u) ++broken;
    }
    return broken;
}

TEST(SegmentTriangle, FourLaneFilterNeverDropsAnAcceptedTriangle) {
    long groups = 0, cleared = 0, accepted = 0, broken = 0;
    auto run = [&](const char* name, std::uint64_t seed, long count, auto&& make) {
        long b = 0;
        for (long i = 0; i < count; ++i) {
            SplitMix64 rng = caseRng(seed, static_cast<std::uint64_t>(i) + 1);
            SegCase k[4];
            for (SegCase& c : k) c = make(rng);
            const int n = checkFourLanes(k[0], k + 1, cleared, accepted);
            if (n > 0 && ++b <= 5) ADD_FAILURE() << name << " seed " << seed << " case " << i;
            ++groups;
        }
        broken += b;
    };
    run("random", kSeed + 200, caseCount<long>(250000), [](SplitMix64& rng) { return randomCase(rng); });
    std::uint64_t seed = kSeed + 300;
    for (int s = 0; s < static_cast<int>(Shape::Count); ++s)
        for (const Placement& where : kPlacements)
            run(where.name, ++seed, caseCount<long>(4000),
                [&](SplitMix64& rng) { return familyCase(rng, static_cast<Shape>(s), where); });
    run("exact grid", ++seed, caseCount<long>(25000), [](SplitMix64& rng) { return gridCase(rng); });
    // Poisoned lanes (NaN/Inf anywhere in a lane's triangle) are kept or cleared, never a problem.
    run("non-finite", ++seed, caseCount<long>(25000), [](SplitMix64& rng) {
        SegCase k = randomCase(rng);
        float in[15];
        pack(k, in);
        poison(rng, in + 6, 9);
        k.t.a = Vec3{in[6], in[7], in[8]};
        k.t.b = Vec3{in[9], in[10], in[11]};
        k.t.c = Vec3{in[12], in[13], in[14]};
        return k;
    });
    std::printf("  four-lane filter: %ld groups (%ld lanes), %ld accepted by the full test, %ld cleared, "
                "%ld accepted lanes cleared\n",
                groups, 4 * groups, accepted, cleared, broken);
    EXPECT_EQ(broken, 0);
    EXPECT_GT(cleared, 2 * groups); // it does clear most lanes of random groups
}

// ---- watertightness on closed meshes ----------------------------------------------------------

struct Mesh {
    std::vector<Vec3> vertices;
    std::vector<int> indices; // three per triangle, counter-clockwise seen from outside
    std::vector<std::pair<int, int>> edges;
};

void collectEdges(Mesh& m) {
    for (size_t i = 0; i < m.indices.size(); i += 3)
        for (int e = 0; e < 3; ++e) {
            const int a = m.indices[i + static_cast<size_t>(e)],
                      b = m.indices[i + static_cast<size_t>((e + 1) % 3)];
            if (a < b) m.edges.emplace_back(a, b);
        }
}

// Icosahedron subdivided `levels` times, vertices pushed onto the unit sphere (in double).
Mesh icosphere(int levels) {
    const double t = (1.0 + std::sqrt(5.0)) / 2.0;
    std::vector<D3> v = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    std::vector<int> f = {0, 11, 5,  0, 5,  1, 0, 1, 7, 0, 7,  10, 0, 10, 11, 1, 5, 9, 5, 11,
                          4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3,  9,  4, 3,  4,  2, 3, 2, 6, 3,
                          6, 8,  3,  8, 9,  4, 9, 5, 2, 4, 11, 6,  2, 10, 8,  6, 7, 9, 8, 1};
    for (D3& p : v) p = p * (1.0 / len(p));
    for (int l = 0; l < levels; ++l) {
        std::vector<int> g;
        std::vector<std::pair<std::pair<int, int>, int>> mids;
        const auto mid = [&](int a, int b) {
            const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
            for (const auto& m : mids)
                if (m.first == key) return m.second;
            const D3 p = (v[static_cast<size_t>(a)] + v[static_cast<size_t>(b)]) * 0.5;
            v.push_back(p * (1.0 / len(p)));
            mids.push_back({key, static_cast<int>(v.size()) - 1});
            return static_cast<int>(v.size()) - 1;
        };
        for (size_t i = 0; i < f.size(); i += 3) {
            const int a = f[i], b = f[i + 1], c = f[i + 2];
            const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
            g.insert(g.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        f.swap(g);
    }
    Mesh m;
    for (const D3& p : v) m.vertices.push_back(vec(p.x, p.y, p.z));
    m.indices = f;
    collectEdges(m);
    return m;
}

// The cube [-2, 2]^3, each face a 4 x 4 grid of quads split along a diagonal: integer vertices,
// many coplanar neighbours, exact edges.
Mesh tessellatedCube() {
    Mesh m;
    const int n = 4;
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = -1; sign <= 1; sign += 2) {
            const int base = static_cast<int>(m.vertices.size());
            const int u_axis = (axis + 1) % 3, v_axis = (axis + 2) % 3;
            for (int j = 0; j <= n; ++j)
                for (int i = 0; i <= n; ++i) {
                    float p[3];
                    p[axis] = 2.0f * static_cast<float>(sign);
                    p[u_axis] = static_cast<float>(i - 2);
                    p[v_axis] = static_cast<float>(j - 2);
                    m.vertices.push_back({p[0], p[1], p[2]});
                }
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const int a = base + j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
                    if (sign > 0)
                        m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
                    else
                        m.indices.insert(m.indices.end(), {a, c, b, a, d, c});
                }
        }
    // Merge the duplicated border vertices so that edges are shared by index.
    std::vector<int> remap(m.vertices.size());
    std::vector<Vec3> unique;
    for (size_t i = 0; i < m.vertices.size(); ++i) {
        int found = -1;
        for (size_t k = 0; k < unique.size(); ++k)
            if (equal(unique[k], m.vertices[i])) found = static_cast<int>(k);
        if (found < 0) {
            unique.push_back(m.vertices[i]);
            found = static_cast<int>(unique.size()) - 1;
        }
        remap[i] = found;
    }
    for (int& idx : m.indices) idx = remap[static_cast<size_t>(idx)];
    m.vertices = unique;
    collectEdges(m);
    return m;
}

// Reference: does the segment enter the (convex) mesh? Clip it against every face plane in double;
// it enters when a piece of positive length lies inside and the start is outside.
bool entersConvexMesh(const Mesh& m, const D3& p0, const D3& p1) {
    double lo = 0.0, hi = 1.0;
    for (size_t i = 0; i < m.indices.size(); i += 3) {
        const D3 a = d3(m.vertices[static_cast<size_t>(m.indices[i])]);
        const D3 b = d3(m.vertices[static_cast<size_t>(m.indices[i + 1])]);
        const D3 c = d3(m.vertices[static_cast<size_t>(m.indices[i + 2])]);
        const D3 n = cross(b - a, c - a); // outward
        const double s0 = dot(p0 - a, n), s1 = dot(p1 - a, n);
        if (s0 > 0.0 && s1 > 0.0) return false;
        if (s0 > 0.0)
            lo = std::max(lo, s0 / (s0 - s1));
        else if (s1 > 0.0)
            hi = std::min(hi, s0 / (s0 - s1));
    }
    return lo > 0.0 && hi - lo > 1e-6;
}

struct SlipCount {
    long rays = 0, entering = 0, fast_slips = 0, tight_slips = 0;
};

void shoot(const Mesh& m, const Vec3& p0, const Vec3& p1, SlipCount& count) {
    ++count.rays;
    if (!entersConvexMesh(m, d3(p0), d3(p1))) return;
    ++count.entering;
    Vec3 dir;
    sub(p1, p0, dir);
    WatertightRay ray;
    makeWatertightRay(p0, dir, 1.0f, ray);
    bool fast = false, tight = false;
    RayHit hit;
    for (size_t i = 0; i < m.indices.size() && !(fast && tight); i += 3) {
        const Vec3& a = m.vertices[static_cast<size_t>(m.indices[i])];
        const Vec3& b = m.vertices[static_cast<size_t>(m.indices[i + 1])];
        const Vec3& c = m.vertices[static_cast<size_t>(m.indices[i + 2])];
        fast = fast || segmentTriangle(p0, p1, a, b, c, hit);
        tight = tight || rayTriangleWatertight(ray, a, b, c, hit);
    }
    if (!fast) ++count.fast_slips;
    if (!tight) {
        ++count.tight_slips;
        if (count.tight_slips <= 5) {
            const float in[6] = {p0.x, p0.y, p0.z, p1.x, p1.y, p1.z};
            ADD_FAILURE() << "watertight ray slipped through: " << hexInputs(in, 6);
        }
    }
}

// From a random point outside, within a cone around the outward direction `out`, through target
// and on through the mesh.
void aimAt(SplitMix64& rng, const Vec3& target, const D3& out, double reach, Vec3& p0, Vec3& p1) {
    double d[3];
    randomDirection(rng, d);
    D3 dir = out + D3{d[0], d[1], d[2]} * rng.range(0.0, 0.9);
    dir = dir * (1.0 / len(dir));
    const double back = logUniform(rng, -2.0, 2.0);
    p0 = vec(target.x + dir.x * back, target.y + dir.y * back, target.z + dir.z * back);
    p1 = vec(target.x - dir.x * reach, target.y - dir.y * reach, target.z - dir.z * reach);
}

TEST(SegmentTriangle, WatertightOnClosedMeshes) {
    SplitMix64 rng(kSeed + 7);
    {
        const Mesh m = icosphere(3);
        SlipCount vertex, edge, random;
        for (int rep = 0; rep < 6; ++rep)
            for (const Vec3& v : m.vertices) {
                Vec3 p0, p1;
                aimAt(rng, v, d3(v), 3.0, p0, p1);
                shoot(m, p0, p1, vertex);
            }
        for (int rep = 0; rep < 3; ++rep)
            for (const auto& e : m.edges) {
                const Vec3& a = m.vertices[static_cast<size_t>(e.first)];
                const Vec3& b = m.vertices[static_cast<size_t>(e.second)];
                const double s = rng.u();
                const Vec3 q = vec(a.x + (static_cast<double>(b.x) - a.x) * s,
                                   a.y + (static_cast<double>(b.y) - a.y) * s,
                                   a.z + (static_cast<double>(b.z) - a.z) * s);
                Vec3 p0, p1;
                aimAt(rng, q, d3(q), 3.0, p0, p1);
                shoot(m, p0, p1, edge);
            }
        for (int i = 0; i < 3000; ++i) {
            double d[3];
            randomDirection(rng, d);
            const Vec3 q = vec(d[0] * 0.9, d[1] * 0.9, d[2] * 0.9);
            Vec3 p0, p1;
            aimAt(rng, q, D3{d[0], d[1], d[2]}, 3.0, p0, p1);
            shoot(m, p0, p1, random);
        }
        std::printf("  icosphere (%zu triangles): at vertices %ld rays (%ld enter): watertight slips %ld, "
                    "moller-trumbore slips %ld\n",
                    m.indices.size() / 3, vertex.rays, vertex.entering, vertex.tight_slips,
                    vertex.fast_slips);
        std::printf(
            "  icosphere: at edges %ld rays (%ld enter): watertight slips %ld, moller-trumbore slips %ld\n",
            edge.rays, edge.entering, edge.tight_slips, edge.fast_slips);
        std::printf(
            "  icosphere: random %ld rays (%ld enter): watertight slips %ld, moller-trumbore slips %ld\n",
            random.rays, random.entering, random.tight_slips, random.fast_slips);
        EXPECT_EQ(vertex.tight_slips + edge.tight_slips + random.tight_slips, 0);
        EXPECT_GT(vertex.entering + edge.entering, 8000);
    }
    {
        const Mesh m = tessellatedCube();
        SlipCount exact, random;
        // Exact: axis-aligned and face-diagonal rays through grid vertices, edge midpoints and
        // diagonal points of the face grid (all representable, so they hit edges exactly).
        for (int axis = 0; axis < 3; ++axis)
            for (int sign = -1; sign <= 1; sign += 2)
                for (int i = -8; i <= 8; ++i)
                    for (int j = -8; j <= 8; ++j) {
                        float o[3], e[3];
                        const int u_axis = (axis + 1) % 3, v_axis = (axis + 2) % 3;
                        o[axis] = 5.0f * static_cast<float>(sign);
                        e[axis] = -5.0f * static_cast<float>(sign);
                        o[u_axis] = e[u_axis] = 0.25f * static_cast<float>(i);
                        o[v_axis] = e[v_axis] = 0.25f * static_cast<float>(j);
                        shoot(m, {o[0], o[1], o[2]}, {e[0], e[1], e[2]}, exact);
                        // Slanted by an exact slope: crosses the face plane at the same grid point.
                        o[u_axis] += 3.0f;
                        e[u_axis] -= 3.0f;
                        shoot(m, {o[0], o[1], o[2]}, {e[0], e[1], e[2]}, exact);
                        o[v_axis] -= 1.5f;
                        e[v_axis] += 1.5f;
                        shoot(m, {o[0], o[1], o[2]}, {e[0], e[1], e[2]}, exact);
                    }
        for (const Vec3& v : m.vertices)
            for (int rep = 0; rep < 20; ++rep) {
                Vec3 p0, p1;
                aimAt(rng, v, d3(v), 5.0, p0, p1);
                shoot(m, p0, p1, random);
            }
        for (const auto& e : m.edges)
            for (int rep = 0; rep < 4; ++rep) {
                const Vec3& a = m.vertices[static_cast<size_t>(e.first)];
                const Vec3& b = m.vertices[static_cast<size_t>(e.second)];
                const double s = rng.u();
                const Vec3 q = vec(a.x + (static_cast<double>(b.x) - a.x) * s,
                                   a.y + (static_cast<double>(b.y) - a.y) * s,
                                   a.z + (static_cast<double>(b.z) - a.z) * s);
                Vec3 p0, p1;
                aimAt(rng, q, d3(q), 5.0, p0, p1);
                shoot(m, p0, p1, random);
            }
        std::printf(
            "  tessellated cube (%zu triangles): exact grid rays %ld (%ld enter): watertight slips %ld, "
            "moller-trumbore slips %ld\n",
            m.indices.size() / 3, exact.rays, exact.entering, exact.tight_slips, exact.fast_slips);
        std::printf(
            "  tessellated cube: aimed at vertices and edges %ld rays (%ld enter): watertight slips %ld, "
            "moller-trumbore slips %ld\n",
            random.rays, random.entering, random.tight_slips, random.fast_slips);
        EXPECT_EQ(exact.tight_slips + random.tight_slips, 0);
        EXPECT_GT(exact.entering, 3000);
    }
}

} // namespace
} // namespace flak::test

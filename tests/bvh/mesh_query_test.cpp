// Oracle tests of the blob queries: every answer of a tree walk must equal, bit for bit, the
// brute-force answer of the same kernel applied to every triangle (node boxes are conservative),
// on generated and real meshes with random and adversarial placements; the sphere answers are
// also checked against a double-precision reference within the kernel's tolerance band.
#include "query_meshes.h"
#include "support/case_count.h"
#include "support/same_bits.h"
#include "support/triangle_reference.h"

#include <flak/bvh/box_query.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/geom/segment_triangle.h>
#include <flak/geom/sphere_triangle.h>
#include <flak/geom/swept_sphere_triangle.h>
#include <flak/geom/tolerance.h>
#include <flak/geom/triangle_aabb.h>

#include <cstdio>
#include <limits>

namespace flak::test {
namespace {

const int kQueriesPerMesh = caseCount<int>(20000); // 6 meshes: 120k per kind (fewer under FLAK_CASE_DIVISOR)
constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

// Brute-force prefilter: skips only triangles whose box is farther from the query box than 1% of
// the scale, hundreds of tolerance bands, so it never changes a kernel answer but keeps the
// oracle affordable. Every other triangle goes through the kernel.
bool nearBox(const Aabb& tri_box, const Aabb& q, float scale) {
    Aabb g;
    inflate(q, 0.01f * scale + 1e-30f, g);
    return overlaps(tri_box, g);
}

float sceneScale(const BakedMesh& m, float query_scale) {
    const float s = std::max(std::max(std::fabs(m.bounds.min.x), std::fabs(m.bounds.max.x)),
                             std::max(std::max(std::fabs(m.bounds.min.y), std::fabs(m.bounds.max.y)),
                                      std::max(std::fabs(m.bounds.min.z), std::fabs(m.bounds.max.z))));
    return std::max(s, query_scale) + m.diag;
}

// ---- spheres ------------------------------------------------------------------------------------

void bruteSphere(const BakedMesh& m, const Sphere& s, std::vector<MeshContact>& out) {
    out.clear();
    Aabb q;
    set(s.center.x - s.radius, s.center.y - s.radius, s.center.z - s.radius, q.min);
    set(s.center.x + s.radius, s.center.y + s.radius, s.center.z + s.radius, q.max);
    const bool all = !std::isfinite(s.radius) || s.radius > 1e6f || !isFinite(s.center);
    const float scale =
        sceneScale(m, std::max(maxAbs(d3(s.center)) > 0 ? float(maxAbs(d3(s.center))) : 0.f, s.radius));
    for (std::uint32_t t = 0; t < m.tris.size(); ++t) {
        if (!all && !nearBox(m.boxes[t], q, scale)) continue;
        MeshContact c;
        if (sphereTriangle(s, m.tris[t][0], m.tris[t][1], m.tris[t][2], c.contact)) {
            c.triangle = t;
            out.push_back(c);
        }
    }
}

void makeSphere(const BakedMesh& m, SplitMix64& rng, int i, Sphere& s) {
    const std::uint32_t tri = static_cast<std::uint32_t>(rng.next() % m.tris.size());
    const float r_base = m.diag * static_cast<float>(0.01 + 0.04 * rng.u());
    switch (i % 10) {
    case 0:
    case 1:
    case 2:
    case 3: // random, as the benchmark scene
        randomPointInQ(m, rng, s.center);
        s.radius = r_base;
        break;
    case 4: { // touching: centre exactly r away along the face normal of a surface point
        Vec3 p, n;
        pointOnTriangle(m, tri, rng, p);
        faceNormal(m, tri, n);
        addScaled(p, n, (rng.next() & 1) ? r_base : -r_base, s.center);
        s.radius = r_base;
        break;
    }
    case 5: { // grazing: a hair nearer or farther than r
        Vec3 p, n;
        pointOnTriangle(m, tri, rng, p);
        faceNormal(m, tri, n);
        const float r = r_base * (1.0f + static_cast<float>((rng.u() - 0.5) * 2e-6));
        addScaled(p, n, r_base, s.center);
        s.radius = r;
        break;
    }
    case 6: // centre on the surface, tiny or zero radius
        pointOnTriangle(m, tri, rng, s.center);
        s.radius = (rng.next() & 1) ? 0.0f : m.diag * 1e-7f;
        break;
    case 7: // fully inside (the mesh centre) with small radius, or a huge radius
        s.center = m.center;
        s.radius = (rng.next() & 1) ? m.diag * 1e-3f : m.diag * static_cast<float>(1.0 + 100.0 * rng.u());
        break;
    case 8: // far away
        randomUnit(rng, s.center);
        scale(s.center, m.diag * 1e3f, s.center);
        add(s.center, m.center, s.center);
        s.radius = (rng.next() & 1) ? r_base : m.diag * 999.0f;
        break;
    default: // tiny spheres near vertices
        s.center = m.tris[tri][rng.next() % 3];
        s.radius = m.diag * 1e-6f * static_cast<float>(rng.u());
        break;
    }
}

TEST(SphereQuery, MatchesBruteForceOnEveryMesh) {
    long queries = 0, hits = 0, forgiven = 0, contacts = 0, overflow_checks = 0;
    std::vector<MeshContact> brute, buf(20000);
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        const std::uint64_t seed = 0x5EED0101u ^ std::hash<std::string>{}(m.name);
        SplitMix64 rng(seed);
        for (int i = 0; i < kQueriesPerMesh; ++i) {
            Sphere s;
            makeSphere(m, rng, i, s);
            bruteSphere(m, s, brute);
            ++queries;
            const bool any = sphereAnyHit(m.blob, s);
            ASSERT_EQ(any, !brute.empty()) << m.name << " seed " << seed << " query " << i;
            hits += any;
            // All hits; every third query with a small buffer to exercise the overflow count.
            OutBuffer<MeshContact> out{buf.data(), static_cast<std::uint32_t>(buf.size()), 0, 0};
            if (i % 3 == 0) out.capacity = static_cast<std::uint32_t>(rng.next() % 4);
            const Status st = sphereAllHits(m.blob, s, out);
            const std::size_t expect_written = std::min<std::size_t>(brute.size(), out.capacity);
            ASSERT_EQ(out.count, expect_written) << m.name << " seed " << seed << " query " << i;
            ASSERT_EQ(out.count + out.dropped, brute.size()) << m.name << " query " << i;
            ASSERT_EQ(st, brute.size() > out.capacity ? Status::BufferFull : Status::Ok);
            overflow_checks += out.dropped > 0;
            for (std::uint32_t k = 0; k < out.count; ++k) {
                ASSERT_EQ(buf[k].triangle, brute[k].triangle) << m.name << " query " << i;
                ASSERT_TRUE(sameBits(buf[k].contact, brute[k].contact)) << m.name << " query " << i;
            }
            contacts += static_cast<long>(brute.size());
            // Double reference, nearest triangle: a disagreement must lie inside its band.
            if (s.radius < m.diag * 10.0f) {
                double best = std::numeric_limits<double>::infinity(), band = 0.0;
                Aabb q;
                set(s.center.x - s.radius, s.center.y - s.radius, s.center.z - s.radius, q.min);
                set(s.center.x + s.radius, s.center.y + s.radius, s.center.z + s.radius, q.max);
                for (std::uint32_t t = 0; t < m.tris.size(); ++t) {
                    if (!nearBox(m.boxes[t], q, m.diag)) continue; // farther ones are far outside any band
                    const DTri dt = dtri(m.tris[t][0], m.tris[t][1], m.tris[t][2]);
                    const double d = pointTriangleDistance(d3(s.center), dt);
                    if (d < best) {
                        best = d;
                        const double sc = std::max({maxAbs(dt.b - dt.a), maxAbs(dt.c - dt.a),
                                                    maxAbs(d3(s.center) - dt.a), double(s.radius)});
                        band = bandOf(sc);
                    }
                }
                const bool ref = best <= double(s.radius);
                if (ref != any) {
                    ASSERT_LE(std::fabs(best - double(s.radius)), band)
                        << m.name << " seed " << seed << " query " << i;
                    ++forgiven;
                }
            }
        }
    }
    std::printf("[sphere] %ld queries (any + all), %ld hit, %ld contacts, %ld overflowed buffers, "
                "%ld in-band disagreements with the double reference, 0 failures\n",
                queries, hits, contacts, overflow_checks, forgiven);
}

// Any-hit queries answer some triangles without the kernel: a plane farther than the radius
// grown by the walk margin says no, a vertex nearer than the radius shrunk by it says yes. Both
// shortcuts rest on the kernel flipping only within its band (a quarter of the margin), so they
// are probed exactly at their own boundaries: centres at r + f * margin from a face point along
// the normal, and at r - f * margin from a vertex, f from 0 to 2 across the boundary at 1, on
// every test mesh (slivers and zero-area triangles included), and far along the plane where the
// plane test's rounding is largest. The tree walk must still equal the brute-force kernel answer.
TEST(SphereQuery, AnyHitShortcutsAgreeWithTheKernelAtTheirBoundaries) {
    const float fractions[] = {0.0f, 0.5f, 0.9f, 0.99f, 0.999f, 1.0f, 1.001f, 1.01f, 1.1f, 2.0f};
    std::vector<MeshContact> brute;
    long checked = 0, hits = 0;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        SplitMix64 rng(0x5EED0103u ^ std::hash<std::string>{}(m.name));
        for (int i = 0; i < caseCount<int>(3000); ++i) {
            const std::uint32_t tri = static_cast<std::uint32_t>(rng.next() % m.tris.size());
            const float r = m.diag * static_cast<float>(0.001 + 0.05 * rng.u());
            Vec3 p, n, dir;
            pointOnTriangle(m, tri, rng, p);
            faceNormal(m, tri, n);
            randomUnit(rng, dir);
            const int kind = i % 3;
            Vec3 base = kind == 1 ? m.tris[tri][rng.next() % 3] : p;
            if (kind == 2) { // far along the plane: large |centre - a| against a small triangle
                Vec3 along;
                inPlaneUnit(dir, n, along);
                addScaled(base, along, m.diag * static_cast<float>(rng.u()), base);
            }
            // The walk margin of sphere_query.cpp: four bands at the larger of the mesh's and
            // the query's scale.
            const float mesh_scale = float(std::max(maxAbs(d3(m.bounds.min)), maxAbs(d3(m.bounds.max))));
            const float query_scale = std::max(float(maxAbs(d3(base))) + r, r);
            const float margin = 4.0f * kToleranceRelative * std::max(mesh_scale, query_scale);
            for (float f : fractions) {
                for (float sign : {1.0f, -1.0f}) {
                    Sphere s;
                    s.radius = r;
                    if (kind == 1) // a vertex at r - f * margin (inside the shrunk ball for f < 1)
                        addScaled(base, dir, r - sign * f * margin, s.center);
                    else // a face plane at r + f * margin, on either side
                        addScaled(base, n, sign * (r + f * margin), s.center);
                    bruteSphere(m, s, brute);
                    const bool any = sphereAnyHit(m.blob, s);
                    ASSERT_EQ(any, !brute.empty())
                        << m.name << " case " << i << " f " << f << " sign " << sign;
                    hits += any;
                    ++checked;
                }
            }
        }
    }
    std::printf("[sphere shortcuts] %ld queries at the shortcuts' boundaries, %ld hit, 0 disagreements "
                "with the brute-force kernel\n",
                checked, hits);
}

TEST(SphereQuery, NonFiniteAndInvalidSpheresHitNothing) {
    const BakedMesh& m = *queryMeshes()[0];
    const Sphere bad[] = {{{kNan, 0, 0}, 1.0f}, {{0, kInf, 0}, 1.0f}, {{0, 0, 0}, kNan},
                          {{0, 0, 0}, kInf},    {{0, 0, 0}, -1.0f},   {{-kInf, 0, 0}, 0.0f}};
    MeshContact item;
    for (const Sphere& s : bad) {
        EXPECT_FALSE(sphereAnyHit(m.blob, s));
        OutBuffer<MeshContact> out{&item, 1, 0, 0};
        EXPECT_EQ(sphereAllHits(m.blob, s, out), Status::Ok);
        EXPECT_EQ(out.count, 0u);
        EXPECT_EQ(out.dropped, 0u);
    }
    MeshBlob empty;
    EXPECT_FALSE(sphereAnyHit(empty, Sphere{{0, 0, 0}, 1.0f}));
}

// A mesh-space sphere placed in the world by `xf`, and the world sphere taken back into mesh space
// as the world-space query forms do (the two centres can differ by rounding).
void toWorldAndBack(const Transform& xf, const Sphere& local, Sphere& out_world, Sphere& out_back) {
    transformPoint(xf, local.center, out_world.center);
    out_world.radius = local.radius;
    inverseTransformPoint(xf, out_world.center, out_back.center);
    out_back.radius = out_world.radius;
}

TEST(SphereQuery, WorldSpaceFormsTransformTheQueryOnce) {
    SplitMix64 rng(0x5EED0102u);
    std::vector<MeshContact> a(4096), b(4096);
    long checked = 0;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        for (int i = 0; i < caseCount(2000); ++i) {
            Transform xf;
            randomTransform(rng, m.diag, xf);
            Sphere local;
            makeSphere(m, rng, i, local);
            Sphere world, back;
            toWorldAndBack(xf, local, world, back);
            ASSERT_EQ(sphereAnyHit(m.blob, xf, world), sphereAnyHit(m.blob, back));
            OutBuffer<MeshContact> wa{a.data(), 4096, 0, 0}, lb{b.data(), 4096, 0, 0};
            ASSERT_EQ(sphereAllHits(m.blob, xf, world, wa), sphereAllHits(m.blob, back, lb));
            ASSERT_EQ(wa.count, lb.count);
            for (std::uint32_t k = 0; k < wa.count; ++k) {
                Vec3 p, n;
                transformPoint(xf, b[k].contact.point, p);
                transformVector(xf, b[k].contact.normal, n);
                ASSERT_EQ(a[k].triangle, b[k].triangle);
                ASSERT_TRUE(sameBits(a[k].contact.point, p) && sameBits(a[k].contact.normal, n));
                ASSERT_EQ(a[k].contact.depth, b[k].contact.depth);
            }
            ++checked;
        }
    }
    std::printf("[sphere world] %ld transformed queries equal to their mesh-space form\n", checked);
}

// The deepest contact, as a caller of sphereAllHits would take it: the first of the greatest depth.
bool deepestOf(const std::vector<MeshContact>& contacts, MeshContact& out) {
    bool found = false;
    for (const MeshContact& c : contacts) {
        if (!found || c.contact.depth > out.contact.depth) {
            out = c;
            found = true;
        }
    }
    return found;
}

TEST(SphereQuery, DeepestHitIsTheDeepestOfAllHits) {
    long queries = 0, hits = 0, contacts = 0;
    std::vector<MeshContact> brute;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        const std::uint64_t seed = 0x5EED0103u ^ std::hash<std::string>{}(m.name);
        SplitMix64 rng(seed);
        for (int i = 0; i < kQueriesPerMesh / 2; ++i) {
            Sphere s;
            if (i % 4 == 3) { // deep: a large ball around a point inside the mesh's box, many contacts
                randomPointInQ(m, rng, s.center);
                s.radius = m.diag * static_cast<float>(0.05 + 0.3 * rng.u());
            } else {
                makeSphere(m, rng, i, s);
            }
            bruteSphere(m, s, brute);
            MeshContact expect;
            const bool want = deepestOf(brute, expect);
            MeshContact got;
            got.triangle = 0xDEADBEEFu;
            got.contact.depth = -123.0f;
            const bool have = sphereDeepestHit(m.blob, s, got);
            ++queries;
            contacts += static_cast<long>(brute.size());
            ASSERT_EQ(have, want) << m.name << " seed " << seed << " query " << i;
            if (!have) {
                ASSERT_TRUE(got.triangle == 0xDEADBEEFu && got.contact.depth == -123.0f)
                    << "out_hit written on a miss";
                continue;
            }
            ++hits;
            ASSERT_EQ(got.triangle, expect.triangle) << m.name << " seed " << seed << " query " << i;
            ASSERT_TRUE(sameBits(got.contact, expect.contact))
                << m.name << " seed " << seed << " query " << i;
            // The world-space form: the mesh-space answer, transformed.
            Transform xf;
            randomTransform(rng, m.diag, xf);
            Sphere world, back;
            toWorldAndBack(xf, s, world, back);
            MeshContact wa, lb;
            const bool wa_hit = sphereDeepestHit(m.blob, xf, world, wa);
            ASSERT_EQ(wa_hit, sphereDeepestHit(m.blob, back, lb));
            if (wa_hit) {
                Vec3 p, n;
                transformPoint(xf, lb.contact.point, p);
                transformVector(xf, lb.contact.normal, n);
                ASSERT_EQ(wa.triangle, lb.triangle);
                ASSERT_TRUE(sameBits(wa.contact.point, p) && sameBits(wa.contact.normal, n));
                ASSERT_EQ(wa.contact.depth, lb.contact.depth);
            }
        }
    }
    const Sphere bad[] = {{{kNan, 0, 0}, 1.0f}, {{0, kInf, 0}, 1.0f}, {{0, 0, 0}, kNan}, {{0, 0, 0}, -1.0f}};
    MeshContact out;
    for (const Sphere& b : bad) EXPECT_FALSE(sphereDeepestHit(queryMeshes()[0]->blob, b, out));
    MeshBlob empty;
    EXPECT_FALSE(sphereDeepestHit(empty, Sphere{{0, 0, 0}, 1.0f}, out));
    std::printf("[sphere deepest] %ld queries, %ld hit, the deepest of %ld contacts each time\n", queries,
                hits, contacts);
}

// ---- segments -----------------------------------------------------------------------------------

bool bruteSegment(const BakedMesh& m, const Vec3& p0, const Vec3& p1, SegmentTest test, bool closest,
                  MeshRayHit& out) {
    bool found = false;
    WatertightRay ray;
    Vec3 d;
    sub(p1, p0, d);
    if (!isFinite(p0) || !isFinite(p1) || !isFinite(d) || (d.x == 0.0f && d.y == 0.0f && d.z == 0.0f))
        return false;
    if (test == SegmentTest::Watertight && !makeWatertightRay(p0, d, 1.0f, ray)) return false;
    Aabb q;
    min(p0, p1, q.min);
    max(p0, p1, q.max);
    const float scale = sceneScale(m, std::max(float(maxAbs(d3(p0))), float(maxAbs(d3(p1)))));
    for (std::uint32_t t = 0; t < m.tris.size(); ++t) {
        if (!nearBox(m.boxes[t], q, scale)) continue;
        RayHit h;
        const auto& v = m.tris[t];
        const bool hit = test == SegmentTest::Watertight ? rayTriangleWatertight(ray, v[0], v[1], v[2], h)
                                                         : segmentTriangle(p0, p1, v[0], v[1], v[2], h);
        if (!hit) continue;
        if (!found || h.t < out.hit.t) {
            out.hit = h;
            out.triangle = t;
            found = true;
            if (!closest) return true;
        }
    }
    return found;
}

void makeSegment(const BakedMesh& m, SplitMix64& rng, int i, Vec3& p0, Vec3& p1) {
    const std::uint32_t tri = static_cast<std::uint32_t>(rng.next() % m.tris.size());
    Vec3 dir, p;
    randomUnit(rng, dir);
    const float len = m.diag * static_cast<float>(0.02 + 0.18 * rng.u());
    switch (i % 10) {
    case 0:
    case 1:
    case 2: // the benchmark scene
        randomPointInQ(m, rng, p0);
        addScaled(p0, dir, len, p1);
        break;
    case 3: // through a vertex, an edge point or a face point
        pointOnTriangle(m, tri, rng, p);
        addScaled(p, dir, -len, p0);
        addScaled(p, dir, len, p1);
        break;
    case 4: { // along an edge, overshooting both ends
        const auto& v = m.tris[tri];
        Vec3 e;
        sub(v[1], v[0], e);
        addScaled(v[0], e, -0.5f, p0);
        addScaled(v[1], e, 0.5f, p1);
        break;
    }
    case 5: // ending exactly on the surface (t = 1) or starting on it
        pointOnTriangle(m, tri, rng, p);
        if (rng.next() & 1) {
            p1 = p;
            addScaled(p, dir, len, p0);
        } else {
            p0 = p;
            addScaled(p, dir, len, p1);
        }
        break;
    case 6: // long, through the whole mesh from far away
        addScaled(m.center, dir, m.diag * 2.0f, p0);
        addScaled(m.center, dir, -m.diag * 2.0f, p1);
        break;
    case 8: { // grazing: parallel to a face, a hair off it (either side) or exactly in its plane
        Vec3 n, along;
        pointOnTriangle(m, tri, rng, p);
        faceNormal(m, tri, n);
        inPlaneUnit(dir, n, along);
        const std::uint64_t side = rng.next() % 3;
        addScaled(p, n, side == 2 ? 0.0f : (side == 0 ? 1e-6f : -1e-6f) * m.diag, p);
        addScaled(p, along, -0.5f * len, p0);
        addScaled(p, along, 0.5f * len, p1);
        break;
    }
    case 9: // wholly inside: a short segment about the mesh centre (inside the closed meshes)
        addScaled(m.center, dir, -0.01f * m.diag, p0);
        addScaled(m.center, dir, 0.01f * m.diag, p1);
        break;
    default: // tiny segments on the surface, and far-away ones
        pointOnTriangle(m, tri, rng, p);
        if (rng.next() & 1) {
            addScaled(p, dir, -m.diag * 1e-7f, p0);
            addScaled(p, dir, m.diag * 1e-7f, p1);
        } else {
            addScaled(m.center, dir, m.diag * 1e3f, p0);
            addScaled(p0, dir, len, p1);
        }
        break;
    }
}

TEST(SegmentQuery, MatchesBruteForceOnEveryMesh) {
    long queries = 0, closest_hits = 0, any_hits = 0;
    for (const SegmentTest test : {SegmentTest::Watertight, SegmentTest::Fast}) {
        for (const auto& mp : queryMeshes()) {
            const BakedMesh& m = *mp;
            const std::uint64_t seed =
                0x5EED0201u ^ std::hash<std::string>{}(m.name) ^ static_cast<unsigned>(test);
            SplitMix64 rng(seed);
            for (int i = 0; i < kQueriesPerMesh / 2; ++i) {
                Vec3 p0, p1;
                makeSegment(m, rng, i, p0, p1);
                MeshRayHit tree, brute;
                const bool hit = segmentClosestHit(m.blob, p0, p1, tree, test);
                const bool ref = bruteSegment(m, p0, p1, test, true, brute);
                ASSERT_EQ(hit, ref) << m.name << " seed " << seed << " query " << i;
                if (hit) {
                    ASSERT_EQ(tree.triangle, brute.triangle) << m.name << " seed " << seed << " query " << i;
                    ASSERT_TRUE(sameBits(tree.hit, brute.hit)) << m.name << " query " << i;
                }
                const bool any = segmentAnyHit(m.blob, p0, p1, tree, test);
                const bool any_ref = bruteSegment(m, p0, p1, test, false, brute);
                ASSERT_EQ(any, any_ref) << m.name << " seed " << seed << " query " << i;
                ASSERT_EQ(any, hit);
                if (any) {
                    ASSERT_EQ(tree.triangle, brute.triangle) << m.name << " query " << i;
                    ASSERT_TRUE(sameBits(tree.hit, brute.hit)) << m.name << " query " << i;
                }
                queries += 2;
                closest_hits += hit;
                any_hits += any;
            }
        }
    }
    std::printf("[segment] %ld queries (closest + any, watertight + fast), %ld closest hits, %ld any hits, "
                "0 disagreements\n",
                queries, closest_hits, any_hits);
}

TEST(SegmentQuery, WatertightOnClosedMeshes) {
    // A segment from far outside to the interior must hit a closed mesh, even through vertices
    // and edges shared by several triangles.
    long queries = 0;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        if (!m.closed) continue;
        SplitMix64 rng(0x5EED0202u);
        for (int i = 0; i < caseCount(20000); ++i) {
            const std::uint32_t tri = static_cast<std::uint32_t>(rng.next() % m.tris.size());
            Vec3 p, inner, p0, dir;
            pointOnTriangle(m, tri, rng, p);
            // An interior point: the icosphere's centre; for the torus the tube's centre line.
            if (m.name.rfind("torus", 0) == 0) {
                const float rxy = std::sqrt(p.x * p.x + p.y * p.y);
                set(p.x * 2.0f / rxy, p.y * 2.0f / rxy, 0.0f, inner);
            } else {
                inner = m.center;
            }
            sub(p, inner, dir);
            addScaled(inner, dir, 1.5f + static_cast<float>(rng.u()), p0);
            MeshRayHit hit;
            ASSERT_TRUE(segmentClosestHit(m.blob, p0, inner, hit)) << m.name << " query " << i;
            ++queries;
        }
    }
    std::printf(
        "[segment watertight] %ld segments through vertices/edges/faces into closed meshes, all hit\n",
        queries);
}

TEST(SegmentQuery, NonFiniteAndDegenerateSegmentsHitNothing) {
    const BakedMesh& m = *queryMeshes()[0];
    MeshRayHit hit;
    hit.triangle = 12345;
    const Vec3 o{0, 0, 0}, far{10, 0, 0};
    EXPECT_FALSE(segmentClosestHit(m.blob, Vec3{kNan, 0, 0}, far, hit));
    EXPECT_FALSE(segmentClosestHit(m.blob, o, Vec3{kInf, 0, 0}, hit));
    EXPECT_FALSE(segmentAnyHit(m.blob, Vec3{0, -kInf, 0}, far, hit));
    EXPECT_FALSE(segmentClosestHit(m.blob, Vec3{3e38f, 0, 0}, Vec3{-3e38f, 0, 0}, hit)); // overflows
    EXPECT_FALSE(segmentClosestHit(m.blob, m.tris[0][0], m.tris[0][0], hit, SegmentTest::Fast));
    EXPECT_EQ(hit.triangle, 12345u);
}

// Segments near the origin too short for their squared length (it underflows to 0 below about
// 1e-23) are not zero-length: the kernels test them, and so must the walks. A square in z = 0
// crossed by segments of length 2e-30 to 2e-20 through points near the origin.
TEST(SegmentQuery, SegmentsTooShortToSquareStillHit) {
    Mesh square;
    square.positions = {Vec3{-1, -1, 0}, Vec3{1, -1, 0}, Vec3{1, 1, 0}, Vec3{-1, 1, 0}};
    square.indices = {0, 1, 2, 0, 2, 3};
    const auto m = bakeMesh("square", square, false);
    SplitMix64 rng(0x5EED0204u);
    int hits = 0;
    for (const float h : {1e-30f, 1e-25f, 1e-20f}) {
        for (int i = 0; i < 100; ++i) {
            const float x = h * rng.rangef(-4.0f, 4.0f), y = h * rng.rangef(-4.0f, 4.0f);
            const Vec3 p0{x, y, -h}, p1{x, y, h};
            for (const SegmentTest test : {SegmentTest::Watertight, SegmentTest::Fast}) {
                MeshRayHit tree, brute;
                ASSERT_TRUE(bruteSegment(*m, p0, p1, test, true, brute)) << h << " query " << i;
                ASSERT_TRUE(segmentClosestHit(m->blob, p0, p1, tree, test)) << h << " query " << i;
                EXPECT_EQ(tree.triangle, brute.triangle);
                EXPECT_TRUE(sameBits(tree.hit, brute.hit)) << h << " query " << i;
                EXPECT_EQ(tree.hit.t, 0.5f);
                ASSERT_TRUE(segmentAnyHit(m->blob, p0, p1, tree, test)) << h << " query " << i;
                hits += 2;
            }
        }
    }
    std::printf("[segment tiny] %d hits of segments 2e-30 to 2e-20 long, all found\n", hits);
}

TEST(SegmentQuery, WorldSpaceFormsTransformTheQueryOnce) {
    SplitMix64 rng(0x5EED0203u);
    long checked = 0;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        for (int i = 0; i < caseCount(2000); ++i) {
            Transform xf;
            randomTransform(rng, m.diag, xf);
            Vec3 l0, l1, w0, w1, b0, b1;
            makeSegment(m, rng, i, l0, l1);
            transformPoint(xf, l0, w0);
            transformPoint(xf, l1, w1);
            inverseTransformPoint(xf, w0, b0);
            inverseTransformPoint(xf, w1, b1);
            // Closest hit, any hit, and the swept sphere with the segment as its centre path.
            const float r = (i % 3 == 0) ? 0.0f : m.diag * static_cast<float>(0.02 * rng.u());
            for (int form = 0; form < 3; ++form) {
                MeshRayHit a, b;
                bool ha = false, hb = false;
                if (form == 0) {
                    ha = segmentClosestHit(m.blob, xf, w0, w1, a);
                    hb = segmentClosestHit(m.blob, b0, b1, b);
                } else if (form == 1) {
                    ha = segmentAnyHit(m.blob, xf, w0, w1, a);
                    hb = segmentAnyHit(m.blob, b0, b1, b);
                } else {
                    ha = sweptSphereFirstHit(m.blob, xf, w0, w1, r, a);
                    hb = sweptSphereFirstHit(m.blob, b0, b1, r, b);
                }
                ASSERT_EQ(ha, hb) << m.name << " query " << i << " form " << form;
                if (ha) {
                    Vec3 p, n;
                    transformPoint(xf, b.hit.point, p);
                    transformVector(xf, b.hit.normal, n);
                    ASSERT_EQ(a.triangle, b.triangle);
                    ASSERT_EQ(a.hit.t, b.hit.t);
                    ASSERT_TRUE(sameBits(a.hit.point, p) && sameBits(a.hit.normal, n)) << form;
                }
                ++checked;
            }
        }
    }
    std::printf("[segment world] %ld transformed queries (closest hit, any hit, swept sphere) equal to their "
                "mesh-space form\n",
                checked);
}

// ---- swept spheres ------------------------------------------------------------------------------

bool bruteSwept(const BakedMesh& m, const Vec3& c0, const Vec3& c1, float r, MeshRayHit& out) {
    bool found = false;
    Aabb q;
    min(c0, c1, q.min);
    max(c0, c1, q.max);
    inflate(q, r, q);
    const float scale = sceneScale(m, std::max(std::max(float(maxAbs(d3(c0))), float(maxAbs(d3(c1)))), r));
    for (std::uint32_t t = 0; t < m.tris.size(); ++t) {
        if (!nearBox(m.boxes[t], q, scale)) continue;
        RayHit h;
        const auto& v = m.tris[t];
        if (!sweptSphereTriangle(c0, c1, r, v[0], v[1], v[2], h)) continue;
        if (!found || h.t < out.hit.t) {
            out.hit = h;
            out.triangle = t;
            found = true;
        }
    }
    return found;
}

TEST(SweptQuery, MatchesBruteForceOnEveryMesh) {
    long queries = 0, hits = 0, initial = 0;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        const std::uint64_t seed = 0x5EED0301u ^ std::hash<std::string>{}(m.name);
        SplitMix64 rng(seed);
        for (int i = 0; i < kQueriesPerMesh; ++i) {
            Vec3 c0, c1;
            makeSegment(m, rng, i, c0, c1);
            float r = m.diag * static_cast<float>(0.03 * rng.u());
            switch (i % 5) {
            case 0: r = 0.0f; break;           // a segment
            case 1: c1 = c0; break;            // a static sphere
            case 2: r = m.diag * 1e-6f; break; // tiny
            default: break;
            }
            if (i % 97 == 0) r = m.diag * 5.0f; // huge
            if (i % 11 == 4 || i % 11 == 7) {   // touching at the end, or grazing along a face
                const std::uint32_t tri = static_cast<std::uint32_t>(rng.next() % m.tris.size());
                Vec3 p, n, dir, along;
                pointOnTriangle(m, tri, rng, p);
                faceNormal(m, tri, n);
                r = m.diag * static_cast<float>(0.001 + 0.03 * rng.u());
                const float len = m.diag * static_cast<float>(0.02 + 0.18 * rng.u());
                if (i % 11 == 4) { // along the normal, ending exactly r from the face point
                    addScaled(p, n, r, c1);
                    addScaled(c1, n, len, c0);
                } else { // parallel to the face at r (1 +- 1e-6) from it
                    randomUnit(rng, dir);
                    inPlaneUnit(dir, n, along);
                    addScaled(p, n, r * (1.0f + ((rng.next() & 1) ? 1e-6f : -1e-6f)), p);
                    addScaled(p, along, -0.5f * len, c0);
                    addScaled(p, along, 0.5f * len, c1);
                }
            }
            if (i % 11 == 9) { // starting wholly inside a closed mesh, far from its surface
                c0 = m.center;
                r = m.diag * 0.01f;
            }
            MeshRayHit tree, brute;
            const bool hit = sweptSphereFirstHit(m.blob, c0, c1, r, tree);
            const bool ref = bruteSwept(m, c0, c1, r, brute);
            ASSERT_EQ(hit, ref) << m.name << " seed " << seed << " query " << i;
            if (hit) {
                ASSERT_EQ(tree.triangle, brute.triangle) << m.name << " seed " << seed << " query " << i;
                ASSERT_TRUE(sameBits(tree.hit, brute.hit)) << m.name << " query " << i;
                initial += tree.hit.t == 0.0f;
            }
            // A limit past the first contact finds the same contact; one at or before it finds
            // nothing earlier than the limit (a caller holding a hit there keeps its own).
            const float t_first = hit ? brute.hit.t : 1.0f;
            const float limits[3] = {t_first + 0.5f * (1.0f - t_first), t_first, 0.5f * t_first};
            for (int k = 0; k < 3; ++k) {
                MeshRayHit limited;
                const bool got = sweptSphereFirstHit(m.blob, c0, c1, r, limited, limits[k]);
                if (hit && limits[k] > t_first) {
                    ASSERT_TRUE(got) << m.name << " query " << i << " limit " << limits[k];
                    ASSERT_EQ(limited.triangle, brute.triangle) << m.name << " query " << i;
                    ASSERT_TRUE(sameBits(limited.hit, brute.hit)) << m.name << " query " << i;
                } else if (got) {
                    ASSERT_GE(limited.hit.t, limits[k]) << m.name << " query " << i << " limit " << k;
                }
                ASSERT_TRUE(hit || !got) << m.name << " query " << i;
            }
            ++queries;
            hits += hit;
        }
    }
    std::printf("[swept] %ld swept-sphere queries, %ld hit (%ld at t = 0), 0 disagreements\n", queries, hits,
                initial);
}

TEST(SweptQuery, NonFiniteAndInvalidSweepsHitNothing) {
    const BakedMesh& m = *queryMeshes()[0];
    MeshRayHit hit;
    const Vec3 o{0, 0, 0}, far{10, 0, 0};
    EXPECT_FALSE(sweptSphereFirstHit(m.blob, Vec3{kNan, 0, 0}, far, 0.1f, hit));
    EXPECT_FALSE(sweptSphereFirstHit(m.blob, o, Vec3{0, kInf, 0}, 0.1f, hit));
    EXPECT_FALSE(sweptSphereFirstHit(m.blob, o, far, kNan, hit));
    EXPECT_FALSE(sweptSphereFirstHit(m.blob, o, far, -1.0f, hit));
    EXPECT_FALSE(sweptSphereFirstHit(m.blob, o, far, kInf, hit));
    Transform xf;
    setIdentity(xf);
    EXPECT_TRUE(sweptSphereFirstHit(m.blob, xf, o, far, 0.0f, hit));
    EXPECT_EQ(hit.hit.t >= 0.0f && hit.hit.t <= 1.0f, true);
}

// ---- boxes --------------------------------------------------------------------------------------

void randomRotation(SplitMix64& rng, Mat33& out) {
    Transform xf;
    randomTransform(rng, 0.0f, xf);
    out = xf.rotation;
}

TEST(BoxQuery, MatchesBruteForceOnEveryMesh) {
    long queries = 0, ids = 0, overflowed = 0;
    std::vector<std::uint32_t> buf(20000), brute;
    for (const auto& mp : queryMeshes()) {
        const BakedMesh& m = *mp;
        const std::uint64_t seed = 0x5EED0401u ^ std::hash<std::string>{}(m.name);
        SplitMix64 rng(seed);
        for (int i = 0; i < kQueriesPerMesh; ++i) {
            Obb box;
            const std::uint32_t tri = static_cast<std::uint32_t>(rng.next() % m.tris.size());
            if (i % 4 == 1)
                pointOnTriangle(m, tri, rng, box.center);
            else
                randomPointInQ(m, rng, box.center);
            for (int k = 0; k < 3; ++k) box.halfExtents[k] = m.diag * static_cast<float>(0.1 * rng.u());
            if (i % 4 == 2) { // touching: a face of the box exactly through a vertex
                const Vec3& v = m.tris[tri][rng.next() % 3];
                box.center = v;
                box.center.x += box.halfExtents.x;
            }
            if (i % 50 == 0) set(m.diag, m.diag, m.diag, box.halfExtents); // everything
            if (i % 50 == 1) set(0.0f, 0.0f, 0.0f, box.halfExtents);       // a point
            if (i % 9 == 3) {                                              // far away
                Vec3 dir;
                randomUnit(rng, dir);
                addScaled(m.center, dir, m.diag * ((i & 2) != 0 ? 2.0f : 1e4f), box.center);
            }
            if (i % 9 == 5) { // grazing: a box face a hair short of, or past, the mesh's extreme vertex in x
                box.center.x = m.bounds.max.x + box.halfExtents.x + ((i & 2) != 0 ? 1e-6f : -1e-6f) * m.diag;
            }
            const bool oriented = (i & 1) != 0;
            if (oriented) randomRotation(rng, box.rotation);
            Aabb aabb;
            boundingAabb(box, aabb);
            // Brute force.
            brute.clear();
            for (std::uint32_t t = 0; t < m.tris.size(); ++t) {
                const auto& v = m.tris[t];
                if (oriented ? triangleObbOverlap(v[0], v[1], v[2], box)
                             : triangleAabbOverlap(v[0], v[1], v[2], aabb))
                    brute.push_back(t);
            }
            OutBuffer<std::uint32_t> out{buf.data(), static_cast<std::uint32_t>(buf.size()), 0, 0};
            if (i % 5 == 0) out.capacity = static_cast<std::uint32_t>(rng.next() % 8);
            const Status st =
                oriented ? obbOverlapTriangles(m.blob, box, out) : aabbOverlapTriangles(m.blob, aabb, out);
            ASSERT_EQ(out.count + out.dropped, brute.size()) << m.name << " seed " << seed << " query " << i;
            ASSERT_EQ(out.count, std::min<std::size_t>(brute.size(), out.capacity));
            ASSERT_EQ(st, brute.size() > out.capacity ? Status::BufferFull : Status::Ok);
            for (std::uint32_t k = 0; k < out.count; ++k)
                ASSERT_EQ(buf[k], brute[k]) << m.name << " seed " << seed << " query " << i;
            ++queries;
            ids += static_cast<long>(brute.size());
            overflowed += out.dropped > 0;
        }
    }
    std::printf("[box] %ld AABB/OBB queries, %ld triangle ids, %ld overflowed buffers, 0 disagreements\n",
                queries, ids, overflowed);
}

TEST(BoxQuery, NonFiniteBoxesGiveNothingAndWorldFormMatches) {
    const BakedMesh& m = *queryMeshes()[1];
    std::uint32_t item = 0;
    OutBuffer<std::uint32_t> out{&item, 1, 0, 0};
    EXPECT_EQ(aabbOverlapTriangles(m.blob, Aabb{{kNan, 0, 0}, {1, 1, 1}}, out), Status::Ok);
    EXPECT_EQ(aabbOverlapTriangles(m.blob, Aabb{{1, 1, 1}, {0, 0, 0}}, out), Status::Ok); // inverted
    Obb bad;
    bad.halfExtents = Vec3{-1, 1, 1};
    EXPECT_EQ(obbOverlapTriangles(m.blob, bad, out), Status::Ok);
    bad.halfExtents = Vec3{1, kInf, 1};
    EXPECT_EQ(obbOverlapTriangles(m.blob, bad, out), Status::Ok);
    EXPECT_EQ(out.count + out.dropped, 0u);

    SplitMix64 rng(0x5EED0402u);
    std::vector<std::uint32_t> a(4096), b(4096);
    for (int i = 0; i < 2000; ++i) {
        Transform xf;
        randomTransform(rng, m.diag, xf);
        Obb world, local;
        randomPointInQ(m, rng, world.center);
        for (int k = 0; k < 3; ++k) world.halfExtents[k] = m.diag * static_cast<float>(0.2 * rng.u());
        randomRotation(rng, world.rotation);
        inverseTransformPoint(xf, world.center, local.center);
        local.halfExtents = world.halfExtents;
        mulTransposed(xf.rotation, world.rotation, local.rotation);
        OutBuffer<std::uint32_t> wa{a.data(), 4096, 0, 0}, lb{b.data(), 4096, 0, 0};
        ASSERT_EQ(obbOverlapTriangles(m.blob, xf, world, wa), obbOverlapTriangles(m.blob, local, lb));
        ASSERT_EQ(wa.count, lb.count);
        ASSERT_TRUE(std::equal(a.begin(), a.begin() + wa.count, b.begin()));
    }
}

} // namespace
} // namespace flak::test

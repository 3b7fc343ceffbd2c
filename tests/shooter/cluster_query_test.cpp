// Sphere clusters: cluster vs mesh / cluster / bullets / segment / sweep against brute force
// (every sphere alone with the per-sphere kernels), segmentSphere against a double reference, the
// cluster blob section, and wall contacts of a cluster against every sphere alone.
#include "shooter/shooter_scenes.h"
#include "support/case_count.h"
#include "support/wall_brute_force.h"

#include <flak/bvh/sphere_query.h>
#include <flak/geom/sphere_sphere.h>

#include "flak_support/polygon_families.h"

#include <cfloat>
#include <cmath>
#include <cstring>

namespace flak::test {
namespace {

struct MeshCase {
    std::unique_ptr<AlignedBytes> bytes;
    Blob whole;    ///< the opened container
    MeshBlob blob; ///< its mesh
};

MeshCase bakeMesh(const Mesh& m, const std::vector<Sphere>& cluster = {}) {
    MeshCase c;
    BakeSettings settings;
    settings.write.cluster = cluster;
    c.bytes = std::make_unique<AlignedBytes>(bakeBytes(m, settings));
    EXPECT_EQ(openBlob(c.bytes->data(), c.bytes->size(), c.whole), Status::Ok);
    EXPECT_EQ(loadMeshBlob(c.whole, c.blob), Status::Ok);
    return c;
}

TEST(SegmentSphere, MatchesDoubleReference) {
    const std::uint64_t seed = 0x5E95u + oracleSeedOffset();
    OracleTally tally("segment vs sphere", seed);
    for (int i = 0; i < caseCount(100000); ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const double s = rng.u() < 0.2 ? 1e4 : 5.0;
        const Sphere sp{Vec3{rng.rangef(-s, s), rng.rangef(-s, s), rng.rangef(-s, s)},
                        rng.u() < 0.03 ? 0.0f : rng.rangef(0, s)};
        const Vec3 p0{rng.rangef(-2 * s, 2 * s), rng.rangef(-2 * s, 2 * s), rng.rangef(-2 * s, 2 * s)};
        Vec3 p1{rng.rangef(-2 * s, 2 * s), rng.rangef(-2 * s, 2 * s), rng.rangef(-2 * s, 2 * s)};
        if (rng.u() < 0.03) p1 = p0;
        RayHit h;
        const bool got = segmentSphere(p0, p1, sp, h);
        // Reference: closest approach of the segment to the centre (double).
        const D3 a = d3(p0), b = d3(p1), c = d3(sp.center), d = b - a;
        const double dd = dot(d, d);
        double t = dd > 0 ? std::clamp(dot(c - a, d) / dd, 0.0, 1.0) : 0.0;
        const double dist = len(a + d * t - c);
        const bool ref = dist <= sp.radius;
        const double scale = maxAbs(p0, p1, sp.center, sp.radius);
        const float in[] = {p0.x, p0.y,        p0.z,        p1.x,        p1.y,
                            p1.z, sp.center.x, sp.center.y, sp.center.z, sp.radius};
        tally.decide(std::uint64_t(i), got, ref, dist - sp.radius, scale, [&] { return hexInputs(in, 10); });
        if (got && ref) {
            const double gap = len(d3(h.point) - c) - sp.radius;
            const bool start_inside = len(a - c) <= sp.radius;
            if (!start_inside)
                tally.check(std::uint64_t(i), std::fabs(gap), 4 * bandOf(scale), in, 10,
                            "point on the sphere");
            tally.check(std::uint64_t(i), std::fabs(len(d3(h.normal)) - 1.0), 1e-6, in, 10, "unit normal");
        }
    }
    EXPECT_EQ(tally.failures, 0);
}

// A ball of radius 0 is a point: a segment the kernel finds through it hits at the point, with
// the normal against the segment. What lies between the point found and the centre is rounding
// (about 1e-16 in double), and its direction was the normal: along the segment for these.
TEST(SegmentSphere, RadiusZeroFacesAgainstTheSegment) {
    const Vec3 cases[][3] = {
        {{-0x1.323f2p+2f, 0x1.b0198ep+1f, 0x1.210bd0p-1f},
         {0x1.6c4608p+0f, -0x1.920a3cp+1f, 0x1.3b3a50p+2f},
         {0x1.1b626cp-1f, -0x1.1d3740p+1f, 0x1.1423a8p+2f}},
        {{0x1.4bab30p+1f, 0x1.0088dcp+0f, 0x1.b4a632p+1f},
         {-0x1.51a4bep+0f, -0x1.98deacp+0f, -0x1.0b3e94p+1f},
         {-0x1.99dddcp-1f, -0x1.40a680p+0f, -0x1.5bd820p+0f}},
        {{-0x1.17b3dap+2f, 0x1.089226p+2f, 0x1.2cae36p+2f},
         {0x1.2cab76p+2f, -0x1.f174ccp+1f, -0x1.6c8d78p+1f},
         {0x1.3b6bfap+0f, -0x1.a463dap-1f, 0x1.273ac0p-5f}},
    };
    for (const auto& c : cases) {
        RayHit h;
        ASSERT_TRUE(segmentSphere(c[0], c[1], Sphere{c[2], 0.0f}, h));
        Vec3 d;
        sub(c[1], c[0], d);
        EXPECT_LT(dot(h.normal, d), 0.0f);
        EXPECT_NEAR(length(h.normal), 1.0f, 1e-6f);
    }
}

TEST(ClusterQuery, ClusterVsMeshMatchesEverySphereAlone) {
    const std::uint64_t seed = 0xC1A5u + oracleSeedOffset();
    OracleTally tally("cluster vs mesh", seed);
    const MeshCase meshes[] = {bakeMesh(icosphere(3, 2.0f)), bakeMesh(torus(24, 12)),
                               bakeMesh(terrain(16, 8.0f))};
    long contacts = 0;
    for (int i = 0; i < 3000; ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const MeshBlob& mesh = meshes[i % 3].blob;
        const std::vector<Sphere> spheres =
            randomSpheres(rng, 1 + std::uint32_t(rng.u() * 40), 1.5, 0.01, 0.6);
        SphereCluster cluster;
        ASSERT_EQ(makeSphereCluster(spheres.data(), std::uint32_t(spheres.size()), cluster), Status::Ok);
        const double far = rng.u() < 0.2 ? 1e4 : 4.0;
        Transform cw = randomTransform(rng, 4.0), mw = randomTransform(rng, 2.0);
        if (far > 10) cw.translation.x += float(far), mw.translation.x += float(far);
        const bool any = clusterMeshAnyHit(cluster, cw, mesh, mw);
        MeshContact items[512];
        std::uint32_t ids[512];
        ClusterMeshBuffer buf{OutBuffer<MeshContact>{items, 512, 0, 0}, ids};
        ASSERT_EQ(clusterMeshContacts(cluster, cw, mesh, mw, buf), Status::Ok);
        // Brute force: every sphere alone, in order.
        bool brute_any = false;
        std::vector<MeshContact> brute;
        std::vector<std::uint32_t> brute_ids;
        for (std::uint32_t k = 0; k < cluster.count; ++k) {
            Sphere s;
            clusterWorldSphere(cluster, cw, k, s);
            brute_any |= sphereAnyHit(mesh, mw, s);
            MeshContact one[512];
            OutBuffer<MeshContact> b{one, 512, 0, 0};
            ASSERT_EQ(sphereAllHits(mesh, mw, s, b), Status::Ok);
            for (std::uint32_t j = 0; j < b.count; ++j) brute.push_back(one[j]), brute_ids.push_back(k);
        }
        tally.countOnly(brute_any);
        tally.require(std::uint64_t(i), any == brute_any, "any hit", [] { return std::string(); });
        tally.require(std::uint64_t(i), buf.hits.count == brute.size(), "contact count",
                      [] { return std::string(); });
        if (buf.hits.count == brute.size() && !brute.empty()) {
            tally.require(std::uint64_t(i),
                          std::memcmp(items, brute.data(), brute.size() * sizeof(MeshContact)) == 0,
                          "contacts", [] { return std::string(); });
            tally.require(std::uint64_t(i), std::memcmp(ids, brute_ids.data(), brute.size() * 4) == 0,
                          "sphere ids", [] { return std::string(); });
        }
        contacts += long(brute.size());
    }
    tally.note("contacts", contacts);
    EXPECT_EQ(tally.failures, 0);
}

TEST(ClusterQuery, ClusterVsClusterAndBulletsMatchEveryPair) {
    const std::uint64_t seed = 0xC1C1u + oracleSeedOffset();
    OracleTally tally("cluster vs cluster, bullets", seed);
    long pairs = 0;
    for (int i = 0; i < caseCount(4000); ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const auto sa = randomSpheres(rng, 1 + std::uint32_t(rng.u() * 64), 2.0, 0.0, 0.7);
        const auto sb = randomSpheres(rng, 1 + std::uint32_t(rng.u() * 64), 2.0, 0.0, 0.7);
        SphereCluster a, b;
        ASSERT_EQ(makeSphereCluster(sa.data(), std::uint32_t(sa.size()), a), Status::Ok);
        ASSERT_EQ(makeSphereCluster(sb.data(), std::uint32_t(sb.size()), b), Status::Ok);
        const double off = rng.u() < 0.3 ? 1e5 : 0.0;
        Transform ta = randomTransform(rng, 3.0), tb = randomTransform(rng, 3.0);
        ta.translation.y += float(off), tb.translation.y += float(off);
        std::vector<ClusterPair> brute;
        for (std::uint32_t x = 0; x < a.count; ++x)
            for (std::uint32_t y = 0; y < b.count; ++y) {
                Sphere wa, wb;
                clusterWorldSphere(a, ta, x, wa);
                clusterWorldSphere(b, tb, y, wb);
                ClusterPair p;
                if (sphereSphere(wa, wb, p.contact)) p.a = x, p.b = y, brute.push_back(p);
            }
        ClusterPair items[4096];
        OutBuffer<ClusterPair> buf{items, 4096, 0, 0};
        ASSERT_EQ(clusterClusterPairs(a, ta, b, tb, buf), Status::Ok);
        ClusterPair first;
        const bool any = clusterClusterAnyHit(a, ta, b, tb, &first);
        tally.countOnly(!brute.empty());
        tally.require(std::uint64_t(i), any == !brute.empty(), "any", [] { return std::string(); });
        tally.require(
            std::uint64_t(i),
            buf.count == brute.size() &&
                (brute.empty() || std::memcmp(items, brute.data(), brute.size() * sizeof(ClusterPair)) == 0),
            "pairs", [] { return std::string(); });
        if (any && !brute.empty())
            tally.require(std::uint64_t(i), std::memcmp(&first, &brute[0], sizeof first) == 0, "first pair",
                          [] { return std::string(); });
        pairs += long(brute.size());
        // Bullets: world spheres near the cluster.
        std::vector<Sphere> bullets = randomSpheres(rng, 1 + std::uint32_t(rng.u() * 50), 3.0, 0.0, 0.3);
        for (Sphere& s : bullets) add(s.center, ta.translation, s.center);
        if (rng.u() < 0.1) bullets[0].center.x = NAN;
        std::vector<ClusterPair> bb;
        for (std::uint32_t j = 0; j < bullets.size(); ++j)
            for (std::uint32_t x = 0; x < a.count; ++x) {
                Sphere wa;
                clusterWorldSphere(a, ta, x, wa);
                ClusterPair p;
                if (sphereSphere(wa, bullets[j], p.contact)) p.a = x, p.b = j, bb.push_back(p);
            }
        OutBuffer<ClusterPair> bbuf{items, 4096, 0, 0};
        ASSERT_EQ(clusterBullets(a, ta, bullets.data(), std::uint32_t(bullets.size()), bbuf), Status::Ok);
        tally.require(std::uint64_t(i),
                      bbuf.count == bb.size() &&
                          (bb.empty() || std::memcmp(items, bb.data(), bb.size() * sizeof(ClusterPair)) == 0),
                      "bullet pairs", [] { return std::string(); });
    }
    tally.note("pairs", pairs);
    EXPECT_EQ(tally.failures, 0);
    // Overflow is counted, never written past capacity.
    const auto s = randomSpheres(*std::make_unique<SplitMix64>(3), 20, 0.1, 1.0, 1.0);
    SphereCluster c;
    ASSERT_EQ(makeSphereCluster(s.data(), 20, c), Status::Ok);
    Transform id;
    setIdentity(id);
    ClusterPair few[5];
    OutBuffer<ClusterPair> small{few, 5, 0, 0};
    EXPECT_EQ(clusterClusterPairs(c, id, c, id, small), Status::BufferFull);
    EXPECT_EQ(small.count, 5u);
    EXPECT_EQ(small.dropped, 400u - 5u);
}

TEST(ClusterQuery, SegmentAndSweepMatchEverySphereAlone) {
    const std::uint64_t seed = 0x5E9Cu + oracleSeedOffset();
    OracleTally tally("cluster segment, sweep", seed);
    for (int i = 0; i < 20000; ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const auto sp = randomSpheres(rng, 1 + std::uint32_t(rng.u() * 64), 2.0, 0.0, 0.5);
        SphereCluster c;
        ASSERT_EQ(makeSphereCluster(sp.data(), std::uint32_t(sp.size()), c), Status::Ok);
        const Transform t = randomTransform(rng, 2.0);
        const Vec3 p0{rng.rangef(-5, 5), rng.rangef(-5, 5), rng.rangef(-5, 5)};
        const Vec3 p1{rng.rangef(-5, 5), rng.rangef(-5, 5), rng.rangef(-5, 5)};
        const float r = rng.u() < 0.3 ? 0.0f : rng.rangef(0, 0.5);
        ClusterRayHit seg, swp, want_seg, want_swp;
        const bool g1 = segmentClusterFirstHit(c, t, p0, p1, seg);
        const bool g2 = sweptSphereClusterFirstHit(c, t, p0, p1, r, swp);
        bool b1 = false, b2 = false;
        for (std::uint32_t k = 0; k < c.count; ++k) {
            Sphere w;
            clusterWorldSphere(c, t, k, w);
            RayHit h;
            if (segmentSphere(p0, p1, w, h) && (!b1 || h.t < want_seg.hit.t)) want_seg = {h, k}, b1 = true;
            const Sphere grown{w.center, w.radius + r};
            if (segmentSphere(p0, p1, grown, h) && (!b2 || h.t < want_swp.hit.t)) {
                addScaled(w.center, h.normal, w.radius, h.point);
                want_swp = {h, k}, b2 = true;
            }
        }
        tally.countOnly(b1);
        tally.require(std::uint64_t(i), g1 == b1 && (!g1 || std::memcmp(&seg, &want_seg, sizeof seg) == 0),
                      "segment", [] { return std::string(); });
        tally.require(std::uint64_t(i), g2 == b2 && (!g2 || std::memcmp(&swp, &want_swp, sizeof swp) == 0),
                      "sweep", [] { return std::string(); });
    }
    EXPECT_EQ(tally.failures, 0);
}

// A sweep whose radius dwarfs the cluster (an explosion-sized sweep past a ship) grazing the
// grown cluster: its answer is every grown sphere's. The bound test grew the bound by the
// radius in float with slack at the cluster's scale only, so the radius's rounding could leave a
// grown member poking out of the grown bound, and such grazing sweeps were missed.
TEST(ClusterQuery, SweepsOfRadiiFarBeyondTheClusterMatchEverySphereAlone) {
    const Sphere two[2] = {{{-0.5f, 0.0f, 0.0f}, 0.1f}, {{0.5f, 0.0f, 0.0f}, 0.1f}};
    SphereCluster c;
    ASSERT_EQ(makeSphereCluster(two, 2, c), Status::Ok);
    Transform t;
    setIdentity(t);
    Sphere bound;
    clusterWorldBound(c, t, bound);
    const auto check = [&](const Vec3& p0, const Vec3& p1, float r) {
        ClusterRayHit got;
        const bool g = sweptSphereClusterFirstHit(c, t, p0, p1, r, got);
        bool want = false;
        for (const Sphere& s : two) {
            RayHit h;
            want |= segmentSphere(p0, p1, Sphere{s.center, s.radius + r}, h);
        }
        return std::make_pair(g, want);
    };
    // Found by a review: the second sphere grown by the radius is hit at t = 0.49999.
    const auto found = check(Vec3{0x1.00020cp+12f, -0x1.42p+8f, 0.0f},
                             Vec3{0x1.00020ep+12f, 0x1.42p+8f, 0.0f}, 0x1.fff0e6p+11f);
    EXPECT_TRUE(found.second);
    EXPECT_EQ(found.first, found.second);
    // Radii at the top of float's range: the grown bound does not fit in a float, and the
    // members are tested without it (its sum, cast to float, was undefined and missed them).
    for (const float r : {FLT_MAX, std::nextafter(FLT_MAX, 0.0f)}) {
        const auto top = check(Vec3{0.0f, 10.0f, 0.0f}, Vec3{0.0f, 20.0f, 0.0f}, r);
        EXPECT_TRUE(top.second) << r;
        EXPECT_EQ(top.first, top.second) << r;
    }
    SplitMix64 rng(0x6A0E5u);
    long hits = 0, failures = 0;
    for (int k = 8; k <= 20; ++k) {
        for (int i = 0; i < 4000; ++i) {
            // A radius near 2^k, and a segment along y at x just beyond the grown members' reach.
            const float r = std::ldexp(1.0f + float(rng.u()), k - 1);
            float x0 = bound.radius + r, x1 = x0;
            for (int s = int(rng.u() * 6) - 2; s > 0; --s) x0 = std::nextafter(x0, INFINITY);
            for (int s = int(rng.u() * 6) - 2; s > 0; --s) x1 = std::nextafter(x1, INFINITY);
            const float y = float(100 + int(rng.u() * 5000));
            const auto [g, want] = check(Vec3{x0, -y, 0.0f}, Vec3{x1, y, 0.0f}, r);
            hits += want ? 1 : 0;
            failures += g != want ? 1 : 0;
        }
    }
    EXPECT_GT(hits, 1000);
    EXPECT_EQ(failures, 0);
}

TEST(ClusterQuery, ClusterWallsMatchEverySphereAlone) {
    const std::uint64_t seed = 0xC1EAu + oracleSeedOffset();
    OracleTally tally("cluster vs walls", seed);
    long pushes = 0, unsettled = 0;
    SplitMix64 lrng(seed);
    auto level = bakeLevel(randomPolygons(lrng, 5, 6.0, 0.0));
    const WallSet& w = level->walls;
    for (int i = 0; i < 2000; ++i) {
        SplitMix64 rng = caseRng(seed, std::uint64_t(i));
        const auto sp = randomSpheres(rng, 29, 1.5, 0.05, 0.6);
        SphereCluster c;
        ASSERT_EQ(makeSphereCluster(sp.data(), 29, c), Status::Ok);
        Transform t = randomTransform(rng, 1.0);
        t.translation.x += rng.rangef(0, 30), t.translation.y += rng.rangef(0, 30);
        WallContact items[1024];
        OutBuffer<WallContact> buf{items, 1024, 0, 0};
        WallPush push;
        ASSERT_EQ(clusterWalls(w, c, t, buf, push), Status::Ok);
        std::vector<WallContact> want;
        for (std::uint32_t k = 0; k < c.count; ++k) {
            Sphere s;
            clusterWorldSphere(c, t, k, s);
            WallContact one[256];
            OutBuffer<WallContact> b{one, 256, 0, 0};
            WallPush p1;
            ASSERT_EQ(circleWalls(w, Vec2{s.center.x, s.center.y}, s.radius, b, p1), Status::Ok);
            for (std::uint32_t j = 0; j < b.count; ++j) {
                one[j].sphere = k;
                want.push_back(one[j]);
            }
        }
        // The push by the documented rule, round by round, the cluster moved as one. Each sphere's
        // contacts are circleWalls' own (checked against every edge alone by the wall tests),
        // combined by the rule: outside, all of them in order; inside, the shallowest.
        const auto sphereRound = [&](const Sphere& s, Vec2& inout_push) {
            WallContact one[256];
            OutBuffer<WallContact> b{one, 256, 0, 0};
            WallPush p1;
            ASSERT_EQ(circleWalls(w, Vec2{s.center.x, s.center.y}, s.radius, b, p1), Status::Ok);
            bruteCirclePush(one, b.count, p1.inside != 0, inout_push);
        };
        bool settled = false;
        const Vec2 expect = bruteSettledPush(
            Vec2{t.translation.x, t.translation.y},
            [&](const Vec2& offset) {
                Transform moved = t;
                moved.translation.x += offset.x;
                moved.translation.y += offset.y;
                Vec2 round_push{0.0f, 0.0f};
                for (std::uint32_t k = 0; k < c.count; ++k) {
                    Sphere s;
                    clusterWorldSphere(c, moved, k, s);
                    sphereRound(s, round_push);
                }
                return round_push;
            },
            &settled);
        if (expect.x != 0.0f || expect.y != 0.0f) {
            ++pushes;
            unsettled += settled ? 0 : 1;
        }
        tally.countOnly(!want.empty());
        tally.require(
            std::uint64_t(i),
            buf.count == want.size() &&
                (want.empty() || std::memcmp(items, want.data(), want.size() * sizeof(WallContact)) == 0),
            "contacts", [] { return std::string(); });
        tally.require(std::uint64_t(i), std::memcmp(&expect, &push.push, 8) == 0, "push",
                      [] { return std::string(); });
    }
    tally.note("pushes", pushes);
    tally.note("pushes still inside after every round", unsettled);
    EXPECT_EQ(tally.failures, 0);
}

TEST(ClusterBlob, SectionRoundTripValidationAndSwap) {
    SplitMix64 rng(42);
    const auto spheres = randomSpheres(rng, 29, 1.0, 0.1, 0.3);
    MeshCase m = bakeMesh(icosphere(2), spheres);
    SphereCluster c;
    ASSERT_EQ(loadSphereCluster(m.whole, c), Status::Ok);
    ASSERT_EQ(c.count, 29u);
    EXPECT_EQ(std::memcmp(c.spheres, spheres.data(), 29 * sizeof(Sphere)), 0);
    for (const Sphere& s : spheres)
        EXPECT_LE(distanceSq(s.center, c.bound.center),
                  (c.bound.radius - s.radius) * (c.bound.radius - s.radius) * 1.0001f);
    // Refusals at load: a negative radius, resealed.
    std::vector<unsigned char> copy(m.bytes->data(), m.bytes->data() + m.bytes->size());
    const std::size_t at = blobSection(m.whole, SectionKind::SphereCluster).offset;
    const float neg = -1.0f;
    std::memcpy(copy.data() + at + 12, &neg, 4);
    const std::uint64_t sum = blobChecksum(copy.data(), copy.size());
    std::memcpy(copy.data() + offsetof(BlobHeader, checksum), &sum, 8);
    AlignedBytes bad(copy);
    Blob b;
    MeshBlob mesh;
    BlobError err;
    ASSERT_EQ(openBlob(bad.data(), bad.size(), b, &err), Status::Ok);
    ASSERT_EQ(loadMeshBlob(b, mesh, &err), Status::Ok); // the cluster is its room's
    EXPECT_EQ(loadSphereCluster(b, c, &err), Status::BlobCorrupt);
    EXPECT_NE(std::string(err.what).find("cluster"), std::string::npos);
    EXPECT_EQ(c.count, 0u);
    // Big-endian bake, swapped back: the same spheres.
    BakeSettings big;
    big.write.cluster = spheres;
    big.write.big_endian = true;
    AlignedBytes foreign(bakeBytes(icosphere(2), big));
    ASSERT_EQ(swapBlobByteOrder(foreign.data(), foreign.size()), Status::Ok);
    ASSERT_EQ(openBlob(foreign.data(), foreign.size(), b), Status::Ok);
    ASSERT_EQ(loadMeshBlob(b, mesh), Status::Ok);
    const BlobSection swapped = blobSection(b, SectionKind::SphereCluster);
    ASSERT_EQ(swapped.count, 29u);
    EXPECT_EQ(std::memcmp(swapped.data, spheres.data(), 29 * sizeof(Sphere)), 0);
    // makeSphereCluster refusals.
    Sphere bad_s[2] = {Sphere{Vec3{0, 0, 0}, 1.0f}, Sphere{Vec3{NAN, 0, 0}, 1.0f}};
    EXPECT_EQ(makeSphereCluster(bad_s, 2, c), Status::InvalidArgument);
    EXPECT_EQ(makeSphereCluster(bad_s, 0, c), Status::InvalidArgument);
    EXPECT_EQ(makeSphereCluster(nullptr, 1, c), Status::InvalidArgument);
    std::vector<Sphere> many(65, Sphere{Vec3{0, 0, 0}, 1.0f});
    EXPECT_EQ(makeSphereCluster(many.data(), 65, c), Status::InvalidArgument);
}

// What makeSphereCluster and loadSphereCluster make is valid; a view whose array, count, spheres
// or bound they would refuse or not compute is not, and a larger bound still is.
TEST(ClusterBlob, ValidityIsWhatTheMakersGive) {
    SplitMix64 rng(7);
    const auto spheres = randomSpheres(rng, 29, 1.0, 0.1, 0.3);
    SphereCluster made;
    ASSERT_EQ(makeSphereCluster(spheres.data(), 29, made), Status::Ok);
    EXPECT_TRUE(sphereClusterIsValid(made));
    MeshCase m = bakeMesh(icosphere(2), spheres);
    SphereCluster loaded;
    ASSERT_EQ(loadSphereCluster(m.whole, loaded), Status::Ok);
    EXPECT_TRUE(sphereClusterIsValid(loaded));
    const Sphere one{Vec3{3, -2, 1}, 0.0f};
    ASSERT_EQ(makeSphereCluster(&one, 1, made), Status::Ok); // a point: radius 0
    EXPECT_TRUE(sphereClusterIsValid(made));
    ASSERT_EQ(makeSphereCluster(spheres.data(), 29, made), Status::Ok);
    SphereCluster c = made;
    c.bound.radius *= 2.0f; // larger: still holds every sphere
    EXPECT_TRUE(sphereClusterIsValid(c));
    const auto refused = [&](void (*spoil)(SphereCluster&)) {
        SphereCluster bad = made;
        spoil(bad);
        return !sphereClusterIsValid(bad);
    };
    EXPECT_FALSE(sphereClusterIsValid(SphereCluster{}));
    const Sphere spread[2] = {Sphere{Vec3{-3e38f, 0, 0}, 1e38f}, Sphere{Vec3{3e38f, 0, 0}, 1e38f}};
    ASSERT_EQ(makeSphereCluster(spread, 2, c), Status::Ok); // the bound's radius rounds to infinity
    EXPECT_FALSE(sphereClusterIsValid(c));
    EXPECT_TRUE(refused([](SphereCluster& b) { b.spheres = nullptr; }));
    EXPECT_TRUE(refused([](SphereCluster& b) { b.count = 0; }));
    EXPECT_TRUE(refused([](SphereCluster& b) { b.bound.radius *= 0.5f; }));
    EXPECT_TRUE(refused([](SphereCluster& b) { b.bound.center.x += b.bound.radius; }));
    EXPECT_TRUE(refused([](SphereCluster& b) { b.bound.radius = NAN; }));
    EXPECT_TRUE(refused([](SphereCluster& b) { b.bound.radius = INFINITY; }));
    EXPECT_TRUE(refused([](SphereCluster& b) { b.bound.center.y = NAN; }));
    std::vector<Sphere> many(65, Sphere{Vec3{0, 0, 0}, 1.0f});
    c = made;
    c.spheres = many.data();
    c.count = 65;
    EXPECT_FALSE(sphereClusterIsValid(c));
    std::vector<Sphere> odd = spheres;
    odd[5].radius = -0.5f;
    c = made;
    c.spheres = odd.data();
    EXPECT_FALSE(sphereClusterIsValid(c));
    odd[5] = spheres[5];
    odd[7].center.z = NAN;
    EXPECT_FALSE(sphereClusterIsValid(c));
    odd[7] = spheres[7];
    EXPECT_TRUE(sphereClusterIsValid(c));
    odd[7].center.z += 10.0f; // a sphere moved out of the bound
    EXPECT_FALSE(sphereClusterIsValid(c));
}

} // namespace
} // namespace flak::test

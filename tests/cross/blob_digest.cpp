// The endian check of the cross build (tools/run cross): blobs baked on one machine must answer the
// same queries, bit for bit, on another of either byte order.
//   flak_blob_digest bake DIR              bake the test blobs, each little- and big-endian:
//                                          DIR/<name>.le.blob and DIR/<name>.be.blob
//   flak_blob_digest query FILE            load FILE (in this host's byte order) and print one line
//                                          per query kind: how many answered, and a hash of the answers
//   flak_blob_digest query --foreign FILE  FILE must be refused with BlobWrongEndian; it is then
//                                          swapped in place (swapBlobByteOrder), loaded and queried
// The queries come from a fixed integer generator and only exact float operations (no libm
// transcendental), so every machine asks the same questions; the answers' bits are hashed field
// by field (never struct bytes: no padding, no byte order in the hash).
#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh_build.h"
#include "cluster_fit.h"
#include "flak_support/mesh_gen.h"
#include "flak_support/split_mix.h"
#include "prepare.h"
#include "wall_build.h"

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/math/quat.h>
#include <flak/math/transform.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace flak;

// ---- baking (the host side) ---------------------------------------------------------------------

const char* kArenaLevel = "polygon outer\n-10 -10\n10 -10\n10 10\n-10 10\nhole\n-9 -9\n-9 9\n9 9\n9 -9\n"
                          "polygon crate\n0 0\n2 0\n2 1\n1 1\n1 2\n0 2\n"
                          "polygon pillar\n-5 -5\n-3 -5.5\n-2 -3\n-4 -2\n";

bool writeFile(const std::string& path, const std::vector<unsigned char>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

bool bakeOne(const std::string& dir, const std::string& name, const test::Mesh& mesh, bool cluster,
             bool walls) {
    bake::SourceMesh source;
    source.positions = mesh.positions;
    source.indices = mesh.indices;
    bake::BakeError err = bake::prepareMesh(source, bake::PrepareOptions{});
    const bake::BuiltTree tree = bake::buildBvh(source.positions, source.indices, bake::BuildOptions{});
    bake::WriteOptions write;
    write.source_ids = true;
    if (!err.failed() && cluster) {
        // The fit measures itself on the plain blob of the same mesh.
        std::vector<unsigned char> plain;
        bake::WriteOptions plain_write;
        plain_write.big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
        err = bake::writeBlob(source, tree, plain_write, plain);
        std::vector<unsigned char> aligned(plain.size() + 16);
        unsigned char* p =
            aligned.data() + ((16 - reinterpret_cast<std::uintptr_t>(aligned.data()) % 16) % 16);
        std::memcpy(p, plain.data(), plain.size());
        MeshBlob blob;
        if (!err.failed() && loadMeshBlob(p, plain.size(), blob) == Status::Ok) {
            bake::ClusterFit fit;
            bake::ClusterFitOptions options;
            options.spheres = 12;
            err = bake::fitSphereCluster(source, blob, options, fit);
            write.cluster = fit.spheres;
        }
    }
    if (!err.failed() && walls) {
        std::vector<bake::WallPolygon> polygons;
        err = bake::parseLevelFile(kArenaLevel, polygons);
        if (!err.failed()) err = bake::buildWallSection(polygons, bake::WallBuildOptions{}, write.walls);
    }
    for (int big = 0; big < 2 && !err.failed(); ++big) {
        write.big_endian = big == 1;
        std::vector<unsigned char> bytes;
        err = bake::writeBlob(source, tree, write, bytes);
        const std::string path = dir + "/" + name + (big ? ".be.blob" : ".le.blob");
        if (!err.failed() && !writeFile(path, bytes)) {
            std::fprintf(stderr, "blob_digest: cannot write %s\n", path.c_str());
            return false;
        }
    }
    if (err.failed()) std::fprintf(stderr, "blob_digest: %s: %s\n", name.c_str(), err.message.c_str());
    return !err.failed();
}

int bakeAll(const std::string& dir) {
    const bool ok = bakeOne(dir, "ship", test::icosphere(3, 1.5f), true, false) &&
                    bakeOne(dir, "torus", test::torus(40, 20), false, false) &&
                    bakeOne(dir, "arena", test::terrain(24, 20.0f), true, true);
    return ok ? 0 : 1;
}

// ---- querying (every machine) -------------------------------------------------------------------

/// FNV-1a (64-bit) over values fed one by one in a fixed byte order.
class Digest {
public:
    void u32(std::uint32_t v) {
        for (int i = 0; i < 4; ++i) byte(static_cast<unsigned char>(v >> (8 * i)));
    }
    void f32(float f) {
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        u32(bits);
    }
    void vec(const Vec3& v) {
        f32(v.x);
        f32(v.y);
        f32(v.z);
    }
    void vec(const Vec2& v) {
        f32(v.x);
        f32(v.y);
    }
    void rayHit(const RayHit& h) {
        f32(h.t);
        f32(h.u);
        f32(h.v);
        vec(h.point);
        vec(h.normal);
    }
    void contact(const Contact& c) {
        vec(c.point);
        vec(c.normal);
        f32(c.depth);
    }
    std::uint64_t value() const { return m_h; }

private:
    void byte(unsigned char b) {
        m_h ^= b;
        m_h *= 0x100000001B3ull;
    }
    std::uint64_t m_h = 0xCBF29CE484222325ull;
};

/// One query kind's tally: queries asked, queries that answered something, the answers' hash.
struct Tally {
    explicit Tally(const char* kind) : name(kind) {}
    const char* name;
    std::uint32_t asked = 0;
    std::uint32_t answered = 0;
    Digest digest;
};

void print(const std::string& blob_name, const Tally& t) {
    std::printf("%s %-22s %5u asked %5u answered  hash %016" PRIx64 "\n", blob_name.c_str(), t.name, t.asked,
                t.answered, t.digest.value());
}

/// Query inputs from integers and exact float arithmetic only.
class Inputs {
public:
    Inputs(const MeshBlob& blob, std::uint64_t seed) : m_rng(seed) {
        for (int k = 0; k < 3; ++k) {
            m_center[k] = 0.5 * (double(blob.bounds.min[k]) + double(blob.bounds.max[k]));
            m_half[k] = 0.6 * (double(blob.bounds.max[k]) - double(blob.bounds.min[k])) + 0.05;
        }
    }
    Inputs(const Vec2& lo, const Vec2& hi, std::uint64_t seed) : m_rng(seed) {
        m_center[0] = 0.5 * (double(lo.x) + double(hi.x));
        m_center[1] = 0.5 * (double(lo.y) + double(hi.y));
        m_half[0] = 0.6 * (double(hi.x) - double(lo.x));
        m_half[1] = 0.6 * (double(hi.y) - double(lo.y));
        m_half[2] = 1.0;
    }
    void point(Vec3& out) {
        for (int k = 0; k < 3; ++k)
            out[k] = static_cast<float>(m_center[k] + m_half[k] * (2.0 * m_rng.u() - 1.0));
    }
    void point(Vec2& out) {
        out.x = static_cast<float>(m_center[0] + m_half[0] * (2.0 * m_rng.u() - 1.0));
        out.y = static_cast<float>(m_center[1] + m_half[1] * (2.0 * m_rng.u() - 1.0));
    }
    float scale() const { return static_cast<float>(std::fmax(m_half[0], std::fmax(m_half[1], m_half[2]))); }
    /// Uniform in [lo, hi) times the blob's scale.
    float size(double lo, double hi) { return static_cast<float>(scale() * m_rng.range(lo, hi)); }
    /// A rigid transform: a normalised random quaternion (sqrt only) and a translation near the mesh.
    void transform(double reach, Transform& out) {
        double q[4], n = 0.0;
        do {
            n = 0.0;
            for (double& c : q) {
                c = 2.0 * m_rng.u() - 1.0;
                n += c * c;
            }
        } while (n < 0.01 || n > 1.0);
        n = std::sqrt(n);
        Quat r;
        set(static_cast<float>(q[0] / n), static_cast<float>(q[1] / n), static_cast<float>(q[2] / n),
            static_cast<float>(q[3] / n), r);
        Vec3 t;
        for (int k = 0; k < 3; ++k) t[k] = static_cast<float>(reach * scale() * (2.0 * m_rng.u() - 1.0));
        fromQuatTranslation(r, t, out);
    }
    std::uint64_t next() { return m_rng.next(); }

private:
    test::SplitMix64 m_rng;
    double m_center[3] = {0, 0, 0};
    double m_half[3] = {1, 1, 1};
};

constexpr std::uint32_t kQueries = 300;

void meshQueries(const std::string& name, const MeshBlob& blob) {
    Inputs in(blob, 0x5EED0001);
    std::vector<MeshContact> contacts(64);
    std::vector<std::uint32_t> ids(256);
    std::vector<TrianglePair> pairs(8192);

    Tally any{"sphere.any"}, any_world{"sphere.any.world"}, all{"sphere.all"}, all_world{"sphere.all.world"};
    for (std::uint32_t i = 0; i < kQueries; ++i) {
        Sphere s;
        in.point(s.center);
        s.radius = in.size(0.005, 0.3);
        Transform xf;
        in.transform(0.3, xf);
        for (int world = 0; world < 2; ++world) {
            Tally& ta = world ? any_world : any;
            Tally& tl = world ? all_world : all;
            const bool hit = world ? sphereAnyHit(blob, xf, s) : sphereAnyHit(blob, s);
            ++ta.asked;
            ta.answered += hit;
            ta.digest.u32(hit);
            OutBuffer<MeshContact> buf{contacts.data(), static_cast<std::uint32_t>(contacts.size()), 0, 0};
            const Status st = world ? sphereAllHits(blob, xf, s, buf) : sphereAllHits(blob, s, buf);
            ++tl.asked;
            tl.answered += buf.count > 0;
            tl.digest.u32(static_cast<std::uint32_t>(st));
            tl.digest.u32(buf.count);
            tl.digest.u32(buf.dropped);
            for (std::uint32_t k = 0; k < buf.count; ++k) {
                tl.digest.u32(contacts[k].triangle);
                tl.digest.contact(contacts[k].contact);
            }
        }
    }
    for (const Tally* t : {&any, &any_world, &all, &all_world}) print(name, *t);

    Tally closest{"segment.closest"}, fast{"segment.closest.fast"}, seg_any{"segment.any"},
        seg_world{"segment.closest.world"}, swept{"swept.first"}, swept_world{"swept.first.world"};
    for (std::uint32_t i = 0; i < kQueries; ++i) {
        Vec3 p0, p1;
        in.point(p0);
        in.point(p1);
        Transform xf;
        in.transform(0.3, xf);
        const float radius = in.size(0.0, 0.2);
        struct Case {
            Tally& tally;
            bool hit;
        };
        MeshRayHit h[6];
        const Case cases[6] = {
            {closest, segmentClosestHit(blob, p0, p1, h[0])},
            {fast, segmentClosestHit(blob, p0, p1, h[1], SegmentTest::Fast)},
            {seg_any, segmentAnyHit(blob, p0, p1, h[2])},
            {seg_world, segmentClosestHit(blob, xf, p0, p1, h[3])},
            {swept, sweptSphereFirstHit(blob, p0, p1, radius, h[4])},
            {swept_world, sweptSphereFirstHit(blob, xf, p0, p1, radius, h[5])},
        };
        for (int c = 0; c < 6; ++c) {
            Tally& t = cases[c].tally;
            ++t.asked;
            t.answered += cases[c].hit;
            t.digest.u32(cases[c].hit);
            if (cases[c].hit) {
                t.digest.u32(h[c].triangle);
                t.digest.rayHit(h[c].hit);
            }
        }
    }
    for (const Tally* t : {&closest, &fast, &seg_any, &seg_world, &swept, &swept_world}) print(name, *t);

    Tally aabb{"box.aabb"}, obb{"box.obb.world"};
    for (std::uint32_t i = 0; i < kQueries; ++i) {
        Aabb box;
        in.point(box.min);
        Vec3 extent; // one draw per statement: argument evaluation order differs between ABIs
        for (int k = 0; k < 3; ++k) extent[k] = in.size(0.0, 0.3);
        add(box.min, extent, box.max);
        OutBuffer<std::uint32_t> buf{ids.data(), static_cast<std::uint32_t>(ids.size()), 0, 0};
        Status st = aabbOverlapTriangles(blob, box, buf);
        ++aabb.asked;
        aabb.answered += buf.count > 0;
        aabb.digest.u32(static_cast<std::uint32_t>(st));
        aabb.digest.u32(buf.count);
        aabb.digest.u32(buf.dropped);
        for (std::uint32_t k = 0; k < buf.count; ++k) aabb.digest.u32(ids[k]);

        Obb o;
        Transform xf;
        in.transform(0.0, xf);
        in.point(o.center);
        o.halfExtents = extent;
        o.rotation = xf.rotation;
        in.transform(0.3, xf);
        buf.count = 0;
        buf.dropped = 0;
        st = obbOverlapTriangles(blob, xf, o, buf);
        ++obb.asked;
        obb.answered += buf.count > 0;
        obb.digest.u32(static_cast<std::uint32_t>(st));
        obb.digest.u32(buf.count);
        obb.digest.u32(buf.dropped);
        for (std::uint32_t k = 0; k < buf.count; ++k) obb.digest.u32(ids[k]);
    }
    print(name, aabb);
    print(name, obb);

    // Mesh vs itself under random relative transforms, near enough to touch often.
    Tally mm_any{"meshmesh.any"}, mm_pairs{"meshmesh.pairs"}, mm_summary{"meshmesh.summary"};
    for (std::uint32_t i = 0; i < kQueries / 6; ++i) {
        Transform b_to_a;
        in.transform(0.8, b_to_a);
        const bool hit = meshMeshAnyContact(blob, blob, b_to_a);
        ++mm_any.asked;
        mm_any.answered += hit;
        mm_any.digest.u32(hit);
        OutBuffer<TrianglePair> buf{pairs.data(), static_cast<std::uint32_t>(pairs.size()), 0, 0};
        const Status st = meshMeshPairs(blob, blob, b_to_a, buf);
        ++mm_pairs.asked;
        mm_pairs.answered += buf.count > 0;
        mm_pairs.digest.u32(static_cast<std::uint32_t>(st));
        mm_pairs.digest.u32(buf.count);
        mm_pairs.digest.u32(buf.dropped);
        for (std::uint32_t k = 0; k < buf.count; ++k) {
            mm_pairs.digest.u32(pairs[k].a);
            mm_pairs.digest.u32(pairs[k].b);
        }
        MeshContactSummary summary;
        const bool any_pair = meshMeshSummary(blob, blob, b_to_a, summary);
        ++mm_summary.asked;
        mm_summary.answered += any_pair;
        mm_summary.digest.u32(summary.pair_count);
        mm_summary.digest.vec(summary.point);
        mm_summary.digest.vec(summary.normal_a);
        mm_summary.digest.vec(summary.normal_b);
    }
    print(name, mm_any);
    print(name, mm_pairs);
    print(name, mm_summary);
}

void clusterQueries(const std::string& name, const MeshBlob& blob, const SphereCluster& cluster) {
    Inputs in(blob, 0x5EED0002);
    std::vector<MeshContact> contacts(512);
    std::vector<std::uint32_t> spheres(512);
    std::vector<ClusterPair> pairs(512);
    Tally mesh_any{"cluster.mesh.any"}, mesh_all{"cluster.mesh.contacts"}, cc{"cluster.cluster.pairs"},
        seg{"cluster.segment.first"};
    for (std::uint32_t i = 0; i < kQueries / 3; ++i) {
        Transform a, b;
        in.transform(0.6, a);
        in.transform(0.6, b);
        const bool hit = clusterMeshAnyHit(cluster, a, blob, b);
        ++mesh_any.asked;
        mesh_any.answered += hit;
        mesh_any.digest.u32(hit);
        ClusterMeshBuffer buf{{contacts.data(), static_cast<std::uint32_t>(contacts.size()), 0, 0},
                              spheres.data()};
        Status st = clusterMeshContacts(cluster, a, blob, b, buf);
        ++mesh_all.asked;
        mesh_all.answered += buf.hits.count > 0;
        mesh_all.digest.u32(static_cast<std::uint32_t>(st));
        mesh_all.digest.u32(buf.hits.count);
        mesh_all.digest.u32(buf.hits.dropped);
        for (std::uint32_t k = 0; k < buf.hits.count; ++k) {
            mesh_all.digest.u32(spheres[k]);
            mesh_all.digest.u32(contacts[k].triangle);
            mesh_all.digest.contact(contacts[k].contact);
        }
        OutBuffer<ClusterPair> pb{pairs.data(), static_cast<std::uint32_t>(pairs.size()), 0, 0};
        st = clusterClusterPairs(cluster, a, cluster, b, pb);
        ++cc.asked;
        cc.answered += pb.count > 0;
        cc.digest.u32(static_cast<std::uint32_t>(st));
        cc.digest.u32(pb.count);
        for (std::uint32_t k = 0; k < pb.count; ++k) {
            cc.digest.u32(pairs[k].a);
            cc.digest.u32(pairs[k].b);
            cc.digest.contact(pairs[k].contact);
        }
        Vec3 p0, p1;
        in.point(p0);
        in.point(p1);
        ClusterRayHit h;
        const bool seg_hit = segmentClusterFirstHit(cluster, a, p0, p1, h);
        ++seg.asked;
        seg.answered += seg_hit;
        seg.digest.u32(seg_hit);
        if (seg_hit) {
            seg.digest.u32(h.sphere);
            seg.digest.rayHit(h.hit);
        }
    }
    for (const Tally* t : {&mesh_any, &mesh_all, &cc, &seg}) print(name, *t);
}

void wallQueries(const std::string& name, const WallSet& walls, const SphereCluster* cluster) {
    Inputs in(walls.bounds_min, walls.bounds_max, 0x5EED0003);
    std::vector<WallContact> contacts(256);
    Tally inside{"walls.point"}, circle{"walls.circle"}, segment{"walls.segment.first"},
        clus{"walls.cluster"};
    auto addContacts = [&](Tally& t, Status st, const OutBuffer<WallContact>& buf, const WallPush& push) {
        t.digest.u32(static_cast<std::uint32_t>(st));
        t.digest.u32(buf.count);
        t.digest.u32(buf.dropped);
        for (std::uint32_t k = 0; k < buf.count; ++k) {
            const WallContact& c = contacts[k];
            t.digest.vec(c.point);
            t.digest.vec(c.normal);
            t.digest.f32(c.depth);
            for (std::uint32_t v : {c.polygon, c.ring, c.edge, c.sphere, c.edge_id}) t.digest.u32(v);
        }
        t.digest.vec(push.push);
        t.digest.u32(push.contact_count);
        t.digest.u32(push.inside);
    };
    for (std::uint32_t i = 0; i < kQueries; ++i) {
        Vec2 c, p1;
        in.point(c);
        in.point(p1);
        const bool is_inside = pointInWalls(walls, c);
        ++inside.asked;
        inside.answered += is_inside;
        inside.digest.u32(is_inside);

        OutBuffer<WallContact> buf{contacts.data(), static_cast<std::uint32_t>(contacts.size()), 0, 0};
        WallPush push;
        Status st = circleWalls(walls, c, in.size(0.01, 0.2), buf, push);
        ++circle.asked;
        circle.answered += buf.count > 0;
        addContacts(circle, st, buf, push);

        WallRayHit h;
        const bool hit = segmentWallsFirstHit(walls, c, p1, h);
        ++segment.asked;
        segment.answered += hit;
        segment.digest.u32(hit);
        if (hit) {
            segment.digest.f32(h.t);
            segment.digest.vec(h.point);
            segment.digest.vec(h.normal);
            for (std::uint32_t v : {h.polygon, h.ring, h.edge, h.edge_id}) segment.digest.u32(v);
        }
        if (cluster != nullptr) {
            Transform xf;
            in.transform(0.0, xf);
            set(c.x, c.y, 0.0f, xf.translation);
            buf.count = 0;
            buf.dropped = 0;
            st = clusterWalls(walls, *cluster, xf, buf, push);
            ++clus.asked;
            clus.answered += buf.count > 0;
            addContacts(clus, st, buf, push);
        }
    }
    print(name, inside);
    print(name, circle);
    print(name, segment);
    if (cluster != nullptr) print(name, clus);
}

int query(const std::string& path, bool foreign) {
    std::ifstream file(path, std::ios::binary);
    const std::vector<char> raw((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) {
        std::fprintf(stderr, "blob_digest: cannot read %s\n", path.c_str());
        return 1;
    }
    std::vector<unsigned char> storage(raw.size() + 16);
    unsigned char* bytes =
        storage.data() + ((16 - reinterpret_cast<std::uintptr_t>(storage.data()) % 16) % 16);
    std::memcpy(bytes, raw.data(), raw.size());

    Blob whole;
    MeshBlob blob;
    BlobError error;
    Status st = openBlob(bytes, raw.size(), whole, &error);
    if (foreign) {
        if (st != Status::BlobWrongEndian) {
            std::fprintf(stderr, "blob_digest: %s: expected BlobWrongEndian, got %s\n", path.c_str(),
                         statusName(st));
            return 1;
        }
        std::fprintf(stderr, "blob_digest: %s refused (BlobWrongEndian) as expected; swapping\n",
                     path.c_str());
        st = swapBlobByteOrder(bytes, raw.size(), &error);
        if (st == Status::Ok) st = openBlob(bytes, raw.size(), whole, &error);
    }
    if (st == Status::Ok) st = bake::loadOptionalMesh(whole, blob, &error);
    if (st != Status::Ok) {
        std::fprintf(stderr, "blob_digest: %s: %s (%s at byte %" PRIu64 ")\n", path.c_str(), statusName(st),
                     error.what, error.offset);
        return 1;
    }
    std::string name = path.substr(path.find_last_of('/') + 1);
    name = name.substr(0, name.find('.'));

    const BlobSection cluster_section = blobSection(whole, SectionKind::SphereCluster);
    const BlobSection walls_section = blobSection(whole, SectionKind::Walls);
    Digest layout;
    layout.u32(blob.wide_node_count);
    layout.u32(blob.vertex_count);
    layout.u32(blob.triangle_count);
    layout.u32(cluster_section.count);
    layout.u32(walls_section.count);
    layout.vec(blob.bounds.min);
    layout.vec(blob.bounds.max);
    layout.vec(blob.quant_origin);
    layout.vec(blob.quant_scale);
    for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
        Vec3 a, b, c;
        triangleVertices(blob, t, a, b, c);
        layout.vec(a);
        layout.vec(b);
        layout.vec(c);
        if (blob.source_ids != nullptr) layout.u32(blob.source_ids[t]);
    }
    std::printf("%s layout: %u nodes %u triangles %u spheres %u wall words  hash %016" PRIx64 "\n",
                name.c_str(), blob.wide_node_count, blob.triangle_count, cluster_section.count,
                walls_section.count, layout.value());

    if (blob.triangle_count > 0) meshQueries(name, blob);
    SphereCluster cluster;
    const bool has_cluster =
        cluster_section.data != nullptr && loadSphereCluster(whole, cluster) == Status::Ok;
    if (has_cluster && blob.triangle_count > 0) clusterQueries(name, blob, cluster);
    WallSet walls;
    if (walls_section.data != nullptr) {
        if (loadWallSet(whole, walls) != Status::Ok) {
            std::fprintf(stderr, "blob_digest: %s: loadWallSet failed\n", path.c_str());
            return 1;
        }
        wallQueries(name, walls, has_cluster ? &cluster : nullptr);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "bake" && argc == 3) return bakeAll(argv[2]);
    if (mode == "query" && argc == 3) return query(argv[2], false);
    if (mode == "query" && argc == 4 && std::string(argv[2]) == "--foreign") return query(argv[3], true);
    std::fprintf(stderr, "usage: flak_blob_digest bake DIR | query [--foreign] FILE\n");
    return 2;
}

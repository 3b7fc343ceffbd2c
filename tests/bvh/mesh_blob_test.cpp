// Baked blobs of generated meshes: structure, reachability, bounds containment, determinism,
// byte order, and rejection of every corrupted or truncated form of a small blob.
#include "bvh/bake_helpers.h"

#include <flak/bvh/box_query.h>
#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_mesh.h>
#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/bvh/swept_query.h>
#include <flak/cpu.h>

#include "flak_support/obj_mesh.h"
#include "flak_support/split_mix.h"
#include "support/blob_brute_force.h"
#include "support/case_count.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace flak {
namespace {

using test::AlignedBytes;
using test::bakeBytes;

// Walks the whole tree, entering every child of every node, touching every child box and every
// triangle's vertices. Under ASan this proves a validated blob is never read out of bounds.
std::uint64_t walkAll(const MeshBlob& blob) {
    std::uint64_t touched = 0;
    float sink = 0.0f;
    for (std::uint32_t i = 0; i < blob.wide_node_count; ++i) {
        for (std::uint32_t c = 0; c < wideCount(blob.wide_nodes[i]); ++c) {
            const BvhNode child = wideChildNode(blob.wide_nodes[i], c);
            Aabb box;
            nodeBounds(blob, child, box);
            sink += box.min.x;
            if (!isLeaf(child)) {
                sink += static_cast<float>(blob.wide_nodes[child.info].child[0] & 1u);
                continue;
            }
            for (std::uint32_t t = leafFirst(child); t < leafFirst(child) + leafCount(child); ++t) {
                Vec3 a, b, c3;
                triangleVertices(blob, t, a, b, c3);
                sink += a.x + b.y + c3.z;
                ++touched;
            }
        }
    }
    return touched + (sink == 12345.0f ? 1 : 0);
}

void expectSound(const std::vector<unsigned char>& bytes, const char* name, std::uint32_t expect_tris) {
    AlignedBytes a(bytes);
    MeshBlob blob;
    BlobError error;
    ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob, &error), Status::Ok) << name << ": " << error.what;
    EXPECT_EQ(blob.triangle_count, expect_tris) << name;
    const std::vector<std::string> problems = bake::deepVerify(test::opened(a));
    for (const std::string& p : problems) ADD_FAILURE() << name << ": " << p;
    const bake::BlobSummary s = bake::summarize(test::opened(a), false);
    std::printf("[ blob ] %-10s %8u triangles %8u vertices %7u nodes  %.2f bytes/triangle  depth %u\n", name,
                s.triangles, s.vertices, s.nodes, s.bytes_per_triangle, s.depth);
    EXPECT_GT(walkAll(blob), 0u);
}

TEST(MeshBlob, GeneratedMeshesAreSound) {
    expectSound(bakeBytes(test::icosphere(4)), "icosphere4", 5120);
    expectSound(bakeBytes(test::torus(64, 32)), "torus", 4096);
    expectSound(bakeBytes(test::terrain(100)), "terrain", 20000);
    const test::Mesh sl = test::slivers(700);
    expectSound(bakeBytes(sl), "slivers", 600); // every 7th is zero-area and dropped
    test::BakeSettings keep;
    keep.prepare.keep_degenerate = true;
    expectSound(bakeBytes(sl, keep), "slivers+0", 700);
    for (std::uint32_t leaf : {1u, 4u, 16u}) {
        test::BakeSettings s;
        s.build.max_leaf = leaf;
        expectSound(bakeBytes(test::torus(40, 20), s), "torus-leaf", 1600);
    }
}

TEST(MeshBlob, MillionTriangleClosedMeshIsSound) {
    const test::Mesh big = test::icosphere(8); // 1,310,720 triangles
    expectSound(bakeBytes(big), "icosphere8", big.triangleCount());
}

TEST(MeshBlob, EmptyMeshLoadsAndHasNoNodes) {
    test::Mesh empty;
    AlignedBytes a(bakeBytes(empty));
    MeshBlob blob;
    ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob), Status::Ok);
    EXPECT_EQ(blob.triangle_count, 0u);
    EXPECT_EQ(blob.wide_node_count, 0u);
    EXPECT_EQ(blob.depth, 0u);
}

TEST(MeshBlob, BakingIsDeterministic) {
    const test::Mesh m = test::torus(80, 40);
    EXPECT_EQ(bakeBytes(m), bakeBytes(m));
    const test::Mesh t = test::terrain(64);
    EXPECT_EQ(bakeBytes(t), bakeBytes(t));
    // A real mesh (assimp-testmodels' Wuson, read as plain OBJ) and the slivers with zero-area
    // triangles kept; the command-line test also compares two bakes of every real model.
    test::Mesh wuson;
    std::string error;
    if (bench::readObj("/usr/share/assimp/models/OBJ/WusonOBJ.obj", wuson, error)) {
        EXPECT_EQ(bakeBytes(wuson), bakeBytes(wuson));
    } else {
        std::printf("  assimp-testmodels not installed: Wuson skipped (%s)\n", error.c_str());
    }
    test::BakeSettings keep;
    keep.prepare.keep_degenerate = true;
    const test::Mesh s = test::slivers(500);
    EXPECT_EQ(bakeBytes(s, keep), bakeBytes(s, keep));
}

// Every triangle of a blob decodes (block base plus its three byte offsets) to exactly the
// vertices of the source triangle it came from, on meshes that make the windows work: a fan whose
// hub every triangle shares (the hub is copied whenever the window moves past it), a soup of
// unshared triangles (48 fresh vertices in every block) and a closed mesh. The vertex array is the
// used source vertices plus the copies the build statistics count, and the offsets reach beyond
// the 32 vertices of the narrower windows the format once had.
TEST(MeshBlob, EveryTriangleDecodesToItsSourceTriangle) {
    test::Mesh fan;
    fan.positions.push_back({0.0f, 0.0f, 0.0f});
    for (std::uint32_t i = 0; i <= 3000; ++i) {
        const float a = 6.2831853f * static_cast<float>(i) / 3001.0f;
        fan.positions.push_back({std::cos(a), std::sin(a), 0.01f * static_cast<float>(i % 7)});
    }
    for (std::uint32_t i = 1; i <= 3000; ++i) fan.indices.insert(fan.indices.end(), {0u, i, i + 1u});
    test::Mesh soup;
    test::SplitMix64 rng(0x0FF5E75u);
    for (std::uint32_t t = 0; t < 2000; ++t)
        for (int k = 0; k < 3; ++k) {
            soup.indices.push_back(static_cast<std::uint32_t>(soup.positions.size()));
            soup.positions.push_back({rng.rangef(-10, 10), rng.rangef(-10, 10), rng.rangef(-10, 10)});
        }
    // The soup with a zero-area triangle before every fourth one: the baker drops them, and the
    // source ids still number the triangles as the source does.
    test::Mesh flat_soup;
    flat_soup.positions = soup.positions;
    for (std::uint32_t t = 0; t < soup.indices.size() / 3; ++t) {
        if (t % 4 == 0) flat_soup.indices.insert(flat_soup.indices.end(), {0u, 0u, 1u});
        flat_soup.indices.insert(flat_soup.indices.end(), soup.indices.begin() + 3 * t,
                                 soup.indices.begin() + 3 * t + 3);
    }
    const std::pair<const char*, test::Mesh> meshes[] = {{"fan", fan},
                                                         {"soup", soup},
                                                         {"flat soup", flat_soup},
                                                         {"icosphere5", test::icosphere(5)},
                                                         {"terrain", test::terrain(80)}};
    std::uint32_t widest = 0;
    for (const auto& [name, mesh] : meshes) {
        test::BakeSettings settings;
        settings.write.source_ids = true;
        bake::SourceMesh source;
        AlignedBytes a(bakeBytes(mesh, settings, &source));
        MeshBlob blob;
        ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob), Status::Ok) << name;
        ASSERT_NE(blob.source_ids, nullptr);
        ASSERT_NE(blob.stats, nullptr);
        std::map<std::tuple<float, float, float>, std::uint32_t> welded; // position -> baked vertex
        for (std::uint32_t id = 0; id < source.positions.size(); ++id)
            welded.emplace(
                std::make_tuple(source.positions[id].x, source.positions[id].y, source.positions[id].z), id);
        std::set<std::uint32_t> used;
        for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
            Vec3 v[3];
            triangleVertices(blob, t, v[0], v[1], v[2]);
            const std::uint32_t s = blob.source_ids[t]; // the source mesh's own triangle number
            ASSERT_LT(s, mesh.indices.size() / 3) << name;
            for (std::uint32_t k = 0; k < 3; ++k) {
                const Vec3& want = mesh.positions[mesh.indices[3 * s + k]];
                const auto id = welded.find(std::make_tuple(want.x, want.y, want.z));
                ASSERT_NE(id, welded.end()) << name;
                used.insert(id->second);
                ASSERT_TRUE(v[k].x == want.x && v[k].y == want.y && v[k].z == want.z)
                    << name << " triangle " << t << " corner " << k;
                widest = std::max<std::uint32_t>(widest, blob.triangles[3 * t + k]);
            }
        }
        EXPECT_EQ(blob.vertex_count, used.size() + blob.stats->copied_vertices) << name;
        std::printf("[ windows ] %-10s %6u triangles %6zu vertices used %6u copies\n", name,
                    blob.triangle_count, used.size(), blob.stats->copied_vertices);
    }
    EXPECT_GE(widest, 32u);
}

// A mesh with material(t) on source triangle t, baked with source ids.
template <typename Material>
std::vector<unsigned char> bakeWithMaterials(const test::Mesh& mesh, Material&& material,
                                             bake::SourceMesh& out_source) {
    test::BakeSettings settings;
    settings.write.source_ids = true;
    for (std::uint32_t t = 0; t < mesh.indices.size() / 3; ++t) settings.materials.push_back(material(t));
    return bakeBytes(mesh, settings, &out_source);
}

// Materials are stored as runs of triangles in leaf order: every triangle reads back its source
// triangle's material, with materials in patches (few runs) and at random (a run at almost every
// triangle), one run per change and none more; a mesh without materials has no runs and reads 0.
TEST(MeshBlob, EveryTriangleReadsBackItsMaterial) {
    const test::Mesh mesh = test::icosphere(4); // 5,120 triangles
    test::SplitMix64 rng(0x3A7E41A1u);
    const std::function<std::uint16_t(std::uint32_t)> patterns[] = {
        [](std::uint32_t t) { return static_cast<std::uint16_t>(t / 97 % 5); },
        [&rng](std::uint32_t) { return static_cast<std::uint16_t>(rng.next() % 7 * 9000); }};
    for (const auto& pattern : patterns) {
        bake::SourceMesh source;
        AlignedBytes a(bakeWithMaterials(mesh, pattern, source));
        MeshBlob blob;
        ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob), Status::Ok);
        ASSERT_NE(blob.material_runs, nullptr);
        std::uint32_t changes = 0;
        for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
            const std::uint16_t want = source.materials[blob.source_ids[t]];
            ASSERT_EQ(triangleMaterial(blob, t), want) << "triangle " << t;
            if (t > 0 && want != source.materials[blob.source_ids[t - 1]]) ++changes;
        }
        EXPECT_EQ(blob.material_run_count, changes + 1u);
        // Within a leaf (the same build again: it is deterministic) each material is one group,
        // and the material that ended the leaf before, where the leaf has it, comes first.
        const bake::BuiltTree tree = bake::buildBvh(source.positions, source.indices, bake::BuildOptions{});
        std::uint32_t leaves = 0, previous = 0xFFFFFFFFu;
        for (const bake::BuiltNode& n : tree.nodes) {
            if (n.count == 0) continue;
            ++leaves;
            std::vector<std::uint16_t> seen;
            for (std::uint32_t t = n.first; t < n.first + n.count; ++t) {
                const std::uint16_t m = source.materials[blob.source_ids[t]];
                if (t > n.first && m == seen.back()) continue;
                ASSERT_EQ(std::find(seen.begin(), seen.end(), m), seen.end()) << "material split in a leaf";
                ASSERT_TRUE(t == n.first || m != previous) << "the previous leaf's material not first";
                seen.push_back(m);
            }
            previous = seen.back();
        }
        std::printf("[ materials ] %u triangles in %u leaves, %u runs\n", blob.triangle_count, leaves,
                    blob.material_run_count);
    }
    AlignedBytes plain(bakeBytes(mesh));
    MeshBlob blob;
    ASSERT_EQ(loadMeshBlob(plain.data(), plain.size(), blob), Status::Ok);
    EXPECT_EQ(blob.material_runs, nullptr);
    EXPECT_EQ(triangleMaterial(blob, 17), 0u);
}

// sin^2 of the angle at a, in double.
double angleSinSq(const Vec3& a, const Vec3& b, const Vec3& c) {
    const double u[3] = {double(b.x) - a.x, double(b.y) - a.y, double(b.z) - a.z};
    const double v[3] = {double(c.x) - a.x, double(c.y) - a.y, double(c.z) - a.z};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    return (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) /
           ((u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
}

// The corner test of the triangle tests (tri_tri_impl.h wellConditioned), in float as they make
// it: the first corner for the triangle held still, the last for a triangle in a lane.
bool cornerConditioned(const Vec3& o, const Vec3& x, const Vec3& y) {
    Vec3 e1, e2, n;
    sub(x, o, e1);
    sub(y, o, e2);
    cross(e1, e2, n);
    return lengthSq(n) > 2.5e-3f * (lengthSq(e1) * lengthSq(e2));
}

// The writer turns a triangle whose first or last corner is sharp so that the sharp corner is the
// middle one, from which the triangle tests never take a plane: the same corners in the same cyclic
// order (winding and normal kept). Needles with the tip at each corner become well-conditioned at
// both ends; caps (two sharp corners) are turned at most; well-shaped triangles keep the source's
// order; with source ids every triangle does.
TEST(MeshBlob, SharpCornersAreTurnedIntoTheMiddle) {
    test::Mesh mesh;
    test::SplitMix64 rng(0x7E3D1E5u);
    std::vector<int> kind; // 0 well-shaped, 1 needle, 2 cap; per source triangle
    for (int i = 0; i < 600; ++i) {
        const float x = static_cast<float>(rng.range(-50, 50)), y = static_cast<float>(rng.range(-50, 50)),
                    z = static_cast<float>(rng.range(-50, 50));
        const float w = static_cast<float>(rng.range(0.02, 0.2));
        Vec3 v[3];
        const int k = i % 3;
        if (k == 0) { // well-shaped
            v[0] = Vec3{x, y, z};
            v[1] = Vec3{x + 3.0f, y + w, z};
            v[2] = Vec3{x + 1.0f, y + 2.5f, z + w};
        } else if (k == 1) { // a needle: tip 5 away from a base of width w
            v[0] = Vec3{x, y, z};
            v[1] = Vec3{x + w, y, z + w};
            v[2] = Vec3{x + 0.5f * w, y + 5.0f, z};
        } else { // a cap: a corner w / 10 off the middle of a long edge
            v[0] = Vec3{x, y, z};
            v[1] = Vec3{x + 5.0f, y, z};
            v[2] = Vec3{x + 2.5f, y + 0.1f * w, z + 0.1f * w};
        }
        const std::uint32_t turn = static_cast<std::uint32_t>(i / 3 % 3); // the odd corner at 0, 1 or 2
        const std::uint32_t base = static_cast<std::uint32_t>(mesh.positions.size());
        for (std::uint32_t c = 0; c < 3; ++c) mesh.positions.push_back(v[(c + turn) % 3]);
        mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2});
        kind.push_back(k);
    }
    for (bool source_ids : {false, true}) {
        SCOPED_TRACE(source_ids ? "with source ids" : "without source ids");
        test::BakeSettings settings;
        settings.write.source_ids = true; // to find each triangle's source; then baked again below
        bake::SourceMesh source;
        AlignedBytes with_ids(bakeBytes(mesh, settings, &source));
        settings.write.source_ids = source_ids;
        AlignedBytes a(bakeBytes(mesh, settings));
        MeshBlob ids, blob;
        ASSERT_EQ(loadMeshBlob(with_ids.data(), with_ids.size(), ids), Status::Ok);
        ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob), Status::Ok);
        ASSERT_EQ(blob.triangle_count, 600u);
        int turned = 0, needles = 0;
        for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
            const std::uint32_t src = ids.source_ids[t]; // the same tree: triangle t is the same one
            Vec3 s[3], b[3];
            for (int c = 0; c < 3; ++c)
                s[c] = mesh.positions[mesh.indices[3 * src + static_cast<std::uint32_t>(c)]];
            triangleVertices(blob, t, b[0], b[1], b[2]);
            int turn = -1;
            for (int r = 0; r < 3 && turn < 0; ++r)
                if (equal(b[0], s[r]) && equal(b[1], s[(r + 1) % 3]) && equal(b[2], s[(r + 2) % 3])) turn = r;
            ASSERT_GE(turn, 0) << "triangle " << t << " is not its source's corners in cyclic order";
            turned += turn != 0 ? 1 : 0;
            if (source_ids || kind[src] == 0) {
                ASSERT_EQ(turn, 0) << "triangle " << t << " (kind " << kind[src] << ") turned";
            } else if (kind[src] == 1) {
                ++needles;
                ASSERT_TRUE(cornerConditioned(b[0], b[1], b[2]) && cornerConditioned(b[2], b[0], b[1]))
                    << "needle " << t << ": sin^2 " << angleSinSq(b[0], b[1], b[2]) << ", "
                    << angleSinSq(b[2], b[0], b[1]);
            }
        }
        if (!source_ids) {
            EXPECT_EQ(needles, 200);
            EXPECT_GE(turned, 2 * 200 / 3); // the needles with the tip at an end
        } else {
            EXPECT_EQ(turned, 0);
        }
        std::printf("[ corners ] %s: %d of 600 triangles turned\n", source_ids ? "source ids" : "default",
                    turned);
    }
}

// `good` with the field at `offset` set to `value` (host order) and resealed is refused as corrupt,
// with a message that says `what`.
template <typename T>
void expectRefusedWith(const std::vector<unsigned char>& good, std::size_t offset, T value,
                       const char* what) {
    BlobError err;
    EXPECT_EQ(test::loadResealed(good.data(), good.size(), offset, &value, sizeof(value), err),
              Status::BlobCorrupt)
        << what;
    EXPECT_NE(std::string(err.what).find(what), std::string::npos) << what << ": " << err.what;
}

// Runs that leave a triangle without a material, or give it two, are refused at load.
TEST(MeshBlob, LoaderChecksMaterialRuns) {
    bake::SourceMesh source;
    const std::vector<unsigned char> good = bakeWithMaterials(
        test::torus(12, 8), [](std::uint32_t t) { return static_cast<std::uint16_t>(t / 10); }, source);
    AlignedBytes original(good);
    MeshBlob view;
    ASSERT_EQ(loadMeshBlob(original.data(), original.size(), view), Status::Ok);
    ASSERT_GE(view.material_run_count, 3u);
    const std::size_t at = blobSection(test::opened(original), SectionKind::Materials).offset;
    const auto refuse = [&](std::size_t offset, auto value, const char* what) {
        expectRefusedWith(good, offset, value, what);
    };
    const std::size_t first = offsetof(MaterialRun, first), run = sizeof(MaterialRun);
    refuse(at + first, std::uint32_t{1}, "do not start at triangle 0");
    refuse(at + run + first, std::uint32_t{0}, "out of order");
    refuse(at + run + first, view.material_runs[2].first, "out of order");
    refuse(at + (view.material_run_count - 1u) * run + first, view.triangle_count, "past the triangles");
    refuse(at + offsetof(MaterialRun, reserved), std::uint16_t{1}, "reserved field not zero");
}

// The loader proves the tree the walks rely on: well-formed nodes, one depth-first tree whose
// leaves cover the triangles in order, and child boxes that hold what is under them.
TEST(MeshBlob, LoaderChecksWideTree) {
    test::BakeSettings settings;
    settings.build.max_leaf = 2;
    const std::vector<unsigned char> good = test::bakeBytes(test::torus(24, 12), settings);
    AlignedBytes original(good);
    MeshBlob view;
    ASSERT_EQ(loadMeshBlob(original.data(), original.size(), view), Status::Ok);
    ASSERT_GE(view.wide_node_count, 3u);
    const std::size_t at = blobSection(test::opened(original), SectionKind::WideNodes).offset;
    const auto refuse = [&](std::size_t offset, auto value, const char* what) {
        expectRefusedWith(good, offset, value, what);
    };
    const auto lo = [&](std::uint32_t node, int k, std::uint32_t c) {
        return at + node * sizeof(WideNode) + offsetof(WideNode, lo) + 8u * static_cast<unsigned>(k) + c;
    };
    const auto hi = [&](std::uint32_t node, int k, std::uint32_t c) {
        return at + node * sizeof(WideNode) + offsetof(WideNode, hi) + 8u * static_cast<unsigned>(k) + c;
    };
    const auto field = [&](std::uint32_t node, std::size_t offset) {
        return at + node * sizeof(WideNode) + offset;
    };
    const auto child = [&](std::uint32_t node, std::uint32_t c) {
        return at + node * sizeof(WideNode) + offsetof(WideNode, child) + 4u * c;
    };
    const WideNode& root = view.wide_nodes[0];
    ASSERT_GE(wideCount(root), 2u);
    ASSERT_LT(root.hi[1][0], 255u);
    refuse(lo(0, 1, 0), std::uint8_t(root.hi[1][0] + 1), "wide child bounds inverted");
    for (const std::uint16_t step : std::initializer_list<std::uint16_t>{0u, 3u, 2u * kWideMaxStep})
        refuse(field(0, offsetof(WideNode, step) + 4), step, "step not a power of two up to kWideMaxStep");
    refuse(field(1, offsetof(WideNode, padding) + 3), std::uint8_t{1}, "padding not zero");
    // A minimum that decodes past the grid's top (65,535): the root's frame moved up to 65,435
    // on x with its first child at its last step, 255 * 256 cells above.
    {
        ASSERT_EQ(root.step[0], kWideMaxStep);
        WideNode moved = root;
        moved.base[0] = 65435;
        moved.lo[0][0] = moved.hi[0][0] = 255;
        BlobError err;
        EXPECT_EQ(test::loadResealed(good.data(), good.size(), at, &moved, sizeof moved, err),
                  Status::BlobCorrupt);
        EXPECT_STREQ(err.what, "wide child box beyond the grid");
    }
    refuse(child(1, 0), std::uint32_t{0}, "wide node without children");
    // A node with a free slot, and a leaf and an internal child somewhere in the tree.
    std::uint32_t partial = view.wide_node_count, leaf_node = 0, leaf_slot = kWideChildren, inner_slot = 0;
    std::uint32_t inner_node = view.wide_node_count;
    for (std::uint32_t i = 0; i < view.wide_node_count; ++i) {
        const WideNode& n = view.wide_nodes[i];
        if (wideCount(n) < kWideChildren && partial == view.wide_node_count) partial = i;
        for (std::uint32_t c = 0; c < wideCount(n); ++c) {
            const bool leaf = (n.child[c] & kLeafBit) != 0;
            const bool wide_x = n.hi[0][c] > n.lo[0][c];
            if (leaf && wide_x && leaf_slot == kWideChildren) leaf_node = i, leaf_slot = c;
            if (!leaf && wide_x && inner_node == view.wide_node_count) inner_node = i, inner_slot = c;
        }
    }
    ASSERT_LT(partial, view.wide_node_count);
    refuse(lo(partial, 2, wideCount(view.wide_nodes[partial])), std::uint8_t{0}, "unused slots not empty");
    // Two children swapped: the leaves (or nodes) are no longer met in order.
    BlobError err;
    std::vector<unsigned char> swapped(good);
    std::memcpy(swapped.data() + child(0, 0), &root.child[1], 4);
    std::memcpy(swapped.data() + child(0, 1), &root.child[0], 4);
    EXPECT_EQ(test::loadResealed(swapped.data(), swapped.size(), child(0, 0), &root.child[1], 4, err),
              Status::BlobCorrupt);
    EXPECT_NE(std::string(err.what).find("wide"), std::string::npos) << err.what;
    refuse(child(0, wideCount(root) - 1u), std::uint32_t{view.wide_node_count}, "wide");
    ASSERT_LT(leaf_slot, kWideChildren);
    refuse(hi(leaf_node, 0, leaf_slot), view.wide_nodes[leaf_node].lo[0][leaf_slot],
           "wide leaf box does not contain its triangles");
    ASSERT_LT(inner_node, view.wide_node_count);
    refuse(hi(inner_node, 0, inner_slot), view.wide_nodes[inner_node].lo[0][inner_slot],
           "wide child box does not contain its node's");
}

// Two builds of one mesh gave the same tree, bit for bit (a NaN SAH cost, from an infinite
// vertex, included).
void expectSameTree(const bake::BuiltTree& a, const bake::BuiltTree& b) {
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        const bake::BuiltNode& x = a.nodes[i];
        const bake::BuiltNode& y = b.nodes[i];
        ASSERT_EQ(std::memcmp(&x.bounds, &y.bounds, sizeof(Aabb)), 0) << "node " << i;
        ASSERT_EQ(x.skip, y.skip) << "node " << i;
        ASSERT_EQ(x.first, y.first) << "node " << i;
        ASSERT_EQ(x.count, y.count) << "node " << i;
    }
    EXPECT_EQ(a.order, b.order);
    EXPECT_EQ(a.depth, b.depth);
    EXPECT_EQ(a.leaf_count, b.leaf_count);
    EXPECT_EQ(std::memcmp(&a.sah_cost, &b.sah_cost, sizeof(double)), 0) << a.sah_cost << " " << b.sah_cost;
}

// Meshes and build options for the builder's equivalence tests: closed, open, flat and sliver
// meshes and a soup of overlapping triangles; the default options, then small leaves with many
// bins, large leaves with few bins, single-triangle leaves, a node cost that is not a whole
// number, and the shallowest depth bound (every range halved from the root down).
struct BuildCases {
    std::vector<test::Mesh> meshes;
    bake::BuildOptions options[6];
    BuildCases() {
        test::SplitMix64 rng(0x5EED00B1);
        test::Mesh soup;
        for (std::uint32_t i = 0; i < 3000; ++i) {
            const Vec3 c{rng.rangef(-10, 10), rng.rangef(-10, 10), rng.rangef(-1, 1)};
            for (int k = 0; k < 3; ++k) {
                soup.positions.push_back(
                    Vec3{c.x + rng.rangef(0, 2), c.y + rng.rangef(0, 2), c.z + rng.rangef(0, 2)});
                soup.indices.push_back(static_cast<std::uint32_t>(soup.positions.size() - 1));
            }
        }
        meshes = {test::icosphere(5), test::torus(80, 40), test::terrain(64), test::slivers(500), soup};
        options[1].max_leaf = 4, options[1].bins = 32, options[1].traversal_cost = 2.0f;
        options[2].max_leaf = 16, options[2].bins = 4, options[2].traversal_cost = 8.0f;
        options[3].max_leaf = 1, options[3].bins = 64, options[3].traversal_cost = 1.0f;
        options[4].max_leaf = 6, options[4].bins = 9, options[4].traversal_cost = 2.75f;
        options[5].max_depth = 28;
    }
    // A mesh's vertices with one -0 and one infinite coordinate: the general path, where min and
    // max depend on their operands' order.
    std::vector<Vec3> odd(std::size_t m) const {
        std::vector<Vec3> p = meshes[m].positions;
        p[0].x = -0.0f;
        p[1].y = std::numeric_limits<float>::infinity();
        return p;
    }
};

// FNV-1a over a built tree's values (node bounds as bits, sizes, leaf ranges, triangle order,
// depth, leaf count, SAH cost as bits), the same on every architecture and byte order. A NaN
// counts as one value: its sign and payload are the CPU's (x86 makes -NaN of inf - inf, ARM +NaN).
std::uint64_t treeDigest(const bake::BuiltTree& t) {
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&h](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xFFu)) * 1099511628211ull;
    };
    const auto bits = [](float f) {
        std::uint32_t u = 0x7FC00000u;
        if (!std::isnan(f)) std::memcpy(&u, &f, 4);
        return u;
    };
    for (const bake::BuiltNode& n : t.nodes) {
        for (int a = 0; a < 3; ++a) mix(bits(n.bounds.min[a])), mix(bits(n.bounds.max[a]));
        mix(n.skip), mix(n.first), mix(n.count);
    }
    for (std::uint32_t id : t.order) mix(id);
    std::uint64_t sah = 0x7FF8000000000000ull;
    if (!std::isnan(t.sah_cost)) std::memcpy(&sah, &t.sah_cost, 8);
    mix(t.depth), mix(t.leaf_count), mix(sah);
    return h;
}

// The builder's shortcuts (no binning for nodes of at most traversal_cost triangles, nor for
// nodes of at most max_leaf whose triangles' own areas show that every split costs more than the
// leaf; one bin set and a branch-free partition for small nodes) are taken only when every
// coordinate is finite and none is -0, and one unused -0 vertex turns them all off. The tree must
// not change.
TEST(MeshBlob, BuildShortcutsGiveTheTreeOfTheGeneralPath) {
    const BuildCases cases;
    for (std::size_t m = 0; m < cases.meshes.size(); ++m) {
        std::vector<Vec3> general = cases.meshes[m].positions;
        general.push_back(Vec3{-0.0f, 0.0f, 0.0f});
        for (std::size_t o = 0; o < std::size(cases.options); ++o) {
            SCOPED_TRACE(testing::Message() << "mesh " << m << ", options " << o);
            expectSameTree(
                bake::buildBvh(cases.meshes[m].positions, cases.meshes[m].indices, cases.options[o]),
                bake::buildBvh(general, cases.meshes[m].indices, cases.options[o]));
        }
    }
}

// Where the CPU has AVX2, the binning keeps each bin as one 256-bit vector (the minimum and the
// negated maximum) and the sweep runs in 256-bit vectors. The trees are the SSE2 forms', with
// plain coordinates and without (-0 and an infinite vertex, which make min and max depend on
// their operands' order).
TEST(MeshBlob, Avx2BuildGivesTheTreeOfTheSse2Build) {
    if (!cpuHasAvx2()) GTEST_SKIP() << "no AVX2 forms here (this CPU, FLAK_AVX2=OFF or not x86)";
    const BuildCases cases;
    for (std::size_t m = 0; m < cases.meshes.size(); ++m) {
        const std::vector<Vec3> odd = cases.odd(m);
        const std::vector<Vec3>* const inputs[] = {&cases.meshes[m].positions, &odd};
        for (const std::vector<Vec3>* positions : inputs) {
            for (std::size_t o = 0; o < std::size(cases.options); ++o) {
                SCOPED_TRACE(testing::Message() << "mesh " << m << ", options " << o
                                                << (positions == &odd ? ", -0 and inf" : ""));
                bake::BuildOptions narrow = cases.options[o];
                narrow.allow_avx2 = false;
                expectSameTree(bake::buildBvh(*positions, cases.meshes[m].indices, cases.options[o]),
                               bake::buildBvh(*positions, cases.meshes[m].indices, narrow));
            }
        }
    }
}

// The builder's trees, pinned: the digests of the cases above (each mesh with every option set,
// then its odd vertices with the default options), recorded from the builder before its
// shortcuts, its three-axis sweep and its AVX2 forms, all of which must leave every tree as it
// was. A change that means to change trees records new digests and says why.
TEST(MeshBlob, BuiltTreesMatchTheirRecordedDigests) {
    static constexpr std::uint64_t kDigests[5][7] = {
        {0x2d3c3a042d2c7df2ull, 0x29dfceee6bccd0e1ull, 0x1b9cdee7b15181dbull, 0x476bb512f713ffceull,
         0xde9346933bda4f24ull, 0xb9ec90c601d95963ull, 0x6ca07e300dbe6e5cull},
        {0x0e24127923445300ull, 0x0214fa177616230bull, 0xb7feb349823e4e9aull, 0x9140ef9d06d315d6ull,
         0x199337f9db1f37ebull, 0xcbf92fb3c83d92d8ull, 0xc6ec050ae7341cf6ull},
        {0xafc6356411506ee7ull, 0xff86ee299839f75dull, 0x6a48ca5d7b7c8974ull, 0xf5f3cacad73f4aedull,
         0xca46395773363e43ull, 0x571b283fa211fb8aull, 0x602862253d299a18ull},
        {0xdf02f517cca931e3ull, 0xc5bb633e4a6b1f10ull, 0x21b28e0d1ca24abfull, 0x9b06b221911ed121ull,
         0x53d27c2749784b50ull, 0x3fc377fb1b8ff364ull, 0x93a2bd2d10435ea3ull},
        {0x769f1335deff67d3ull, 0x64110a20c6c0473cull, 0x95f62edb64265a86ull, 0xc38255f1feefee93ull,
         0x34d17c30b0ef43c6ull, 0x0b3595318f7cc5ccull, 0x6d087d10a9d7131cull},
    };
    const BuildCases cases;
    ASSERT_EQ(cases.meshes.size(), std::size(kDigests));
    for (std::size_t m = 0; m < cases.meshes.size(); ++m) {
        std::uint64_t got[7];
        for (std::size_t o = 0; o < std::size(cases.options); ++o)
            got[o] = treeDigest(
                bake::buildBvh(cases.meshes[m].positions, cases.meshes[m].indices, cases.options[o]));
        got[6] = treeDigest(bake::buildBvh(cases.odd(m), cases.meshes[m].indices, cases.options[0]));
        for (std::size_t k = 0; k < 7; ++k)
            EXPECT_EQ(got[k], kDigests[m][k])
                << "mesh " << m << ", case " << k << ": 0x" << std::hex << got[k];
    }
}

TEST(MeshBlob, DefaultBakeIsInTheHostByteOrder) {
    // A blob baked in memory with the default options loads as is, on a big-endian host too.
    EXPECT_EQ(bake::WriteOptions{}.big_endian, test::kHostBigEndian);
    AlignedBytes a(bakeBytes(test::icosphere(1)));
    MeshBlob blob;
    EXPECT_EQ(loadMeshBlob(a.data(), a.size(), blob), Status::Ok);
}

void expectForeignBlobSwapsToNative(bool quantized);

// Big-endian on little-endian hosts; on a big-endian host (ppc64, the cross build) the foreign
// blob is the little-endian one.
TEST(MeshBlob, BigEndianBlobIsRejectedThenSwappedToTheNativeBytes) {
    for (bool quantized : {false, true}) {
        SCOPED_TRACE(quantized ? "quantized vertices" : "exact vertices");
        expectForeignBlobSwapsToNative(quantized);
    }
}

// quantizeBound's definition, by two binary searches over the whole grid: the largest decoded
// value at most v (or the smallest at least v), then the lowest (highest) k decoding to it.
std::uint16_t quantizeBoundBySearch(float v, float origin, float scale, bool round_up) {
    if (scale == 0.0f) return 0;
    auto decode = [&](std::uint32_t k) { return origin + static_cast<float>(k) * scale; };
    auto first = [&](auto pred, std::uint32_t lo, std::uint32_t hi) {
        while (lo < hi) {
            const std::uint32_t mid = (lo + hi) / 2;
            if (pred(mid))
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    };
    auto last = [&](auto pred, std::uint32_t lo, std::uint32_t hi) {
        while (lo < hi) {
            const std::uint32_t mid = (lo + hi + 1) / 2;
            if (pred(mid))
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    };
    if (round_up) {
        const std::uint32_t k = first([&](std::uint32_t i) { return decode(i) >= v; }, 0, 65535);
        const float target = decode(k);
        return static_cast<std::uint16_t>(
            last([&](std::uint32_t i) { return decode(i) <= target; }, k, 65535));
    }
    const std::uint32_t k = last([&](std::uint32_t i) { return decode(i) <= v; }, 0, 65535);
    const float target = decode(k);
    return static_cast<std::uint16_t>(first([&](std::uint32_t i) { return decode(i) >= target; }, 0, k));
}

// The baker's bounds (a search started where (v - origin) / scale points) are the definition's,
// on grids from denormal steps to steps far below the origin's ulp (runs of k decoding to one
// float), for values on grid points, a float either side of them, inside, and beyond both ends.
TEST(MeshBlob, QuantizeBoundIsTheDefinitionsTightestBound) {
    test::SplitMix64 rng(0x5EED0B0Du);
    long cases = 0, ties = 0;
    for (int g = 0; g < 4000; ++g) {
        const float origin = static_cast<float>(rng.range(-1.0, 1.0) * std::pow(10.0, rng.range(-3.0, 9.0)));
        const float extent = static_cast<float>(std::pow(10.0, rng.range(-36.0, 8.0)));
        const float scale = std::max(extent / 65535.0f, FLT_MIN);
        ties += origin + 65535.0f * scale == origin + 65534.0f * scale ? 1 : 0;
        for (int q = 0; q < 40; ++q) {
            const std::uint32_t k = static_cast<std::uint32_t>(rng.next() % 65536u);
            float v = origin + static_cast<float>(k) * scale;
            switch (rng.next() % 6u) {
            case 0: break; // on a grid point
            case 1: v = std::nextafter(v, -INFINITY); break;
            case 2: v = std::nextafter(v, INFINITY); break;
            case 3: v = origin - static_cast<float>(rng.range(0.0, 2.0)) * extent; break; // below the grid
            case 4: v = origin + static_cast<float>(rng.range(1.0, 3.0)) * extent; break; // above it
            default: v = origin + static_cast<float>(rng.range(0.0, 1.0)) * extent; break;
            }
            for (bool up : {false, true}) {
                ASSERT_EQ(bake::quantizeBound(v, origin, scale, up),
                          quantizeBoundBySearch(v, origin, scale, up))
                    << "v " << v << " origin " << origin << " scale " << scale << (up ? " up" : " down");
                ++cases;
            }
        }
    }
    std::printf(
        "  quantizeBound: %ld bounds equal to the definition's, %ld grids with runs of equal points\n", cases,
        ties);
    EXPECT_GT(ties, 100);
}

TEST(MeshBlob, QuantizedVerticesAreTheNearestGridPointsOfTheSource) {
    const std::pair<const char*, test::Mesh> meshes[] = {
        {"icosphere5", test::icosphere(5)}, {"terrain", test::terrain(60)}, {"torus", test::torus(48, 20)}};
    for (const auto& [name, mesh] : meshes) {
        test::BakeSettings settings;
        settings.write.source_ids = true;
        const std::vector<unsigned char> exact_bytes = bakeBytes(mesh, settings);
        settings.write.quantize_vertices = true;
        bake::SourceMesh source;
        AlignedBytes a(bakeBytes(mesh, settings, &source));
        MeshBlob blob;
        BlobError error;
        ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob, &error), Status::Ok) << name << ": " << error.what;
        ASSERT_NE(blob.quantized_vertices, nullptr);
        EXPECT_EQ(blob.vertices, nullptr);
        EXPECT_TRUE(bake::deepVerify(test::opened(a)).empty()) << name; // boxes tight around the grid points
        // The same tree and windows: the vertex section alone shrinks, 6 bytes a vertex.
        AlignedBytes e(exact_bytes);
        MeshBlob exact;
        ASSERT_EQ(loadMeshBlob(e.data(), e.size(), exact), Status::Ok);
        EXPECT_EQ(exact.vertex_count, blob.vertex_count);
        EXPECT_NEAR(double(exact_bytes.size()) - double(a.size()), 6.0 * blob.vertex_count, 16.0) << name;
        for (std::uint32_t t = 0; t < blob.triangle_count; ++t) {
            Vec3 v[3];
            triangleVertices(blob, t, v[0], v[1], v[2]);
            ASSERT_EQ(blob.source_ids[t], exact.source_ids[t]);
            for (std::uint32_t k = 0; k < 3; ++k) {
                const Vec3& p = source.positions[source.indices[3 * blob.source_ids[t] + k]];
                for (int x = 0; x < 3; ++x) {
                    const float step = blob.quant_scale[x];
                    const std::uint16_t q = bake::snapToGrid(p[x], blob.quant_origin[x], step);
                    // Every copy of a source vertex decodes to the same grid point (so a closed
                    // mesh stays closed), within half a step of the source.
                    ASSERT_EQ(v[k][x], blob.quant_origin[x] + static_cast<float>(q) * step) << name;
                    ASSERT_LE(std::fabs(double(v[k][x]) - double(p[x])), 0.5 * double(step) * (1.0 + 1e-3))
                        << name;
                }
            }
        }
        std::printf("[ quantized ] %-10s grid step %.3g %.3g %.3g; %zu bytes exact, %zu quantized\n", name,
                    double(blob.quant_scale.x), double(blob.quant_scale.y), double(blob.quant_scale.z),
                    exact_bytes.size(), a.size());
    }
}

// A quantized blob that also claims exact vertices (its SourceIds section retyped as quantized
// vertices, the sizes kept consistent) and one whose grid decodes its far vertices beyond the
// coordinate range are refused.
TEST(MeshBlob, QuantizedVertexChecks) {
    test::BakeSettings settings;
    settings.write.source_ids = true;
    const std::vector<unsigned char> exact = bakeBytes(test::torus(12, 8), settings); // 192 triangles
    AlignedBytes opened_exact(exact);
    const Blob blob = test::opened(opened_exact);
    std::size_t entry = 0;
    while (blob.sections[entry].kind != static_cast<std::uint32_t>(SectionKind::SourceIds)) ++entry;
    const std::uint32_t retyped[2] = {static_cast<std::uint32_t>(SectionKind::QuantizedVertices),
                                      blob.sections[entry].count * 4u / 6u};
    BlobError err;
    EXPECT_EQ(test::loadResealed(exact.data(), exact.size(),
                                 sizeof(BlobHeader) + entry * sizeof(SectionEntry), retyped, sizeof(retyped),
                                 err),
              Status::BlobCorrupt);
    EXPECT_STREQ(err.what, "both exact and quantized vertices");

    settings.write.quantize_vertices = true;
    const std::vector<unsigned char> quantized = bakeBytes(test::torus(12, 8), settings);
    AlignedBytes opened_quantized(quantized);
    const std::size_t info_at = blobSection(test::opened(opened_quantized), SectionKind::MeshInfo).offset;
    const float wide_step = 1.5f * kMaxBlobCoordinate / 65535.0f; // the far end inside twice the range
    EXPECT_EQ(test::loadResealed(quantized.data(), quantized.size(), info_at + offsetof(MeshInfo, scale),
                                 &wide_step, 4, err),
              Status::BlobCorrupt);
    EXPECT_STREQ(err.what, "vertex beyond the format's coordinate range");
}

void expectForeignBlobSwapsToNative(bool quantized) {
    const test::Mesh m = test::torus(30, 12);
    test::BakeSettings settings, big;
    settings.write.quantize_vertices = big.write.quantize_vertices = quantized;
    big.write.big_endian = !test::kHostBigEndian;
    const std::vector<unsigned char> native = bakeBytes(m, settings);
    const std::vector<unsigned char> foreign = bakeBytes(m, big);
    ASSERT_NE(native, foreign);
    AlignedBytes a(foreign);
    MeshBlob blob;
    BlobError error;
    EXPECT_EQ(loadMeshBlob(a.data(), a.size(), blob, &error), Status::BlobWrongEndian);
    EXPECT_EQ(blob.wide_nodes, nullptr);
    ASSERT_EQ(swapBlobByteOrder(a.data(), a.size(), &error), Status::Ok) << error.what;
    EXPECT_EQ(std::vector<unsigned char>(a.data(), a.data() + a.size()), native); // byte for byte
    ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob), Status::Ok);
    EXPECT_GT(blob.wide_node_count, 0u);
    EXPECT_EQ(swapBlobByteOrder(a.data(), a.size()), Status::Ok); // already native: untouched
    EXPECT_EQ(std::vector<unsigned char>(a.data(), a.data() + a.size()), native);
}

TEST(MeshBlob, HeaderRejectionsHaveDistinctStatuses) {
    const std::vector<unsigned char> good = bakeBytes(test::icosphere(1));
    auto statusOf = [](std::vector<unsigned char> bytes, std::size_t size) {
        AlignedBytes a(bytes);
        MeshBlob blob;
        return loadMeshBlob(a.data(), size, blob);
    };
    auto mutate = [&](std::size_t at, unsigned char v) {
        std::vector<unsigned char> b = good;
        b[at] = v;
        return statusOf(b, b.size());
    };
    EXPECT_EQ(statusOf(good, good.size()), Status::Ok);
    EXPECT_EQ(mutate(0, 'X'), Status::BlobBadMagic);
    EXPECT_EQ(mutate(offsetof(BlobHeader, version), 7), Status::BlobUnsupportedVersion);
    EXPECT_EQ(mutate(offsetof(BlobHeader, layout_hash), 0), Status::BlobLayoutMismatch);
    EXPECT_EQ(mutate(offsetof(BlobHeader, endian_marker), 9), Status::BlobCorrupt);
    EXPECT_EQ(mutate(offsetof(BlobHeader, checksum), 0x5A), Status::BlobBadChecksum);
    EXPECT_EQ(mutate(good.size() - 1, 0x77), Status::BlobBadChecksum);
    EXPECT_EQ(statusOf(good, good.size() - 1), Status::BlobTruncated);
    EXPECT_EQ(statusOf(good, 10), Status::BlobTruncated);
    // Misaligned address.
    std::vector<unsigned char> storage(good.size() + 32);
    unsigned char* p =
        storage.data() + ((16 - (reinterpret_cast<std::uintptr_t>(storage.data()) & 15u)) & 15u) + 4;
    std::memcpy(p, good.data(), good.size());
    MeshBlob blob;
    EXPECT_EQ(loadMeshBlob(p, good.size(), blob), Status::BlobMisaligned);
    EXPECT_EQ(loadMeshBlob(nullptr, 100, blob), Status::NullMemory);
}

// The section table's fields are 32-bit, so the writer refuses a blob that would need an offset,
// a section size or an element count of 2^32 or more (a soup near the triangle limit with unshared
// vertices and source ids, or a huge wall set, can get there) instead of writing offsets that
// wrap. Checked on the layout alone: such blobs take more memory than a test should.
TEST(MeshBlob, LayoutRefusesWhatThe32BitSectionTableCannotHold) {
    const std::uint64_t table = (sizeof(BlobHeader) + 2 * sizeof(SectionEntry) + 15) / 16 * 16;
    const std::uint64_t k4G = std::uint64_t{1} << 32;
    std::vector<std::uint32_t> offsets;
    std::uint64_t total = 0;
    const auto plan = [](std::uint64_t count_a, std::uint64_t elem_a, std::uint64_t count_b,
                         std::uint64_t elem_b) {
        return std::vector<bake::SectionPlan>{{SectionKind::Vertices, count_a, elem_a},
                                              {SectionKind::SourceIds, count_b, elem_b}};
    };
    // Each section on a 16-byte boundary after the header and the table.
    ASSERT_TRUE(bake::layOutSections(plan(5, 12, 3, 4), offsets, total));
    EXPECT_EQ(offsets, (std::vector<std::uint32_t>{std::uint32_t(table), std::uint32_t(table + 64)}));
    EXPECT_EQ(total, table + 64 + 16);
    // The second section may start at the last 16-byte boundary below 4 GiB and end beyond it.
    const std::uint64_t first_bytes = k4G - 16 - table;
    ASSERT_TRUE(bake::layOutSections(plan(first_bytes / 16, 16, 1000, 4), offsets, total));
    EXPECT_EQ(offsets[1], 0xFFFFFFF0u);
    EXPECT_EQ(total, k4G - 16 + 4000);
    // One boundary further, its offset would wrap.
    EXPECT_FALSE(bake::layOutSections(plan(first_bytes / 16 + 1, 16, 1000, 4), offsets, total));
    EXPECT_TRUE(offsets.empty());
    EXPECT_EQ(total, 0u);
    // A section of 4 GiB or more, and a count that does not fit in 32 bits.
    EXPECT_FALSE(bake::layOutSections(plan(k4G / 12 + 1, 12, 0, 4), offsets, total));
    EXPECT_FALSE(bake::layOutSections(plan(k4G, 1, 0, 4), offsets, total));
    EXPECT_FALSE(bake::layOutSections(plan(k4G, 0, 0, 4), offsets, total));
    // A last section just under 4 GiB fits (the table then has one entry).
    const std::vector<bake::SectionPlan> one{{SectionKind::Vertices, (k4G - 1) / 12, 12}};
    ASSERT_TRUE(bake::layOutSections(one, offsets, total));
    const std::uint64_t table_one = (sizeof(BlobHeader) + sizeof(SectionEntry) + 15) / 16 * 16;
    EXPECT_EQ(total, (table_one + (k4G - 1) / 12 * 12 + 15) / 16 * 16);
}

// A version-1 blob (the format before the container held sections of every kind) is refused
// with a message that says what to do; so is any other version.
TEST(MeshBlob, VersionOneIsRefusedWithARebakeMessage) {
    std::vector<unsigned char> bytes = bakeBytes(test::icosphere(1));
    for (const std::uint32_t version : {1u, 3u}) {
        std::memcpy(bytes.data() + offsetof(BlobHeader, version), &version, 4);
        const std::uint64_t sum = blobChecksum(bytes.data(), bytes.size());
        std::memcpy(bytes.data() + offsetof(BlobHeader, checksum), &sum, 8);
        AlignedBytes a(bytes);
        Blob blob;
        BlobError err;
        EXPECT_EQ(openBlob(a.data(), a.size(), blob, &err), Status::BlobUnsupportedVersion) << version;
        EXPECT_EQ(err.offset, offsetof(BlobHeader, version));
        EXPECT_EQ(std::string(err.what).find("bake the asset again") != std::string::npos, version == 1)
            << err.what;
        EXPECT_EQ(blob.data, nullptr);
    }
}

// A mesh that carries the binary tree of an earlier format (section kind 1, Nodes) is refused with
// the status of a layout change and a message that says to bake it again. Made here by relabelling
// the 64-byte BuildStats section as four 16-byte nodes.
TEST(MeshBlob, TheBinaryTreeOfAnEarlierFormatIsRefusedWithARebakeMessage) {
    const std::vector<unsigned char> good = bakeBytes(test::icosphere(1));
    AlignedBytes original(good);
    const Blob opened = test::opened(original);
    std::size_t entry = 0;
    for (std::uint32_t i = 0; i < opened.section_count; ++i)
        if (opened.sections[i].kind == static_cast<std::uint32_t>(SectionKind::BuildStats))
            entry = sizeof(BlobHeader) + i * sizeof(SectionEntry);
    ASSERT_NE(entry, 0u);
    const std::uint32_t nodes[2] = {static_cast<std::uint32_t>(SectionKind::Nodes), 4u}; // kind, count
    BlobError err;
    EXPECT_EQ(test::loadResealed(good.data(), good.size(), entry, nodes, sizeof nodes, err),
              Status::BlobLayoutMismatch);
    EXPECT_NE(std::string(err.what).find("bake it again"), std::string::npos) << err.what;
}

// The container's reserved words, both layout hashes (with advice to bake again) and the mesh's
// depth are checked.
TEST(MeshBlob, ReservedWordsTheMeshLayoutHashAndDepthAreChecked) {
    const std::vector<unsigned char> good = bakeBytes(test::icosphere(1));
    AlignedBytes original(good);
    const BlobSection info = blobSection(test::opened(original), SectionKind::MeshInfo);
    ASSERT_NE(info.data, nullptr);
    EXPECT_EQ(info.count, 1u);
    const std::uint32_t one = 1;
    BlobError err;
    EXPECT_EQ(test::loadResealed(good.data(), good.size(), offsetof(BlobHeader, reserved) + 20, &one, 4, err),
              Status::BlobCorrupt);
    EXPECT_STREQ(err.what, "reserved header word not zero");
    EXPECT_EQ(test::loadResealed(good.data(), good.size(), info.offset + offsetof(MeshInfo, layout_hash),
                                 &one, 4, err),
              Status::BlobLayoutMismatch);
    EXPECT_STREQ(
        err.what,
        "mesh layout hash: written with another mesh encoding, bake the asset again with this flak_bake");
    // The container's layout hash: refused before the mesh is read, with the same advice.
    EXPECT_EQ(test::loadResealed(good.data(), good.size(), offsetof(BlobHeader, layout_hash), &one, 4, err),
              Status::BlobLayoutMismatch);
    EXPECT_NE(std::string(err.what).find("bake the asset again"), std::string::npos) << err.what;
    const std::uint32_t depth = static_cast<const MeshInfo*>(info.data)->depth;
    EXPECT_GE(depth, 2u);
    const std::uint32_t deeper = depth + 1;
    EXPECT_EQ(test::loadResealed(good.data(), good.size(), info.offset + offsetof(MeshInfo, depth), &deeper,
                                 4, err),
              Status::BlobCorrupt);
    EXPECT_STREQ(err.what, "mesh info depth does not match the tree");
}

// The builder's depth bound: from level max_depth - 27 down it halves ranges instead of taking
// SAH splits. A chain of triangles at geometrically growing distances, whose SAH tree is 24
// levels deep, built with max_depth 30 (halving from level 3), stays within 30 levels; the blob
// (its wide tree no deeper) loads and its closest-hit segments (the walk with the bounded stack)
// equal brute force.
TEST(MeshBlob, DeepInputsBakeWithinTheDepthBound) {
    test::Mesh chain;
    float x = 1.0f;
    for (std::uint32_t k = 0; k < 280; ++k, x *= 1.1f) {
        const std::uint32_t v = static_cast<std::uint32_t>(chain.positions.size());
        chain.positions.push_back(Vec3{x, 0.0f, 0.0f});
        chain.positions.push_back(Vec3{x, 0.05f * x, 0.0f});
        chain.positions.push_back(Vec3{x, 0.0f, 0.05f * x});
        chain.indices.insert(chain.indices.end(), {v, v + 1, v + 2});
    }
    test::BakeSettings settings;
    settings.build.max_leaf = 1;
    settings.build.max_depth = 30;
    settings.prepare.max_abs_coordinate = 1.0e12; // the chain reaches 3.6e11
    const std::vector<unsigned char> bytes = bakeBytes(chain, settings);
    AlignedBytes a(bytes);
    MeshBlob blob;
    BlobError err;
    ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob, &err), Status::Ok) << err.what;
    const bake::BuiltTree built = bake::buildBvh(chain.positions, chain.indices, settings.build);
    EXPECT_LE(built.depth, 30u);
    EXPECT_GE(built.depth, 10u); // 280 triangles halved from level 3: 9 more levels at least
    EXPECT_LE(blob.depth, built.depth);
    ASSERT_NE(blob.stats, nullptr);
    EXPECT_EQ(blob.stats->depth, blob.depth);
    for (std::uint32_t t = 0; t < blob.triangle_count; t += 7) {
        Vec3 v[3];
        triangleVertices(blob, t, v[0], v[1], v[2]);
        const Vec3 mid{(v[0].x + v[1].x + v[2].x) / 3.0f, (v[0].y + v[1].y + v[2].y) / 3.0f,
                       (v[0].z + v[1].z + v[2].z) / 3.0f};
        const float reach = 0.5f * mid.x; // crossing the triangle's plane x = mid.x at any scale
        const Vec3 p0{mid.x - reach, mid.y, mid.z}, p1{mid.x + reach, mid.y, mid.z};
        MeshRayHit hit;
        ASSERT_TRUE(segmentClosestHit(blob, p0, p1, hit)) << t;
        // Brute force: the lowest t, the lowest id of equal t.
        MeshRayHit best;
        bool found = false;
        WatertightRay ray;
        Vec3 d;
        sub(p1, p0, d);
        ASSERT_TRUE(makeWatertightRay(p0, d, 1.0f, ray));
        for (std::uint32_t u = 0; u < blob.triangle_count; ++u) {
            Vec3 w[3];
            triangleVertices(blob, u, w[0], w[1], w[2]);
            RayHit h;
            if (rayTriangleWatertight(ray, w[0], w[1], w[2], h) && (!found || h.t < best.hit.t)) {
                best.hit = h;
                best.triangle = u;
                found = true;
            }
        }
        ASSERT_TRUE(found);
        EXPECT_EQ(hit.triangle, best.triangle) << t;
        EXPECT_EQ(hit.hit.t, best.hit.t) << t;
    }
}

// A tree deeper than kMaxTreeDepth is refused by the baker's writer: a chain of 500 binary nodes,
// each with a one-triangle leaf, collapses to at least 500 / 7 wide levels (a wide node takes at
// most seven leaves and the next node). And by the loader: a baked tree's nodes rewritten as a
// chain, each node one level below the one before it, the triangles in leaves along the way.
TEST(MeshBlob, TreesDeeperThanTheBoundAreRefused) {
    constexpr std::uint32_t kChain = 500;
    bake::SourceMesh mesh;
    for (std::uint32_t k = 0; k <= kChain; ++k) {
        const float x = static_cast<float>(k);
        const std::uint32_t v = static_cast<std::uint32_t>(mesh.positions.size());
        mesh.positions.push_back(Vec3{x, 0.0f, 0.0f});
        mesh.positions.push_back(Vec3{x + 0.5f, 1.0f, 0.0f});
        mesh.positions.push_back(Vec3{x, 0.0f, 1.0f});
        mesh.indices.insert(mesh.indices.end(), {v, v + 1, v + 2});
    }
    bake::BuiltTree tree;
    Aabb all;
    fromPoints(mesh.positions.data(), static_cast<std::uint32_t>(mesh.positions.size()), all);
    const auto add_leaf = [&](std::uint32_t k) { // triangle k alone
        bake::BuiltNode leaf;
        fromPoints(&mesh.positions[3 * k], 3, leaf.bounds);
        leaf.first = k;
        leaf.count = 1;
        tree.nodes.push_back(leaf);
        tree.order.push_back(k);
    };
    for (std::uint32_t k = 0; k < kChain; ++k) { // node k, then its leaf, then node k + 1
        bake::BuiltNode inner;
        inner.bounds = all;
        inner.skip = 2 * (kChain - k) + 1;
        tree.nodes.push_back(inner);
        add_leaf(k);
    }
    add_leaf(kChain);
    tree.leaf_count = kChain + 1;
    tree.depth = kChain + 1;
    std::vector<unsigned char> bytes;
    const bake::BakeError refused = bake::writeBlob(mesh, tree, bake::WriteOptions{}, bytes);
    EXPECT_TRUE(refused.failed());
    EXPECT_NE(refused.message.find("deeper"), std::string::npos) << refused.message;

    // The loader: icosphere(4)'s nodes as one chain (node i's only internal child is node i + 1),
    // every box the whole grid, leaves of up to 16 triangles, seven a node (eight in the last).
    const std::vector<unsigned char> good = bakeBytes(test::icosphere(4));
    AlignedBytes original(good);
    MeshBlob view;
    ASSERT_EQ(loadMeshBlob(original.data(), original.size(), view), Status::Ok);
    const std::uint32_t nodes = view.wide_node_count, tris = view.triangle_count;
    ASSERT_GT(nodes, kMaxTreeDepth);
    ASSERT_GE((nodes - 1u) * 7u + 8u, (tris + 15u) / 16u) << "the chain holds every triangle";
    std::vector<WideNode> chain(nodes);
    std::uint32_t next = 0;
    for (std::uint32_t i = 0; i < nodes; ++i) {
        WideNode& n = chain[i];
        const bool last = i + 1u == nodes;
        std::uint32_t slot = 0;
        // Leave a leaf for the last node, which has no other child.
        while (next < tris && slot < (last ? 8u : 7u) && (last || tris - next > 16u)) {
            const std::uint32_t count = tris - next < 16u ? tris - next : 16u;
            n.child[slot++] = makeLeafInfo(next, count);
            next += count;
        }
        if (!last) n.child[slot++] = i + 1u;
        for (std::uint32_t c = 0; c < kWideChildren; ++c)
            for (int k = 0; k < 3; ++k) {
                n.base[k] = 0;
                n.step[k] = kWideMaxStep;
                n.lo[k][c] = c < slot ? std::uint8_t{0} : std::uint8_t{255};
                n.hi[k][c] = c < slot ? std::uint8_t{255} : std::uint8_t{0};
            }
    }
    ASSERT_EQ(next, tris);
    const std::size_t at = blobSection(test::opened(original), SectionKind::WideNodes).offset;
    BlobError err;
    EXPECT_EQ(test::loadResealed(good.data(), good.size(), at, chain.data(), nodes * sizeof(WideNode), err),
              Status::BlobCorrupt);
    EXPECT_STREQ(err.what, "tree deeper than kMaxTreeDepth");
}

// Every single-byte change (all 255 other values of every byte) and every truncation is refused.
TEST(MeshBlob, EverySingleByteChangeAndTruncationIsRejected) {
    const std::vector<unsigned char> good = bakeBytes(test::icosphere(1)); // 80 triangles
    std::uint64_t cases = 0;
    for (std::size_t at = 0; at < good.size(); ++at) {
        for (int v = 0; v < 256; ++v) {
            if (v == good[at]) continue;
            std::vector<unsigned char> b = good;
            b[at] = static_cast<unsigned char>(v);
            AlignedBytes a(b);
            MeshBlob blob;
            ASSERT_NE(loadMeshBlob(a.data(), a.size(), blob), Status::Ok) << "byte " << at << " = " << v;
            ++cases;
        }
    }
    for (std::size_t size = 0; size < good.size(); ++size) {
        AlignedBytes a(good);
        MeshBlob blob;
        ASSERT_NE(loadMeshBlob(a.data(), size, blob), Status::Ok) << "truncated to " << size;
        ++cases;
    }
    std::printf("[ blob ] %zu bytes: %llu corrupted or truncated forms, all rejected\n", good.size(),
                static_cast<unsigned long long>(cases));
}

// What the walks rely on, each broken alone in a resealed blob: refused with its own message (the
// tree's own checks: LoaderChecksWideTree).
TEST(MeshBlob, LoaderProvesBoxesShapeAndRange) {
    const std::vector<unsigned char> good = bakeBytes(test::torus(12, 8)); // 192 triangles
    MeshBlob view;
    AlignedBytes original(good);
    ASSERT_EQ(loadMeshBlob(original.data(), original.size(), view), Status::Ok);
    ASSERT_GT(view.wide_node_count, 1u);
    auto offset = [&](const void* p) {
        return std::size_t(static_cast<const unsigned char*>(p) - original.data());
    };
    auto refuse = [&](std::size_t at, const void* value, std::size_t bytes, const char* what) {
        BlobError err;
        EXPECT_EQ(test::loadResealed(good.data(), good.size(), at, value, bytes, err), Status::BlobCorrupt)
            << what;
        EXPECT_NE(std::string(err.what).find(what), std::string::npos) << what << ": " << err.what;
    };
    const float far = 2.0e12f;
    refuse(offset(view.vertices), &far, 4, "vertex beyond the format's coordinate range");
    const float huge_step = 1.0e30f; // the grid's far end overflows the range: no sane grid
    const std::size_t info_at = blobSection(test::opened(original), SectionKind::MeshInfo).offset;
    refuse(info_at + offsetof(MeshInfo, scale), &huge_step, 4, "quantization grid beyond");
    // The last triangle's third vertex offset reaching past the vertex array (96 vertices).
    const std::uint8_t beyond = 255;
    refuse(offset(view.triangles + 3u * view.triangle_count - 1u), &beyond, 1,
           "references a vertex past the end");
}

// Meshes whose extent is tiny, down to denormal coordinates, bake (the grid step never goes
// below FLT_MIN; the builder's bins take a position that overflowed as bin 0), load, and answer
// like brute force.
TEST(MeshBlob, TinyAndDenormalExtentsBakeAndAnswerRight) {
    for (const float size : {1.0e-20f, 1.0e-30f, 1.0e-36f, 2.0e-39f}) {
        test::Mesh mesh = test::icosphere(2, 1.0f); // 320 triangles: the binned build
        for (Vec3& p : mesh.positions) scale(p, size, p);
        const std::vector<unsigned char> bytes = bakeBytes(mesh);
        AlignedBytes a(bytes);
        MeshBlob blob;
        BlobError err;
        ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob, &err), Status::Ok) << size << ": " << err.what;
        ASSERT_GT(blob.triangle_count, 0u) << size;
        test::SplitMix64 rng(5);
        for (int q = 0; q < 50; ++q) {
            Vec3 c0, c1;
            set(size * rng.rangef(-1.5f, 1.5f), size * rng.rangef(-1.5f, 1.5f),
                size * rng.rangef(-1.5f, 1.5f), c0);
            set(size * rng.rangef(-1.5f, 1.5f), size * rng.rangef(-1.5f, 1.5f),
                size * rng.rangef(-1.5f, 1.5f), c1);
            Transform shift;
            setIdentity(shift);
            set(size * rng.rangef(-1.0f, 1.0f), 0.0f, 0.0f, shift.translation);
            const char* wrong = test::blobDisagreement(blob, c0, c1, size * rng.rangef(0.0f, 1.0f), shift);
            ASSERT_EQ(wrong, nullptr) << "size " << size << " query " << q << ": " << wrong;
        }
    }
}

// A box 16 wide and 1e-34 tall (the grid step in y is FLT_MIN) crossed by segments that span
// several units in y: their ends lie nearly FLT_MAX grid cells apart, and the span between them
// overflowed to infinity, which closed every node's slab and lost the hits (found by the blob
// fuzz target on a quantized blob, corpus/blob/regress_grid_span_overflow.blob; an exact blob of
// such a mesh lost them too). Exact and quantized vertices, against brute force.
TEST(MeshBlob, SegmentsSpanningAGridOfTinyStepsFindTheirHits) {
    test::Mesh mesh = test::icosphere(1, 1.0f);
    for (Vec3& p : mesh.positions) set(8.0f * (p.x + 1.0f), 1.0e-34f * (p.y + 1.0f), p.z, p);
    for (bool quantized : {false, true}) {
        test::BakeSettings settings;
        settings.write.quantize_vertices = quantized;
        AlignedBytes a(bakeBytes(mesh, settings));
        MeshBlob blob;
        BlobError err;
        ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob, &err), Status::Ok) << err.what;
        ASSERT_EQ(blob.quant_scale.y, FLT_MIN);
        test::SplitMix64 rng(0x5A11);
        int hits = 0;
        for (int q = 0; q < 200; ++q) {
            Vec3 c0, c1;
            set(rng.rangef(-1.0f, 17.0f), rng.rangef(-2.0f, -0.5f), rng.rangef(-1.2f, 1.2f), c0);
            set(rng.rangef(-1.0f, 17.0f), rng.rangef(0.5f, 4.0f), rng.rangef(-1.2f, 1.2f), c1);
            Transform none;
            setIdentity(none);
            const char* wrong = test::blobDisagreement(blob, c0, c1, 0.5f, none);
            ASSERT_EQ(wrong, nullptr)
                << (quantized ? "quantized" : "exact") << " query " << q << ": " << wrong;
            MeshRayHit hit;
            hits += segmentClosestHit(blob, c0, c1, hit) ? 1 : 0;
        }
        EXPECT_GT(hits, 50) << (quantized ? "quantized" : "exact");
    }
}

// A denormal tetrahedron whose first face is repeated 300 times (the mesh of an OBJ the fuzz
// target built, corpus/obj/regress_denormal_binning.obj): the builder's bins see centroid spans
// whose reciprocal overflows, and the bake stays sound. (The float-to-integer conversion it made
// out of range shows under clang's UBSan, which the fuzz build uses; GCC's does not check it.)
TEST(MeshBlob, DenormalTetrahedronWithRepeatedFacesBakes) {
    test::Mesh mesh;
    mesh.positions = {Vec3{0.0f, 0.0f, 0.0f}, Vec3{1.0e-39f, 0.0f, 0.0f}, Vec3{0.0f, 1.0e-39f, 0.0f},
                      Vec3{0.0f, 0.0f, 1.0e-39f}};
    mesh.indices = {0, 1, 2, 0, 1, 3, 1, 2, 3};
    for (int k = 0; k < 300; ++k) mesh.indices.insert(mesh.indices.end(), {0u, 1u, 2u});
    expectSound(bakeBytes(mesh), "denormal", 303);
}

// A valid blob the baker would not write: a leaf box one step looser. It loads (answers stay
// right) and verify reports the loose box.
TEST(MeshBlob, VerifyReportsWhatTheLoaderLeavesOut) {
    const std::vector<unsigned char> good = bakeBytes(test::torus(12, 8));
    AlignedBytes original(good);
    MeshBlob view;
    ASSERT_EQ(loadMeshBlob(original.data(), original.size(), view), Status::Ok);
    EXPECT_TRUE(bake::deepVerify(test::opened(original)).empty());
    // A leaf child whose box can grow by one step inside its node's frame.
    std::uint32_t node = view.wide_node_count, slot = 0;
    for (std::uint32_t i = 0; i < view.wide_node_count && node == view.wide_node_count; ++i) {
        const WideNode& n = view.wide_nodes[i];
        for (std::uint32_t c = 0; c < wideCount(n) && node == view.wide_node_count; ++c)
            if ((n.child[c] & kLeafBit) != 0 && n.lo[0][c] > 0u) node = i, slot = c;
    }
    ASSERT_LT(node, view.wide_node_count);
    const std::uint8_t looser = static_cast<std::uint8_t>(view.wide_nodes[node].lo[0][slot] - 1u);
    AlignedBytes a(test::resealed(
        good.data(), good.size(),
        std::size_t(reinterpret_cast<const unsigned char*>(&view.wide_nodes[node].lo[0][slot]) -
                    original.data()),
        &looser, 1));
    MeshBlob loose;
    ASSERT_EQ(loadMeshBlob(a.data(), a.size(), loose), Status::Ok);
    const std::vector<std::string> problems = bake::deepVerify(test::opened(a));
    ASSERT_FALSE(problems.empty());
    EXPECT_NE(problems[0].find("node " + std::to_string(node) + ": child boxes are not the tightest"),
              std::string::npos)
        << problems[0];
}

// Corruptions with the checksum recomputed (a pipeline that re-seals what it damaged): only the
// structural validation stands between them and the queries. Each is refused, or loads and is
// walked and queried safely (ASan and UBSan watch in the sanitize build).
TEST(MeshBlob, ResealedCorruptionIsRejectedOrSafe) {
    const std::vector<unsigned char> good = bakeBytes(test::torus(6, 4)); // 48 triangles
    test::SplitMix64 rng(0xC0FFEEu);
    std::uint64_t rejected = 0, accepted = 0;
    // Every other value of every byte (under an emulator every FLAK_CASE_DIVISOR-th value,
    // starting at a random one), the checksum recomputed so the change reaches the structural
    // checks; what loads is walked and queried with every query kind.
    const int step = static_cast<int>(test::caseDivisor() < 255 ? test::caseDivisor() : 255);
    for (std::size_t at = 0; at < good.size(); ++at) {
        if (at >= offsetof(BlobHeader, checksum) && at < offsetof(BlobHeader, checksum) + 8) continue;
        for (int v = static_cast<int>(rng.next() % static_cast<std::uint64_t>(step)); v < 256; v += step) {
            if (v == good[at]) continue;
            std::vector<unsigned char> b = good;
            b[at] = static_cast<unsigned char>(v);
            const std::uint64_t sum = blobChecksum(b.data(), b.size());
            std::memcpy(b.data() + offsetof(BlobHeader, checksum), &sum, 8);
            AlignedBytes a(b);
            MeshBlob blob;
            if (loadMeshBlob(a.data(), a.size(), blob) == Status::Ok) {
                ++accepted;
                walkAll(blob);
                // Queries too: the grid conversions must stay defined on whatever was accepted.
                Transform shifted;
                setIdentity(shifted);
                set(0.25f, 0.0f, 0.0f, shifted.translation);
                (void)meshMeshAnyContact(blob, blob, shifted);
                const Sphere ball{blob.quant_origin, 1.0f};
                (void)sphereAnyHit(blob, ball);
                MeshContact contacts[4];
                OutBuffer<MeshContact> cb{contacts, 4, 0, 0};
                (void)sphereAllHits(blob, ball, cb);
                MeshRayHit hit;
                Vec3 far;
                set(blob.quant_origin.x + 3.0f, blob.quant_origin.y + 2.0f, blob.quant_origin.z + 1.0f, far);
                (void)segmentClosestHit(blob, blob.quant_origin, far, hit);
                (void)sweptSphereFirstHit(blob, blob.quant_origin, far, 0.5f, hit);
                std::uint32_t ids[4];
                OutBuffer<std::uint32_t> tb{ids, 4, 0, 0};
                Aabb box;
                set(-1.0f, -1.0f, -1.0f, box.min);
                set(1.0f, 1.0f, 1.0f, box.max);
                (void)aabbOverlapTriangles(blob, box, tb);
                TrianglePair pairs[4];
                OutBuffer<TrianglePair> pb{pairs, 4, 0, 0};
                (void)meshMeshPairs(blob, blob, shifted, pb);
                // And what loads answers like brute force over the triangles it holds.
                Vec3 c0 = blob.quant_origin, c1;
                set(c0.x + 0.7f * (blob.bounds.max.x - c0.x), c0.y + 0.5f * (blob.bounds.max.y - c0.y),
                    c0.z + 0.6f * (blob.bounds.max.z - c0.z), c1);
                for (int q = 0; q < 3; ++q) {
                    const float u = 0.2f + 0.3f * static_cast<float>(q);
                    Vec3 p0;
                    set(c0.x + u * (c1.x - c0.x), c0.y + (1.0f - u) * (c1.y - c0.y), c1.z, p0);
                    const char* wrong = test::blobDisagreement(blob, p0, c1, 0.4f + u, shifted);
                    if (wrong != nullptr) {
                        ADD_FAILURE() << "byte " << at << " = " << v << " loads but " << wrong
                                      << " disagrees with brute force";
                        return;
                    }
                }
            } else {
                ++rejected;
            }
        }
    }
    std::printf("[ blob ] resealed corruptions: %llu rejected, %llu accepted and walked safely\n",
                static_cast<unsigned long long>(rejected), static_cast<unsigned long long>(accepted));
    EXPECT_GT(rejected, 0u);
}

} // namespace
} // namespace flak

#if defined(FLAK_TEST_TETRA_BLOB)
namespace flak {
namespace {

// Baked during the build by the flak_bake() CMake function, read back as a game would.
TEST(MeshBlob, BlobBakedByTheCMakeFunctionLoads) {
    const std::vector<unsigned char> bytes = test::readBytes(FLAK_TEST_TETRA_BLOB);
    ASSERT_FALSE(bytes.empty()) << FLAK_TEST_TETRA_BLOB;
    test::AlignedBytes a(bytes);
    MeshBlob blob;
    ASSERT_EQ(loadMeshBlob(a.data(), a.size(), blob), Status::Ok);
    EXPECT_EQ(blob.triangle_count, 4u);
    EXPECT_TRUE(bake::deepVerify(test::opened(a)).empty());
}

} // namespace
} // namespace flak
#endif

#if defined(FLAK_FUZZ_BLOB_SEEDS)
namespace flak {
namespace {

// The blob fuzz target's seeds are of this build's layout: each, resealed (a seed may break its
// checksum on purpose) and swapped to this host's order, opens, and a mesh's MeshInfo carries the
// mesh layout hash. A seed of an older layout stops at the header and teaches the fuzzer nothing.
TEST(MeshBlob, FuzzSeedsAreOfThisLayout) {
    int seeds = 0;
    for (const auto& entry : std::filesystem::directory_iterator(FLAK_FUZZ_BLOB_SEEDS)) {
        std::vector<unsigned char> bytes = test::readBytes(entry.path().c_str());
        ASSERT_GE(bytes.size(), sizeof(BlobHeader)) << entry.path();
        std::uint32_t marker;
        std::memcpy(&marker, bytes.data() + offsetof(BlobHeader, endian_marker), 4);
        std::uint64_t sum = blobChecksum(bytes.data(), bytes.size()); // stored in the blob's order
        if (marker != kBlobEndianMarker) sum = __builtin_bswap64(sum);
        std::memcpy(bytes.data() + offsetof(BlobHeader, checksum), &sum, 8);
        test::AlignedBytes a(bytes);
        BlobError error;
        ASSERT_EQ(swapBlobByteOrder(a.data(), a.size(), &error), Status::Ok)
            << entry.path() << ": " << error.what;
        Blob blob;
        ASSERT_EQ(openBlob(a.data(), a.size(), blob, &error), Status::Ok)
            << entry.path() << ": " << error.what;
        const BlobSection info = blobSection(blob, SectionKind::MeshInfo);
        if (info.data != nullptr) {
            EXPECT_EQ(static_cast<const MeshInfo*>(info.data)->layout_hash, meshLayoutHash()) << entry.path();
        }
        ++seeds;
    }
    EXPECT_GE(seeds, 10);
}

} // namespace
} // namespace flak
#endif

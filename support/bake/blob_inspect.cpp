#include "blob_inspect.h"

#include "blob_write.h"
#include "wall_build.h"
#include "wide_collapse.h"

#include <flak/shooter/wall_set.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

namespace flak::bake {

BlobSummary summarize(const Blob& whole, bool big_endian) {
    BlobSummary s;
    MeshBlob blob;
    (void)loadOptionalMesh(whole, blob);
    s.triangles = blob.triangle_count;
    s.vertices = blob.vertex_count;
    s.nodes = blob.wide_node_count;
    s.depth = blob.depth;
    s.bytes = whole.total_bytes;
    s.bytes_per_triangle = blob.triangle_count ? double(s.bytes) / blob.triangle_count : 0.0;
    for (std::uint32_t i = 0; i < blob.wide_node_count; ++i)
        for (std::uint32_t c = 0; c < wideCount(blob.wide_nodes[i]); ++c)
            s.leaves += (blob.wide_nodes[i].child[c] & kLeafBit) != 0 ? 1u : 0u;
    if (blob.stats != nullptr) {
        s.sah_cost = blob.stats->sah_cost;
        s.dropped_degenerate = blob.stats->dropped_degenerate;
        s.welded_vertices = blob.stats->welded_vertices;
        s.copied_vertices = blob.stats->copied_vertices;
        s.source_triangles = blob.stats->source_triangles;
        s.max_leaf = blob.stats->max_leaf_triangles;
    }
    s.big_endian = big_endian;
    s.quantized_vertices = blob.quantized_vertices != nullptr;
    s.grid_step = blob.quant_scale;
    s.bounds = blob.bounds;
    return s;
}

namespace {

// The bounds as a JSON array, or null for a blob without triangles (its box is empty).
std::string boundsJson(const BlobSummary& s) {
    if (s.triangles == 0) return "null";
    char buf[160];
    std::snprintf(buf, sizeof(buf), "[%.9g, %.9g, %.9g, %.9g, %.9g, %.9g]", double(s.bounds.min.x),
                  double(s.bounds.min.y), double(s.bounds.min.z), double(s.bounds.max.x),
                  double(s.bounds.max.y), double(s.bounds.max.z));
    return buf;
}

} // namespace

std::string toJson(const BlobSummary& s) {
    char buf[1024];
    std::snprintf(
        buf, sizeof(buf),
        "{\"triangles\": %u, \"vertices\": %u, \"bytes\": %llu, \"bytes_per_triangle\": %.3f, "
        "\"nodes\": %u, \"leaves\": %u, \"depth\": %u, \"sah_cost\": %.3f, "
        "\"build_seconds\": %.6f, "
        "\"dropped_degenerate\": %u, \"welded_vertices\": %u, \"copied_vertices\": %u, "
        "\"source_triangles\": %u, \"max_leaf\": %u, \"endian\": \"%s\", \"vertices_mode\": \"%s\", "
        "\"grid_step\": [%.9g, %.9g, %.9g], \"bounds\": %s}",
        s.triangles, s.vertices, static_cast<unsigned long long>(s.bytes), s.bytes_per_triangle, s.nodes,
        s.leaves, s.depth, s.sah_cost, s.build_seconds, s.dropped_degenerate, s.welded_vertices,
        s.copied_vertices, s.source_triangles, s.max_leaf, s.big_endian ? "big" : "little",
        s.quantized_vertices ? "quantized" : "exact", double(s.grid_step.x), double(s.grid_step.y),
        double(s.grid_step.z), boundsJson(s).c_str());
    return buf;
}

std::string toText(const BlobSummary& s) {
    char buf[1024];
    std::snprintf(buf, sizeof(buf),
                  "triangles        %u (source %u, dropped degenerate %u)\n"
                  "vertices         %u (%s; welded %u, window copies %u)\n"
                  "bytes            %llu (%.2f per triangle, %s-endian)\n"
                  "nodes            %u (up to 8 children; %u leaves of at most %u triangles, depth %u)\n"
                  "SAH cost         %.2f\n"
                  "grid step        %.9g %.9g %.9g\n"
                  "bounds           %s\n",
                  s.triangles, s.source_triangles, s.dropped_degenerate, s.vertices,
                  s.quantized_vertices ? "quantized" : "exact", s.welded_vertices, s.copied_vertices,
                  static_cast<unsigned long long>(s.bytes), s.bytes_per_triangle,
                  s.big_endian ? "big" : "little", s.nodes, s.leaves, s.max_leaf, s.depth, s.sah_cost,
                  double(s.grid_step.x), double(s.grid_step.y), double(s.grid_step.z), boundsJson(s).c_str());
    return buf;
}

std::vector<std::string> deepVerify(const Blob& whole, std::size_t limit) {
    std::vector<std::string> problems;
    MeshBlob blob;
    (void)loadOptionalMesh(whole, blob);
    auto report = [&](const std::string& p) {
        if (problems.size() < limit) problems.push_back(p);
    };
    // Tight boxes, as the baker writes them: a leaf's grid box is the tightest around its
    // triangles (quantizeBound), an inner child's the union of its node's children's; each node
    // stores its children's boxes as the steps of its frame that hold them (setWideBoxes), the
    // frame being the root's box or the box the parent's slot decodes to. (The loader proved
    // containment; a loose box costs speed only.)
    std::uint32_t leaves = 0, largest = 0;
    std::vector<std::array<BvhNode, kWideChildren>> tight(blob.wide_node_count);
    std::vector<BvhNode> whole_box(blob.wide_node_count);    // each node's tight box, the union
    for (std::uint32_t i = blob.wide_node_count; i-- > 0;) { // children after their parent
        const WideNode& n = blob.wide_nodes[i];
        BvhNode& all = whole_box[i];
        for (int a = 0; a < 3; ++a) all.lo[a] = 0xFFFF, all.hi[a] = 0;
        for (std::uint32_t c = 0; c < wideCount(n); ++c) {
            BvhNode& box = tight[i][c];
            if ((n.child[c] & kLeafBit) != 0) {
                ++leaves;
                const std::uint32_t first = leafInfoFirst(n.child[c]), count = leafInfoCount(n.child[c]);
                largest = std::max(largest, count);
                Aabb bounds;
                setEmpty(bounds);
                for (std::uint32_t t = first; t < first + count; ++t) {
                    Vec3 v[3];
                    triangleVertices(blob, t, v[0], v[1], v[2]);
                    for (const Vec3& p : v) expand(p, bounds);
                }
                for (int a = 0; a < 3; ++a) {
                    box.lo[a] =
                        quantizeBound(bounds.min[a], blob.quant_origin[a], blob.quant_scale[a], false);
                    box.hi[a] = quantizeBound(bounds.max[a], blob.quant_origin[a], blob.quant_scale[a], true);
                }
            } else {
                box = whole_box[n.child[c]];
            }
            for (int a = 0; a < 3; ++a) {
                all.lo[a] = std::min(all.lo[a], box.lo[a]);
                all.hi[a] = std::max(all.hi[a], box.hi[a]);
            }
        }
    }
    std::vector<BvhNode> frame(blob.wide_node_count);
    if (blob.wide_node_count > 0) frame[0] = whole_box[0];
    for (std::uint32_t i = 0; i < blob.wide_node_count; ++i) {
        const WideNode& n = blob.wide_nodes[i];
        WideNode want = n;
        bake::setWideBoxes(frame[i].lo, frame[i].hi, tight[i].data(), wideCount(n), want);
        if (std::memcmp(want.base, n.base, sizeof n.base) != 0 ||
            std::memcmp(want.step, n.step, sizeof n.step) != 0)
            report("node " + std::to_string(i) + ": frame is not its box in the parent with the least step");
        else if (std::memcmp(want.lo, n.lo, sizeof n.lo) != 0 || std::memcmp(want.hi, n.hi, sizeof n.hi) != 0)
            report("node " + std::to_string(i) + ": child boxes are not the tightest in its frame");
        for (std::uint32_t c = 0; c < wideCount(n); ++c)
            if ((n.child[c] & kLeafBit) == 0) frame[n.child[c]] = wideChildNode(n, c);
    }
    // The build statistics, where the blob carries them, describe this tree.
    if (blob.stats != nullptr && blob.triangle_count > 0) {
        if (blob.stats->node_count != blob.wide_node_count || blob.stats->leaf_count != leaves ||
            blob.stats->depth != blob.depth || largest > blob.stats->max_leaf_triangles)
            report("the build statistics do not describe the tree (nodes, leaves, depth or leaf size)");
    }
    // The walls as a level: each ring simple, the rings disjoint, holes inside their outer ring,
    // by the baker's own checks (loadWallSet proved the trees, not the polygons).
    WallSet walls;
    if (loadWallSet(whole, walls) == Status::Ok && walls.ring_count > 0) {
        std::vector<WallPolygon> polygons(walls.polygon_count);
        for (std::uint32_t r = 0; r < walls.ring_count; ++r) {
            const WallRing& ring = walls.rings[r];
            WallPolygon& p = polygons[ring.polygon];
            p.name = "polygon " + std::to_string(ring.polygon);
            p.rings.emplace_back(walls.points + ring.first_point,
                                 walls.points + ring.first_point + ring.point_count);
        }
        WallBuildOptions options;
        options.max_abs_coordinate = kMaxBlobCoordinate;
        std::vector<std::uint32_t> words;
        if (const BakeError e = buildWallSection(polygons, options, words); e.failed())
            report("walls: " + e.message);
        // Each ring's edges once in the edge array and once in the inside tree's leaves: the
        // loader proves every reference in range, not that none is repeated or left out (the edge
        // queries would answer over the edges held, the inside test over the rings the tree names).
        std::vector<std::uint8_t> edge_uses(walls.point_count, 0), inside_uses(walls.point_count, 0);
        const auto use = [](std::uint8_t& n) { n = static_cast<std::uint8_t>(std::min(n + 1, 2)); };
        for (std::uint32_t e = 0; e < walls.point_count; ++e)
            use(edge_uses[walls.rings[walls.edges[e].ring].first_point + walls.edges[e].index]);
        for (std::uint32_t i = 0; i < walls.inside_node_count; ++i) {
            const std::uint32_t info = walls.inside_nodes[i].info;
            if ((info & kLeafBit) == 0) continue;
            for (std::uint32_t p = leafInfoFirst(info); p < leafInfoFirst(info) + leafInfoCount(info); ++p)
                use(inside_uses[p]);
        }
        const auto covered_once = [&](const std::vector<std::uint8_t>& uses, const char* what) {
            for (std::uint32_t r = 0; r < walls.ring_count; ++r)
                for (std::uint32_t k = 0; k < walls.rings[r].point_count; ++k)
                    if (const std::uint8_t n = uses[walls.rings[r].first_point + k]; n != 1) {
                        report("walls: " + std::string(what) + (n == 0 ? " leave out" : " repeat") +
                               " edge " + std::to_string(k) + " of ring " + std::to_string(r));
                        return;
                    }
        };
        covered_once(edge_uses, "the edges");
        covered_once(inside_uses, "the inside tree's leaves");
    }
    return problems;
}

Status loadOptionalMesh(const Blob& blob, MeshBlob& out, BlobError* error) {
    const Status status = loadMeshBlob(blob, out, error);
    if (status != Status::InvalidArgument) return status;
    // No mesh sections (loadMeshBlob's only InvalidArgument): an empty mesh.
    out = MeshBlob{};
    setEmpty(out.bounds);
    if (error != nullptr) *error = BlobError{};
    return Status::Ok;
}

Status loadAnyOrder(const std::vector<unsigned char>& bytes, std::vector<unsigned char>& storage, Blob& out,
                    BlobError& error, bool& out_was_foreign) {
    // A 16-aligned private copy: vectors of bytes are not guaranteed to be aligned for the view.
    storage.assign(bytes.size() + 16, 0);
    const std::size_t shift = (16 - (reinterpret_cast<std::uintptr_t>(storage.data()) & 15u)) & 15u;
    unsigned char* data = storage.data() + shift;
    std::memcpy(data, bytes.data(), bytes.size());
    out_was_foreign = false;
    Status status = openBlob(data, bytes.size(), out, &error);
    if (status == Status::BlobWrongEndian) {
        out_was_foreign = true;
        status = swapBlobByteOrder(data, bytes.size(), &error);
        if (status == Status::Ok) status = openBlob(data, bytes.size(), out, &error);
    }
    // Each section is validated by its own view: a tool takes a blob only whole.
    if (status == Status::Ok) {
        MeshBlob mesh;
        status = loadOptionalMesh(out, mesh, &error);
    }
    if (status == Status::Ok && blobSection(out, SectionKind::SphereCluster).data != nullptr) {
        SphereCluster cluster;
        status = loadSphereCluster(out, cluster, &error);
    }
    if (status == Status::Ok && blobSection(out, SectionKind::Walls).data != nullptr) {
        WallSet walls;
        status = loadWallSet(out, walls, &error);
    }
    if (status != Status::Ok) out = Blob{};
    return status;
}

} // namespace flak::bake

#include "blob_inspect.h"

#include <flak/shooter/wall_set.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace flak::bake {

BlobSummary summarize(const MeshBlob& blob, bool big_endian) {
    BlobSummary s;
    s.triangles = blob.triangle_count;
    s.vertices = blob.vertex_count;
    s.nodes = blob.node_count;
    s.bytes = blob.header->total_bytes;
    s.bytes_per_triangle = blob.triangle_count ? double(s.bytes) / blob.triangle_count : 0.0;
    for (std::uint32_t i = 0; i < blob.node_count; ++i) s.leaves += isLeaf(blob.nodes[i]) ? 1u : 0u;
    if (blob.stats != nullptr) {
        s.depth = blob.stats->depth;
        s.sah_cost = blob.stats->sah_cost;
        s.dropped_degenerate = blob.stats->dropped_degenerate;
        s.welded_vertices = blob.stats->welded_vertices;
        s.copied_vertices = blob.stats->copied_vertices;
        s.source_triangles = blob.stats->source_triangles;
        s.max_leaf = blob.stats->max_leaf_triangles;
    }
    s.big_endian = big_endian;
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
        "\"nodes\": %u, \"leaves\": %u, \"depth\": %u, \"sah_cost\": %.3f, \"build_seconds\": %.6f, "
        "\"dropped_degenerate\": %u, \"welded_vertices\": %u, \"copied_vertices\": %u, "
        "\"source_triangles\": %u, \"max_leaf\": %u, \"endian\": \"%s\", "
        "\"bounds\": %s}",
        s.triangles, s.vertices, static_cast<unsigned long long>(s.bytes), s.bytes_per_triangle, s.nodes,
        s.leaves, s.depth, s.sah_cost, s.build_seconds, s.dropped_degenerate, s.welded_vertices,
        s.copied_vertices, s.source_triangles, s.max_leaf, s.big_endian ? "big" : "little",
        boundsJson(s).c_str());
    return buf;
}

std::string toText(const BlobSummary& s) {
    char buf[1024];
    std::snprintf(buf, sizeof(buf),
                  "triangles        %u (source %u, dropped degenerate %u)\n"
                  "vertices         %u (welded %u, window copies %u)\n"
                  "bytes            %llu (%.2f per triangle, %s-endian)\n"
                  "nodes            %u (%u leaves of at most %u triangles, depth %u)\n"
                  "SAH cost         %.2f\n"
                  "bounds           %s\n",
                  s.triangles, s.source_triangles, s.dropped_degenerate, s.vertices, s.welded_vertices,
                  s.copied_vertices, static_cast<unsigned long long>(s.bytes), s.bytes_per_triangle,
                  s.big_endian ? "big" : "little", s.nodes, s.leaves, s.max_leaf, s.depth, s.sah_cost,
                  boundsJson(s).c_str());
    return buf;
}

std::vector<std::string> deepVerify(const MeshBlob& blob, std::size_t limit) {
    std::vector<std::string> problems;
    auto report = [&](const std::string& p) {
        if (problems.size() < limit) problems.push_back(p);
    };
    std::vector<std::uint32_t> reached(blob.triangle_count, 0);
    // Proper tree: walk with an explicit stack of open ranges; each internal node's children must
    // tile [i + 1, i + skip) exactly.
    struct Open {
        std::uint32_t node, end;
    };
    std::vector<Open> open;
    for (std::uint32_t i = 0; i < blob.node_count; ++i) {
        while (!open.empty() && open.back().end == i) open.pop_back();
        const BvhNode& n = blob.nodes[i];
        const std::uint32_t end = i + skipOf(n);
        if (!open.empty() && end > open.back().end)
            report("node " + std::to_string(i) + " runs past its parent " + std::to_string(open.back().node));
        Aabb box;
        nodeBounds(blob, n, box);
        if (!open.empty()) {
            Aabb parent;
            nodeBounds(blob, blob.nodes[open.back().node], parent);
            if (!contains(parent, box))
                report("node " + std::to_string(i) + " box not inside its parent's box");
        } else if (i != 0) {
            report("node " + std::to_string(i) + " lies outside the root's subtree");
        }
        if (isLeaf(n)) {
            for (std::uint32_t t = leafFirst(n); t < leafFirst(n) + leafCount(n) && t < blob.triangle_count;
                 ++t) {
                ++reached[t];
                Vec3 a, b, c;
                triangleVertices(blob, t, a, b, c);
                if (!contains(box, a) || !contains(box, b) || !contains(box, c))
                    report("triangle " + std::to_string(t) + " not inside its leaf box (node " +
                           std::to_string(i) + ")");
            }
        } else {
            open.push_back({i, end});
        }
    }
    for (std::uint32_t t = 0; t < blob.triangle_count; ++t)
        if (reached[t] != 1)
            report("triangle " + std::to_string(t) + " reached " + std::to_string(reached[t]) + " times");

    // The wall tree, the same way: children inside parents, every edge in its leaf's box, every
    // (ring, edge) exactly once.
    WallSet walls;
    if (loadWallSet(blob, walls) == Status::Ok) {
        std::vector<std::uint32_t> edge_seen(walls.point_count, 0);
        std::vector<Open> wall_open;
        auto inside = [](const WallNode& outer, float x0, float y0, float x1, float y1) {
            return outer.min[0] <= x0 && outer.min[1] <= y0 && x1 <= outer.max[0] && y1 <= outer.max[1];
        };
        for (std::uint32_t i = 0; i < walls.node_count; ++i) {
            while (!wall_open.empty() && wall_open.back().end == i) wall_open.pop_back();
            const WallNode& n = walls.nodes[i];
            const bool leaf = (n.info & kLeafBit) != 0;
            const std::uint32_t end = i + (leaf ? 1u : n.info);
            if (!wall_open.empty()) {
                if (end > wall_open.back().end)
                    report("wall node " + std::to_string(i) + " runs past its parent");
                if (!inside(walls.nodes[wall_open.back().node], n.min[0], n.min[1], n.max[0], n.max[1]))
                    report("wall node " + std::to_string(i) + " box not inside its parent's box");
            } else if (i != 0) {
                report("wall node " + std::to_string(i) + " lies outside the root's subtree");
            }
            if (leaf) {
                const std::uint32_t first = n.info & 0x03FFFFFFu, count = ((n.info >> 26) & 0x1Fu) + 1u;
                for (std::uint32_t e = first; e < first + count && e < walls.point_count; ++e) {
                    Vec2 a, b;
                    wallEdgePoints(walls, e, a, b);
                    if (!inside(n, std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x),
                                std::max(a.y, b.y)))
                        report("wall edge " + std::to_string(e) + " not inside its leaf box");
                    ++edge_seen[walls.rings[walls.edges[e].ring].first_point + walls.edges[e].index];
                }
            } else {
                wall_open.push_back({i, end});
            }
        }
        for (std::uint32_t p = 0; p < walls.point_count; ++p)
            if (edge_seen[p] != 1)
                report("wall edge of point " + std::to_string(p) + " reached " +
                       std::to_string(edge_seen[p]) + " times");

        // The inside tree: children inside parents, every edge in its leaf's box and reached once,
        // and a node flagged whole-rings reaching every edge of each ring it reaches.
        std::vector<std::uint32_t> point_seen(walls.point_count, 0);
        std::vector<Open> in_open;
        struct Reach {
            std::uint32_t node, end;
            std::vector<std::uint32_t> per_ring;
        };
        std::vector<Reach> whole_open;
        auto inBox = [](const WallInsideNode& outer, float x0, float y0, float x1, float y1) {
            return outer.min[0] <= x0 && outer.min[1] <= y0 && x1 <= outer.max[0] && y1 <= outer.max[1];
        };
        auto closeWhole = [&](const Reach& r) {
            for (std::uint32_t ring = 0; ring < walls.ring_count; ++ring)
                if (r.per_ring[ring] != 0 && r.per_ring[ring] != walls.rings[ring].point_count)
                    report("wall inside node " + std::to_string(r.node) +
                           " flagged whole holds part of ring " + std::to_string(ring));
        };
        for (std::uint32_t i = 0; i < walls.inside_node_count; ++i) {
            while (!in_open.empty() && in_open.back().end == i) in_open.pop_back();
            while (!whole_open.empty() && whole_open.back().end == i) {
                closeWhole(whole_open.back());
                whole_open.pop_back();
            }
            const WallInsideNode& n = walls.inside_nodes[i];
            const bool leaf = (n.info & kLeafBit) != 0;
            const std::uint32_t end = i + (leaf ? 1u : n.info);
            if (!in_open.empty()) {
                if (end > in_open.back().end)
                    report("wall inside node " + std::to_string(i) + " runs past its parent");
                if (!inBox(walls.inside_nodes[in_open.back().node], n.min[0], n.min[1], n.max[0], n.max[1]))
                    report("wall inside node " + std::to_string(i) + " box not inside its parent's box");
            } else if (i != 0) {
                report("wall inside node " + std::to_string(i) + " lies outside the root's subtree");
            }
            if ((n.ring & kWallWholeRings) != 0)
                whole_open.push_back({i, end, std::vector<std::uint32_t>(walls.ring_count, 0)});
            if (leaf) {
                const std::uint32_t ring = n.ring & ~kWallWholeRings;
                const std::uint32_t first = n.info & 0x03FFFFFFu, count = ((n.info >> 26) & 0x1Fu) + 1u;
                if (ring >= walls.ring_count) continue;
                const WallRing& r = walls.rings[ring];
                for (std::uint32_t p = first; p < first + count && p < r.first_point + r.point_count; ++p) {
                    const Vec2& a = walls.points[p];
                    const Vec2& b =
                        walls.points[p + 1 == r.first_point + r.point_count ? r.first_point : p + 1];
                    if (!inBox(n, std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x),
                               std::max(a.y, b.y)))
                        report("wall inside edge of point " + std::to_string(p) + " not inside its leaf box");
                    ++point_seen[p];
                    for (Reach& w : whole_open) ++w.per_ring[ring];
                }
            } else {
                in_open.push_back({i, end});
            }
        }
        for (; !whole_open.empty(); whole_open.pop_back()) closeWhole(whole_open.back());
        for (std::uint32_t p = 0; p < walls.point_count; ++p)
            if (point_seen[p] != 1)
                report("wall inside edge of point " + std::to_string(p) + " reached " +
                       std::to_string(point_seen[p]) + " times");
    }
    return problems;
}

Status loadAnyOrder(const std::vector<unsigned char>& bytes, std::vector<unsigned char>& storage,
                    MeshBlob& out, BlobError& error, bool& out_was_foreign) {
    // A 16-aligned private copy: vectors of bytes are not guaranteed to be aligned for the view.
    storage.assign(bytes.size() + 16, 0);
    const std::size_t shift = (16 - (reinterpret_cast<std::uintptr_t>(storage.data()) & 15u)) & 15u;
    unsigned char* data = storage.data() + shift;
    std::memcpy(data, bytes.data(), bytes.size());
    out_was_foreign = false;
    Status status = loadMeshBlob(data, bytes.size(), out, &error);
    if (status == Status::BlobWrongEndian) {
        out_was_foreign = true;
        status = swapBlobByteOrder(data, bytes.size(), &error);
        if (status == Status::Ok) status = loadMeshBlob(data, bytes.size(), out, &error);
    }
    return status;
}

} // namespace flak::bake

#include "blob/blob_read.h"
#include "bvh/skip_tree.h"

#include <flak/bvh/mesh_blob.h>

#include <cfloat>
#include <cmath>
#include <initializer_list>

namespace flak {

using detail::fail;

namespace {

template <typename T> const T* sectionPointer(const Blob& blob, SectionKind kind, std::uint32_t& out_count) {
    const BlobSection s = blobSection(blob, kind);
    out_count = s.count;
    return static_cast<const T*>(s.data);
}

// The quantization grid: every origin within the coordinate range, and the grid's far end
// (origin + 65535 steps, decoded as the walks decode) finite and within twice the range, so no
// decoded box leaves the range the kernels are exact for. (The scale itself is checked with the
// header: 0 or a normal float.)
bool saneGrid(const MeshBlob& b) {
    for (int a = 0; a < 3; ++a) {
        const float top = b.quant_origin[a] + 65535.0f * b.quant_scale[a];
        if (!detail::inBlobRange(b.quant_origin[a]) || !(top <= 2.0f * kMaxBlobCoordinate)) return false;
    }
    return true;
}

// Whether `parent`'s quantized box contains `child`'s (decoding is monotone in the grid step).
bool containsNode(const BvhNode& parent, const BvhNode& child) {
    for (int a = 0; a < 3; ++a)
        if (child.lo[a] < parent.lo[a] || child.hi[a] > parent.hi[a]) return false;
    return true;
}

// Whether every vertex of triangles [first, first + count) lies in the grid box [lo, hi] as the
// walks decode it (origin + g * scale per axis).
bool boxHoldsTriangles(const MeshBlob& b, const std::int32_t lo[3], const std::int32_t hi[3],
                       std::uint32_t first, std::uint32_t count) {
    float min[3], max[3];
    for (int a = 0; a < 3; ++a) {
        min[a] = b.quant_origin[a] + static_cast<float>(lo[a]) * b.quant_scale[a];
        max[a] = b.quant_origin[a] + static_cast<float>(hi[a]) * b.quant_scale[a];
    }
    for (std::uint32_t t = first; t < first + count; ++t) {
        Vec3 v[3];
        triangleVertices(b, t, v[0], v[1], v[2]);
        for (const Vec3& p : v)
            for (int a = 0; a < 3; ++a)
                if (!(p[a] >= min[a] && p[a] <= max[a])) return false;
    }
    return true;
}

// Whether every vertex of a leaf's triangles lies in the leaf's box as the walks decode it
// (nodeBounds): then every box a walk tests bounds everything under it.
bool leafHoldsTriangles(const MeshBlob& b, const BvhNode& leaf) {
    const std::int32_t lo[3] = {leaf.lo[0], leaf.lo[1], leaf.lo[2]};
    const std::int32_t hi[3] = {leaf.hi[0], leaf.hi[1], leaf.hi[2]};
    return boxHoldsTriangles(b, lo, hi, leafFirst(leaf), leafCount(leaf));
}

// The depth of a tree whose shape is proved (root = 1, 0 without nodes) into out_depth; false when
// it is deeper than kMaxTreeDepth, the bound of every walk that keeps a stack.
bool treeDepthWithin(const MeshBlob& b, std::uint32_t& out_depth) {
    std::uint32_t ends[kMaxTreeDepth]; // subtree ends of the open ancestors
    std::uint32_t open = 0;
    out_depth = 0;
    for (std::uint32_t i = 0; i < b.node_count; ++i) {
        while (open > 0 && ends[open - 1] <= i) --open;
        if (open == kMaxTreeDepth) return false;
        ends[open++] = i + skipOf(b.nodes[i]);
        out_depth = open > out_depth ? open : out_depth;
    }
    return true;
}

// The structural pass: one forward sweep over vertices, triangles and nodes. Besides what makes
// every access safe (ranges, counts, links), it proves what the walks rely on for exact answers:
// coordinates within kMaxBlobCoordinate, a sane grid, a binary tree whose every box contains its
// children's boxes and whose every leaf box contains its triangles. The vertex sweep also gives
// the mesh's bounds (out_bounds).
Status checkStructure(const MeshBlob& b, std::uint64_t nodes_at, std::uint64_t tris_at, Aabb& out_bounds,
                      BlobError* err) {
    if (!saneGrid(b))
        return fail(err, Status::BlobCorrupt, "quantization grid beyond the coordinate range", 0);
    setEmpty(out_bounds);
    for (std::uint32_t v = 0; v < b.vertex_count; ++v) { // stored or decoded from the grid
        Vec3 p;
        vertexPosition(b, v, p);
        expand(p, out_bounds);
        for (int a = 0; a < 3; ++a) {
            if (!std::isfinite(p[a])) return fail(err, Status::BlobCorrupt, "vertex is NaN or infinite", 0);
            if (!detail::inBlobRange(p[a]))
                return fail(err, Status::BlobCorrupt, "vertex beyond the format's coordinate range", 0);
        }
    }

    if (b.triangle_count == 0) {
        if (b.node_count != 0) return fail(err, Status::BlobCorrupt, "nodes without triangles", nodes_at);
        return Status::Ok;
    }
    if (b.node_count == 0) return fail(err, Status::BlobCorrupt, "triangles without nodes", nodes_at);

    // Leaves must list the triangles in order, each exactly once: then every triangle is
    // reachable from exactly one leaf and triangle ids are the leaf order.
    std::uint32_t next_triangle = 0;
    for (std::uint32_t i = 0; i < b.node_count; ++i) {
        const BvhNode& n = b.nodes[i];
        const std::uint64_t at = nodes_at + std::uint64_t{i} * sizeof(BvhNode);
        for (int a = 0; a < 3; ++a)
            if (n.lo[a] > n.hi[a]) return fail(err, Status::BlobCorrupt, "node bounds inverted", at);
        if (isLeaf(n)) {
            if ((n.info & 0x7C000000u) >> 26 >= kMaxLeafTriangles)
                return fail(err, Status::BlobCorrupt, "leaf holds too many triangles", at + 12);
            if (leafFirst(n) != next_triangle)
                return fail(err, Status::BlobCorrupt, "leaf triangles not contiguous in leaf order", at + 12);
            next_triangle += leafCount(n);
            if (next_triangle > b.triangle_count)
                return fail(err, Status::BlobCorrupt, "leaf triangles past the end", at + 12);
        } else {
            // An internal node covers itself and at least one child; its skip stays inside.
            if (n.info < 2 || std::uint64_t{i} + n.info > b.node_count)
                return fail(err, Status::BlobCorrupt, "skip link out of range", at + 12);
        }
    }
    if (next_triangle != b.triangle_count)
        return fail(err, Status::BlobCorrupt, "triangles not covered by leaves", nodes_at);
    if (!isLeaf(b.nodes[0]) ? b.nodes[0].info != b.node_count : b.node_count != 1)
        return fail(err, Status::BlobCorrupt, "root does not span the node array", nodes_at + 12);
    const auto skip = [&b](std::uint32_t k) { return skipOf(b.nodes[k]); };
    for (std::uint32_t i = 0; i < b.node_count; ++i) {
        const BvhNode& n = b.nodes[i];
        if (isLeaf(n)) continue;
        const std::uint64_t at = nodes_at + std::uint64_t{i} * sizeof(BvhNode);
        std::uint32_t left = 0, right = 0;
        if (!detail::binaryChildren(i, b.node_count, skip, left, right))
            return fail(err, Status::BlobCorrupt, "node's children do not tile its subtree", at + 12);
        if (!containsNode(n, b.nodes[left]) || !containsNode(n, b.nodes[right]))
            return fail(err, Status::BlobCorrupt, "node box does not contain its children's", at);
    }

    for (std::uint32_t t = 0; t < b.triangle_count; ++t) {
        const std::uint8_t* offsets = b.triangles + 3u * t;
        const std::uint32_t far = offsets[0] > offsets[1] ? offsets[0] : offsets[1];
        const std::uint32_t top = far > offsets[2] ? far : offsets[2];
        if (std::uint64_t{b.block_bases[t / kTriangleBlock]} + top >= b.vertex_count)
            return fail(err, Status::BlobCorrupt, "triangle references a vertex past the end",
                        tris_at + 3u * std::uint64_t{t});
    }
    // Last, with every vertex reference known to be in range.
    for (std::uint32_t i = 0; i < b.node_count; ++i)
        if (isLeaf(b.nodes[i]) && !leafHoldsTriangles(b, b.nodes[i]))
            return fail(err, Status::BlobCorrupt, "leaf box does not contain its triangles",
                        nodes_at + std::uint64_t{i} * sizeof(BvhNode));
    return Status::Ok;
}

// The Materials section: at least one run, the first at triangle 0, each starting after the one
// before it and inside the mesh, the reserved field zero. Then every triangle lies in exactly one
// run and triangleMaterial's search finds it.
Status checkMaterialRuns(const MeshBlob& b, std::uint64_t at, BlobError* err) {
    if (b.material_run_count == 0 || b.material_runs[0].first != 0)
        return fail(err, Status::BlobCorrupt, "material runs do not start at triangle 0", at);
    for (std::uint32_t i = 0; i < b.material_run_count; ++i) {
        const MaterialRun& r = b.material_runs[i];
        const std::uint64_t run_at = at + std::uint64_t{i} * sizeof(MaterialRun);
        if (r.reserved != 0)
            return fail(err, Status::BlobCorrupt, "material run reserved field not zero",
                        run_at + offsetof(MaterialRun, reserved));
        if (r.first >= b.triangle_count || (i > 0 && r.first <= b.material_runs[i - 1].first))
            return fail(err, Status::BlobCorrupt, "material runs out of order or past the triangles",
                        run_at + offsetof(MaterialRun, first));
    }
    return Status::Ok;
}

// The wide tree (after checkStructure, so triangles and vertices are proved): every node well
// formed; no walk, in any child order, keeps more than kWideStack pending references; a
// depth-first walk in slot order meets the nodes in index order, each once, and the leaves
// covering the triangles in order, each once; every child box holds its node's children boxes or
// its leaf's triangles.
Status checkWideTree(const MeshBlob& b, std::uint64_t at, BlobError* err) {
    if (b.wide_nodes == nullptr) return Status::Ok;
    if (b.triangle_count == 0 || b.wide_node_count == 0) {
        if (b.triangle_count != b.wide_node_count)
            return fail(err, Status::BlobCorrupt, "wide nodes do not match the triangles", at);
        return Status::Ok;
    }
    for (std::uint32_t i = 0; i < b.wide_node_count; ++i) {
        const WideNode& n = b.wide_nodes[i];
        const std::uint64_t node_at = at + std::uint64_t{i} * sizeof(WideNode);
        const std::uint32_t count = wideCount(n);
        if (count == 0) return fail(err, Status::BlobCorrupt, "wide node without children", node_at);
        bool clean = true;
        for (std::uint32_t c = 0; c < kWideChildren; ++c) {
            clean = clean && (c < count || n.child[c] == 0);
            for (int k = 0; k < 3; ++k) {
                if (c < count && n.lo[k][c] > n.hi[k][c])
                    return fail(err, Status::BlobCorrupt, "wide child bounds inverted", node_at);
                if (c >= count) clean = clean && n.lo[k][c] == 32767 && n.hi[k][c] == -32768;
            }
        }
        if (!clean) return fail(err, Status::BlobCorrupt, "wide node unused slots not empty", node_at);
    }
    // Each pending reference with what a walk keeps while it stands there: the other children of
    // the nodes above, count - 1 a node. Every walk order keeps no more, so a node whose kept
    // references and children fit kWideStack fits every walk's stack.
    struct Pending {
        std::uint32_t ref;
        std::uint32_t kept;
    };
    Pending stack[kWideStack];
    std::uint32_t pending = 0, next_node = 1, next_triangle = 0;
    std::uint32_t node = 0, kept = 0;
    for (;;) {
        const WideNode& n = b.wide_nodes[node];
        const std::uint32_t count = wideCount(n);
        if (kept + count > kWideStack)
            return fail(err, Status::BlobCorrupt, "wide tree deeper than the walks allow", at);
        for (std::uint32_t c = count; c-- > 0;) stack[pending++] = Pending{n.child[c], kept + count - 1u};
        bool more = false;
        while (pending > 0) {
            const Pending p = stack[--pending];
            if ((p.ref & kLeafBit) != 0) {
                const std::uint32_t first = leafInfoFirst(p.ref), tris = leafInfoCount(p.ref);
                if (tris > kMaxLeafTriangles || first != next_triangle || tris > b.triangle_count - first)
                    return fail(err, Status::BlobCorrupt, "wide leaves do not cover the triangles in order",
                                at);
                next_triangle += tris;
                continue;
            }
            if (p.ref != next_node || p.ref >= b.wide_node_count)
                return fail(err, Status::BlobCorrupt, "wide nodes not a tree in depth-first order", at);
            node = p.ref;
            kept = p.kept;
            ++next_node;
            more = true;
            break;
        }
        if (!more) break;
    }
    if (next_node != b.wide_node_count || next_triangle != b.triangle_count)
        return fail(err, Status::BlobCorrupt, "wide tree does not hold every node and triangle", at);
    for (std::uint32_t i = 0; i < b.wide_node_count; ++i) {
        const WideNode& n = b.wide_nodes[i];
        for (std::uint32_t c = 0; c < wideCount(n); ++c) {
            std::int32_t lo[3], hi[3];
            wideChildGrid(n, c, lo, hi);
            const std::uint32_t ref = n.child[c];
            if ((ref & kLeafBit) != 0) {
                if (!boxHoldsTriangles(b, lo, hi, leafInfoFirst(ref), leafInfoCount(ref)))
                    return fail(err, Status::BlobCorrupt, "wide leaf box does not contain its triangles",
                                at + std::uint64_t{i} * sizeof(WideNode));
                continue;
            }
            const WideNode& child = b.wide_nodes[ref];
            for (std::uint32_t g = 0; g < wideCount(child); ++g) {
                std::int32_t glo[3], ghi[3];
                wideChildGrid(child, g, glo, ghi);
                for (int k = 0; k < 3; ++k)
                    if (glo[k] < lo[k] || ghi[k] > hi[k])
                        return fail(err, Status::BlobCorrupt, "wide child box does not contain its node's",
                                    at + std::uint64_t{i} * sizeof(WideNode));
            }
        }
    }
    return Status::Ok;
}

} // namespace

Status loadMeshBlob(const Blob& blob, MeshBlob& out_blob, BlobError* out_error) {
    out_blob = MeshBlob{};
    if (out_error != nullptr) *out_error = BlobError{};

    // The five mesh sections come together, the vertices exact or quantized but not both; a blob
    // with none of them has no mesh.
    int mesh_sections = 0;
    for (SectionKind required :
         {SectionKind::MeshInfo, SectionKind::Nodes, SectionKind::Vertices, SectionKind::QuantizedVertices,
          SectionKind::Triangles, SectionKind::BlockBases})
        if (blobSection(blob, required).data != nullptr) ++mesh_sections;
    if (mesh_sections == 0) return fail(out_error, Status::InvalidArgument, "the blob holds no mesh", 0);
    if (blobSection(blob, SectionKind::Vertices).data != nullptr &&
        blobSection(blob, SectionKind::QuantizedVertices).data != nullptr)
        return fail(out_error, Status::BlobCorrupt, "both exact and quantized vertices", 0);
    if (mesh_sections != 5)
        return fail(out_error, Status::BlobCorrupt, "a required mesh section is missing", 0);

    // MeshInfo: this build's mesh encoding, a finite origin, and each step 0 (a flat axis) or a
    // normal float whose reciprocal is finite: queries work in grid units (1 / scale), and a
    // denormal scale would make them infinite.
    const BlobSection info_section = blobSection(blob, SectionKind::MeshInfo);
    if (info_section.count != 1)
        return fail(out_error, Status::BlobCorrupt, "mesh info count", info_section.offset);
    const MeshInfo& info = *static_cast<const MeshInfo*>(info_section.data);
    if (info.layout_hash != meshLayoutHash())
        return fail(out_error, Status::BlobLayoutMismatch, "mesh layout hash",
                    info_section.offset + offsetof(MeshInfo, layout_hash));
    for (int i = 0; i < 3; ++i) {
        const float o = info.origin[i], v = info.scale[i];
        if (!std::isfinite(o))
            return fail(out_error, Status::BlobCorrupt, "quantization origin or scale",
                        info_section.offset + 4u * static_cast<unsigned>(i));
        if (!std::isfinite(v) || (v != 0.0f && !(v >= FLT_MIN && std::isfinite(1.0f / v))))
            return fail(out_error, Status::BlobCorrupt, "quantization origin or scale",
                        info_section.offset + offsetof(MeshInfo, scale) + 4u * static_cast<unsigned>(i));
    }

    MeshBlob b;
    std::uint32_t count = 0;
    b.nodes = sectionPointer<BvhNode>(blob, SectionKind::Nodes, b.node_count);
    b.vertices = sectionPointer<float>(blob, SectionKind::Vertices, b.vertex_count);
    if (b.vertices == nullptr)
        b.quantized_vertices =
            sectionPointer<std::uint16_t>(blob, SectionKind::QuantizedVertices, b.vertex_count);
    b.triangles = sectionPointer<std::uint8_t>(blob, SectionKind::Triangles, b.triangle_count);
    b.block_bases = sectionPointer<std::uint32_t>(blob, SectionKind::BlockBases, count);
    if (b.triangle_count > kMaxBlobTriangles)
        return fail(out_error, Status::BlobCorrupt, "more triangles than the format allows", 0);
    if (count != (b.triangle_count + kTriangleBlock - 1) / kTriangleBlock)
        return fail(out_error, Status::BlobCorrupt, "block base count does not match the triangles", 0);
    b.material_runs = sectionPointer<MaterialRun>(blob, SectionKind::Materials, b.material_run_count);
    if (b.material_runs != nullptr) {
        const Status runs = checkMaterialRuns(b, blobSection(blob, SectionKind::Materials).offset, out_error);
        if (runs != Status::Ok) return runs;
    }
    b.source_ids = sectionPointer<std::uint32_t>(blob, SectionKind::SourceIds, count);
    if (b.source_ids != nullptr && count != b.triangle_count)
        return fail(out_error, Status::BlobCorrupt, "source id count does not match the triangles", 0);
    const BlobSection stats = blobSection(blob, SectionKind::BuildStats);
    if (stats.data != nullptr && stats.count != 1)
        return fail(out_error, Status::BlobCorrupt, "build stats count", stats.offset);
    b.stats = static_cast<const BuildStats*>(stats.data);

    set(info.origin[0], info.origin[1], info.origin[2], b.quant_origin);
    set(info.scale[0], info.scale[1], info.scale[2], b.quant_scale);
    const Status structure =
        checkStructure(b, blobSection(blob, SectionKind::Nodes).offset,
                       blobSection(blob, SectionKind::Triangles).offset, b.bounds, out_error);
    if (structure != Status::Ok) return structure;
    std::uint32_t depth = 0;
    if (!treeDepthWithin(b, depth))
        return fail(out_error, Status::BlobCorrupt, "tree deeper than kMaxTreeDepth",
                    blobSection(blob, SectionKind::Nodes).offset);
    if (depth != info.depth)
        return fail(out_error, Status::BlobCorrupt, "mesh info depth does not match the tree",
                    info_section.offset + offsetof(MeshInfo, depth));
    b.depth = depth;
    b.wide_nodes = sectionPointer<WideNode>(blob, SectionKind::WideNodes, b.wide_node_count);
    const Status wide = checkWideTree(b, blobSection(blob, SectionKind::WideNodes).offset, out_error);
    if (wide != Status::Ok) return wide;
    out_blob = b;
    return Status::Ok;
}

Status loadMeshBlob(const void* data, std::size_t size, MeshBlob& out_blob, BlobError* out_error) {
    out_blob = MeshBlob{};
    Blob blob;
    const Status opened = openBlob(data, size, blob, out_error);
    if (opened != Status::Ok) return opened;
    return loadMeshBlob(blob, out_blob, out_error);
}

} // namespace flak

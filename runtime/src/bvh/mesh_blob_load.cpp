#include "blob/blob_read.h"

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

// The wide tree, after the vertices and the triangles' vertex references: every node well formed;
// a depth-first walk in slot order meets the nodes in index order, each once, at most
// kMaxTreeDepth deep (out_depth: root = 1), and the leaves covering the triangles in order, each
// once; every child box holds its node's children boxes or its leaf's triangles. A walk at a node
// of depth d keeps at most kWideChildren - 1 references per level above it and pushes at most
// kWideChildren, so no walk in any child order keeps more than kWideStack.
Status checkWideTree(const MeshBlob& b, std::uint64_t at, std::uint32_t& out_depth, BlobError* err) {
    for (std::uint32_t i = 0; i < b.wide_node_count; ++i) {
        const WideNode& n = b.wide_nodes[i];
        const std::uint64_t node_at = at + std::uint64_t{i} * sizeof(WideNode);
        const std::uint32_t count = wideCount(n);
        if (count == 0) return fail(err, Status::BlobCorrupt, "wide node without children", node_at);
        bool clean = true;
        for (std::uint8_t p : n.padding) clean = clean && p == 0;
        if (!clean) return fail(err, Status::BlobCorrupt, "wide node padding not zero", node_at);
        for (int k = 0; k < 3; ++k)
            if (n.step[k] == 0 || n.step[k] > kWideMaxStep || (n.step[k] & (n.step[k] - 1u)) != 0)
                return fail(err, Status::BlobCorrupt, "wide node step not a power of two up to kWideMaxStep",
                            node_at);
        for (std::uint32_t c = 0; c < kWideChildren; ++c) {
            clean = clean && (c < count || n.child[c] == 0);
            for (int k = 0; k < 3; ++k) {
                if (c < count && n.lo[k][c] > n.hi[k][c])
                    return fail(err, Status::BlobCorrupt, "wide child bounds inverted", node_at);
                // A decoded minimum beyond the grid would wrap in the walks' 16-bit decode.
                if (c < count && n.base[k] + std::int32_t{n.lo[k][c]} * n.step[k] > 65535)
                    return fail(err, Status::BlobCorrupt, "wide child box beyond the grid", node_at);
                if (c >= count) clean = clean && n.lo[k][c] == 255 && n.hi[k][c] == 0;
            }
        }
        if (!clean) return fail(err, Status::BlobCorrupt, "wide node unused slots not empty", node_at);
    }
    // Each pending reference with the depth of the node that holds it.
    struct Pending {
        std::uint32_t ref;
        std::uint32_t depth;
    };
    Pending stack[kWideStack];
    std::uint32_t pending = 0, next_node = 1, next_triangle = 0;
    std::uint32_t node = 0, depth = 1;
    out_depth = 0;
    for (;;) {
        if (depth > kMaxTreeDepth)
            return fail(err, Status::BlobCorrupt, "tree deeper than kMaxTreeDepth", at);
        out_depth = depth > out_depth ? depth : out_depth;
        const WideNode& n = b.wide_nodes[node];
        for (std::uint32_t c = wideCount(n); c-- > 0;) stack[pending++] = Pending{n.child[c], depth};
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
            depth = p.depth + 1u;
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

// The structural pass: one forward sweep over vertices, triangles and the tree. Besides what makes
// every access safe (ranges, counts, links), it proves what the walks rely on for exact answers:
// coordinates within kMaxBlobCoordinate, a sane grid, a tree whose every box contains its
// children's boxes and whose every leaf box contains its triangles (checkWideTree). The vertex
// sweep also gives the mesh's bounds (out_bounds), the tree walk its depth (out_depth).
Status checkStructure(const MeshBlob& b, std::uint64_t nodes_at, std::uint64_t tris_at, Aabb& out_bounds,
                      std::uint32_t& out_depth, BlobError* err) {
    out_depth = 0;
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
        if (b.wide_node_count != 0)
            return fail(err, Status::BlobCorrupt, "nodes without triangles", nodes_at);
        return Status::Ok;
    }
    if (b.wide_node_count == 0) return fail(err, Status::BlobCorrupt, "triangles without nodes", nodes_at);
    for (std::uint32_t t = 0; t < b.triangle_count; ++t) {
        const std::uint8_t* offsets = b.triangles + 3u * t;
        const std::uint32_t far = offsets[0] > offsets[1] ? offsets[0] : offsets[1];
        const std::uint32_t top = far > offsets[2] ? far : offsets[2];
        if (std::uint64_t{b.block_bases[t / kTriangleBlock]} + top >= b.vertex_count)
            return fail(err, Status::BlobCorrupt, "triangle references a vertex past the end",
                        tris_at + 3u * std::uint64_t{t});
    }
    // Last, with every vertex reference known to be in range.
    return checkWideTree(b, nodes_at, out_depth, err);
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

} // namespace

Status loadMeshBlob(const Blob& blob, MeshBlob& out_blob, BlobError* out_error) {
    out_blob = MeshBlob{};
    if (out_error != nullptr) *out_error = BlobError{};

    // The five mesh sections come together, the vertices exact or quantized but not both; a blob
    // with none of them has no mesh. The binary tree of earlier builds is named, so the message
    // says what to do.
    if (blobSection(blob, SectionKind::Nodes).data != nullptr)
        return fail(out_error, Status::BlobLayoutMismatch,
                    "the mesh holds the binary tree of an earlier format: bake it again",
                    blobSection(blob, SectionKind::Nodes).offset);
    int mesh_sections = 0;
    for (SectionKind required :
         {SectionKind::MeshInfo, SectionKind::WideNodes, SectionKind::Vertices,
          SectionKind::QuantizedVertices, SectionKind::Triangles, SectionKind::BlockBases})
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
        return fail(out_error, Status::BlobLayoutMismatch,
                    "mesh layout hash: written with another mesh encoding, bake the asset again with this "
                    "flak_bake",
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
    b.wide_nodes = sectionPointer<WideNode>(blob, SectionKind::WideNodes, b.wide_node_count);
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
    const std::uint64_t nodes_at = blobSection(blob, SectionKind::WideNodes).offset;
    std::uint32_t depth = 0;
    const Status structure = checkStructure(b, nodes_at, blobSection(blob, SectionKind::Triangles).offset,
                                            b.bounds, depth, out_error);
    if (structure != Status::Ok) return structure;
    if (depth != info.depth)
        return fail(out_error, Status::BlobCorrupt, "mesh info depth does not match the tree",
                    info_section.offset + offsetof(MeshInfo, depth));
    b.depth = depth;
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

#include "blob_write.h"

#include "prepare.h"

#include "wide_collapse.h"

#include <flak/bvh/mesh_blob.h>
#include <flak/shooter/blob_sections.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace flak::bake {

namespace {

// The smallest k in [0, 65535] where pred(k) holds, or 65535 when it holds nowhere; pred is false,
// then true, along k (the answer of a binary search over the whole grid). Galloping from `guess`
// to a bracket, then a binary search in it: a few steps when the guess is near.
template <class Pred> std::uint32_t firstTrue(Pred pred, std::uint32_t guess) {
    std::uint32_t lo = 0, hi = 65535; // the answer lies in [lo, hi]
    if (pred(guess)) {
        hi = guess;
        for (std::uint32_t step = 1; hi > 0; step *= 2) {
            const std::uint32_t k = hi > step ? hi - step : 0;
            if (!pred(k)) {
                lo = k + 1;
                break;
            }
            hi = k;
        }
    } else {
        lo = guess + 1; // pred is false below lo
        for (std::uint32_t step = 1; lo <= 65535; step *= 2) {
            const std::uint32_t k = lo - 1 + step < 65535 ? lo - 1 + step : 65535;
            if (pred(k)) {
                hi = k;
                break;
            }
            lo = k + 1;
        }
        if (lo > 65535) return 65535;
    }
    while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (pred(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

} // namespace

// (blob_write.h) The tightest grid bound of v in the runtime's own float decode (origin + k * scale): the largest
// decoded value at most v (rounding down) or the smallest at least v (rounding up). Far from the
// origin several k decode to one float; then the lowest such k rounding down and the highest
// rounding up, so the box of a point never inverts. Decoding is monotone in k, so each step is a
// search for where a test turns true, started at the k that (v - origin) / scale suggests.
std::uint16_t quantizeBound(float v, float origin, float scale, bool round_up) {
    if (scale == 0.0f) return 0;
    auto decode = [&](std::uint32_t k) { return origin + static_cast<float>(k) * scale; };
    const double g = (double(v) - double(origin)) / double(scale);
    const std::uint32_t guess = !(g > 0.0) ? 0u : (g >= 65535.0 ? 65535u : static_cast<std::uint32_t>(g));
    // The last k decoding to at most x (0 when none does), the search started at `from`.
    const auto last_at_most = [&](float x, std::uint32_t from) {
        if (decode(65535) <= x) return std::uint32_t{65535};
        const std::uint32_t first_above = firstTrue([&](std::uint32_t k) { return decode(k) > x; }, from);
        return first_above > 0 ? first_above - 1 : 0u;
    };
    if (round_up) {
        // The first k decoding to at least v (65535 when none does), then the last decoding to that value.
        const std::uint32_t k = firstTrue([&](std::uint32_t i) { return decode(i) >= v; }, guess);
        return static_cast<std::uint16_t>(last_at_most(decode(k), k));
    }
    // The last k decoding to at most v (0 when none does), then the first decoding to that value.
    const std::uint32_t k = last_at_most(v, guess);
    const float target = decode(k);
    return static_cast<std::uint16_t>(firstTrue([&](std::uint32_t i) { return decode(i) >= target; }, k));
}

std::uint16_t snapToGrid(float v, float origin, float scale) {
    const std::uint16_t down = quantizeBound(v, origin, scale, false);
    const std::uint16_t up = quantizeBound(v, origin, scale, true);
    const double below = double(v) - double(origin + static_cast<float>(down) * scale);
    const float up_value = origin + static_cast<float>(up) * scale;
    const double above = double(up_value) - double(v);
    // The grid's last point may lie a little past the mesh's maximum (its step was nudged up to
    // reach it); a vertex at the format's coordinate limit must not snap beyond it.
    if (std::fabs(up_value) > kMaxBlobCoordinate) return down;
    return above < below ? up : down;
}

namespace {

// Writes scalars in the target byte order at explicit offsets.
class ByteWriter {
public:
    ByteWriter(std::vector<unsigned char>& bytes, bool swap) : m_bytes(bytes), m_swap(swap) {}
    template <typename T> void put(std::size_t at, T value) {
        unsigned char b[sizeof(T)];
        std::memcpy(b, &value, sizeof(T));
        if (m_swap) std::reverse(b, b + sizeof(T));
        std::memcpy(m_bytes.data() + at, b, sizeof(T));
    }

private:
    std::vector<unsigned char>& m_bytes;
    bool m_swap;
};

bool hostIsBigEndian() {
    const std::uint32_t one = 1;
    unsigned char b;
    std::memcpy(&b, &one, 1);
    return b == 0;
}

// Quantization grid: origin at the mesh minimum, 65535 steps per axis, the step nudged up until
// the last step reaches the maximum in the runtime's own float decode. A step is never denormal
// (the loader refuses one: queries work in grid units, 1 / step): an extent below 65535 *
// FLT_MIN, about 7.7e-34, gets the step FLT_MIN and uses fewer than 65535 of them.
void makeGrid(const Aabb& bounds, Vec3& out_origin, Vec3& out_scale) {
    out_origin = bounds.min;
    for (int a = 0; a < 3; ++a) {
        const float extent = bounds.max[a] - bounds.min[a];
        float s = extent > 0.0f ? std::max(extent / 65535.0f, std::numeric_limits<float>::min()) : 0.0f;
        while (s > 0.0f && bounds.min[a] + 65535.0f * s < bounds.max[a])
            s = std::nextafter(s, std::numeric_limits<float>::infinity());
        out_scale[a] = s;
    }
}

// Orders vertices by first use in leaf order and copies a vertex when a block of kTriangleBlock
// triangles can no longer reach its latest copy with 8-bit offsets.
// `corners`: three vertex indices per triangle, as the blob stores them (blobCorners).
void buildWindows(const SourceMesh& mesh, const std::vector<std::uint32_t>& corners,
                  const std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& out_vertices,
                  std::vector<std::uint32_t>& out_bases, std::vector<std::uint8_t>& out_offsets,
                  std::uint32_t& out_copies) {
    constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    std::vector<std::uint32_t> latest(mesh.positions.size(), kNone);
    const std::uint32_t n = static_cast<std::uint32_t>(order.size());
    out_vertices.clear();
    out_bases.assign((n + kTriangleBlock - 1) / kTriangleBlock, 0);
    out_offsets.assign(3u * std::size_t{n}, 0);
    out_copies = 0;
    std::uint32_t distinct[3 * kTriangleBlock];
    for (std::uint32_t block = 0; block * kTriangleBlock < n; ++block) {
        const std::uint32_t t0 = block * kTriangleBlock, t1 = std::min(n, t0 + kTriangleBlock);
        std::uint32_t nd = 0;
        for (std::uint32_t t = t0; t < t1; ++t)
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t v = corners[3 * order[t] + static_cast<std::uint32_t>(k)];
                if (std::find(distinct, distinct + nd, v) == distinct + nd) distinct[nd++] = v;
            }
        const std::uint32_t cursor = static_cast<std::uint32_t>(out_vertices.size());
        std::uint32_t base = 0;
        for (;;) { // grow the set of fresh copies until the window holds every vertex
            std::uint32_t fresh = 0;
            for (std::uint32_t i = 0; i < nd; ++i)
                if (latest[distinct[i]] == kNone || latest[distinct[i]] < base) ++fresh;
            const std::uint32_t need_base =
                cursor + fresh > kVertexWindow ? cursor + fresh - kVertexWindow : 0;
            if (need_base <= base) break;
            base = need_base;
        }
        for (std::uint32_t i = 0; i < nd; ++i) {
            std::uint32_t& l = latest[distinct[i]];
            if (l == kNone || l < base) {
                if (l != kNone) ++out_copies;
                l = static_cast<std::uint32_t>(out_vertices.size());
                out_vertices.push_back(distinct[i]);
            }
        }
        out_bases[block] = base;
        for (std::uint32_t t = t0; t < t1; ++t)
            for (std::uint32_t k = 0; k < 3; ++k)
                out_offsets[3u * std::size_t{t} + k] =
                    static_cast<std::uint8_t>(latest[corners[3 * order[t] + k]] - base);
    }
}

// Below this sin^2 (sin 0.1, about 5.7 degrees) a corner counts as sharp: well above the
// triangle tests' own bound (tri_tri_impl.h, kMinSinSq: sin 0.05, in float), so that an end
// corner that is not sharp here is never one they take the slow way, in any frame.
constexpr double kSharpSinSq = 1e-2;

// How many places to turn triangle (p, q, r) so that its first and last corners are not sharp.
// The triangle tests take a triangle's plane from one of those corners (the first for the
// triangle held still, the last for the triangles in lanes) and decide a sharp one the slow way,
// in double. A needle has one sharp corner, which a turn puts in the middle; the triangle, its
// winding and its normal stay the same. 0 when neither end is sharp or no turn does better.
std::uint32_t turnForPlanes(const Vec3& p, const Vec3& q, const Vec3& r) {
    const double s[3] = {cornerSinSq(p, q, r), cornerSinSq(q, r, p), cornerSinSq(r, p, q)};
    const auto ends = [&s](std::uint32_t k) { return std::min(s[k], s[(k + 2) % 3]); };
    if (ends(0) >= kSharpSinSq) return 0;
    std::uint32_t best = 0;
    for (std::uint32_t k = 1; k < 3; ++k)
        if (ends(k) > ends(best)) best = k;
    return best;
}

// The corners as the blob stores them: each triangle turned by turnForPlanes, or every one as
// the source has it when the blob keeps source ids (so that a hit's barycentrics apply to the
// source triangle's corners).
std::vector<std::uint32_t> blobCorners(const SourceMesh& mesh, bool source_order) {
    std::vector<std::uint32_t> corners = mesh.indices;
    if (source_order) return corners;
    for (std::size_t t = 0; t + 3 <= corners.size(); t += 3) {
        const auto first = corners.begin() + static_cast<std::ptrdiff_t>(t);
        const std::uint32_t turn =
            turnForPlanes(mesh.positions[first[0]], mesh.positions[first[1]], mesh.positions[first[2]]);
        std::rotate(first, first + turn, first + 3);
    }
    return corners;
}

// The tree's leaf order with each leaf's triangles grouped by material: the material that ended
// the leaf before first, then the others by id, each group in tree order. A leaf's triangles may
// come in any order, and this one makes fewer runs in the Materials section.
std::vector<std::uint32_t> materialGroupedOrder(const SourceMesh& mesh, const BuiltTree& tree) {
    std::vector<std::uint32_t> order = tree.order;
    if (mesh.materials.empty()) return order;
    std::uint32_t previous = 0xFFFFFFFFu;
    for (const BuiltNode& n : tree.nodes) {
        if (n.count == 0) continue;
        const auto key = [&](std::uint32_t t) {
            const std::uint32_t m = mesh.materials[t];
            return m == previous ? 0u : m + 1u;
        };
        std::stable_sort(order.begin() + n.first, order.begin() + n.first + n.count,
                         [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
        previous = mesh.materials[order[n.first + n.count - 1]];
    }
    return order;
}

} // namespace

bool layOutSections(const std::vector<SectionPlan>& sections, std::vector<std::uint32_t>& out_offsets,
                    std::uint64_t& out_total) {
    constexpr std::uint64_t kMax32 = 0xFFFFFFFFu;
    const auto align16 = [](std::uint64_t v) { return (v + 15u) & ~std::uint64_t{15}; };
    out_offsets.clear();
    out_total = 0;
    std::uint64_t at = align16(sizeof(BlobHeader) + sections.size() * sizeof(SectionEntry));
    for (const SectionPlan& s : sections) {
        // A count below 2^32 and an element of at most 2^16 bytes: the product cannot wrap.
        if (s.count > kMax32 || s.elem > 0xFFFFu || s.count * s.elem > kMax32 || at > kMax32) {
            out_offsets.clear();
            return false;
        }
        out_offsets.push_back(static_cast<std::uint32_t>(at));
        at = align16(at + s.count * s.elem);
    }
    if (at > std::uint64_t{PTRDIFF_MAX}) { // the most a std::vector may hold on this host
        out_offsets.clear();
        return false;
    }
    out_total = at;
    return true;
}

BakeError writeBlob(const SourceMesh& mesh, const BuiltTree& tree, const WriteOptions& options,
                    std::vector<unsigned char>& out) {
    const std::uint32_t tris = mesh.triangleCount();
    if (tris > kMaxBlobTriangles) return {"too many triangles for one blob (limit 67,108,864)"};
    std::vector<std::uint32_t> vertices; // source vertex of each blob vertex (copies included)
    std::vector<std::uint32_t> bases;
    std::vector<std::uint8_t> corner_offsets;
    std::uint32_t copies = 0;
    const std::vector<std::uint32_t> order = materialGroupedOrder(mesh, tree); // the blob's triangles
    const std::vector<std::uint32_t> corners = blobCorners(mesh, options.source_ids);
    if (options.mesh) buildWindows(mesh, corners, order, vertices, bases, corner_offsets, copies);

    Vec3 origin, scale;
    Aabb root;
    setEmpty(root);
    if (options.mesh && !tree.nodes.empty())
        root = tree.nodes[0].bounds;
    else
        set(0, 0, 0, root.min), set(0, 0, 0, root.max);
    makeGrid(root, origin, scale);

    // The boxes the tree quantizes: the built ones, or with quantized vertices the boxes
    // around the decoded grid points (a vertex may snap up to half a step outside its exact box).
    std::vector<Aabb> boxes;
    for (const BuiltNode& n : tree.nodes) boxes.push_back(n.bounds);
    std::vector<std::uint16_t> snapped; // x, y, z grid index of every source vertex
    if (options.mesh && options.quantize_vertices) {
        snapped.resize(3 * mesh.positions.size());
        for (std::size_t v = 0; v < mesh.positions.size(); ++v)
            for (int a = 0; a < 3; ++a)
                snapped[3 * v + static_cast<std::size_t>(a)] =
                    snapToGrid(mesh.positions[v][a], origin[a], scale[a]);
        for (std::size_t i = boxes.size(); i-- > 0;) {
            const BuiltNode& n = tree.nodes[i];
            Aabb box;
            setEmpty(box);
            if (n.count > 0) {
                for (std::uint32_t t = n.first; t < n.first + n.count; ++t)
                    for (std::uint32_t k = 0; k < 3; ++k) {
                        Vec3 p;
                        decodeGridPoint(origin, scale, &snapped[3 * std::size_t{corners[3 * order[t] + k]}],
                                        p);
                        expand(p, box);
                    }
            } else {
                const std::size_t left = i + 1;
                const std::size_t right = left + (tree.nodes[left].count > 0 ? 1u : tree.nodes[left].skip);
                merge(boxes[left], boxes[right], box);
            }
            boxes[i] = box;
        }
    }
    std::vector<MaterialRun> runs; // the triangles' materials in leaf order, one entry per change
    if (options.mesh)
        for (std::uint32_t t = 0; t < tris && !mesh.materials.empty(); ++t)
            if (runs.empty() || runs.back().material != mesh.materials[order[t]])
                runs.push_back(MaterialRun{mesh.materials[order[t]], 0, t});
    std::vector<BvhNode> nodes(options.mesh ? tree.nodes.size() : 0u); // the built tree, quantized
    for (std::size_t node = 0; node < nodes.size(); ++node) {
        const BuiltNode& n = tree.nodes[node];
        for (int a = 0; a < 3; ++a) {
            nodes[node].lo[a] = quantizeBound(boxes[node].min[a], origin[a], scale[a], false);
            nodes[node].hi[a] = quantizeBound(boxes[node].max[a], origin[a], scale[a], true);
        }
        nodes[node].info = n.count > 0 ? makeLeafInfo(n.first, n.count) : n.skip;
    }
    const std::vector<WideNode> wide = collapseWide(nodes); // the WideNodes section
    const std::uint32_t depth = wideDepth(wide);
    if (depth > kMaxTreeDepth) return {"tree deeper than the format allows (limit 64)"};

    if (!options.mesh && options.cluster.empty() && options.walls.empty())
        return {"a blob needs a mesh, a cluster or walls"};
    if (options.cluster.size() > kMaxClusterSpheres) return {"too many cluster spheres"};

    std::vector<SectionPlan> sections;
    const auto add = [&sections](SectionKind kind, std::size_t count) {
        sections.push_back({kind, count, sectionLayout(static_cast<std::uint32_t>(kind)).element_bytes});
    };
    if (options.mesh) {
        add(SectionKind::MeshInfo, 1);
        add(SectionKind::WideNodes, wide.size());
        add(options.quantize_vertices ? SectionKind::QuantizedVertices : SectionKind::Vertices,
            vertices.size());
        add(SectionKind::Triangles, tris);
        add(SectionKind::BlockBases, bases.size());
        if (!runs.empty()) add(SectionKind::Materials, runs.size());
        if (options.source_ids) add(SectionKind::SourceIds, tris);
        add(SectionKind::BuildStats, 1);
    }
    if (!options.cluster.empty()) add(SectionKind::SphereCluster, options.cluster.size());
    if (!options.walls.empty()) add(SectionKind::Walls, options.walls.size());

    std::vector<std::uint32_t> offsets;
    std::uint64_t total = 0;
    if (!layOutSections(sections, offsets, total))
        return {"blob too large for the format (section offsets and sizes are 32-bit: at most 4 GiB)"};
    out.assign(static_cast<std::size_t>(total), 0);
    const bool swap = options.big_endian != hostIsBigEndian();
    ByteWriter w(out, swap);

    std::memcpy(out.data(), kBlobMagic, sizeof(kBlobMagic));
    w.put<std::uint32_t>(offsetof(BlobHeader, version), kBlobVersion);
    w.put<std::uint32_t>(offsetof(BlobHeader, endian_marker), kBlobEndianMarker);
    w.put<std::uint32_t>(offsetof(BlobHeader, layout_hash), blobLayoutHash());
    w.put<std::uint32_t>(offsetof(BlobHeader, section_count), static_cast<std::uint32_t>(sections.size()));
    w.put<std::uint64_t>(offsetof(BlobHeader, total_bytes), total);
    for (std::size_t i = 0; i < sections.size(); ++i) {
        const std::size_t e = sizeof(BlobHeader) + i * sizeof(SectionEntry);
        w.put<std::uint32_t>(e, static_cast<std::uint32_t>(sections[i].kind));
        w.put<std::uint32_t>(e + 4, static_cast<std::uint32_t>(sections[i].count));
        w.put<std::uint32_t>(e + 8, offsets[i]);
        w.put<std::uint32_t>(e + 12, static_cast<std::uint32_t>(sections[i].count * sections[i].elem));
    }
    for (std::size_t i = 0; i < sections.size(); ++i) {
        std::size_t o = offsets[i];
        switch (sections[i].kind) {
        case SectionKind::WideNodes:
            for (const WideNode& n : wide) {
                for (std::size_t k = 0; k < 3; ++k) {
                    w.put<std::uint16_t>(o + offsetof(WideNode, base) + 2 * k, n.base[k]);
                    w.put<std::uint16_t>(o + offsetof(WideNode, step) + 2 * k, n.step[k]);
                    for (std::size_t c = 0; c < kWideChildren; ++c) {
                        w.put<std::uint8_t>(o + offsetof(WideNode, lo) + 8 * k + c, n.lo[k][c]);
                        w.put<std::uint8_t>(o + offsetof(WideNode, hi) + 8 * k + c, n.hi[k][c]);
                    }
                }
                for (std::size_t c = 0; c < kWideChildren; ++c)
                    w.put<std::uint32_t>(o + offsetof(WideNode, child) + 4 * c, n.child[c]);
                o += sizeof(WideNode);
            }
            break;
        case SectionKind::Vertices:
            for (std::uint32_t id : vertices) {
                const Vec3& v = mesh.positions[id];
                w.put<float>(o, v.x), w.put<float>(o + 4, v.y), w.put<float>(o + 8, v.z);
                o += 12;
            }
            break;
        case SectionKind::QuantizedVertices:
            for (std::uint32_t id : vertices) {
                for (std::size_t a = 0; a < 3; ++a)
                    w.put<std::uint16_t>(o + 2 * a, snapped[3 * std::size_t{id} + a]);
                o += 6;
            }
            break;
        case SectionKind::Triangles:
            if (!corner_offsets.empty())
                std::memcpy(out.data() + o, corner_offsets.data(), corner_offsets.size());
            break;
        case SectionKind::BlockBases:
            for (std::uint32_t b : bases) w.put<std::uint32_t>(o, b), o += 4;
            break;
        case SectionKind::Materials:
            for (const MaterialRun& r : runs) {
                w.put<std::uint16_t>(o + offsetof(MaterialRun, material), r.material);
                w.put<std::uint32_t>(o + offsetof(MaterialRun, first), r.first);
                o += sizeof(MaterialRun);
            }
            break;
        case SectionKind::SourceIds: // the source's numbering, before degenerate triangles were dropped
            for (std::uint32_t t : order)
                w.put<std::uint32_t>(o, mesh.source_triangle.empty() ? t : mesh.source_triangle[t]), o += 4;
            break;
        case SectionKind::BuildStats: {
            const std::uint32_t fields[] = {mesh.source_triangles,
                                            mesh.dropped_degenerate,
                                            mesh.source_vertices,
                                            mesh.welded_vertices,
                                            copies,
                                            depth,
                                            tree.leaf_count,
                                            options.max_leaf};
            for (std::uint32_t f : fields) w.put<std::uint32_t>(o, f), o += 4;
            w.put<float>(o, static_cast<float>(tree.sah_cost));
            w.put<std::uint32_t>(o + 4, static_cast<std::uint32_t>(wide.size()));
            break;
        }
        case SectionKind::SphereCluster:
            for (const Sphere& sp : options.cluster) {
                w.put<float>(o, sp.center.x), w.put<float>(o + 4, sp.center.y),
                    w.put<float>(o + 8, sp.center.z);
                w.put<float>(o + 12, sp.radius);
                o += 16;
            }
            break;
        case SectionKind::MeshInfo:
            for (int a = 0; a < 3; ++a) {
                w.put<float>(o + offsetof(MeshInfo, origin) + 4u * static_cast<std::size_t>(a), origin[a]);
                w.put<float>(o + offsetof(MeshInfo, scale) + 4u * static_cast<std::size_t>(a), scale[a]);
            }
            w.put<std::uint32_t>(o + offsetof(MeshInfo, layout_hash), meshLayoutHash());
            w.put<std::uint32_t>(o + offsetof(MeshInfo, depth), depth);
            break;
        case SectionKind::Walls: // every field is one 4-byte word (shooter/blob_sections.h)
            for (std::uint32_t word : options.walls) w.put<std::uint32_t>(o, word), o += 4;
            break;
        default: break;
        }
    }
    const std::uint64_t sum = blobChecksum(out.data(), total);
    w.put<std::uint64_t>(offsetof(BlobHeader, checksum), sum);
    return {};
}

} // namespace flak::bake

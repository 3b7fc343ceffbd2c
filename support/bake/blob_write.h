// Serialising a built tree into a blob (either byte order), and the vertex windows it needs.
#pragma once

#include "bvh_build.h"
#include "source_mesh.h"

#include <flak/blob/blob.h>
#include <flak/math/sphere.h>

#include <cstdint>
#include <vector>

namespace flak::bake {

struct WriteOptions {
    /// Write for a big-endian target. Default: this host's byte order, so a blob baked in memory
    /// loads here as is (a little-endian default refused every such blob on big-endian hosts).
    bool big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
    bool source_ids = false; ///< add the SourceIds section (original triangle index, 4 B/triangle)
    /// Store vertices snapped to the mesh's 16-bit grid (the QuantizedVertices section, 6 B a
    /// vertex) instead of as exact floats (12 B): each vertex becomes the nearest grid point.
    bool quantize_vertices = false;
    std::uint32_t max_leaf = 8;       ///< recorded in BuildStats
    bool mesh = true;                 ///< false: no mesh sections at all (a wall-only or cluster-only blob)
    std::vector<Sphere> cluster;      ///< non-empty: the SphereCluster section (mesh space)
    std::vector<std::uint32_t> walls; ///< non-empty: the Walls section words, host order (wall_build.h)
};

/// Writes the blob for `mesh` (prepared) and `tree` (built over it) into `out` (replaced), with the
/// optional shooter sections of `options`. With options.mesh false, mesh and tree are ignored.
/// The tightest 16-bit grid bound of v in the runtime's float decode (origin + k * scale): the
/// largest decoded value at most v (round_up false) or the smallest at least v (round_up true);
/// of several k that decode to that value, the lowest rounding down and the highest rounding up.
/// 0 for a flat axis (scale 0).
std::uint16_t quantizeBound(float v, float origin, float scale, bool round_up);

/// The grid index whose decoded value (origin + k * scale, in float) is nearest v; of two as near,
/// the lower, and the lower too where the upper decodes beyond kMaxBlobCoordinate. 0 for a flat
/// axis.
std::uint16_t snapToGrid(float v, float origin, float scale);

/// A section as writeBlob lays it out: its kind, element count and bytes per element.
struct SectionPlan {
    SectionKind kind;
    std::uint64_t count;
    std::uint64_t elem;
};

/// Places `sections` after the header and its table, in order, each on a 16-byte boundary, and
/// writes their offsets and the blob's total bytes. False, writing nothing, where the format
/// cannot hold them: an element count, a section's bytes or an offset of 2^32 or more (the
/// section table's fields are 32-bit), or a total beyond PTRDIFF_MAX (what a byte vector can
/// hold on this host).
bool layOutSections(const std::vector<SectionPlan>& sections, std::vector<std::uint32_t>& out_offsets,
                    std::uint64_t& out_total);

BakeError writeBlob(const SourceMesh& mesh, const BuiltTree& tree, const WriteOptions& options,
                    std::vector<unsigned char>& out);

} // namespace flak::bake

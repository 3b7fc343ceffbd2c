// Internal: header and section-table parsing shared by the loader and the byte swapper.
#pragma once

#include <flak/bvh/mesh_blob.h>

#include <cstring>

namespace flak::detail {

inline std::uint16_t bswap(std::uint16_t v) { return static_cast<std::uint16_t>((v >> 8) | (v << 8)); }
inline std::uint32_t bswap(std::uint32_t v) { return __builtin_bswap32(v); }
inline std::uint64_t bswap(std::uint64_t v) { return __builtin_bswap64(v); }

/// Reads a T at p, converting from the blob's order when `foreign`.
template <typename T> inline T readField(const unsigned char* p, bool foreign) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return foreign ? bswap(v) : v;
}

/// Size of one element of a section kind; 0 for kinds this version does not know.
inline std::uint32_t sectionElementBytes(std::uint32_t kind) {
    switch (static_cast<SectionKind>(kind)) {
    case SectionKind::Nodes: return sizeof(BvhNode);
    case SectionKind::Vertices: return 12;
    case SectionKind::Triangles: return 2;
    case SectionKind::BlockBases: return 4;
    case SectionKind::Materials: return 2;
    case SectionKind::SourceIds: return 4;
    case SectionKind::BuildStats: return sizeof(BuildStats);
    case SectionKind::SphereCluster: return 16;
    case SectionKind::Walls: return 4;
    default: return 0;
    }
}

constexpr std::uint32_t kSectionKindLimit = 10; ///< kinds are < this

struct ParsedSection {
    std::uint32_t kind = 0, count = 0, offset = 0, bytes = 0;
};

struct ParsedBlob {
    bool foreign = false;
    std::uint64_t total = 0;
    std::uint32_t section_count = 0;
    ParsedSection sections[kMaxSections];
    int by_kind[kSectionKindLimit] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
};

inline Status fail(BlobError* err, Status status, const char* what, std::uint64_t offset) {
    if (err != nullptr) {
        err->status = status;
        err->what = what;
        err->offset = offset;
    }
    return status;
}

/// True when |v| <= kMaxBlobCoordinate (false for NaN and infinities).
inline bool inBlobRange(float v) { return v >= -kMaxBlobCoordinate && v <= kMaxBlobCoordinate; }

/// The shape every skip-linked tree of a blob must have, checked at internal node `i` (of `count`;
/// `skip(k)` is node k's subtree size, 1 for a leaf): its left child at i + 1 and its right
/// child right after the left's subtree, the two subtrees ending exactly where i's does. With the
/// root spanning the array, every node then lies in exactly one subtree of each ancestor, so a
/// forward walk that skips a subtree skips exactly the nodes under a box. Fills the children.
template <typename Skip>
inline bool binaryChildren(std::uint32_t i, std::uint32_t count, Skip&& skip, std::uint32_t& out_left,
                           std::uint32_t& out_right) {
    const std::uint64_t end = std::uint64_t{i} + skip(i);
    out_left = i + 1u;
    if (end > count || out_left >= end) return false;
    const std::uint64_t right = std::uint64_t{out_left} + skip(out_left);
    if (right >= end) return false;
    out_right = static_cast<std::uint32_t>(right);
    return right + skip(out_right) == end;
}

/// Validates header, section table and checksum (not the section contents).
Status parseBlob(const unsigned char* p, std::size_t size, bool allow_foreign, ParsedBlob& out,
                 BlobError* err);

} // namespace flak::detail

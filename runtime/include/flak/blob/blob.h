// flak — the blob container: one relocatable buffer (offsets, never pointers) holding sections of
// any kind, opened in place. This file is the container's exact binary layout, with the byte
// budget beside every struct; each section's own layout belongs to the room that reads it (mesh
// sections: bvh/blob_format.h; SphereCluster and Walls: shooter/blob_sections.h).
//
//   offset 0     BlobHeader                      64 bytes
//   offset 64    SectionEntry[section_count]     16 bytes each (at most kMaxSections)
//   then         sections, each 16-byte aligned, in the order of the table, padding bytes zero
//
// All multi-byte fields are in the byte order named by BlobHeader::endian_marker; a blob in the
// host's order is used as is, one in the other order is converted in place by swapBlobByteOrder.
// openBlob checks the container (header, table, checksum) and nothing inside the sections; the
// views over sections (loadMeshBlob, loadSphereCluster, loadWallSet) each validate their own.
#pragma once

#include <flak/status.h>

#include <cstddef>
#include <cstdint>

namespace flak {

constexpr std::uint32_t kBlobVersion = 2;
constexpr std::uint32_t kBlobEndianMarker = 0x01020304u;
constexpr std::uint32_t kMaxSections = 12;
constexpr char kBlobMagic[8] = {'F', 'L', 'A', 'K', 'B', 'V', 'H', '\0'};
/// The largest magnitude of any coordinate a blob holds (vertices, wall points, sphere centres and
/// radii, the quantization origin): 2^40, about 1.1e12, the range the kernels are exact for (their
/// cross and triple products of coordinate differences stay far inside float's range). The baker
/// refuses larger coordinates and each section view refuses blobs that hold them.
constexpr float kMaxBlobCoordinate = 1099511627776.0f;

/// Every section kind the container knows. A section's element size and the split of each element
/// into 16-bit fields, 4-byte words and single bytes (what a byte swap needs) are fixed per kind:
/// sectionLayout().
enum class SectionKind : std::uint32_t {
    Nodes = 1,              ///< retired: the binary tree of earlier builds; loadMeshBlob refuses it
    Vertices = 2,           ///< float[3][count]
    Triangles = 3,          ///< uint8_t[3][count]
    BlockBases = 4,         ///< uint32_t[count]
    Materials = 5,          ///< MaterialRun[count], optional (bvh/blob_format.h)
    SourceIds = 6,          ///< uint32_t[count], optional
    BuildStats = 7,         ///< BuildStats, optional
    SphereCluster = 8,      ///< Sphere[count] (shooter/blob_sections.h)
    Walls = 9,              ///< uint32_t[count]: a 2D wall set (shooter/blob_sections.h)
    MeshInfo = 10,          ///< MeshInfo, count 1: the mesh's quantization grid (bvh/blob_format.h)
    QuantizedVertices = 11, ///< uint16_t[3][count]: vertices on the mesh's grid, in place of Vertices
    WideNodes = 12,         ///< WideNode[count]: the tree with up to 8 children a node (bvh/blob_format.h)
};
constexpr std::uint32_t kSectionKindLimit = 13; ///< every kind is below this

/// How a section kind's elements are laid out: `element_bytes` per element, of which the first
/// `halfwords` 16-bit words are u16 fields, the next `words` 4-byte words (u32 or float), and any
/// bytes after them single bytes, which a byte swap leaves alone.
struct SectionLayout {
    std::uint32_t element_bytes;
    std::uint32_t halfwords;
    std::uint32_t words;
};

/// The layout of a section kind; element_bytes 0 for a kind the container does not know.
constexpr SectionLayout sectionLayout(std::uint32_t kind) {
    switch (kind) {
    case 1: return {16, 6, 1};  // Nodes (retired, still opened so the mesh loader can name it)
    case 2: return {12, 0, 3};  // Vertices
    case 3: return {3, 0, 0};   // Triangles: three byte offsets
    case 4: return {4, 0, 1};   // BlockBases
    case 5: return {8, 2, 1};   // Materials: u16 material, reserved; u32 first triangle
    case 6: return {4, 0, 1};   // SourceIds
    case 7: return {64, 0, 16}; // BuildStats
    case 8: return {16, 0, 4};  // SphereCluster
    case 9: return {4, 0, 1};   // Walls
    case 10: return {32, 0, 8}; // MeshInfo
    case 11: return {6, 3, 0};  // QuantizedVertices: u16 x, y, z
    case 12: return {96, 6, 8}; // WideNodes: u16 base[3], step[3]; u32 child[8]; bytes
    default: return {0, 0, 0};
    }
}

/// Whether every known kind's u16 fields and words fit its element.
constexpr bool sectionLayoutsFit() {
    for (std::uint32_t k = 0; k < kSectionKindLimit; ++k) {
        const SectionLayout l = sectionLayout(k);
        if (2u * l.halfwords + 4u * l.words > l.element_bytes) return false;
    }
    return true;
}
static_assert(sectionLayoutsFit(), "a section layout's fields fit its element");

/// Blob header (64 bytes). Fields after `magic` are in the blob's byte order.
struct BlobHeader {
    char magic[8];               //  0: kBlobMagic
    std::uint32_t version;       //  8: kBlobVersion
    std::uint32_t endian_marker; // 12: kBlobEndianMarker as written by the baker
    std::uint32_t layout_hash;   // 16: blobLayoutHash() of the writer
    std::uint32_t section_count; // 20: entries in the section table
    std::uint64_t total_bytes;   // 24: size of the whole blob
    std::uint64_t checksum;      // 32: blobChecksum() of the whole blob (this field read as 0)
    std::uint32_t reserved[6];   // 40: zero
};
static_assert(sizeof(BlobHeader) == 64, "BlobHeader is 64 bytes");
static_assert(offsetof(BlobHeader, checksum) == 32 && offsetof(BlobHeader, reserved) == 40,
              "BlobHeader field offsets are part of the format");

/// One section table entry (16 bytes).
struct SectionEntry {
    std::uint32_t kind;   // SectionKind
    std::uint32_t count;  // elements in the section
    std::uint32_t offset; // from the blob start, multiple of 16
    std::uint32_t bytes;  // count * element size
};
static_assert(sizeof(SectionEntry) == 16, "SectionEntry is 16 bytes");

/// Hash of the container's sizes and offsets and of every section kind's layout: a reader built
/// from another layout refuses the blob. (Each section's own encoding is guarded by its room: the
/// mesh sections by MeshInfo::layout_hash.)
constexpr std::uint32_t blobLayoutHash() {
    std::uint32_t h = 2166136261u;
    const auto mix = [&h](std::uint32_t f) {
        for (int i = 0; i < 4; ++i) h = (h ^ ((f >> (8 * i)) & 0xFFu)) * 16777619u;
    };
    mix(kBlobVersion);
    mix(sizeof(BlobHeader));
    mix(offsetof(BlobHeader, checksum));
    mix(sizeof(SectionEntry));
    mix(kMaxSections);
    for (std::uint32_t k = 0; k < kSectionKindLimit; ++k) {
        mix(sectionLayout(k).element_bytes);
        mix(sectionLayout(k).halfwords);
        mix(sectionLayout(k).words);
    }
    return h;
}

/// Checksum of a whole blob [data, data + bytes) with the header's checksum field read as zero: a
/// 64-bit multiply-rotate hash over the bytes, read 8 at a time in little-endian order whatever the
/// host (so a foreign-endian blob checks on any machine). Every single-byte change outside the
/// checksum field changes the result (each step is a bijection of the state).
std::uint64_t blobChecksum(const void* data, std::size_t bytes);

/// Why an open, a swap or a section view refused a blob: the status, a static description and
/// the byte offset of the first offending field (0 when not about one field).
struct BlobError {
    Status status = Status::Ok;
    const char* what = "";
    std::uint64_t offset = 0;
};

/// One section of an opened blob: its first byte, element count and byte offset in the blob.
struct BlobSection {
    const void* data = nullptr; ///< null when the blob has no section of the kind
    std::uint32_t count = 0;
    std::uint64_t offset = 0;
};

/// An opened blob: the container checked, the sections located, nothing inside them read. Points
/// into the caller's bytes, which must outlive it and stay unchanged. Cheap to copy.
struct Blob {
    const unsigned char* data = nullptr;
    std::uint64_t total_bytes = 0;
    std::uint32_t section_count = 0;
    SectionEntry sections[kMaxSections] = {}; ///< the table, in host order
};

/// Opens [data, data + size) in place: checks alignment (16), magic, version, layout hash, byte
/// order, total size, the checksum over every byte, and the section table (known kinds, each at
/// most once, sizes matching counts, 16-byte aligned, in order, without overlap, inside the
/// blob). A version-1 blob is BlobUnsupportedVersion with a message saying to bake it again. Never
/// reads outside the given bytes, never allocates. A null `data` is NullMemory (whatever `size`);
/// fewer bytes than a header, BlobTruncated. out_blob is left empty on error.
[[nodiscard]] Status openBlob(const void* data, std::size_t size, Blob& out_blob,
                              BlobError* out_error = nullptr);

/// The section of `kind` in an opened blob (data null and count 0 when it has none).
BlobSection blobSection(const Blob& blob, SectionKind kind);

/// Converts a blob written in the other byte order to this host's order, in place, and updates
/// its checksum. Checks the container first (openBlob's statuses); on any error nothing is
/// changed. A blob already in host order returns Ok untouched. A null `data` is NullMemory.
[[nodiscard]] Status swapBlobByteOrder(void* data, std::size_t size, BlobError* out_error = nullptr);

} // namespace flak

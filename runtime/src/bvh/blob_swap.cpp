#include "bvh/blob_parse.h"

namespace flak {

namespace {

template <typename T> void swapArray(unsigned char* p, std::uint32_t count) {
    for (std::uint32_t i = 0; i < count; ++i) {
        T v;
        std::memcpy(&v, p + std::size_t{i} * sizeof(T), sizeof(T));
        v = detail::bswap(v);
        std::memcpy(p + std::size_t{i} * sizeof(T), &v, sizeof(T));
    }
}

} // namespace

// Everything is validated before the first byte is written, so a refused blob is left as it was.
Status swapBlobByteOrder(void* data, std::size_t size, BlobError* out_error) {
    if (out_error != nullptr) *out_error = BlobError{};
    unsigned char* p = static_cast<unsigned char*>(data);
    detail::ParsedBlob parsed;
    const Status status = detail::parseBlob(p, size, true, parsed, out_error);
    if (status != Status::Ok || !parsed.foreign) return status;

    for (std::uint32_t i = 0; i < parsed.section_count; ++i) {
        const detail::ParsedSection& s = parsed.sections[i];
        unsigned char* at = p + s.offset;
        switch (static_cast<SectionKind>(s.kind)) {
        case SectionKind::Nodes:
            for (std::uint32_t n = 0; n < s.count; ++n) {
                unsigned char* node = at + std::size_t{n} * sizeof(BvhNode);
                swapArray<std::uint16_t>(node, 6);
                swapArray<std::uint32_t>(node + offsetof(BvhNode, info), 1);
            }
            break;
        case SectionKind::Vertices: swapArray<std::uint32_t>(at, 3 * s.count); break;
        case SectionKind::Triangles:
        case SectionKind::Materials: swapArray<std::uint16_t>(at, s.count); break;
        case SectionKind::BlockBases:
        case SectionKind::Walls: // every field of a Walls section is one 4-byte word
        case SectionKind::SourceIds: swapArray<std::uint32_t>(at, s.count); break;
        case SectionKind::SphereCluster: swapArray<std::uint32_t>(at, 4 * s.count); break;
        case SectionKind::BuildStats: swapArray<std::uint32_t>(at, sizeof(BuildStats) / 4); break;
        default: break; // parseBlob refuses unknown kinds
        }
    }
    swapArray<std::uint32_t>(p + sizeof(BlobHeader), 4 * parsed.section_count); // the table
    swapArray<std::uint32_t>(p + offsetof(BlobHeader, version), 4);             // version..section_count
    swapArray<std::uint64_t>(p + offsetof(BlobHeader, total_bytes), 1);
    swapArray<std::uint32_t>(p + offsetof(BlobHeader, bounds_min), 6);
    const std::uint64_t sum = blobChecksum(p, static_cast<std::size_t>(parsed.total));
    std::memcpy(p + offsetof(BlobHeader, checksum), &sum, sizeof(sum));
    return Status::Ok;
}

} // namespace flak

#include "bvh/blob_parse.h"

#include <cfloat>
#include <cmath>

namespace flak::detail {

Status parseBlob(const unsigned char* p, std::size_t size, bool allow_foreign, ParsedBlob& out,
                 BlobError* err) {
    out = ParsedBlob{};
    if (p == nullptr) return fail(err, Status::NullMemory, "null blob pointer", 0);
    if ((reinterpret_cast<std::uintptr_t>(p) & 15u) != 0)
        return fail(err, Status::BlobMisaligned, "blob address not 16-byte aligned", 0);
    if (size < sizeof(BlobHeader)) return fail(err, Status::BlobTruncated, "shorter than the header", size);
    if (std::memcmp(p, kBlobMagic, sizeof(kBlobMagic)) != 0)
        return fail(err, Status::BlobBadMagic, "magic", 0);

    const std::uint32_t marker = readField<std::uint32_t>(p + offsetof(BlobHeader, endian_marker), false);
    if (marker == kBlobEndianMarker) {
        out.foreign = false;
    } else if (marker == bswap(kBlobEndianMarker)) {
        out.foreign = true;
        if (!allow_foreign)
            return fail(err, Status::BlobWrongEndian, "blob is in the other byte order",
                        offsetof(BlobHeader, endian_marker));
    } else {
        return fail(err, Status::BlobCorrupt, "endian marker", offsetof(BlobHeader, endian_marker));
    }
    const bool f = out.foreign;
    if (readField<std::uint32_t>(p + offsetof(BlobHeader, version), f) != kBlobVersion)
        return fail(err, Status::BlobUnsupportedVersion, "format version", offsetof(BlobHeader, version));
    if (readField<std::uint32_t>(p + offsetof(BlobHeader, layout_hash), f) != blobLayoutHash())
        return fail(err, Status::BlobLayoutMismatch, "layout hash", offsetof(BlobHeader, layout_hash));

    out.total = readField<std::uint64_t>(p + offsetof(BlobHeader, total_bytes), f);
    if (out.total > size) return fail(err, Status::BlobTruncated, "fewer bytes than total_bytes", size);
    out.section_count = readField<std::uint32_t>(p + offsetof(BlobHeader, section_count), f);
    if (out.section_count > kMaxSections)
        return fail(err, Status::BlobCorrupt, "section count", offsetof(BlobHeader, section_count));
    const std::uint64_t table_end =
        sizeof(BlobHeader) + std::uint64_t{out.section_count} * sizeof(SectionEntry);
    if (out.total < table_end || out.total > 0xFFFFFFFFull)
        return fail(err, Status::BlobCorrupt, "total_bytes", offsetof(BlobHeader, total_bytes));

    const std::uint64_t stored = readField<std::uint64_t>(p + offsetof(BlobHeader, checksum), f);
    if (blobChecksum(p, static_cast<std::size_t>(out.total)) != stored)
        return fail(err, Status::BlobBadChecksum, "payload checksum", offsetof(BlobHeader, checksum));

    for (int i = 0; i < 6; ++i) {
        const std::size_t at = offsetof(BlobHeader, bounds_min) + 4u * static_cast<std::size_t>(i);
        const std::uint32_t bits = readField<std::uint32_t>(p + at, f);
        float v;
        std::memcpy(&v, &bits, 4);
        // A scale is 0 (a flat axis) or a normal float whose reciprocal is finite: queries work
        // in grid units (1 / scale), and a denormal scale would make them infinite.
        if (!std::isfinite(v) || (i >= 3 && v != 0.0f && !(v >= FLT_MIN && std::isfinite(1.0f / v))))
            return fail(err, Status::BlobCorrupt, "quantization origin or scale", at);
    }

    std::uint64_t previous_end = table_end;
    for (std::uint32_t i = 0; i < out.section_count; ++i) {
        const unsigned char* e = p + sizeof(BlobHeader) + i * sizeof(SectionEntry);
        const std::uint64_t at = sizeof(BlobHeader) + i * sizeof(SectionEntry);
        ParsedSection s;
        s.kind = readField<std::uint32_t>(e, f);
        s.count = readField<std::uint32_t>(e + 4, f);
        s.offset = readField<std::uint32_t>(e + 8, f);
        s.bytes = readField<std::uint32_t>(e + 12, f);
        const std::uint32_t elem = s.kind < kSectionKindLimit ? sectionElementBytes(s.kind) : 0;
        if (elem == 0) return fail(err, Status::BlobCorrupt, "unknown section kind", at);
        if (out.by_kind[s.kind] >= 0) return fail(err, Status::BlobCorrupt, "section kind appears twice", at);
        if (static_cast<SectionKind>(s.kind) == SectionKind::BuildStats && s.count != 1)
            return fail(err, Status::BlobCorrupt, "build stats count", at + 4);
        if (s.bytes != std::uint64_t{s.count} * elem)
            return fail(err, Status::BlobCorrupt, "section size does not match its count", at + 12);
        if ((s.offset & 15u) != 0)
            return fail(err, Status::BlobCorrupt, "section offset not 16-byte aligned", at + 8);
        if (s.offset < previous_end)
            return fail(err, Status::BlobCorrupt, "sections overlap or are out of order", at + 8);
        if (std::uint64_t{s.offset} + s.bytes > out.total)
            return fail(err, Status::BlobCorrupt, "section runs past the end", at + 8);
        previous_end = std::uint64_t{s.offset} + s.bytes;
        out.sections[i] = s;
        out.by_kind[s.kind] = static_cast<int>(i);
    }
    return Status::Ok;
}

} // namespace flak::detail

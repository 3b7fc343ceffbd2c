#include "blob/blob_read.h"

namespace flak {

namespace detail {

Status openContainer(const unsigned char* p, std::size_t size, bool allow_foreign, Blob& out, bool& foreign,
                     BlobError* err) {
    out = Blob{};
    foreign = false;
    if (p == nullptr) return fail(err, Status::NullMemory, "null blob pointer", 0);
    if ((reinterpret_cast<std::uintptr_t>(p) & 15u) != 0)
        return fail(err, Status::BlobMisaligned, "blob address not 16-byte aligned", 0);
    if (size < sizeof(BlobHeader)) return fail(err, Status::BlobTruncated, "shorter than the header", size);
    if (std::memcmp(p, kBlobMagic, sizeof(kBlobMagic)) != 0)
        return fail(err, Status::BlobBadMagic, "magic", 0);

    const std::uint32_t marker = readField<std::uint32_t>(p + offsetof(BlobHeader, endian_marker), false);
    if (marker == bswap(kBlobEndianMarker)) {
        foreign = true;
    } else if (marker != kBlobEndianMarker) {
        return fail(err, Status::BlobCorrupt, "endian marker", offsetof(BlobHeader, endian_marker));
    }
    const bool f = foreign;
    const std::uint32_t version = readField<std::uint32_t>(p + offsetof(BlobHeader, version), f);
    if (version == 1)
        return fail(err, Status::BlobUnsupportedVersion,
                    "blob format version 1 is no longer read: bake the asset again with this flak_bake",
                    offsetof(BlobHeader, version));
    if (version != kBlobVersion)
        return fail(err, Status::BlobUnsupportedVersion, "format version", offsetof(BlobHeader, version));
    if (foreign && !allow_foreign)
        return fail(err, Status::BlobWrongEndian, "blob is in the other byte order",
                    offsetof(BlobHeader, endian_marker));
    if (readField<std::uint32_t>(p + offsetof(BlobHeader, layout_hash), f) != blobLayoutHash())
        return fail(err, Status::BlobLayoutMismatch,
                    "layout hash: written with another blob layout, bake the asset again with this flak_bake",
                    offsetof(BlobHeader, layout_hash));

    const std::uint64_t total = readField<std::uint64_t>(p + offsetof(BlobHeader, total_bytes), f);
    if (total > size) return fail(err, Status::BlobTruncated, "fewer bytes than total_bytes", size);
    const std::uint32_t section_count = readField<std::uint32_t>(p + offsetof(BlobHeader, section_count), f);
    if (section_count > kMaxSections)
        return fail(err, Status::BlobCorrupt, "section count", offsetof(BlobHeader, section_count));
    const std::uint64_t table_end = sizeof(BlobHeader) + std::uint64_t{section_count} * sizeof(SectionEntry);
    if (total < table_end || total > 0xFFFFFFFFull)
        return fail(err, Status::BlobCorrupt, "total_bytes", offsetof(BlobHeader, total_bytes));

    const std::uint64_t stored = readField<std::uint64_t>(p + offsetof(BlobHeader, checksum), f);
    if (blobChecksum(p, static_cast<std::size_t>(total)) != stored)
        return fail(err, Status::BlobBadChecksum, "payload checksum", offsetof(BlobHeader, checksum));
    for (std::size_t at = offsetof(BlobHeader, reserved); at < sizeof(BlobHeader); at += 4)
        if (readField<std::uint32_t>(p + at, f) != 0)
            return fail(err, Status::BlobCorrupt, "reserved header word not zero", at);

    bool seen[kSectionKindLimit] = {};
    std::uint64_t previous_end = table_end;
    for (std::uint32_t i = 0; i < section_count; ++i) {
        const std::uint64_t at = sizeof(BlobHeader) + std::uint64_t{i} * sizeof(SectionEntry);
        const unsigned char* e = p + at;
        SectionEntry s;
        s.kind = readField<std::uint32_t>(e, f);
        s.count = readField<std::uint32_t>(e + 4, f);
        s.offset = readField<std::uint32_t>(e + 8, f);
        s.bytes = readField<std::uint32_t>(e + 12, f);
        const std::uint32_t elem = s.kind < kSectionKindLimit ? sectionLayout(s.kind).element_bytes : 0;
        if (elem == 0) return fail(err, Status::BlobCorrupt, "unknown section kind", at);
        if (seen[s.kind]) return fail(err, Status::BlobCorrupt, "section kind appears twice", at);
        seen[s.kind] = true;
        if (s.bytes != std::uint64_t{s.count} * elem)
            return fail(err, Status::BlobCorrupt, "section size does not match its count", at + 12);
        if ((s.offset & 15u) != 0)
            return fail(err, Status::BlobCorrupt, "section offset not 16-byte aligned", at + 8);
        if (s.offset < previous_end)
            return fail(err, Status::BlobCorrupt, "sections overlap or are out of order", at + 8);
        if (std::uint64_t{s.offset} + s.bytes > total)
            return fail(err, Status::BlobCorrupt, "section runs past the end", at + 8);
        previous_end = std::uint64_t{s.offset} + s.bytes;
        out.sections[i] = s;
    }
    out.data = p;
    out.total_bytes = total;
    out.section_count = section_count;
    return Status::Ok;
}

} // namespace detail

Status openBlob(const void* data, std::size_t size, Blob& out_blob, BlobError* out_error) {
    if (out_error != nullptr) *out_error = BlobError{};
    bool foreign = false;
    const Status status = detail::openContainer(static_cast<const unsigned char*>(data), size, false,
                                                out_blob, foreign, out_error);
    if (status != Status::Ok) out_blob = Blob{};
    return status;
}

BlobSection blobSection(const Blob& blob, SectionKind kind) {
    BlobSection out;
    for (std::uint32_t i = 0; i < blob.section_count && i < kMaxSections; ++i) {
        const SectionEntry& s = blob.sections[i];
        if (s.kind != static_cast<std::uint32_t>(kind)) continue;
        out.data = blob.data + s.offset;
        out.count = s.count;
        out.offset = s.offset;
        break;
    }
    return out;
}

} // namespace flak

#include "blob/blob_read.h"

namespace flak {

namespace {

template <typename T> void swapArray(unsigned char* p, std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
        T v;
        std::memcpy(&v, p + i * sizeof(T), sizeof(T));
        v = detail::bswap(v);
        std::memcpy(p + i * sizeof(T), &v, sizeof(T));
    }
}

} // namespace

// The container is checked before the first byte is written, so a refused blob is left as it was.
// Every section is swapped by its kind's layout (sectionLayout): u16 fields first, then 4-byte
// words, then single bytes left as they are; what the fields mean is the business of the
// section's own view.
Status swapBlobByteOrder(void* data, std::size_t size, BlobError* out_error) {
    if (out_error != nullptr) *out_error = BlobError{};
    unsigned char* p = static_cast<unsigned char*>(data);
    Blob blob;
    bool foreign = false;
    const Status status = detail::openContainer(p, size, true, blob, foreign, out_error);
    if (status != Status::Ok || !foreign) return status;

    for (std::uint32_t i = 0; i < blob.section_count; ++i) {
        const SectionEntry& s = blob.sections[i];
        const SectionLayout layout = sectionLayout(s.kind);
        for (std::uint32_t e = 0; e < s.count; ++e) {
            unsigned char* at = p + s.offset + std::uint64_t{e} * layout.element_bytes;
            swapArray<std::uint16_t>(at, layout.halfwords);
            swapArray<std::uint32_t>(at + 2u * layout.halfwords, layout.words);
        }
    }
    swapArray<std::uint32_t>(p + sizeof(BlobHeader), 4u * blob.section_count); // the table
    swapArray<std::uint32_t>(p + offsetof(BlobHeader, version), 4);            // version..section_count
    swapArray<std::uint64_t>(p + offsetof(BlobHeader, total_bytes), 1);
    const std::uint64_t sum = blobChecksum(p, static_cast<std::size_t>(blob.total_bytes));
    std::memcpy(p + offsetof(BlobHeader, checksum), &sum, sizeof(sum));
    return Status::Ok;
}

} // namespace flak

// libFuzzer target: the blob loader on arbitrary bytes, then every query over what it accepted,
// and the in-place byte swap (followed by a second load). Most mutations break the checksum and
// stop at the first check, so each input is also loaded "re-sealed": its checksum field
// recomputed, as a buggy or hostile pipeline would, to reach the structural validation.
#include "fuzz_queries.h"

#include <flak/bvh/mesh_blob.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The loader wants 16-byte aligned bytes; give it exactly `size` of them so ASan sees any
    // read past the end.
    void* raw = std::aligned_alloc(16, (size + 15) / 16 * 16 + 16);
    std::memcpy(raw, data, size);
    flak::MeshBlob blob;
    flak::fuzz::Params params(data, size);
    if (flak::loadMeshBlob(raw, size, blob) == flak::Status::Ok) flak::fuzz::runAllQueries(blob, params);
    if (flak::swapBlobByteOrder(raw, size) == flak::Status::Ok &&
        flak::loadMeshBlob(raw, size, blob) == flak::Status::Ok)
        flak::fuzz::runAllQueries(blob, params);
    // Re-sealed: the checksum of the bytes as given, written in host order (a foreign-order
    // header fails its endianness check before the checksum matters).
    if (size >= sizeof(flak::BlobHeader)) {
        std::memcpy(raw, data, size);
        const std::uint64_t zero = 0;
        std::memcpy(static_cast<unsigned char*>(raw) + offsetof(flak::BlobHeader, checksum), &zero,
                    sizeof(zero));
        const std::uint64_t sum = flak::blobChecksum(raw, size);
        std::memcpy(static_cast<unsigned char*>(raw) + offsetof(flak::BlobHeader, checksum), &sum,
                    sizeof(sum));
        if (flak::loadMeshBlob(raw, size, blob) == flak::Status::Ok) flak::fuzz::runAllQueries(blob, params);
    }
    std::free(raw);
    return 0;
}

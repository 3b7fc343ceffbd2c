// libFuzzer target: the blob loader on arbitrary bytes, then every query over what it accepted,
// and the in-place byte swap (followed by a second load). Most mutations break the checksum and
// stop at the first check, so each input is also loaded "re-sealed": its checksum field
// recomputed, as a buggy or hostile pipeline would, to reach the structural validation. Every
// blob that loads must also answer like brute force over its own triangles (the loader's
// guarantee, docs/blob_format.md; fuzz::checkAgainstBruteForce), and so must its walls
// (checkWallsAgainstBruteForce); a disagreement aborts, so the fuzzer reports it.
#include "fuzz_queries.h"

#include "blob_inspect.h"

#include <flak/bvh/mesh_blob.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

// Every query over an accepted blob, then the brute-force agreement at a placement drawn from
// the input.
void runAndCheck(const flak::Blob& whole, const flak::MeshBlob& blob, const std::uint8_t* data,
                 std::size_t size) {
    flak::fuzz::Params params(data, size);
    flak::fuzz::runAllQueries(whole, blob, params);
    flak::fuzz::checkAgainstBruteForce(blob, params);
    flak::fuzz::checkWallsAgainstBruteForce(whole, params);
}

// Opens the bytes and loads their mesh: true when the container opens and the mesh loads or is
// absent (a blob of walls or a cluster only: `blob` is then an empty mesh).
bool load(void* raw, std::size_t size, flak::Blob& whole, flak::MeshBlob& blob) {
    return flak::openBlob(raw, size, whole) == flak::Status::Ok &&
           flak::bake::loadOptionalMesh(whole, blob) == flak::Status::Ok;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The loader wants 16-byte aligned bytes; give it exactly `size` of them so ASan sees any
    // read past the end.
    void* raw = std::aligned_alloc(16, (size + 15) / 16 * 16 + 16);
    std::memcpy(raw, data, size);
    flak::Blob whole;
    flak::MeshBlob blob;
    if (load(raw, size, whole, blob)) runAndCheck(whole, blob, data, size);
    if (flak::swapBlobByteOrder(raw, size) == flak::Status::Ok && load(raw, size, whole, blob))
        runAndCheck(whole, blob, data, size);
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
        if (load(raw, size, whole, blob)) runAndCheck(whole, blob, data, size);
    }
    std::free(raw);
    return 0;
}

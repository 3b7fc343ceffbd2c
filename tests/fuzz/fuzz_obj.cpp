// libFuzzer target: the baker's import path on OBJ text (Assimp from memory, then the baker's
// own preparation, BVH build and blob writer), then the loader and every query over the blob,
// and the blob's answers against brute force over its triangles (fuzz::checkAgainstBruteForce).
#include "fuzz_queries.h"

#include "blob_write.h"
#include "bvh_build.h"
#include "import.h"
#include "prepare.h"

#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    flak::bake::SourceMesh mesh;
    if (flak::bake::importMeshFromMemory(data, size, "obj", flak::bake::ImportOptions{}, mesh).failed())
        return 0;
    if (flak::bake::prepareMesh(mesh, flak::bake::PrepareOptions{}).failed()) return 0;
    if (mesh.triangleCount() > 20000) return 0; // keep each run short
    const flak::bake::BuiltTree tree =
        flak::bake::buildBvh(mesh.positions, mesh.indices, flak::bake::BuildOptions{});
    std::vector<unsigned char> bytes;
    if (flak::bake::writeBlob(mesh, tree, flak::bake::WriteOptions{}, bytes).failed()) return 0;
    std::vector<unsigned char> storage(bytes.size() + 16);
    unsigned char* aligned =
        storage.data() + ((16 - reinterpret_cast<std::uintptr_t>(storage.data()) % 16) % 16);
    std::memcpy(aligned, bytes.data(), bytes.size());
    flak::Blob whole;
    flak::MeshBlob blob;
    // What the baker writes must load: anything else is a baker bug.
    if (flak::openBlob(aligned, bytes.size(), whole) != flak::Status::Ok ||
        flak::loadMeshBlob(whole, blob) != flak::Status::Ok)
        __builtin_trap();
    flak::fuzz::Params params(data, size);
    flak::fuzz::runAllQueries(whole, blob, params);
    flak::fuzz::checkAgainstBruteForce(blob, params);
    return 0;
}

// libFuzzer target: the baker's import path on OBJ text (Assimp from memory, then the baker's
// own preparation, BVH build and blob writer), then the loader and every query over the blob,
// and the blob's answers against brute force over its triangles (fuzz::checkAgainstBruteForce),
// in both vertex modes and every leaf size.
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
    // The bake's settings from the input's length: either vertex mode, with source ids or not,
    // and every leaf size.
    const bool quantized = (size & 1u) != 0, source_ids = (size & 2u) != 0;
    const flak::bake::BuildOptions build =
        flak::bake::bakeBuildOptions(quantized, static_cast<std::uint32_t>(1 + (size >> 2) % 16), 0.0f);
    const flak::bake::BuiltTree tree = flak::bake::buildBvh(mesh.positions, mesh.indices, build);
    flak::bake::WriteOptions write;
    write.quantize_vertices = quantized;
    write.source_ids = source_ids;
    write.max_leaf = build.max_leaf;
    std::vector<unsigned char> bytes;
    if (flak::bake::writeBlob(mesh, tree, write, bytes).failed()) return 0;
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

// libFuzzer target: the wall level-file parser on arbitrary text, then the wall builder, the
// blob writer, the loader and every wall query over the result, and its answers against brute
// force over its edges (fuzz::checkWallsAgainstBruteForce).
#include "fuzz_queries.h"

#include "blob_write.h"
#include "wall_build.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<flak::bake::WallPolygon> polygons;
    if (flak::bake::parseLevelFile(text, polygons).failed()) return 0;
    std::vector<std::uint32_t> words;
    if (flak::bake::buildWallSection(polygons, flak::bake::WallBuildOptions{}, words).failed()) return 0;
    flak::bake::WriteOptions options;
    options.mesh = false;
    options.walls = words;
    std::vector<unsigned char> bytes;
    if (flak::bake::writeBlob(flak::bake::SourceMesh{}, flak::bake::BuiltTree{}, options, bytes).failed())
        return 0;
    std::vector<unsigned char> storage(bytes.size() + 16);
    unsigned char* aligned =
        storage.data() + ((16 - reinterpret_cast<std::uintptr_t>(storage.data()) % 16) % 16);
    std::memcpy(aligned, bytes.data(), bytes.size());
    flak::Blob whole;
    flak::WallSet walls;
    // The baker's own output must always open and its walls load: anything else is a baker bug.
    if (flak::openBlob(aligned, bytes.size(), whole) != flak::Status::Ok ||
        flak::loadWallSet(whole, walls) != flak::Status::Ok)
        __builtin_trap();
    flak::MeshBlob no_mesh;
    flak::setEmpty(no_mesh.bounds);
    flak::fuzz::Params params(data, size);
    flak::fuzz::runAllQueries(whole, no_mesh, params);
    flak::fuzz::checkWallsAgainstBruteForce(whole, params);
    return 0;
}

#include "prepare.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

namespace flak::bake {

namespace {

struct PositionKey {
    std::uint32_t bits[3];
    bool operator==(const PositionKey& o) const {
        return bits[0] == o.bits[0] && bits[1] == o.bits[1] && bits[2] == o.bits[2];
    }
};
struct PositionHash {
    std::size_t operator()(const PositionKey& k) const {
        std::uint64_t h = 0x9E3779B97F4A7C15ull;
        for (std::uint32_t b : k.bits) h = (h ^ b) * 0xBF58476D1CE4E5B9ull;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

PositionKey keyOf(const Vec3& p) {
    PositionKey k;
    for (int a = 0; a < 3; ++a) {
        const float v = p[a] == 0.0f ? 0.0f : p[a]; // -0 and +0 weld
        std::memcpy(&k.bits[a], &v, 4);
    }
    return k;
}

} // namespace

double cornerSinSq(const Vec3& a, const Vec3& b, const Vec3& c) {
    const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
    const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
    const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const double lengths = (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz);
    return lengths > 0.0 ? (cx * cx + cy * cy + cz * cz) / lengths : 0.0;
}

BakeError prepareMesh(SourceMesh& mesh, const PrepareOptions& options) {
    mesh.source_vertices = static_cast<std::uint32_t>(mesh.positions.size());
    mesh.source_triangles = mesh.triangleCount();
    if (mesh.indices.size() % 3 != 0) return {"index count is not a multiple of 3"};
    for (std::size_t i = 0; i < mesh.indices.size(); ++i)
        if (mesh.indices[i] >= mesh.positions.size())
            return {"triangle " + std::to_string(i / 3) + " references vertex " +
                    std::to_string(mesh.indices[i]) + " of " + std::to_string(mesh.positions.size())};
    std::vector<char> used(mesh.positions.size(), 0);
    for (std::uint32_t idx : mesh.indices) used[idx] = 1;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        if (!used[v]) continue;
        const Vec3& p = mesh.positions[v];
        for (int a = 0; a < 3; ++a) {
            if (!std::isfinite(p[a])) return {mesh.vertexText(v) + " has a NaN or infinite coordinate"};
            if (std::fabs(double(p[a])) > options.max_abs_coordinate)
                return {mesh.vertexText(v) + " has an absurd coordinate " + std::to_string(p[a]) +
                        " (limit " + std::to_string(options.max_abs_coordinate) + ", see --max-coord)"};
        }
    }

    // Weld: first occurrence of each position wins; remap every index.
    std::unordered_map<PositionKey, std::uint32_t, PositionHash> first;
    first.reserve(mesh.positions.size());
    std::vector<std::uint32_t> remap(mesh.positions.size(), 0);
    std::vector<Vec3> welded;
    welded.reserve(mesh.positions.size());
    std::uint32_t merged = 0;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        if (!used[v]) continue;
        auto [it, inserted] =
            first.emplace(keyOf(mesh.positions[v]), static_cast<std::uint32_t>(welded.size()));
        if (inserted)
            welded.push_back(mesh.positions[v]);
        else
            ++merged;
        remap[v] = it->second;
    }
    mesh.welded_vertices = merged;

    std::vector<std::uint32_t> kept;
    std::vector<std::uint16_t> kept_materials;
    std::vector<std::uint32_t> kept_source;
    kept_source.reserve(mesh.triangleCount());
    kept.reserve(mesh.indices.size());
    std::uint32_t dropped = 0;
    for (std::uint32_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t a = remap[mesh.indices[3 * t]], b = remap[mesh.indices[3 * t + 1]],
                            c = remap[mesh.indices[3 * t + 2]];
        // Zero area, decided in double from the float inputs.
        if (!options.keep_degenerate && cornerSinSq(welded[a], welded[b], welded[c]) == 0.0) {
            ++dropped;
            continue;
        }
        kept.insert(kept.end(), {a, b, c});
        if (!mesh.materials.empty()) kept_materials.push_back(mesh.materials[t]);
        kept_source.push_back(mesh.source_triangle.empty() ? t : mesh.source_triangle[t]);
    }
    mesh.dropped_degenerate = dropped;

    // Drop vertices only dropped triangles used, keeping first-use order stable.
    std::vector<std::uint32_t> compact(welded.size(), 0xFFFFFFFFu);
    std::vector<Vec3> positions;
    positions.reserve(welded.size());
    for (std::uint32_t& idx : kept) {
        if (compact[idx] == 0xFFFFFFFFu) {
            compact[idx] = static_cast<std::uint32_t>(positions.size());
            positions.push_back(welded[idx]);
        }
        idx = compact[idx];
    }
    mesh.positions = std::move(positions);
    mesh.indices = std::move(kept);
    mesh.materials = std::move(kept_materials);
    mesh.source_triangle = std::move(kept_source);
    return {};
}

} // namespace flak::bake

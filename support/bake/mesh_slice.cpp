#include "mesh_slice.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>

namespace flak::bake {

BakeError sliceMesh(const SourceMesh& mesh, double height, std::vector<WallPolygon>& out,
                    std::uint32_t* out_dropped_loops) {
    if (out_dropped_loops != nullptr) *out_dropped_loops = 0;
    out.clear();
    if (!std::isfinite(height)) return {"the slice height is not a number"};
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> edge_point;
    std::vector<Vec2> points;
    std::vector<std::vector<std::uint32_t>> incident; // segments at each point
    std::vector<std::array<std::uint32_t, 2>> segments;
    auto pointOf = [&](std::uint32_t i, std::uint32_t j) {
        const auto key = std::make_pair(std::min(i, j), std::max(i, j));
        const auto it = edge_point.find(key);
        if (it != edge_point.end()) return it->second;
        const Vec3& a = mesh.positions[key.first];
        const Vec3& b = mesh.positions[key.second];
        const double t = (height - a.z) / (double(b.z) - a.z);
        points.push_back(Vec2{float(a.x + t * (double(b.x) - a.x)), float(a.y + t * (double(b.y) - a.y))});
        incident.emplace_back();
        const std::uint32_t id = static_cast<std::uint32_t>(points.size() - 1);
        edge_point.emplace(key, id);
        return id;
    };
    for (std::uint32_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t* v = &mesh.indices[3 * t];
        std::uint32_t cut[2], n = 0;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = v[k], b = v[(k + 1) % 3];
            if ((mesh.positions[a].z > height) != (mesh.positions[b].z > height)) cut[n++] = pointOf(a, b);
        }
        if (n != 2 || cut[0] == cut[1]) continue;
        const std::uint32_t s = static_cast<std::uint32_t>(segments.size());
        segments.push_back({cut[0], cut[1]});
        incident[cut[0]].push_back(s);
        incident[cut[1]].push_back(s);
    }
    if (segments.empty()) return {"the slice at z = " + std::to_string(height) + " cuts no triangle"};
    for (std::size_t p = 0; p < points.size(); ++p)
        if (incident[p].size() != 2)
            return {"the slice at z = " + std::to_string(height) + " is not closed near (" +
                    std::to_string(points[p].x) + ", " + std::to_string(points[p].y) +
                    "): an open or non-manifold mesh there"};
    // Walk the loops.
    std::vector<bool> used(segments.size(), false);
    std::vector<std::vector<Vec2>> loops;
    for (std::uint32_t s0 = 0; s0 < segments.size(); ++s0) {
        if (used[s0]) continue;
        std::vector<Vec2> loop;
        std::uint32_t s = s0, at = segments[s0][0];
        while (!used[s]) {
            used[s] = true;
            const Vec2 p = points[at];
            if (loop.empty() || loop.back().x != p.x || loop.back().y != p.y) loop.push_back(p);
            at = segments[s][0] == at ? segments[s][1] : segments[s][0];
            s = incident[at][0] == s ? incident[at][1] : incident[at][0];
        }
        while (loop.size() > 1 && loop.front().x == loop.back().x && loop.front().y == loop.back().y)
            loop.pop_back();
        if (loop.size() >= 3)
            loops.push_back(std::move(loop));
        else if (out_dropped_loops != nullptr)
            ++*out_dropped_loops;
    }
    // Nesting: depth = loops holding a loop's first point; holes go to the loop just outside.
    std::vector<int> depth(loops.size(), 0);
    std::vector<int> parent(loops.size(), -1);
    for (std::size_t i = 0; i < loops.size(); ++i)
        for (std::size_t j = 0; j < loops.size(); ++j)
            if (i != j && insideRing(loops[j], loops[i][0])) ++depth[i];
    for (std::size_t i = 0; i < loops.size(); ++i)
        for (std::size_t j = 0; j < loops.size(); ++j)
            if (i != j && depth[j] == depth[i] - 1 && insideRing(loops[j], loops[i][0])) parent[i] = int(j);
    std::vector<int> polygon_of(loops.size(), -1);
    for (std::size_t i = 0; i < loops.size(); ++i) {
        if (depth[i] % 2 != 0) continue;
        WallPolygon p;
        p.name = "slice loop " + std::to_string(i);
        p.rings.push_back(loops[i]);
        polygon_of[i] = int(out.size());
        out.push_back(std::move(p));
    }
    for (std::size_t i = 0; i < loops.size(); ++i)
        if (depth[i] % 2 != 0 && parent[i] >= 0 && polygon_of[std::size_t(parent[i])] >= 0)
            out[std::size_t(polygon_of[std::size_t(parent[i])])].rings.push_back(loops[i]);
    return {};
}

} // namespace flak::bake

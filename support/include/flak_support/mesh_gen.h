// Generated test meshes (positions + 3 indices per triangle), shared by tests and benchmarks.
#pragma once

#include <flak/math/vec3.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace flak::test {

struct Mesh {
    std::vector<Vec3> positions;
    std::vector<std::uint32_t> indices;
    std::uint32_t triangleCount() const { return static_cast<std::uint32_t>(indices.size() / 3); }
};

/// Closed icosphere: 20 * 4^level triangles (level 8: 1,310,720), radius r.
inline Mesh icosphere(int level, float r = 1.0f) {
    Mesh m;
    const double t = (1.0 + std::sqrt(5.0)) / 2.0;
    const double v[12][3] = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                             {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    std::vector<std::array<double, 3>> pts;
    for (auto& p : v) {
        const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        pts.push_back({p[0] / n, p[1] / n, p[2] / n});
    }
    std::vector<std::uint32_t> tri = {0, 11, 5,  0, 5,  1, 0, 1, 7, 0, 7,  10, 0, 10, 11, 1, 5, 9, 5, 11,
                                      4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3,  9,  4, 3,  4,  2, 3, 2, 6, 3,
                                      6, 8,  3,  8, 9,  4, 9, 5, 2, 4, 11, 6,  2, 10, 8,  6, 7, 9, 8, 1};
    for (int l = 0; l < level; ++l) {
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> mid;
        auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
            const auto key = std::make_pair(std::min(a, b), std::max(a, b));
            auto it = mid.find(key);
            if (it != mid.end()) return it->second;
            std::array<double, 3> p = {pts[a][0] + pts[b][0], pts[a][1] + pts[b][1], pts[a][2] + pts[b][2]};
            const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            pts.push_back({p[0] / n, p[1] / n, p[2] / n});
            const std::uint32_t id = static_cast<std::uint32_t>(pts.size() - 1);
            mid.emplace(key, id);
            return id;
        };
        std::vector<std::uint32_t> next;
        next.reserve(tri.size() * 4);
        for (std::size_t i = 0; i < tri.size(); i += 3) {
            const std::uint32_t a = tri[i], b = tri[i + 1], c = tri[i + 2];
            const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
            next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        tri.swap(next);
    }
    for (auto& p : pts)
        m.positions.push_back(
            Vec3{static_cast<float>(p[0] * r), static_cast<float>(p[1] * r), static_cast<float>(p[2] * r)});
    m.indices = tri;
    return m;
}

/// Closed torus with `rings` x `sides` quads (2 triangles each).
inline Mesh torus(std::uint32_t rings, std::uint32_t sides, float major = 2.0f, float minor = 0.5f) {
    Mesh m;
    const double pi2 = 6.283185307179586;
    for (std::uint32_t i = 0; i < rings; ++i)
        for (std::uint32_t j = 0; j < sides; ++j) {
            const double u = pi2 * i / rings, v = pi2 * j / sides;
            m.positions.push_back(Vec3{static_cast<float>((major + minor * std::cos(v)) * std::cos(u)),
                                       static_cast<float>((major + minor * std::cos(v)) * std::sin(u)),
                                       static_cast<float>(minor * std::sin(v))});
        }
    for (std::uint32_t i = 0; i < rings; ++i)
        for (std::uint32_t j = 0; j < sides; ++j) {
            const std::uint32_t a = i * sides + j, b = ((i + 1) % rings) * sides + j,
                                c = ((i + 1) % rings) * sides + (j + 1) % sides,
                                d = i * sides + (j + 1) % sides;
            m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
        }
    return m;
}

/// Height-field terrain grid of n x n quads over [0, size]^2 with a smooth seeded height.
inline Mesh terrain(std::uint32_t n, float size = 100.0f) {
    Mesh m;
    for (std::uint32_t y = 0; y <= n; ++y)
        for (std::uint32_t x = 0; x <= n; ++x) {
            const double fx = double(x) / n, fy = double(y) / n;
            const double h =
                3.0 * std::sin(fx * 12.9) * std::cos(fy * 7.3) + 1.5 * std::sin((fx + fy) * 31.0);
            m.positions.push_back(
                Vec3{static_cast<float>(fx * size), static_cast<float>(fy * size), static_cast<float>(h)});
        }
    for (std::uint32_t y = 0; y < n; ++y)
        for (std::uint32_t x = 0; x < n; ++x) {
            const std::uint32_t a = y * (n + 1) + x, b = a + 1, c = a + n + 2, d = a + n + 1;
            m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
        }
    return m;
}

/// Long thin slivers fanning around the origin (needle triangles, some zero-area).
inline Mesh slivers(std::uint32_t count) {
    Mesh m;
    for (std::uint32_t i = 0; i < count; ++i) {
        const double a = 6.283185307179586 * i / count;
        const std::uint32_t base = static_cast<std::uint32_t>(m.positions.size());
        m.positions.push_back(Vec3{0.0f, 0.0f, static_cast<float>(i) * 1e-3f});
        m.positions.push_back(
            Vec3{static_cast<float>(50 * std::cos(a)), static_cast<float>(50 * std::sin(a)), 0.0f});
        const double b = a + (i % 7 == 0 ? 0.0 : 1e-4); // every 7th is exactly zero-area
        m.positions.push_back(
            Vec3{static_cast<float>(50 * std::cos(b)), static_cast<float>(50 * std::sin(b)), 0.0f});
        if (i % 7 == 0) m.positions.back() = m.positions[base + 1];
        m.indices.insert(m.indices.end(), {base, base + 1, base + 2});
    }
    return m;
}

} // namespace flak::test

// Plain OBJ reading for the benchmarks, exactly as docs/bench_scenes.md defines the mesh:
// `v` and `f` lines only, polygons fan-triangulated, zero-area triangles kept, negative indices
// relative. (The baker reads meshes through Assimp; the benchmarks need this exact definition.)
#pragma once

#include "flak_support/mesh_gen.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace flak::bench {

inline bool readObj(const std::string& path, test::Mesh& out, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot open " + path;
        return false;
    }
    out = test::Mesh{};
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        std::istringstream s(line);
        std::string tag;
        s >> tag;
        if (tag == "v") {
            Vec3 p;
            if (!(s >> p.x >> p.y >> p.z)) {
                error = path + ":" + std::to_string(line_no) + ": bad vertex";
                return false;
            }
            out.positions.push_back(p);
        } else if (tag == "f") {
            std::vector<std::uint32_t> face;
            std::string item;
            while (s >> item) {
                // The index before any '/': an optional '-' and digits, nothing else (no exceptions
                // from std::stol on a malformed file).
                const std::string digits = item.substr(0, item.find('/'));
                char* end = nullptr;
                const long idx = std::strtol(digits.c_str(), &end, 10);
                if (digits.empty() || end != digits.c_str() + digits.size() || idx == 0) {
                    error = path + ":" + std::to_string(line_no) + ": bad face index '" + item + "'";
                    return false;
                }
                const long n = static_cast<long>(out.positions.size());
                const long resolved = idx < 0 ? n + idx : idx - 1;
                if (resolved < 0 || resolved >= n) {
                    error = path + ":" + std::to_string(line_no) + ": index out of range";
                    return false;
                }
                face.push_back(static_cast<std::uint32_t>(resolved));
            }
            for (std::size_t k = 2; k < face.size(); ++k)
                out.indices.insert(out.indices.end(), {face[0], face[k - 1], face[k]});
        }
    }
    return true;
}

} // namespace flak::bench

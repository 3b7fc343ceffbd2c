// Wall sets for the baker: the level file reader, polygon validation, ring orientation, the 2D
// tree over edges and the Walls section words (layout: flak/shooter/blob_sections.h; the level file
// format: docs/level_walls.md).
#pragma once

#include "source_mesh.h"

#include <flak/math/vec2.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flak::bake {

/// One polygon as read: an outer ring and its holes, with where it came from (for messages).
struct WallPolygon {
    std::string name;                     ///< the level file's name for it ("" when unnamed)
    int line = 0;                         ///< line of its `polygon` keyword (0 when not from a file)
    std::vector<std::vector<Vec2>> rings; ///< rings[0] the outer ring, the rest holes
};

/// Parses a level file (docs/level_walls.md). Errors name the line.
BakeError parseLevelFile(const std::string& text, std::vector<WallPolygon>& out);

/// Reads and parses a level file from disk.
BakeError readLevelFile(const std::string& path, std::vector<WallPolygon>& out);

/// Whether `path` names a level file: it ends in ".walls" or ".level" (the baker reads such an
/// input as walls, not as a mesh).
bool isLevelFile(const std::string& path);

/// Even-odd containment of a point that lies on no edge of the ring (the ring need not be oriented).
bool insideRing(const std::vector<Vec2>& ring, const Vec2& p);

struct WallBuildOptions {
    std::uint32_t max_leaf = 4;        ///< edges per tree leaf (1..kMaxWallLeafEdges)
    double max_abs_coordinate = 1.0e7; ///< larger coordinates are rejected as absurd
};

/// Validates the polygons (every ring: at least 3 points, finite, within max_abs_coordinate, no
/// repeated consecutive point, non-zero area, not self-intersecting; rings pairwise disjoint, not
/// even touching; holes inside their outer ring; polygons not overlapping), orients the rings
/// (outer counter-clockwise, holes clockwise), builds the tree and writes the Walls section words
/// in host order into out_words. The message names the polygon (index, name, line) and problem.
BakeError buildWallSection(const std::vector<WallPolygon>& polygons, const WallBuildOptions& options,
                           std::vector<std::uint32_t>& out_words);

} // namespace flak::bake

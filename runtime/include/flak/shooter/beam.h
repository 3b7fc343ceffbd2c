// flak — bendy beams: a curve from control points, sampled into segments, cast in order.
#pragma once

#include <flak/shooter/shot_targets.h>
#include <flak/status.h>

#include <cstdint>

namespace flak {

/// Most control points of a beam curve (Bezier evaluation keeps them on the stack).
constexpr std::uint32_t kMaxBeamControlPoints = 32;

/// How control points make a curve.
enum class BeamCurve : std::uint32_t {
    Polyline = 0,   ///< the control points themselves, joined by straight pieces (uniform per piece)
    CatmullRom = 1, ///< uniform Catmull-Rom spline through every control point (end points repeated)
    Bezier = 2,     ///< one Bezier curve of degree control_count - 1 (de Casteljau), through the ends
};

/// Samples the curve at segments + 1 evenly spaced parameters u = k / segments (u spans the whole
/// curve; Polyline and CatmullRom give each control piece an equal share) into out_points[0..
/// segments]. The first and last sample are exactly the first and last control points. Needs
/// capacity >= segments + 1 (else TooSmall, nothing written); InvalidArgument for null arrays,
/// control_count < 2 or > kMaxBeamControlPoints, segments < 1, or a non-finite control point.
[[nodiscard]] Status sampleBeam(const Vec3* control, std::uint32_t control_count, BeamCurve curve,
                                std::uint32_t segments, Vec3* out_points, std::uint32_t capacity);

/// Casts the polyline points[0..point_count) segment by segment against the targets; the beam ends
/// at its first hit. For each segment, in order, the closest hit over every target (meshes with
/// segmentClosestHit (watertight), walls with segmentWallsFirstHit on the segment's (x, y) — t is
/// the same along the 3D segment and its projection; the wall point gets the segment's z at t and
/// the normal (nx, ny, 0), or against the segment where that is zero, +x for a segment of no
/// length — clusters with segmentClusterFirstHit); ties in t go to meshes, then
/// walls, then clusters, then to the lower target index. The first segment with a hit decides.
/// Writes out_hit (segment, t, distance = lengths of the earlier segments + t * this one's) and
/// returns true; false (out_hit untouched) when nothing is hit, fewer than 2 points, or null.
/// Segments with NaN are skipped (they hit nothing). Thread-safe on shared targets.
bool castBeam(const Vec3* points, std::uint32_t point_count, const ShotTargets& targets, ShotHit& out_hit);

/// Closest hit of one segment p0 -> p1 over the targets (the per-segment step of castBeam;
/// segment = 0, distance = t * |p1 - p0|).
bool segmentTargetsFirstHit(const Vec3& p0, const Vec3& p1, const ShotTargets& targets, ShotHit& out_hit);

} // namespace flak

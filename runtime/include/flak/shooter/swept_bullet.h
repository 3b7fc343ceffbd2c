// flak — swept bullets: a bullet sphere moving c0 -> c1 over a frame, first time of impact, so a
// fast bullet cannot tunnel through a thin wall or mesh between two frame instants.
#pragma once

#include <flak/shooter/shot_targets.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>

namespace flak {

/// First contact of a circle of `radius` whose centre moves c0 (t = 0) -> c1 (t = 1) with a single
/// edge a-b (the 2D capsule around the edge, Ericson RTCD 5.3.7 style: the two offset sides, then
/// the end caps), solved in double. On contact writes out_hit (t, point = the contact point on the
/// edge, normal = unit from it to the centre at t; edge fields untouched) and returns true. A start
/// already within radius (distance <= radius) hits at t = 0. NaN/Inf or a negative radius: false.
bool sweptCircleEdge(const Vec2& c0, const Vec2& c1, float radius, const Vec2& a, const Vec2& b,
                     WallRayHit& out_hit);

/// First contact of the moving circle with the wall set: t = 0 when the start touches the solid
/// (centre inside: edge kNoEdge, point = c0, normal -(c1 - c0) normalised; or an edge within the
/// radius: that edge, nearest first), else the smallest sweptCircleEdge t over the edges alone
/// (one tree walk with the swept box), ties to the lowest edge id. False on no contact, NaN/Inf,
/// a negative radius or an empty set.
bool sweptCircleWallsFirstHit(const WallSet& walls, const Vec2& c0, const Vec2& c1, float radius,
                              WallRayHit& out_hit);

/// First contact of the moving sphere (world space) with the cluster: segmentSphere of the centre's
/// path against each world sphere grown by `radius`, smallest t, ties to the lower sphere index;
/// point = on the cluster sphere's surface, normal from its centre. False on no contact or NaN.
bool sweptSphereClusterFirstHit(const SphereCluster& cluster, const Transform& cluster_to_world,
                                const Vec3& c0, const Vec3& c1, float radius, ClusterRayHit& out_hit);

/// First time of impact of the bullet sphere (radius, centre c0 -> c1, world space) over the
/// targets: meshes with sweptSphereFirstHit, walls with sweptCircleWallsFirstHit on (x, y) (point
/// z = the centre's z at t, normal (nx, ny, 0)), clusters with sweptSphereClusterFirstHit; the
/// smallest t wins, ties as castBeam. Writes out_hit (segment 0, distance = t * |c1 - c0|) and
/// returns true; false when nothing is hit, on NaN or a negative radius.
bool sweptBulletFirstHit(const Vec3& c0, const Vec3& c1, float radius, const ShotTargets& targets,
                         ShotHit& out_hit);

} // namespace flak

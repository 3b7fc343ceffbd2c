// flak — what a shot (a beam, a swept bullet) is cast against: the candidate list a world passes
// in, and the hit record that names what was hit.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/math/transform.h>
#include <flak/math/vec3.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>

#include <cstddef>
#include <cstdint>

namespace flak {

/// Kind of thing a shot hit.
enum class ShotTargetKind : std::uint32_t {
    None = 0,
    Mesh = 1,    ///< a triangle of a baked mesh
    Walls = 2,   ///< an edge of a wall set (or the solid, for a start inside it)
    Cluster = 3, ///< a sphere of a cluster
};

/// A candidate mesh (64 bytes on 64-bit hosts): a loaded blob (not owned), its placement and the
/// caller's id for it (a body handle, say), copied into hits.
struct MeshTarget {
    const MeshBlob* blob = nullptr;
    Transform mesh_to_world;
    std::uint32_t id = 0;
};
static_assert(sizeof(void*) != 8 || sizeof(MeshTarget) == 64, "MeshTarget is 64 bytes on 64-bit hosts");

/// A candidate sphere cluster: the view (not owned), its placement and the caller's id.
struct ClusterTarget {
    const SphereCluster* cluster = nullptr;
    Transform cluster_to_world;
    std::uint32_t id = 0;
};

/// A candidate wall set (world space, see wall_set.h): the view (not owned) and the caller's id.
struct WallTarget {
    const WallSet* walls = nullptr;
    std::uint32_t id = 0;
};

/// The candidates of one shot: three caller arrays (any may be null with count 0), not owned.
/// Usually the world fills them from its broad phase. Null entries (blob/walls/cluster null)
/// are skipped.
struct ShotTargets {
    const MeshTarget* meshes = nullptr;
    std::uint32_t mesh_count = 0;
    const WallTarget* walls = nullptr;
    std::uint32_t wall_count = 0;
    const ClusterTarget* clusters = nullptr;
    std::uint32_t cluster_count = 0;
};

/// What a shot hit first (64 bytes), world space.
struct ShotHit {
    ShotTargetKind kind = ShotTargetKind::None;
    std::uint32_t target = 0; ///< index into the ShotTargets array of that kind
    std::uint32_t id = 0;     ///< that target's id
    /// Mesh: triangle id (leaf order); Cluster: sphere index; Walls: edge index within its ring
    /// (kNoEdge for a start inside the solid).
    std::uint32_t feature = 0;
    std::uint32_t polygon = 0; ///< Walls: polygon hit; otherwise 0
    std::uint32_t ring = 0;    ///< Walls: ring hit; otherwise 0
    std::uint32_t segment =
        0;          ///< beams: index of the segment hit (points[segment] -> points[segment + 1]); bullets: 0
    float t = 0.0f; ///< parameter on that segment (or on the sweep c0 -> c1), in [0, 1]
    float distance = 0.0f; ///< world distance along the beam (or the sweep) from its start to the hit
    Vec3 point;            ///< hit point (swept bullets: the contact point on the target's surface)
    Vec3 normal;           ///< unit normal of the surface hit, facing against the shot
    std::uint32_t reserved = 0;
};
static_assert(sizeof(ShotHit) == 64, "ShotHit is 64 bytes");

} // namespace flak

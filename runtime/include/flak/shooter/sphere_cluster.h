// flak — sphere clusters (ships): a view over spheres in the cluster's own space, and its queries
// against meshes, other clusters and bullet spheres, in world space.
//
// A cluster's spheres live in its local space (a ship's mesh space when baked from the ship mesh);
// queries take `cluster_to_world` and place every sphere with transformPoint (radii unchanged:
// transforms are rigid). The bounding sphere is tested first and holds every member sphere with a
// relative slack of 4 * kToleranceRelative, so the early-outs never drop a member-level answer.
// Answers are exactly those of the per-sphere kernels applied to every sphere alone (the
// brute-force oracle of the tests): sphereAnyHit / sphereAllHits for meshes, sphereSphere for
// spheres, segmentSphere for segments. No allocation, no recursion; thread-safe on shared data.
#pragma once

#include <flak/bvh/mesh_blob.h>
#include <flak/bvh/mesh_hit.h>
#include <flak/geom/contact.h>
#include <flak/math/sphere.h>
#include <flak/math/transform.h>
#include <flak/out_buffer.h>
#include <flak/shooter/blob_sections.h>
#include <flak/status.h>

#include <cstdint>

namespace flak {

/// A view of a sphere cluster (32 bytes on 64-bit hosts). `spheres` points at caller or blob
/// memory that must outlive the view (not owned); cheap to copy. Build with makeSphereCluster()
/// or loadSphereCluster(), which also compute `bound`.
struct SphereCluster {
    const Sphere* spheres = nullptr; ///< `count` spheres in cluster space (not owned)
    std::uint32_t count = 0;         ///< 1..kMaxClusterSpheres for a valid cluster
    Sphere bound;                    ///< holds every member sphere (cluster space), with slack
};

/// A hit of a segment or sweep on one sphere of a cluster (40 bytes): the kernel's RayHit (t along
/// the query, point on the sphere's surface, unit normal from the sphere's centre; u = v = 0) and
/// the sphere's index in the cluster.
struct ClusterRayHit {
    RayHit hit;               ///< world space
    std::uint32_t sphere = 0; ///< index into SphereCluster::spheres
};
static_assert(sizeof(ClusterRayHit) == 40, "ClusterRayHit is a RayHit and an index");

/// An overlapping pair of spheres (36 bytes): `a` a sphere of the first cluster, `b` a sphere of
/// the second cluster (or a bullet's index), and sphereSphere's contact (A = a's sphere, B = b's;
/// normal from b towards a, point on b's surface, depth), world space.
struct ClusterPair {
    Contact contact;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
};
static_assert(sizeof(ClusterPair) == 36, "ClusterPair is a Contact and two indices");

/// Caller-owned output for cluster-vs-mesh contacts: `hits` receives sphereAllHits' MeshContact
/// records (rules of OutBuffer) and `spheres[k]` the cluster sphere of hits.items[k] (caller
/// storage for hits.capacity ids, not owned). Both are appended together.
struct ClusterMeshBuffer {
    OutBuffer<MeshContact> hits;
    std::uint32_t* spheres = nullptr;
};

/// Makes a cluster view over caller spheres (cluster space) and computes its bound (centre of the
/// spheres' box, radius = largest distance + radius, grown by the slack above). Returns
/// InvalidArgument (out_cluster emptied) for a null array, count 0 or above kMaxClusterSpheres,
/// a non-finite value or a negative radius.
[[nodiscard]] Status makeSphereCluster(const Sphere* spheres, std::uint32_t count,
                                       SphereCluster& out_cluster);

/// Whether `cluster` can be used as it is: its spheres are what makeSphereCluster accepts (a
/// non-null array of 1..kMaxClusterSpheres finite spheres with radius >= 0) and its bound is finite
/// and holds the bound makeSphereCluster would compute (so every sphere, with the slack). True for
/// every cluster loadSphereCluster made, and for every one makeSphereCluster made but those whose
/// spheres spread beyond float, whose bound radius rounds to infinity (the queries take them, with
/// no early-out; a World could not place them). O(count). World::spawnEnemy and spawnPlayer
/// refuse a cluster that is not valid.
bool sphereClusterIsValid(const SphereCluster& cluster);

/// The cluster a blob carries (its SphereCluster section) as a view into the blob's bytes, after
/// checking the section: 1..kMaxClusterSpheres spheres, finite, radius >= 0, every value within
/// kMaxBlobCoordinate. InvalidArgument (out_cluster emptied) when the blob has no cluster;
/// BlobCorrupt (out_error, if given, says what and where) when the section fails a check.
[[nodiscard]] Status loadSphereCluster(const Blob& blob, SphereCluster& out_cluster,
                                       BlobError* out_error = nullptr);

/// The cluster's bound placed in world space.
void clusterWorldBound(const SphereCluster& cluster, const Transform& cluster_to_world, Sphere& out_bound);

/// Sphere `index` (< count; FLAK_ASSERT) of the cluster placed in world space (the exact placement
/// every query uses). An index out of range (when the assert handler returns or asserts are off)
/// writes the zero sphere and reads nothing.
void clusterWorldSphere(const SphereCluster& cluster, const Transform& cluster_to_world, std::uint32_t index,
                        Sphere& out_sphere);

/// True when some sphere of the cluster touches some triangle of the mesh (sphereAnyHit of each
/// world sphere against the mesh placed by `mesh_to_world`). Stops at the first. Empty inputs or
/// NaN: false.
bool clusterMeshAnyHit(const SphereCluster& cluster, const Transform& cluster_to_world, const MeshBlob& mesh,
                       const Transform& mesh_to_world);

/// Every (sphere, triangle) contact, appended to inout_contacts by sphere index, then triangle id
/// (sphereAllHits' contacts, world space). Returns Ok, or BufferFull when some did not fit
/// (counted in inout_contacts.hits.dropped, never written).
[[nodiscard]] Status clusterMeshContacts(const SphereCluster& cluster, const Transform& cluster_to_world,
                                         const MeshBlob& mesh, const Transform& mesh_to_world,
                                         ClusterMeshBuffer& inout_contacts);

/// True when some sphere of cluster a overlaps some sphere of cluster b (closed balls; bounds
/// tested first). On true and when out_first is given, writes the first pair in (a, b) order.
bool clusterClusterAnyHit(const SphereCluster& a, const Transform& a_to_world, const SphereCluster& b,
                          const Transform& b_to_world, ClusterPair* out_first = nullptr);

/// Every overlapping sphere pair, appended in (a, b) order. Ok or BufferFull (rules above).
[[nodiscard]] Status clusterClusterPairs(const SphereCluster& a, const Transform& a_to_world,
                                         const SphereCluster& b, const Transform& b_to_world,
                                         OutBuffer<ClusterPair>& inout_pairs);

/// Every (cluster sphere, bullet) overlap of `bullets[0..bullet_count)` (world-space spheres)
/// with the cluster, appended by bullet index, then sphere index: pair.a = cluster sphere, pair.b
/// = bullet index, contact = sphereSphere(cluster sphere, bullet). Bullets with NaN or a negative
/// radius never hit. Ok or BufferFull (rules above).
[[nodiscard]] Status clusterBullets(const SphereCluster& cluster, const Transform& cluster_to_world,
                                    const Sphere* bullets, std::uint32_t bullet_count,
                                    OutBuffer<ClusterPair>& inout_pairs);

/// First hit of the segment p0 -> p1 (world space) on the cluster: the smallest segmentSphere t
/// over the spheres, ties to the lowest sphere index. False (out_hit untouched) on no hit or NaN.
bool segmentClusterFirstHit(const SphereCluster& cluster, const Transform& cluster_to_world, const Vec3& p0,
                            const Vec3& p1, ClusterRayHit& out_hit);

} // namespace flak

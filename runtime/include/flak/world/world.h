// flak — the World: bodies in fixed pools, one step per frame, hits out in a fixed buffer.
//
// A frame: spawn, despawn and move bodies; step(dt); read hits() and stats(). The step runs the
// broad phase (two dynamic AABB trees: one for levels and wall sets, one for ships; pairs by the
// self search of the moving tree and the search of the static tree against it; bullets and beams
// are not in the trees, each finds its candidates along its path), then the narrow phase by pair
// kind:
//   bullet vs enemy       swept sphere (or sphere, when slow) vs the enemy's mesh
//   bullet vs player      swept sphere (or sphere) vs the player's sphere cluster
//   bullet vs level       swept sphere (or sphere) vs the level mesh
//   bullet vs walls       swept circle (or circle) vs the wall set
//   beam vs anything but bullets: the beam's polyline cast in order, first hit only
//   ship vs walls         the ship's sphere cluster vs the wall set, with the push-out
//   ship vs ship          cluster vs cluster, cluster vs mesh (a player on either side) or
//                         mesh vs mesh (two enemies: the contact summary of all their intersecting
//                         triangle pairs, with exact sums (mesh_mesh.h); the pairs come from the
//                         CPU's walk or, when WorldConfig::mesh_mesh_backend is set, from a back
//                         end such as the GPU collider, which gets them right after the broad
//                         phase and works while the other phases run; same hits either way)
// and writes one hit per contact (hit.h) in sorted order. Bullets and beams report their first
// contact only (smallest t; of equal t, a level before an enemy before a wall set before a player,
// then the lower slot: the order in which meshes, walls and clusters are cast). A bullet or beam
// never hits a ship of its own team, and no two bodies whose collision filters keep them apart
// (body.h: CollisionFilter, interacts) are ever tested. Enemies without a cluster do not collide
// with walls.
//
// Memory: everything lives in the block handed to init(); requiredBytes(config) says how big.
// Nothing is allocated afterwards, nothing grows. At capacity: spawns answer PoolFull and change
// nothing; the hit buffer keeps the first max_hits hits in phase order (bullets, beams, walls,
// ships, mesh-mesh; within a phase, by pool slot or pair) before sorting, counts the rest in
// stats().hits_dropped and step() answers BufferFull; the pair buffer likewise (pairs_dropped;
// it fills in search order, ship-ship pairs before ship-walls pairs, so those are dropped first),
// and a ship-vs-walls query with more than max_contacts contacts for one sphere
// (contacts_dropped: the hit's edge and point may then not be the deepest contact's).
// Determinism: the same calls give the same hits, bit for bit (no unordered iteration,
// -ffp-contract=off, pools hand out slots in order).
// Threads: one thread calls everything. With WorldConfig::tasks, step() spreads each phase's work
// items (bullets, beams, ship-walls pairs, ship pairs, mesh-mesh jobs) over the host's workers:
// an item reads the world and writes only its own output slot and its worker's scratch, and the
// slots are merged in item order, so hits, stats (timings aside) and the hash are the same for
// any worker count. The broad phase, the merge and the sort run on the calling thread.
#pragma once

#include <flak/broad/dynamic_tree.h>
#include <flak/status.h>
#include <flak/world/body.h>
#include <flak/world/hit.h>
#include <flak/world/world_config.h>
#include <flak/world/world_query.h>

#include <cstddef>
#include <cstdint>

namespace flak {

struct WorldState;

/// The frame API. See the file comment for what a step does.
class World {
public:
    /// Alignment of the memory block init() expects.
    static constexpr std::size_t kAlignment = 64;

    /// Bytes of memory init() needs for `config`; 0 when the config is invalid (a zero capacity
    /// where one is required: max_hits, max_pairs, max_contacts; max_beam_points < 2; a negative
    /// or non-finite margin or sweep_radii; max_enemies + max_players or max_levels +
    /// max_wall_sets at or above DynamicTree::kMaxProxies; max_beams * max_beam_points above
    /// 2^32 - 1; a mesh-mesh back end without both functions; a task system without both
    /// functions or with a worker_count outside 1..kMaxWorkers; then a block whose size overflows
    /// size_t, which only max_wall_sets * wall_grid_cells grid cells can make, named
    /// wall_grid_cells).
    static std::size_t requiredBytes(const WorldConfig& config);

    /// Where requiredBytes(config) goes, part by part (pools, buffers, trees, grids, scratch,
    /// per-worker parts), or, for an invalid config, which field and why (the first problem
    /// found, in the order requiredBytes lists them). Returns true for a valid config. No
    /// allocation; the names are static strings.
    static bool explainMemory(const WorldConfig& config, WorldMemoryReport& out);

    World() = default;
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    /// Lays the world out in [memory, memory + bytes), empty. NullMemory, Misaligned (not
    /// kAlignment), TooSmall, InvalidArgument (see requiredBytes). On failure the world is
    /// unusable until a successful init (every other call answers InvalidArgument or nothing).
    [[nodiscard]] Status init(void* memory, std::size_t bytes, const WorldConfig& config);

    /// Spawns a static level mesh. PoolFull; InvalidArgument for a null or empty mesh, a
    /// transform that is not finite or not rigid (isRigid: every query inverts it by transposing
    /// its rotation), or one under which the mesh's world box overflows (nothing changes). The
    /// body's broad-phase box is the mesh bounds in world space.
    [[nodiscard]] Status spawnLevel(const LevelDesc& desc, BodyId& out_id);
    /// Spawns a wall set and builds its occupancy grid (wall_grid.h: at most
    /// WorldConfig::wall_grid_cells cells, from the block; a set the grid cannot cover is walked
    /// without one, with the same hits). PoolFull; InvalidArgument for a null or empty set (no
    /// points) or one whose bounds the broad phase refuses (not finite, or inverted: a set that
    /// loadWallSet did not make).
    [[nodiscard]] Status spawnWalls(const WallsDesc& desc, BodyId& out_id);
    /// Spawns an enemy ship (mesh required). PoolFull; InvalidArgument (no mesh, empty mesh, a
    /// cluster that sphereClusterIsValid refuses, a transform that is not finite or not rigid (as
    /// spawnLevel), or one under which the ship's world box overflows: nothing changes).
    [[nodiscard]] Status spawnEnemy(const ShipDesc& desc, BodyId& out_id);
    /// Spawns a player ship (cluster required). PoolFull; InvalidArgument (no cluster, one that
    /// sphereClusterIsValid refuses, an empty mesh, a transform that is not finite or not rigid,
    /// or a world box that overflows, as above).
    [[nodiscard]] Status spawnPlayer(const ShipDesc& desc, BodyId& out_id);
    /// Spawns a bullet. PoolFull; InvalidArgument for NaN/Inf or a negative radius.
    [[nodiscard]] Status spawnBullet(const BulletDesc& desc, BodyId& out_id);
    /// Spawns a beam with no points (it hits nothing until setBeamPoints). PoolFull.
    [[nodiscard]] Status spawnBeam(const BeamDesc& desc, BodyId& out_id);
    /// Removes a body; its id becomes stale. NullHandle / StaleHandle change nothing.
    [[nodiscard]] Status despawn(const BodyId& id);

    /// Moves a ship (enemy or player). NullHandle, StaleHandle, InvalidArgument (not a ship, a
    /// transform that is not finite or not rigid, or a move the broad phase refuses because the
    /// world box or the jump overflows float range, e.g. a teleport from -3e38 to +3e38: nothing
    /// changes).
    [[nodiscard]] Status setShipTransform(const BodyId& id, const Transform& ship_to_world);
    /// Replaces a bullet's sphere and velocity. NullHandle, StaleHandle, InvalidArgument.
    [[nodiscard]] Status setBullet(const BodyId& id, const Sphere& sphere, const Vec3& velocity);
    /// Replaces a beam's polyline with `count` points (copied). 0 or 1 point: the beam hits
    /// nothing. NullHandle, StaleHandle, InvalidArgument (count > max_beam_points, a null array
    /// with count > 0, or a non-finite point: nothing changes).
    [[nodiscard]] Status setBeamPoints(const BodyId& id, const Vec3* points, std::uint32_t count);

    /// Advances the world by dt seconds (>= 0, finite): bullets move by velocity * dt, sweeping
    /// the path; then every pair is tested and the hits are written, sorted (hit.h) and hashed
    /// into hitStreamHash(). Ok, BufferFull (some hits, pairs or contacts were dropped: see
    /// stats()), or InvalidArgument (bad dt or an uninitialised world: nothing happens).
    [[nodiscard]] Status step(float dt);

    /// The hits of the last step, sorted; valid until the next step or init.
    const Hit* hits() const;
    /// Number of hits of the last step.
    std::uint32_t hitCount() const;
    /// What the last step did.
    const StepStats& stats() const;
    /// A 64-bit hash of every hit of every step since init, in order (hit.h: hashHit), with
    /// each step's hit count mixed in (hashStepEnd).
    std::uint64_t hitStreamHash() const;
    /// World queries (world_query.h), between steps. The first body the segment from -> to meets
    /// (as a zero-radius bullet would): smallest t, ties as a step's bullets (above); a start inside
    /// a wall set or touching a body meets it at t = 0. False when nothing is met, on NaN/Inf, for a
    /// path whose box (the segment grown by the radius) is too large for float (its size
    /// overflows), or before a successful init.
    bool castSegment(const Vec3& from, const Vec3& to, const QueryFilter& filter, QueryHit& out_hit) const;
    /// The same for a sphere of `radius` (>= 0) whose centre moves from -> to, as a bullet's
    /// sweep: `point` lies on the body, `normal` points from it towards the sphere at t.
    bool sweepSphere(const Vec3& from, const Vec3& to, float radius, const QueryFilter& filter,
                     QueryHit& out_hit) const;
    /// The bodies the closed sphere touches, appended to inout_bodies in (kind, slot) order. Ok,
    /// BufferFull when some did not fit (counted in dropped, never written), InvalidArgument for
    /// NaN/Inf, a negative radius or a sphere whose box's size overflows float (nothing
    /// appended).
    [[nodiscard]] Status overlapSphere(const Sphere& sphere, const QueryFilter& filter,
                                       OutBuffer<BodyId>& inout_bodies) const;
    /// The bodies the closed box touches, as overlapSphere (InvalidArgument for NaN/Inf, an
    /// inverted box, or one whose size, max - min, overflows float).
    [[nodiscard]] Status overlapBox(const Aabb& box, const QueryFilter& filter,
                                    OutBuffer<BodyId>& inout_bodies) const;

    /// Steps since init.
    std::uint64_t stepCount() const;

    /// True when `id` names a live body of this world.
    bool isAlive(const BodyId& id) const;
    /// The live body in slot `slot` of `kind`'s pool, or the null id (a free slot, a slot out of
    /// range, an unknown kind): lets tools and samples list bodies, in slot order.
    BodyId bodyAt(BodyKind kind, std::uint32_t slot) const;
    /// A bullet as it is now: its sphere (where the last step left it), velocity, team, user value
    /// and filter (every field of the BulletDesc written).
    /// NullHandle, StaleHandle, InvalidArgument (not a bullet).
    [[nodiscard]] Status getBullet(const BodyId& id, BulletDesc& out_bullet) const;
    /// A ship's transform. NullHandle, StaleHandle, InvalidArgument (not a ship).
    [[nodiscard]] Status getShipTransform(const BodyId& id, Transform& out_ship_to_world) const;
    /// Live count, high-water mark and capacity of one body kind's pool.
    PoolUsage poolUsage(BodyKind kind) const;
    /// Most bytes of step scratch used in one step since init (the calling thread's plus every
    /// worker's high-water mark), and the scratch capacity (all of them).
    std::size_t scratchHighWater() const;
    std::size_t scratchCapacity() const;
    /// The broad phase's moving tree (ships), for debug drawing.
    const DynamicTree* movingTree() const;
    /// The broad phase's static tree (levels, wall sets), for debug drawing.
    const DynamicTree* staticTree() const;
    /// The config given to init.
    const WorldConfig& config() const;

private:
    WorldState* m_state = nullptr; // carved from the host block
    std::uint16_t m_epoch = 0;     // bumped by each init() that lays out a world (BodyId::epoch)
};

} // namespace flak

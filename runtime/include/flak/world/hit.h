// flak — what World::step reports: one hit record per contact, in a defined order.
#pragma once

#include <flak/world/body.h>

#include <cstdint>

namespace flak {

/// What kind of contact a hit is. The order is the first field of the hit sort key.
enum class HitKind : std::uint8_t {
    Bullet = 0, ///< a bullet's first contact this step (at most one per bullet)
    Beam,       ///< a beam's first contact along its polyline (at most one per beam)
    ShipShip,   ///< two ships touch (one per ship pair)
    ShipWall,   ///< a ship touches walls, with the push-out that frees it (one per ship and wall set)
    Count       ///< number of kinds; not a kind
};

/// The kind's name for logs and reports: "bullet", "beam", "ship_ship", "ship_wall"; "unknown"
/// for any other value. The names are stable.
const char* hitKindName(HitKind kind);

/// `feature` of a hit that names no feature.
constexpr std::uint32_t kNoFeature = 0xFFFFFFFFu;

/// One contact (80 bytes). `a` is the body that acts (bullet, beam, or the ship with the lower
/// id for ship pairs), `b` the body it touches. All positions and directions in world space.
///
/// | kind     | feature                                   | t                         | depth            |
/// | ---      | ---                                       | ---                       | ---              |
/// | Bullet   | b's triangle, sphere or wall edge         | time of impact in [0, 1]; 1 for a slow bullet | 0 |
/// | Beam     | b's triangle, sphere or wall edge         | distance along the beam   | 0                |
/// | ShipShip | triangle pairs (enemy vs enemy) or b's sphere | 0                     | penetration (a cluster on either side), 0 (mesh-mesh) |
/// | ShipWall | wall edge of the deepest contact          | 0                         | length of the push-out |
///
/// A wall edge is named by its first point's index in the wall set (WallRing::first_point +
/// edge); kNoFeature for a shot that starts inside the solid. `normal` is unit length and points
/// from b towards a (ShipWall: the push-out direction, in the play plane). `point` is the
/// contact point the kernel reports: on b's surface for shots and cluster pairs, on the enemy's
/// triangle for enemy-player pairs, the mean of the intersection segments' midpoints for
/// mesh-mesh, the deepest wall contact (at the ship's height) for ShipWall.
///
/// `t` has one meaning per kind (the table): a bullet's time of impact as a fraction of its step,
/// a beam's distance from its first point in world units, 0 for ship hits.
///
/// The push-out contract (ShipWall): the World never moves a ship. `normal * depth`, in the play
/// plane, is the translation that frees the ship from that wall set (a ship touching several
/// sets gets one hit for each): clusterWalls' push (wall_set.h), whose rounds move the whole
/// cluster until no sphere is left inside. Where the set leaves the ship no room along the
/// pushes (opposite walls closer than the ship is long, as across a slot) or holds it in a sharp
/// notch, the push is the last round's and may leave it inside (wall_set.h). A game that wants solid walls adds it to the ship's position
/// before the next step (World::setShipTransform), as samples/hello and the shooter sample do;
/// one that does not is told every step the ship stays inside. Contacts are closed: a freed
/// ship resting against a wall still gets a ShipWall hit each step, of depth 0 or a few float
/// steps (the push's rounding).
struct Hit {
    BodyId a;                       ///<  0: the acting body
    BodyId b;                       ///< 12: the body touched
    HitKind kind = HitKind::Bullet; ///< 24
    std::uint8_t reserved[3] = {0, 0, 0};
    std::uint32_t feature = kNoFeature; ///< 28
    Vec3 point;                         ///< 32
    Vec3 normal;                        ///< 44
    float t = 0.0f;                     ///< 56
    float depth = 0.0f;                 ///< 60
    std::uint64_t a_user = 0;           ///< 64: a's user value (its desc's `user`), not hashed
    std::uint64_t b_user = 0;           ///< 72: b's user value, not hashed
};
static_assert(sizeof(Hit) == 80, "Hit is 80 bytes");

/// The hit sort key, in order: kind, a.kind, a.index, b.kind, b.index, feature, then t. Two hits
/// with equal keys do not occur (one hit per (kind, a, b) at most, except that nothing may be
/// assumed beyond the key); the sort is stable. True when x sorts before y.
bool hitLess(const Hit& x, const Hit& y);

/// The hit-stream hash of one more hit, continuing from `hash`: the hit's fields as eight 64-bit
/// words built from their values (so the same on every byte order; floats by bit pattern,
/// padding left out): kind | a.kind << 8 | b.kind << 16, a.index | a.generation << 32, the same
/// for b, feature | t << 32, point.x | point.y << 32, point.z | normal.x << 32,
/// normal.y | normal.z << 32, depth (the user values are the host's and are left out). Each
/// word w: hash = (hash ^ w) * 0x9E3779B97F4A7C15 (mod 2^64); after the hit, hash ^= hash >> 32.
/// The frame's hit-stream hash chains every sorted hit of every step through this, then
/// hashStepEnd.
std::uint64_t hashHit(const Hit& hit, std::uint64_t hash);

/// The end of a step in the hit-stream hash: its hit count as one more word, then the same fold.
std::uint64_t hashStepEnd(std::uint32_t hit_count, std::uint64_t hash);

/// The hash of an empty stream (the FNV-1a offset basis, as a seed).
constexpr std::uint64_t kHitHashSeed = 0xCBF29CE484222325ull;

} // namespace flak

// flak — result records and caller-owned, capacity-bounded result buffers of the mesh queries.
#pragma once

#include <flak/geom/contact.h>

#include <cstdint>

namespace flak {

/// A contact with one triangle of a baked mesh (32 bytes): the kernel's Contact (the query shape
/// is A, the triangle B) and the triangle id (leaf order, as every blob query reports it).
struct MeshContact {
    Contact contact;            ///< the kernel's contact (point on the triangle, normal towards the query)
    std::uint32_t triangle = 0; ///< triangle id (leaf order)
};
static_assert(sizeof(MeshContact) == 32, "MeshContact is a Contact and an id");

/// A segment or swept-sphere hit on one triangle of a baked mesh (40 bytes): the kernel's RayHit
/// (t along the query, barycentrics u/v of the triangle's vertices 1/2, point, unit normal facing
/// against the motion) and the triangle id.
struct MeshRayHit {
    RayHit hit;                 ///< the kernel's hit (t, u, v, point, normal)
    std::uint32_t triangle = 0; ///< triangle id (leaf order)
};
static_assert(sizeof(MeshRayHit) == 40, "MeshRayHit is a RayHit and an id");

/// A pair of intersecting triangles of two meshes (8 bytes): `a` in mesh A, `b` in mesh B.
struct TrianglePair {
    std::uint32_t a = 0; ///< triangle id in mesh A
    std::uint32_t b = 0; ///< triangle id in mesh B
};
static_assert(sizeof(TrianglePair) == 8, "TrianglePair is two ids");

/// Caller-owned output for MeshContact results. The caller points `items` at storage for
/// `capacity` records and sets `count` (usually 0); queries append from `count` on. When full, a
/// query writes nothing more and adds each dropped record to `overflow` (never writes past
/// capacity). The buffer does not own `items`. Not thread-safe: one writer at a time.
struct ContactBuffer {
    MeshContact* items = nullptr; ///< caller's storage for `capacity` records (not owned)
    std::uint32_t capacity = 0;   ///< records `items` can hold
    std::uint32_t count = 0;      ///< records written so far (queries append from here)
    std::uint32_t overflow = 0;   ///< records dropped because the buffer was full
};

/// Caller-owned output for triangle ids; same rules as ContactBuffer.
struct TriangleBuffer {
    std::uint32_t* items = nullptr; ///< caller's storage for `capacity` ids (not owned)
    std::uint32_t capacity = 0;     ///< ids `items` can hold
    std::uint32_t count = 0;        ///< ids written so far (queries append from here)
    std::uint32_t overflow = 0;     ///< ids dropped because the buffer was full
};

/// Caller-owned output for triangle pairs; same rules as ContactBuffer.
struct PairBuffer {
    TrianglePair* items = nullptr; ///< caller's storage for `capacity` pairs (not owned)
    std::uint32_t capacity = 0;    ///< pairs `items` can hold
    std::uint32_t count = 0;       ///< pairs written so far (queries append from here)
    std::uint32_t overflow = 0;    ///< pairs dropped because the buffer was full
};

} // namespace flak

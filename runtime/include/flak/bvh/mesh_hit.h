// flak — result records and caller-owned, capacity-bounded result buffers of the mesh queries.
#pragma once

#include <flak/geom/contact.h>
#include <flak/out_buffer.h>

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
/// (t along the query, barycentrics u/v of the triangle's vertices 1/2 as triangleVertices gives
/// them, point, unit normal facing against the motion) and the triangle id. The baker may turn a
/// triangle's corners (docs/blob_format.md, Corner order), unless the blob keeps source ids.
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

} // namespace flak

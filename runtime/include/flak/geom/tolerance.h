// flak — the tolerance policy every narrow-phase kernel follows. One place, read it first.
//
// 1. Closed sets. Shapes are closed: touching is contact. A sphere whose squared distance to a
//    triangle equals r^2 hits it; boxes sharing a face overlap; a segment ending exactly on a
//    triangle hits it at t = 1.
// 2. Float in, float out, no epsilons inside the decision. Kernels decide with the plain float
//    computation of their method (signs of determinants, comparisons of squared distances). They
//    do not add fudge margins that would make answers depend on scale. Exceptions are named in the
//    kernel's header; each was added because plain float measured outside the band in an oracle:
//      - triangle normals are computed in double (sliver normals are noise in float);
//      - tri-tri settles the plane sides of sliver triangles (corner sine < 0.05) in double,
//        decides pairs with nearly parallel planes (sine < 1/8) wholly in double, and decides a
//        pair with exact signs when a plane side is within its own float rounding of zero;
//      - segment/ray-triangle settle float candidates in double (Moller-Trumbore t on grazing
//        segments); the watertight test keeps WBW's own double fallback for zero edge functions;
//      - swept sphere-triangle solves the contact time around the closest approach;
//      - OBB-OBB recomputes an edge axis in double when float is within the band of the answer;
//      - triangle-AABB computes the triangle normal in double;
//      - GJK keeps support points in float but its simplex and search direction in double;
//      - circle-polygon accepts push candidates with a quarter-band slack.
// 3. The tolerance band. Where float rounding can flip an answer, the flip is confined to a band
//    around the decision boundary of width
//        band = kToleranceRelative * scale,
//    where `scale` is the largest absolute coordinate (or radius, or length) among the kernel's
//    inputs after they are expressed relative to the kernel's own local origin. Oracle tests
//    compare with a double or exact reference and forgive a disagreement only when the reference's
//    decisive distance (separation, penetration, gap along the ray, ...) lies within the band;
//    every other disagreement fails the test. Each kernel's header states what its decisive
//    distance is.
// 4. Coplanarity. Two triangles are treated as coplanar when every vertex of one has an orientation
//    determinant against the other's plane of exactly zero, or when their planes are parallel to
//    within a sine of 2^-30 in double — the cases the method must handle with its 2D branch.
//    Other nearly coplanar pairs take the 3D path in double (see rule 2) and live with rule 3.
// 5. Degenerate input. Zero-area triangles, zero-length segments and zero radii are valid input:
//    a zero-area triangle behaves as its segment or point; a zero-length segment as a point. A
//    kernel never divides by a quantity it has not checked.
// 6. Non-finite input. Any NaN or infinity in an input gives "no hit" / "no contact" (outputs are
//    left in their documented no-hit state), never a crash, never a hang; iterative kernels (GJK)
//    run for a bounded number of iterations.
// 7. Scale. The triangle kernels (sphere, segment and swept sphere against a triangle, triangle
//    against a box) rescale their local frame by a power of two when its largest magnitude is
//    outside [2^-20, 2^20]: the scaling is exact, so they answer as for the same shapes at unit
//    scale, where their squares, cubes and fourth powers neither underflow nor overflow. Inputs
//    in that range are not rescaled. The watertight segment test needs no rescaling; tri-tri
//    answers alike from 2^-90 to 2^40 (a blob's coordinates stay below 2^40) but not from 2^50,
//    where its products overflow. tests/geom/triangle_scale_test.cpp checks each. The planar
//    kernels (circlePolygon, segmentPolygon, pointInPolygon, polygonSat) do not rescale: they
//    answer alike from 2^-40 to 2^60 (tests/geom/polygon_scale_test.cpp), and a wall set's points
//    stay below 2^40. From about 2^-49 down their squares underflow, and from 2^63 up their
//    products overflow. Tri-tri's coplanar 2D test scales its points up by a power of two when they
//    lie below 2^-40. Sphere-sphere, capsule-sphere, sphere-box and the closest point on a
//    triangle do not rescale: they answer alike from 2^-50 to 2^50
//    (tests/geom/box_contact_scale_test.cpp); below, squares of distances underflow (a point
//    1e-30 from a sphere of radius 1e-30 touches it), and above about 2^63 they overflow, where
//    sphere-sphere decides in double. GJK refuses shapes whose offset from each other overflows.
#pragma once

namespace flak {

/// Relative width of the tolerance band (see rule 3): 1e-5 of the input scale, about 84 float
/// ulps at the scale's magnitude — wide enough for the few dozen roundings a kernel performs, narrow
/// enough that any real logic error (wrong sign, missed case) shows up far outside it.
constexpr float kToleranceRelative = 1e-5f;

/// Iteration cap of iterative kernels (GJK and its ray cast). Convergence on well-formed input
/// takes far fewer; the cap bounds the cost on adversarial or non-finite input.
constexpr int kMaxGjkIterations = 64;

} // namespace flak

// flak — oriented box vs oriented box: boolean overlap by the separating-axis test over 15 axes.
//
// Method: Gottschalk, Lin, Manocha 1996 ("OBBTree"), in the layout of Ericson, Real-Time Collision
// Detection 4.4.1: both boxes in A's frame, R = A^T B, the six face axes and the nine edge-pair
// axes A_i x B_j evaluated through the entries of R.
//
// Parallel and nearly parallel edges (documented exception to tolerance.h rule 2). Gottschalk's
// edge-axis terms are unnormalised: for edges at angle theta their float rounding error (and the
// error from a rotation that is orthonormal only to float precision) is divided by sin(theta) once
// the axis is normalised. Ericson's remedy, adding an epsilon to every |R| entry, bounds the false
// separations but inflates the edge-axis radii by epsilon / sin(theta) relative, which for
// theta near 1e-3 puts false overlaps far outside the band (measured on the oracle's skew-edge
// family: 3434 of 100k cases out of band with epsilon = 1e-6, 2553 with plain float). Instead each edge axis
// is decided in float only when its separation value is certain: when |d - (ra + rb)| <= 1e-5 * (|T|_1 + the
// sum of all six half extents) (a bound on the float and non-orthonormality error, for rotations
// orthonormal to within 1e-6), that axis is re-evaluated in double with the axis L = A_i x B_j
// formed explicitly and both boxes projected onto it. An axis with |L| <= 1e-9 |A_i| |B_j| (edges
// parallel to within 1e-9 rad) is skipped: its verdict is then carried by the face axes, with an
// error of at most about 1e-9 of the edge lengths. Rounded operations otherwise keep the band.
//
// Decisive distance (rule 3): apart, the gap 2s such that growing every half extent of both
// boxes by s makes them touch (the face gap for face-to-face boxes; between the Euclidean distance
// over sqrt(3) and the distance in general); overlapping, minus the penetration depth (the
// shortest translation of one box that separates them). Scale: the largest absolute coordinate of
// either centre plus the largest half extent. Valid range:
// coordinates and half extents up to 1e18.
#pragma once

#include <flak/math/obb.h>

namespace flak {

/// True when the closed boxes a and b touch or overlap (see the header comment for the method and
/// its tolerance). Rotations must be orthonormal to within 1e-6 (float-rounded rotations are);
/// half extents >= 0 (zero extents give rectangles, segments and points). NaN/Inf anywhere or a
/// negative half extent: false.
bool obbObbOverlap(const Obb& a, const Obb& b);

} // namespace flak

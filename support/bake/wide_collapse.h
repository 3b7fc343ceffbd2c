// The wide tree of a baked binary tree: what the WideNodes section holds (bvh/blob_format.h).
#pragma once

#include <flak/bvh/blob_format.h>

#include <cstdint>
#include <vector>

namespace flak::bake {

/// Collapses the built binary tree, quantized (BvhNode: grid boxes, skip links, depth-first), into wide
/// nodes of up to kWideChildren children: of the binary nodes, those that become wide nodes are
/// chosen for the least SAH cost (a node visit 1, a triangle test 0.3), as in compressed wide BVHs
/// (Ylitie, Karras, Laine 2017); the baker's leaves stay as they are. Children keep depth-first
/// order and nodes come out in depth-first preorder, so a walk taking children in slot order meets
/// the triangles in id order. Each child box is the steps of its node's frame that hold its binary
/// node's box (setWideBoxes), the root's frame the root's box and every other node's the box its parent
/// gives it, so decoded boxes nest. The wide tree is never deeper than the binary one.
/// Deterministic.
std::vector<WideNode> collapseWide(const std::vector<BvhNode>& binary);

/// Sets a wide node's frame to the grid box [frame_lo, frame_hi] (its minimum corner, and per axis
/// the smallest power-of-two step that spans the box in 256 steps) and its first `count` child
/// boxes to the steps that hold `boxes` (each within the frame), the other slots' boxes empty.
/// Leaves the child references alone.
void setWideBoxes(const std::uint16_t frame_lo[3], const std::uint16_t frame_hi[3], const BvhNode* boxes,
                  std::uint32_t count, WideNode& out);

/// The depth of a wide tree in nodes (root = 1; 0 for no nodes): what MeshInfo records.
std::uint32_t wideDepth(const std::vector<WideNode>& wide);

} // namespace flak::bake

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
/// the triangles in id order. Each child box is its binary node's box, biased by kWideBias. The
/// wide tree is never deeper than the binary one. Deterministic.
std::vector<WideNode> collapseWide(const std::vector<BvhNode>& binary);

/// The depth of a wide tree in nodes (root = 1; 0 for no nodes): what MeshInfo records.
std::uint32_t wideDepth(const std::vector<WideNode>& wide);

} // namespace flak::bake

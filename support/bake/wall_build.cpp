#include "wall_build.h"

#include "float_narrow.h"

#include <flak/bvh/blob_format.h>
#include <flak/geom/orient2d.h>
#include <flak/shooter/blob_sections.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace flak::bake {

namespace {

std::string describe(const WallPolygon& p, std::size_t index) {
    std::string s = "polygon " + std::to_string(index);
    if (!p.name.empty()) s += " '" + p.name + "'";
    if (p.line > 0) s += " (line " + std::to_string(p.line) + ")";
    return s;
}

std::string ringName(std::size_t ring) { return ring == 0 ? "outer ring" : "hole " + std::to_string(ring); }

// Orientation of c against a -> b, exactly (orient2dSign): in double, the differences of floats
// of very different sizes round, and a point exactly on an edge could come out off it.
int orient(const Vec2& a, const Vec2& b, const Vec2& c) { return orient2dSign(a, b, c); }

bool onSegment(const Vec2& a, const Vec2& b, const Vec2& p) {
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

// Closed segments a-b and c-d share a point (touching counts).
bool segmentsMeet(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
    if (std::max(a.x, b.x) < std::min(c.x, d.x) || std::max(c.x, d.x) < std::min(a.x, b.x) ||
        std::max(a.y, b.y) < std::min(c.y, d.y) || std::max(c.y, d.y) < std::min(a.y, b.y))
        return false;
    const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
           (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b));
}

double signedArea2(const std::vector<Vec2>& r) {
    double s = 0.0;
    for (std::size_t i = 0; i < r.size(); ++i) {
        const Vec2& a = r[i];
        const Vec2& b = r[(i + 1) % r.size()];
        s += double(a.x) * b.y - double(b.x) * a.y;
    }
    return s;
}

struct EdgeRef {
    std::uint32_t ring, index;
    float lo[2], hi[2];
    float c[2];
};

struct Node {
    float lo[2], hi[2];
    std::uint32_t skip = 1, first = 0, count = 0;
};

// Median split on the longer axis of the edge centres (tools may recurse: only the runtime may not).
void buildNode(std::vector<EdgeRef>& edges, std::uint32_t begin, std::uint32_t end, std::uint32_t max_leaf,
               std::vector<Node>& nodes) {
    Node n;
    n.lo[0] = n.lo[1] = INFINITY;
    n.hi[0] = n.hi[1] = -INFINITY;
    float clo[2] = {INFINITY, INFINITY}, chi[2] = {-INFINITY, -INFINITY};
    for (std::uint32_t i = begin; i < end; ++i)
        for (int a = 0; a < 2; ++a) {
            n.lo[a] = std::min(n.lo[a], edges[i].lo[a]);
            n.hi[a] = std::max(n.hi[a], edges[i].hi[a]);
            clo[a] = std::min(clo[a], edges[i].c[a]);
            chi[a] = std::max(chi[a], edges[i].c[a]);
        }
    const std::size_t at = nodes.size();
    nodes.push_back(n);
    if (end - begin <= max_leaf) {
        nodes[at].first = begin;
        nodes[at].count = end - begin;
        return;
    }
    const int axis = (chi[0] - clo[0]) >= (chi[1] - clo[1]) ? 0 : 1;
    const std::uint32_t mid = begin + (end - begin) / 2;
    std::nth_element(edges.begin() + begin, edges.begin() + mid, edges.begin() + end,
                     [axis](const EdgeRef& x, const EdgeRef& y) {
                         return x.c[axis] != y.c[axis]
                                    ? x.c[axis] < y.c[axis]
                                    : (x.ring != y.ring ? x.ring < y.ring : x.index < y.index);
                     });
    buildNode(edges, begin, mid, max_leaf, nodes);
    buildNode(edges, mid, end, max_leaf, nodes);
    nodes[at].skip = static_cast<std::uint32_t>(nodes.size() - at);
}

struct InsideNode {
    float lo[2], hi[2];
    std::uint32_t skip = 1, first = 0, count = 0, ring = 0;
    bool whole = false;
};

void boxOfPoints(const std::vector<Vec2>& pts, std::uint32_t begin, std::uint32_t end, float lo[2],
                 float hi[2]) {
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    for (std::uint32_t i = begin; i < end; ++i) {
        lo[0] = std::min(lo[0], pts[i].x), lo[1] = std::min(lo[1], pts[i].y);
        hi[0] = std::max(hi[0], pts[i].x), hi[1] = std::max(hi[1], pts[i].y);
    }
}

// Below a ring's node: its edges [begin, end) (as first points) halved in ring order down to leaves
// of max_leaf; each node's box covers its edges' end points (the last edge ends at the next point,
// or at the ring's first point).
void buildRingEdges(const std::vector<Vec2>& pts, const WallRing& r, std::uint32_t ring, std::uint32_t begin,
                    std::uint32_t end, std::uint32_t max_leaf, bool whole, std::vector<InsideNode>& nodes) {
    InsideNode n;
    const std::uint32_t ring_end = r.first_point + r.point_count;
    boxOfPoints(pts, begin, std::min(end + 1, ring_end), n.lo, n.hi);
    if (end == ring_end) {
        const Vec2& wrap = pts[r.first_point];
        n.lo[0] = std::min(n.lo[0], wrap.x), n.lo[1] = std::min(n.lo[1], wrap.y);
        n.hi[0] = std::max(n.hi[0], wrap.x), n.hi[1] = std::max(n.hi[1], wrap.y);
    }
    n.ring = ring;
    n.whole = whole;
    const std::size_t at = nodes.size();
    nodes.push_back(n);
    if (end - begin <= max_leaf) {
        nodes[at].first = begin;
        nodes[at].count = end - begin;
        return;
    }
    const std::uint32_t mid = begin + (end - begin) / 2;
    buildRingEdges(pts, r, ring, begin, mid, max_leaf, false, nodes);
    buildRingEdges(pts, r, ring, mid, end, max_leaf, false, nodes);
    nodes[at].skip = static_cast<std::uint32_t>(nodes.size() - at);
}

// Above the rings: median split of the ring boxes' centres on the longer axis (ties by ring index),
// down to one ring, whose node is the root of its edges' subtree.
void buildInsideNode(const std::vector<Vec2>& pts, const std::vector<WallRing>& rings,
                     const std::vector<std::array<float, 4>>& boxes, std::vector<std::uint32_t>& order,
                     std::uint32_t begin, std::uint32_t end, std::uint32_t max_leaf,
                     std::vector<InsideNode>& nodes) {
    if (end - begin == 1) {
        const std::uint32_t ring = order[begin];
        const WallRing& r = rings[ring];
        buildRingEdges(pts, r, ring, r.first_point, r.first_point + r.point_count, max_leaf, true, nodes);
        return;
    }
    InsideNode n;
    n.lo[0] = n.lo[1] = INFINITY;
    n.hi[0] = n.hi[1] = -INFINITY;
    float clo[2] = {INFINITY, INFINITY}, chi[2] = {-INFINITY, -INFINITY};
    auto centre = [&](std::uint32_t ring, int axis) {
        return 0.5f * (boxes[ring][std::size_t(axis)] + boxes[ring][std::size_t(axis) + 2]);
    };
    for (std::uint32_t i = begin; i < end; ++i)
        for (int a = 0; a < 2; ++a) {
            n.lo[a] = std::min(n.lo[a], boxes[order[i]][std::size_t(a)]);
            n.hi[a] = std::max(n.hi[a], boxes[order[i]][std::size_t(a) + 2]);
            clo[a] = std::min(clo[a], centre(order[i], a));
            chi[a] = std::max(chi[a], centre(order[i], a));
        }
    n.whole = true;
    const std::size_t at = nodes.size();
    nodes.push_back(n);
    const int axis = (chi[0] - clo[0]) >= (chi[1] - clo[1]) ? 0 : 1;
    const std::uint32_t mid = begin + (end - begin) / 2;
    std::nth_element(order.begin() + begin, order.begin() + mid, order.begin() + end,
                     [&](std::uint32_t x, std::uint32_t y) {
                         const float cx = centre(x, axis), cy = centre(y, axis);
                         return cx != cy ? cx < cy : x < y;
                     });
    buildInsideNode(pts, rings, boxes, order, begin, mid, max_leaf, nodes);
    buildInsideNode(pts, rings, boxes, order, mid, end, max_leaf, nodes);
    nodes[at].skip = static_cast<std::uint32_t>(nodes.size() - at);
}

// One ring of the input: polygons[polygon].rings[ring].
struct RingRef {
    std::size_t polygon, ring;
};

const std::vector<Vec2>& ringOf(const std::vector<WallPolygon>& polygons, const RingRef& r) {
    return polygons[r.polygon].rings[r.ring];
}

std::string describeRing(const std::vector<WallPolygon>& polygons, const RingRef& r) {
    return describe(polygons[r.polygon], r.polygon) + ", " + ringName(r.ring);
}

// Every point finite, within max_abs_coordinate, and not equal to the next one.
BakeError checkRingPoints(const std::vector<Vec2>& ring, const std::string& where,
                          const WallBuildOptions& options) {
    for (std::size_t i = 0; i < ring.size(); ++i) {
        if (!isFinite(ring[i])) return {where + ": point " + std::to_string(i) + " is NaN or infinite"};
        if (std::fabs(ring[i].x) > options.max_abs_coordinate ||
            std::fabs(ring[i].y) > options.max_abs_coordinate)
            return {where + ": point " + std::to_string(i) + " has an absurd coordinate"};
        const Vec2& n = ring[(i + 1) % ring.size()];
        if (n.x == ring[i].x && n.y == ring[i].y)
            return {where + ": point " + std::to_string(i) + " repeats the next point (zero-length edge)"};
    }
    return {};
}

// Adjacent edges i -> i + 1 and i + 1 -> i + 2 of a ring share one end; they must not fold back
// over each other (the far ends on the same ray from the shared point).
bool foldsBack(const Vec2& u, const Vec2& shared, const Vec2& v) {
    return orient(u, shared, v) == 0 && (double(u.x) - shared.x) * (double(v.x) - shared.x) +
                                                (double(u.y) - shared.y) * (double(v.y) - shared.y) >
                                            0.0;
}

// The checks of one ring on its own: at least 3 points, its points, non-zero area (simplicity is
// checked with every other edge pair: checkEdgesApart).
BakeError checkRing(const std::vector<Vec2>& ring, const std::string& where,
                    const WallBuildOptions& options) {
    if (ring.size() < 3) return {where + ": fewer than 3 points (" + std::to_string(ring.size()) + ")"};
    BakeError e = checkRingPoints(ring, where, options);
    if (e.failed()) return e;
    const std::size_t n = ring.size();
    bool collinear = true;
    for (std::size_t i = 2; i < n && collinear; ++i) collinear = orient(ring[0], ring[1], ring[i]) == 0;
    if (collinear) return {where + ": zero area (all points on a line)"};
    return {};
}

// Per ring checks, in input order; every ring in out_all, and its points counted in out_points.
BakeError collectRings(const std::vector<WallPolygon>& polygons, const WallBuildOptions& options,
                       std::vector<RingRef>& out_all, std::size_t& out_points) {
    for (std::size_t p = 0; p < polygons.size(); ++p) {
        const WallPolygon& poly = polygons[p];
        if (poly.rings.empty()) return {describe(poly, p) + ": no points"};
        for (std::size_t r = 0; r < poly.rings.size(); ++r) {
            const BakeError e = checkRing(poly.rings[r], describe(poly, p) + ", " + ringName(r), options);
            if (e.failed()) return e;
            out_all.push_back({p, r});
            out_points += poly.rings[r].size();
        }
    }
    return {};
}

// No two edges of the level meet, except adjacent edges of one ring at their shared end (where
// they must not fold back): each ring simple, the rings pairwise disjoint (touching included).
// A sweep over the edges sorted by their smallest x, each tested against the edges still open
// (largest x not below its smallest x) whose y ranges overlap its own. The edges of a level are
// short next to the level, so few are open at once: the sort's n log n and about n tests (a ring
// of a million points checks in about a second), where testing every pair took minutes.
BakeError checkEdgesApart(const std::vector<WallPolygon>& polygons, const std::vector<RingRef>& all) {
    struct Edge {
        float x0, x1, y0, y1;
        std::uint32_t ring, index; // ring: position in `all`
    };
    std::vector<Edge> edges;
    for (std::uint32_t r = 0; r < all.size(); ++r) {
        const std::vector<Vec2>& ring = ringOf(polygons, all[r]);
        for (std::uint32_t i = 0; i < ring.size(); ++i) {
            const Vec2& a = ring[i];
            const Vec2& b = ring[(i + 1) % ring.size()];
            edges.push_back(
                {std::min(a.x, b.x), std::max(a.x, b.x), std::min(a.y, b.y), std::max(a.y, b.y), r, i});
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& p, const Edge& q) {
        return p.x0 != q.x0 ? p.x0 < q.x0 : (p.ring != q.ring ? p.ring < q.ring : p.index < q.index);
    });
    std::vector<std::uint32_t> open;
    for (std::uint32_t e = 0; e < edges.size(); ++e) {
        const Edge& E = edges[e];
        for (std::size_t k = 0; k < open.size();) {
            const Edge& F = edges[open[k]];
            if (F.x1 < E.x0) { // closed for good: every later edge starts further right
                open[k] = open.back();
                open.pop_back();
                continue;
            }
            ++k;
            if (F.y1 < E.y0 || E.y1 < F.y0) continue;
            const Edge& lo = F.ring < E.ring || (F.ring == E.ring && F.index < E.index) ? F : E;
            const Edge& hi = &lo == &F ? E : F;
            const std::vector<Vec2>& ra = ringOf(polygons, all[lo.ring]);
            const std::vector<Vec2>& rb = ringOf(polygons, all[hi.ring]);
            const std::size_t n = ra.size(), i = lo.index, j = hi.index;
            const Vec2 &a = ra[i], &b = ra[(i + 1) % n], &c = rb[j], &d = rb[(j + 1) % rb.size()];
            if (lo.ring != hi.ring) {
                if (segmentsMeet(a, b, c, d))
                    return {describeRing(polygons, all[lo.ring]) + " touches or crosses " +
                            describeRing(polygons, all[hi.ring]) +
                            " (rings must be disjoint; merge touching polygons)"};
                continue;
            }
            if (j == i + 1 || (i == 0 && j == n - 1)) {
                const bool next = j == i + 1;
                if (foldsBack(next ? a : b, next ? b : a, next ? d : c))
                    return {describeRing(polygons, all[lo.ring]) + ": self-intersecting (edges " +
                            std::to_string(i) + " and " + std::to_string(j) + " fold back over each other)"};
            } else if (segmentsMeet(a, b, c, d)) {
                return {describeRing(polygons, all[lo.ring]) + ": self-intersecting (edge " +
                        std::to_string(i) + " meets edge " + std::to_string(j) + ")"};
            }
        }
        open.push_back(e);
    }
    return {};
}

// Nesting: how many other rings hold each ring (its first point; rings are disjoint). Outer rings
// at even depth, holes at odd depth and inside their own outer ring.
BakeError checkNesting(const std::vector<WallPolygon>& polygons, const std::vector<RingRef>& all) {
    // Ring boxes first: a ring holds a point only when its box does.
    std::vector<std::array<float, 4>> boxes;
    for (const RingRef& r : all) {
        std::array<float, 4> b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
        for (const Vec2& v : ringOf(polygons, r))
            b = {std::min(b[0], v.x), std::min(b[1], v.y), std::max(b[2], v.x), std::max(b[3], v.y)};
        boxes.push_back(b);
    }
    std::vector<int> depths(all.size(), 0);
    std::vector<std::size_t> outer(polygons.size(), 0); // each polygon's outer ring in `all`
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Vec2& p = ringOf(polygons, all[i])[0];
        for (std::size_t j = 0; j < all.size(); ++j)
            if (j != i && p.x >= boxes[j][0] && p.x <= boxes[j][2] && p.y >= boxes[j][1] &&
                p.y <= boxes[j][3] && insideRing(ringOf(polygons, all[j]), p))
                ++depths[i];
        if (all[i].ring == 0) outer[all[i].polygon] = i;
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
        const int depth = depths[i];
        const WallPolygon& poly = polygons[all[i].polygon];
        const std::string where = describeRing(polygons, all[i]);
        if (all[i].ring > 0 && !insideRing(poly.rings[0], ringOf(polygons, all[i])[0]))
            return {where + ": the hole is not inside its outer ring"};
        if (all[i].ring == 0 && depth % 2 != 0)
            return {where + ": the polygon overlaps another polygon's solid"};
        if (all[i].ring > 0 && depth % 2 != 1) return {where + ": the hole overlaps another polygon's solid"};
        // A hole must lie in its own polygon's solid: no ring between it and its outer ring (a
        // hole around another polygon's island would cut a hole in that island).
        if (all[i].ring > 0 && depth != depths[outer[all[i].polygon]] + 1)
            return {where +
                    ": the hole lies inside another polygon (a hole must be in its own polygon's solid)"};
    }
    return {};
}

// Rings in order, oriented with the solid on the left: the ring table and the points.
void orientRings(const std::vector<WallPolygon>& polygons, const std::vector<RingRef>& all,
                 std::vector<WallRing>& out_rings, std::vector<Vec2>& out_pts) {
    for (const RingRef& r : all) {
        std::vector<Vec2> ring = ringOf(polygons, r);
        const bool hole = r.ring > 0;
        if ((signedArea2(ring) > 0.0) == hole) std::reverse(ring.begin(), ring.end());
        WallRing wr;
        wr.first_point = static_cast<std::uint32_t>(out_pts.size());
        wr.point_count = static_cast<std::uint32_t>(ring.size());
        wr.polygon = static_cast<std::uint32_t>(r.polygon);
        wr.flags = hole ? kWallHoleFlag : 0u;
        out_rings.push_back(wr);
        out_pts.insert(out_pts.end(), ring.begin(), ring.end());
    }
}

// Every edge of every ring, in ring order, with its box and centre.
std::vector<EdgeRef> collectEdges(const std::vector<WallRing>& rings, const std::vector<Vec2>& pts) {
    std::vector<EdgeRef> edges;
    for (std::uint32_t r = 0; r < rings.size(); ++r)
        for (std::uint32_t i = 0; i < rings[r].point_count; ++i) {
            const Vec2& a = pts[rings[r].first_point + i];
            const Vec2& b = pts[rings[r].first_point + (i + 1) % rings[r].point_count];
            EdgeRef e;
            e.ring = r;
            e.index = i;
            e.lo[0] = std::min(a.x, b.x), e.lo[1] = std::min(a.y, b.y);
            e.hi[0] = std::max(a.x, b.x), e.hi[1] = std::max(a.y, b.y);
            e.c[0] = 0.5f * (e.lo[0] + e.hi[0]), e.c[1] = 0.5f * (e.lo[1] + e.hi[1]);
            edges.push_back(e);
        }
    return edges;
}

// The inside tree: ring boxes of the oriented points, leaves as large as the format allows (the
// crossing vote per edge is cheaper than a node test).
std::vector<InsideNode> buildInsideTree(const std::vector<WallRing>& rings, const std::vector<Vec2>& pts) {
    std::vector<std::array<float, 4>> ring_boxes;
    std::vector<std::uint32_t> ring_order;
    for (std::uint32_t r = 0; r < rings.size(); ++r) {
        float lo[2], hi[2];
        boxOfPoints(pts, rings[r].first_point, rings[r].first_point + rings[r].point_count, lo, hi);
        ring_boxes.push_back({lo[0], lo[1], hi[0], hi[1]});
        ring_order.push_back(r);
    }
    std::vector<InsideNode> inside;
    buildInsideNode(pts, rings, ring_boxes, ring_order, 0, static_cast<std::uint32_t>(rings.size()),
                    kMaxWallLeafEdges, inside);
    return inside;
}

// Appends raw bytes to the section words.
struct WordWriter {
    unsigned char* p;
    std::size_t at = 0;
    void put(const void* src, std::size_t n) {
        std::memcpy(p + at, src, n);
        at += n;
    }
};

// The Walls section: header, rings, points, edge tree nodes, edges, inside tree nodes.
void writeWallWords(std::size_t polygon_count, const std::vector<WallRing>& rings,
                    const std::vector<Vec2>& pts, const std::vector<Node>& nodes,
                    const std::vector<EdgeRef>& edges, const std::vector<InsideNode>& inside,
                    std::vector<std::uint32_t>& out_words) {
    WallsHeader h{};
    h.polygon_count = static_cast<std::uint32_t>(polygon_count);
    h.ring_count = static_cast<std::uint32_t>(rings.size());
    h.point_count = static_cast<std::uint32_t>(pts.size());
    h.node_count = static_cast<std::uint32_t>(nodes.size());
    h.bounds_min[0] = nodes[0].lo[0], h.bounds_min[1] = nodes[0].lo[1];
    h.bounds_max[0] = nodes[0].hi[0], h.bounds_max[1] = nodes[0].hi[1];
    h.inside_node_count = static_cast<std::uint32_t>(inside.size());
    h.reserved = 0;
    out_words.assign(static_cast<std::size_t>(
                         wallSectionWords(h.ring_count, h.point_count, h.node_count, h.inside_node_count)),
                     0u);
    WordWriter out{reinterpret_cast<unsigned char*>(out_words.data())};
    out.put(&h, sizeof h);
    out.put(rings.data(), rings.size() * sizeof(WallRing));
    out.put(pts.data(), pts.size() * sizeof(Vec2));
    for (const Node& n : nodes) {
        WallNode w;
        w.min[0] = n.lo[0], w.min[1] = n.lo[1], w.max[0] = n.hi[0], w.max[1] = n.hi[1];
        w.info = n.count > 0 ? makeLeafInfo(n.first, n.count) : n.skip;
        out.put(&w, sizeof w);
    }
    for (const EdgeRef& e : edges) {
        const WallEdge w{e.ring, e.index};
        out.put(&w, sizeof w);
    }
    for (const InsideNode& n : inside) {
        WallInsideNode w;
        w.min[0] = n.lo[0], w.min[1] = n.lo[1], w.max[0] = n.hi[0], w.max[1] = n.hi[1];
        w.info = n.count > 0 ? makeLeafInfo(n.first, n.count) : n.skip;
        w.ring = (n.count > 0 ? n.ring : 0u) | (n.whole ? kWallWholeRings : 0u);
        out.put(&w, sizeof w);
    }
}

} // namespace

bool insideRing(const std::vector<Vec2>& r, const Vec2& p) {
    bool in = false;
    for (std::size_t i = 0, j = r.size() - 1; i < r.size(); j = i++) {
        const Vec2& a = r[i];
        const Vec2& b = r[j];
        if ((a.y > p.y) != (b.y > p.y)) {
            const double x = a.x + (double(p.y) - a.y) * (double(b.x) - a.x) / (double(b.y) - a.y);
            if (p.x < x) in = !in;
        }
    }
    return in;
}

BakeError parseLevelFile(const std::string& text, std::vector<WallPolygon>& out) {
    out.clear();
    std::istringstream in(text);
    std::string line;
    int number = 0;
    bool in_hole = false;
    while (std::getline(in, line)) {
        ++number;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::string first;
        if (!(words >> first)) continue;
        if (first == "polygon") {
            WallPolygon p;
            std::getline(words >> std::ws, p.name);
            while (!p.name.empty() && std::isspace(static_cast<unsigned char>(p.name.back())))
                p.name.pop_back();
            p.line = number;
            p.rings.emplace_back();
            out.push_back(std::move(p));
            in_hole = false;
        } else if (first == "hole") {
            if (out.empty()) return {"line " + std::to_string(number) + ": 'hole' before any 'polygon'"};
            out.back().rings.emplace_back();
            in_hole = true;
        } else {
            if (out.empty()) return {"line " + std::to_string(number) + ": a point before any 'polygon'"};
            std::istringstream nums(line);
            std::string xs, ys, extra;
            if (!(nums >> xs >> ys) || (nums >> extra))
                return {"line " + std::to_string(number) + ": expected 'x y', got '" + line + "'"};
            char* e1 = nullptr;
            char* e2 = nullptr;
            const double x = std::strtod(xs.c_str(), &e1), y = std::strtod(ys.c_str(), &e2);
            if (*e1 != '\0' || *e2 != '\0')
                return {"line " + std::to_string(number) + ": not a number in '" + line + "'"};
            out.back().rings.back().push_back(Vec2{narrowToFloat(x), narrowToFloat(y)});
        }
    }
    (void)in_hole;
    if (out.empty()) return {"the level file has no polygon"};
    return {};
}

bool isLevelFile(const std::string& path) {
    const auto endsWith = [&path](const std::string& tail) {
        return path.size() >= tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
    };
    return endsWith(".walls") || endsWith(".level");
}

BakeError readLevelFile(const std::string& path, std::vector<WallPolygon>& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {"cannot read '" + path + "'"};
    std::stringstream ss;
    ss << in.rdbuf();
    BakeError e = parseLevelFile(ss.str(), out);
    if (e.failed()) e.message = path + ": " + e.message;
    return e;
}

BakeError buildWallSection(const std::vector<WallPolygon>& polygons, const WallBuildOptions& options,
                           std::vector<std::uint32_t>& out_words) {
    out_words.clear();
    if (polygons.empty()) return {"no polygons"};
    if (options.max_leaf < 1 || options.max_leaf > kMaxWallLeafEdges) return {"wall leaf size out of range"};
    std::vector<RingRef> all;
    std::size_t points = 0;
    BakeError e = collectRings(polygons, options, all, points);
    if (e.failed()) return e;
    if (points > kMaxBlobTriangles) return {"too many wall points"};
    e = checkEdgesApart(polygons, all);
    if (e.failed()) return e;
    for (const RingRef& r : all) // a simple ring off one line has area; kept as a guard
        if (signedArea2(ringOf(polygons, r)) == 0.0) return {describeRing(polygons, r) + ": zero area"};
    e = checkNesting(polygons, all);
    if (e.failed()) return e;

    std::vector<WallRing> rings;
    std::vector<Vec2> pts;
    orientRings(polygons, all, rings, pts);
    std::vector<EdgeRef> edges = collectEdges(rings, pts);
    std::vector<Node> nodes;
    buildNode(edges, 0, static_cast<std::uint32_t>(edges.size()), options.max_leaf, nodes);
    const std::vector<InsideNode> inside = buildInsideTree(rings, pts);
    writeWallWords(polygons.size(), rings, pts, nodes, edges, inside, out_words);
    return {};
}

} // namespace flak::bake

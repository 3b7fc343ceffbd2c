// The top-down picture: everything is projected onto the play plane (x, y), +z towards the
// viewer. Hulls are flat-shaded by their triangles' normals; only up-facing triangles are drawn,
// which for closed meshes covers the silhouette once.
#include "scene_draw.h"

#include "draw_color.h"

#include <algorithm>
#include <cmath>

namespace flak::sample {

namespace {

constexpr float kPi = 3.14159265f;

SDL_Color color(Rgb c, std::uint8_t alpha = 255) { return SDL_Color{red(c), green(c), blue(c), alpha}; }

SDL_Color shaded(Rgb c, float k) {
    auto channel = [k](std::uint8_t v) {
        return static_cast<std::uint8_t>(std::min(255.0f, std::round(static_cast<float>(v) * k)));
    };
    return SDL_Color{channel(red(c)), channel(green(c)), channel(blue(c)), 255};
}

SDL_Vertex vertex(float x, float y, SDL_Color c) {
    SDL_Vertex v;
    v.position = SDL_FPoint{x, y};
    v.color = c;
    v.tex_coord = SDL_FPoint{0.0f, 0.0f};
    return v;
}

// Light from above, a little from the upper left of the screen.
const Vec3 kLight = [] {
    Vec3 l;
    set(-0.35f, 0.45f, 0.82f, l);
    normalize(l, l);
    return l;
}();

// The arena's bounds.
void drawArenaFrame(SDL_Renderer* renderer, const Camera& camera, const scenes::SceneParams& params) {
    const float x0 = camera.toScreenX(-params.arena_half_x), x1 = camera.toScreenX(params.arena_half_x);
    const float y0 = camera.toScreenY(params.arena_half_y), y1 = camera.toScreenY(-params.arena_half_y);
    const SDL_FRect frame{x0, y0, x1 - x0, y1 - y0};
    setColor(renderer, palette::kArenaFrame);
    SDL_RenderDrawRectF(renderer, &frame);
}

const MeshBlob& shipMesh(const scenes::SceneAssets& assets, const scenes::ScriptedShip& ship) {
    return ship.player ? assets.player_mesh->mesh : assets.enemy_meshes[ship.mesh]->mesh;
}

// The beam's hit parameter t in the world's hits (the last one listed wins), or -1 without one.
float beamHitT(const World& world, BodyId beam) {
    float hit_t = -1.0f;
    for (std::uint32_t h = 0; h < world.hitCount(); ++h) {
        if (world.hits()[h].kind == HitKind::Beam && world.hits()[h].a == beam) hit_t = world.hits()[h].t;
    }
    return hit_t;
}

// One hit's normal in the play plane for drawing: the unit direction (out_nx, out_ny) and its
// length in pixels, shorter when the normal leans out of the plane.
void hitNormalOnScreen(const Hit& h, int normal_pixels, float& out_nx, float& out_ny, float& out_reach) {
    const float nlen = std::sqrt(h.normal.x * h.normal.x + h.normal.y * h.normal.y);
    out_nx = nlen > 1e-3f ? h.normal.x / nlen : 0.0f;
    out_ny = nlen > 1e-3f ? h.normal.y / nlen : 0.0f;
    out_reach = static_cast<float>(normal_pixels) * (nlen > 1e-3f ? std::min(1.0f, nlen + 0.35f) : 0.0f);
}

} // namespace

void SceneDraw::addThickLine(float x0, float y0, float x1, float y1, float width, SDL_Color c) {
    float dx = x1 - x0, dy = y1 - y0;
    const float len = std::sqrt(dx * dx + dy * dy);
    if (!(len > 1e-4f)) return;
    const float nx = -dy / len * 0.5f * width, ny = dx / len * 0.5f * width;
    const SDL_Vertex a = vertex(x0 + nx, y0 + ny, c), b = vertex(x1 + nx, y1 + ny, c);
    const SDL_Vertex d = vertex(x0 - nx, y0 - ny, c), e = vertex(x1 - nx, y1 - ny, c);
    m_vertices.insert(m_vertices.end(), {a, b, e, a, e, d});
}

void SceneDraw::addDisc(float cx, float cy, float radius, SDL_Color c, int segments) {
    for (int i = 0; i < segments; ++i) {
        const float a0 = 2.0f * kPi * static_cast<float>(i) / static_cast<float>(segments);
        const float a1 = 2.0f * kPi * static_cast<float>(i + 1) / static_cast<float>(segments);
        m_vertices.push_back(vertex(cx, cy, c));
        m_vertices.push_back(vertex(cx + radius * std::cos(a0), cy + radius * std::sin(a0), c));
        m_vertices.push_back(vertex(cx + radius * std::cos(a1), cy + radius * std::sin(a1), c));
    }
}

void SceneDraw::flushGeometry(SDL_Renderer* renderer) {
    if (!m_vertices.empty()) {
        SDL_RenderGeometry(renderer, nullptr, m_vertices.data(), static_cast<int>(m_vertices.size()), nullptr,
                           0);
    }
    m_vertices.clear();
}

void SceneDraw::addMesh(const MeshBlob& mesh, const Transform& to_world, Rgb base, const Camera& camera) {
    m_world_points.resize(mesh.vertex_count);
    for (std::uint32_t i = 0; i < mesh.vertex_count; ++i) {
        Vec3 p;
        vertexPosition(mesh, i, p);
        transformPoint(to_world, p, m_world_points[i]);
    }
    for (std::uint32_t t = 0; t < mesh.triangle_count; ++t) {
        std::uint32_t idx[3];
        triangleIndices(mesh, t, idx);
        const Vec3& a = m_world_points[idx[0]];
        const Vec3& b = m_world_points[idx[1]];
        const Vec3& c = m_world_points[idx[2]];
        Vec3 ab, ac, n;
        sub(b, a, ab);
        sub(c, a, ac);
        cross(ab, ac, n);
        if (!normalize(n, n) || n.z <= 0.0f) continue; // faces away from the viewer
        const float k = 0.45f + 0.55f * std::max(0.0f, dot(n, kLight));
        const SDL_Color col = shaded(base, k);
        m_vertices.push_back(vertex(camera.toScreenX(a.x), camera.toScreenY(a.y), col));
        m_vertices.push_back(vertex(camera.toScreenX(b.x), camera.toScreenY(b.y), col));
        m_vertices.push_back(vertex(camera.toScreenX(c.x), camera.toScreenY(c.y), col));
    }
}

void SceneDraw::drawWalls(SDL_Renderer* renderer, const Camera& camera, const WallSet& walls, int width,
                          int height) {
    if (walls.point_count == 0) return;
    // Scanline fill by the even-odd rule over every ring: exactly the solid pointInWalls() sees
    // (holes stay open), sampled at pixel centres.
    const int y_first = std::max(0, static_cast<int>(std::floor(camera.toScreenY(walls.bounds_max.y))));
    const int y_last =
        std::min(height - 1, static_cast<int>(std::ceil(camera.toScreenY(walls.bounds_min.y))));
    m_frects.clear();
    for (int sy = y_first; sy <= y_last; ++sy) {
        const float wy = camera.toWorldY(static_cast<float>(sy) + 0.5f);
        m_crossings.clear();
        for (std::uint32_t r = 0; r < walls.ring_count; ++r) {
            const WallRing& ring = walls.rings[r];
            for (std::uint32_t e = 0; e < ring.point_count; ++e) {
                const Vec2& a = walls.points[ring.first_point + e];
                const Vec2& b = walls.points[ring.first_point + (e + 1) % ring.point_count];
                if ((a.y <= wy) == (b.y <= wy)) continue;
                const float x = a.x + (wy - a.y) * (b.x - a.x) / (b.y - a.y);
                m_crossings.push_back(camera.toScreenX(x));
            }
        }
        std::sort(m_crossings.begin(), m_crossings.end());
        for (std::size_t i = 0; i + 1 < m_crossings.size(); i += 2) {
            // Pixels whose centres lie between the two crossings.
            const float x0 = std::max(0.0f, std::ceil(m_crossings[i] - 0.5f));
            const float x1 =
                std::min(static_cast<float>(width), std::floor(m_crossings[i + 1] - 0.5f) + 1.0f);
            if (x1 > x0) m_frects.push_back(SDL_FRect{x0, static_cast<float>(sy), x1 - x0, 1.0f});
        }
    }
    setColor(renderer, palette::kWallFill);
    if (!m_frects.empty()) SDL_RenderFillRectsF(renderer, m_frects.data(), static_cast<int>(m_frects.size()));
    setColor(renderer, palette::kWallEdge);
    for (std::uint32_t r = 0; r < walls.ring_count; ++r) {
        const WallRing& ring = walls.rings[r];
        m_points.clear();
        for (std::uint32_t e = 0; e <= ring.point_count; ++e) {
            const Vec2& p = walls.points[ring.first_point + e % ring.point_count];
            m_points.push_back(SDL_FPoint{camera.toScreenX(p.x), camera.toScreenY(p.y)});
        }
        SDL_RenderDrawLinesF(renderer, m_points.data(), static_cast<int>(m_points.size()));
    }
}

void SceneDraw::drawCircle(SDL_Renderer* renderer, float cx, float cy, float radius, int segments) {
    m_points.clear();
    for (int i = 0; i <= segments; ++i) {
        const float a = 2.0f * kPi * static_cast<float>(i) / static_cast<float>(segments);
        m_points.push_back(SDL_FPoint{cx + radius * std::cos(a), cy + radius * std::sin(a)});
    }
    SDL_RenderDrawLinesF(renderer, m_points.data(), static_cast<int>(m_points.size()));
}

void SceneDraw::drawBvh(SDL_Renderer* renderer, const Camera& camera, const MeshBlob& mesh,
                        const Transform& to_world, int max_depth) {
    // The mesh's box at depth 0, then every child of a wide node one deeper than the node; nodes
    // come after their parent (depth-first), so one pass sets each node's depth before its own.
    static const Rgb kDepthColors[] = {0xFFFFFF, 0xFFE066, 0xFFA040, 0xFF6060,
                                       0xE060FF, 0x8080FF, 0x60E0FF, 0x60FF90};
    const auto draw_box = [&](const Aabb& box, std::uint32_t depth, bool leaf) {
        SDL_FPoint corner[8];
        for (int k = 0; k < 8; ++k) {
            Vec3 p, w;
            set((k & 1) ? box.max.x : box.min.x, (k & 2) ? box.max.y : box.min.y,
                (k & 4) ? box.max.z : box.min.z, p);
            transformPoint(to_world, p, w);
            corner[k] = SDL_FPoint{camera.toScreenX(w.x), camera.toScreenY(w.y)};
        }
        const Rgb c = kDepthColors[depth % (sizeof(kDepthColors) / sizeof(kDepthColors[0]))];
        setColor(renderer, c, leaf ? 110 : 200);
        // The 12 edges: corners differing in one bit.
        for (int k = 0; k < 8; ++k) {
            for (int bit = 1; bit < 8; bit <<= 1) {
                if ((k & bit) == 0)
                    SDL_RenderDrawLineF(renderer, corner[k].x, corner[k].y, corner[k | bit].x,
                                        corner[k | bit].y);
            }
        }
    };
    if (mesh.wide_node_count == 0 || max_depth < 0) return;
    draw_box(mesh.bounds, 0, false);
    m_node_depth.assign(mesh.wide_node_count, 0u);
    for (std::uint32_t i = 0; i < mesh.wide_node_count; ++i) {
        const WideNode& n = mesh.wide_nodes[i];
        const std::uint32_t depth = m_node_depth[i] + 1u;
        for (std::uint32_t c = 0; c < wideCount(n); ++c) {
            const BvhNode child = wideChildNode(n, c);
            if (!isLeaf(child)) m_node_depth[child.info] = depth;
            if (depth > static_cast<std::uint32_t>(max_depth)) continue;
            Aabb box;
            nodeBounds(mesh, child, box);
            draw_box(box, depth, isLeaf(child));
        }
    }
}

void SceneDraw::drawTree(SDL_Renderer* renderer, const Camera& camera, const DynamicTree& tree, Rgb c) {
    if (tree.proxyCount() == 0) return;
    const TreeNode* nodes = tree.nodes();
    for (int pass = 0; pass < 2; ++pass) {
        // Internal nodes dim first, leaves (tight boxes) bright on top.
        m_frects.clear();
        for (std::uint32_t slot = 0; slot < tree.nodeSlots(); ++slot) {
            if (slot == 1 || nodes[slot].parent == kTreeFreeNode) continue;
            if (isLeaf(nodes[slot]) != (pass == 1)) continue;
            const Aabb& b = nodes[slot].box;
            const float x0 = camera.toScreenX(b.min.x), x1 = camera.toScreenX(b.max.x);
            const float y0 = camera.toScreenY(b.max.y), y1 = camera.toScreenY(b.min.y);
            m_frects.push_back(SDL_FRect{x0, y0, std::max(1.0f, x1 - x0), std::max(1.0f, y1 - y0)});
        }
        setColor(renderer, c, pass == 0 ? 90 : 220);
        if (!m_frects.empty())
            SDL_RenderDrawRectsF(renderer, m_frects.data(), static_cast<int>(m_frects.size()));
    }
}

void SceneDraw::drawHulls(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                          const World& world) {
    // Asteroids, then the ships (enemies in the scene's mesh order, then players).
    const scenes::SceneAssets& assets = scene.assets();
    for (std::size_t i = 0; i < assets.level_meshes.size(); ++i) {
        addMesh(assets.level_meshes[i]->mesh, assets.level_placements[i], palette::kLevel, camera);
    }
    for (const scenes::ScriptedShip& ship : scene.ships()) {
        Transform t;
        if (world.getShipTransform(ship.id, t) != Status::Ok) continue;
        if (ship.player) {
            addMesh(assets.player_mesh->mesh, t, palette::kPlayer, camera);
        } else {
            addMesh(assets.enemy_meshes[ship.mesh]->mesh, t, palette::kEnemy, camera);
        }
    }
    flushGeometry(renderer);
}

void SceneDraw::drawClusters(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                             const World& world) {
    // The players' sphere clusters: the circle each sphere makes in the play plane.
    setColor(renderer, palette::kCluster, 200);
    for (const scenes::ScriptedShip& ship : scene.ships()) {
        Transform t;
        if (!ship.player || world.getShipTransform(ship.id, t) != Status::Ok) continue;
        const SphereCluster& cluster = scene.assets().player_cluster;
        for (std::uint32_t s = 0; s < cluster.count; ++s) {
            Vec3 c;
            transformPoint(t, cluster.spheres[s].center, c);
            drawCircle(renderer, camera.toScreenX(c.x), camera.toScreenY(c.y),
                       cluster.spheres[s].radius * camera.scale, 20);
        }
    }
}

void SceneDraw::drawBullets(SDL_Renderer* renderer, const Camera& camera,
                            const std::vector<BulletView>& bullets) {
    // Bullets: a short streak behind each, then the ball.
    const float streak = 1.0f / 120.0f;
    for (const BulletView& b : bullets) {
        const float x = camera.toScreenX(b.sphere.center.x), y = camera.toScreenY(b.sphere.center.y);
        const float tx = camera.toScreenX(b.sphere.center.x - b.velocity.x * streak);
        const float ty = camera.toScreenY(b.sphere.center.y - b.velocity.y * streak);
        const float r = std::max(1.5f, b.sphere.radius * camera.scale);
        addThickLine(tx, ty, x, y, r, color(palette::kBullet, 70));
        addDisc(x, y, r, color(palette::kBullet), r > 3.0f ? 10 : 6);
    }
    flushGeometry(renderer);
}

// One beam: dim over its whole length, bright (a halo and a core) up to the distance hit_t along it
// (all of it when hit_t < 0).
void SceneDraw::addBeam(const Camera& camera, const BeamView& beam, float hit_t) {
    float along = 0.0f;
    for (std::uint32_t i = 0; i + 1 < beam.count; ++i) {
        const Vec3& p = beam.points[i];
        const Vec3& q = beam.points[i + 1];
        const float len = std::sqrt(distanceSq(p, q));
        const float x0 = camera.toScreenX(p.x), y0 = camera.toScreenY(p.y);
        float x1 = camera.toScreenX(q.x), y1 = camera.toScreenY(q.y);
        const bool lit = hit_t < 0.0f || along < hit_t;
        addThickLine(x0, y0, x1, y1, 3.0f, color(palette::kBeam, lit ? 255 : 60));
        if (lit) {
            if (hit_t >= 0.0f && along + len > hit_t && len > 0.0f) {
                const float f = (hit_t - along) / len;
                x1 = x0 + (x1 - x0) * f;
                y1 = y0 + (y1 - y0) * f;
            }
            addThickLine(x0, y0, x1, y1, 9.0f, color(palette::kBeam, 60));
            addThickLine(x0, y0, x1, y1, 1.5f, color(palette::kBeamCore));
        }
        along += len;
    }
}

void SceneDraw::drawBeams(SDL_Renderer* renderer, const Camera& camera, const World& world,
                          const std::vector<BeamView>& beams) {
    // Beams: dim over their whole length, bright up to their first hit.
    for (const BeamView& beam : beams) {
        if (beam.count < 2) continue;
        addBeam(camera, beam, beamHitT(world, beam.id));
    }
    flushGeometry(renderer);
}

void SceneDraw::drawDebugBoxes(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                               const World& world, const DrawOptions& options) {
    const std::vector<scenes::ScriptedShip>& ships = scene.ships();
    if (options.bvh && options.selected < ships.size()) {
        const scenes::ScriptedShip& ship = ships[options.selected];
        Transform t;
        if (world.getShipTransform(ship.id, t) == Status::Ok)
            drawBvh(renderer, camera, shipMesh(scene.assets(), ship), t, options.bvh_depth);
    }
    if (options.tree) {
        if (world.staticTree() != nullptr)
            drawTree(renderer, camera, *world.staticTree(), palette::kTreeStatic);
        if (world.movingTree() != nullptr)
            drawTree(renderer, camera, *world.movingTree(), palette::kTreeMoving);
    }
}

void SceneDraw::drawShipRings(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                              const World& world, const DrawOptions& options) {
    // A ring around the selected ship, and a small hexagon on the player-controlled one.
    const std::vector<scenes::ScriptedShip>& ships = scene.ships();
    if (options.highlight && options.selected < ships.size()) {
        Transform t;
        if (world.getShipTransform(ships[options.selected].id, t) == Status::Ok) {
            setColor(renderer, palette::kSelected, 160);
            drawCircle(renderer, camera.toScreenX(t.translation.x), camera.toScreenY(t.translation.y),
                       5.0f * camera.scale, 40);
        }
    }
    if (options.controlled >= 0 && static_cast<std::size_t>(options.controlled) < ships.size()) {
        Transform t;
        if (world.getShipTransform(ships[static_cast<std::size_t>(options.controlled)].id, t) == Status::Ok) {
            setColor(renderer, palette::kPlayer, 200);
            drawCircle(renderer, camera.toScreenX(t.translation.x), camera.toScreenY(t.translation.y),
                       4.5f * camera.scale, 6);
        }
    }
}

void SceneDraw::drawHitFlashes(SDL_Renderer* renderer, const Camera& camera,
                               const std::vector<HitFlash>& flashes) {
    // Older flashes fading first, then this frame's normals.
    const float half = static_cast<float>(hitMarkerHalf(camera.scale));
    const int normal_pixels = hitNormalPixels(camera.scale);
    for (int pass = 0; pass < 2; ++pass) {
        for (const HitFlash& f : flashes) {
            if ((pass == 0) != (f.age > 0)) continue;
            const Hit& h = f.hit;
            const float x = camera.toScreenX(h.point.x), y = camera.toScreenY(h.point.y);
            const float fade = 1.0f - static_cast<float>(f.age) / static_cast<float>(kHitFlashFrames);
            const std::uint8_t alpha = static_cast<std::uint8_t>(std::clamp(fade, 0.0f, 1.0f) * 255.0f);
            const Rgb c = hitColor(h.kind);
            float nx, ny, reach;
            hitNormalOnScreen(h, normal_pixels, nx, ny, reach);
            if (pass == 0) {
                addThickLine(x, y, x + nx * reach, y - ny * reach, 1.5f, color(c, alpha));
                addDisc(x, y, half * (0.75f + 1.5f * (1.0f - fade)),
                        color(c, static_cast<std::uint8_t>(alpha / 2)), 10);
            } else {
                addThickLine(x, y, x + nx * reach, y - ny * reach, 2.5f, color(c));
                addDisc(x + nx * reach, y - ny * reach, 2.5f, color(c), 8);
            }
        }
        flushGeometry(renderer);
    }
}

void SceneDraw::drawHitMarkers(SDL_Renderer* renderer, const Camera& camera,
                               const std::vector<HitFlash>& flashes) {
    // This frame's markers on top, dark frames first, so no frame covers another hit's marker.
    const float half = static_cast<float>(hitMarkerHalf(camera.scale));
    m_frects.clear();
    for (const HitFlash& f : flashes) {
        if (f.age > 0) continue;
        const float x = std::floor(camera.toScreenX(f.hit.point.x)),
                    y = std::floor(camera.toScreenY(f.hit.point.y));
        m_frects.push_back(
            SDL_FRect{x - half - 2.0f, y - half - 2.0f, 2.0f * half + 5.0f, 2.0f * half + 5.0f});
    }
    setColor(renderer, palette::kBackground);
    if (!m_frects.empty()) SDL_RenderDrawRectsF(renderer, m_frects.data(), static_cast<int>(m_frects.size()));
    for (const HitFlash& f : flashes) {
        if (f.age > 0) continue;
        const float x = std::floor(camera.toScreenX(f.hit.point.x)),
                    y = std::floor(camera.toScreenY(f.hit.point.y));
        const SDL_FRect marker{x - half, y - half, 2.0f * half + 1.0f, 2.0f * half + 1.0f};
        setColor(renderer, hitColor(f.hit.kind));
        SDL_RenderFillRectF(renderer, &marker);
    }
}

void SceneDraw::draw(SDL_Renderer* renderer, const Camera& camera, const scenes::Scene& scene,
                     const World& world, const std::vector<BulletView>& bullets,
                     const std::vector<BeamView>& beams, const std::vector<HitFlash>& flashes,
                     const DrawOptions& options) {
    int width = 0, height = 0;
    SDL_GetRendererOutputSize(renderer, &width, &height);
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    setColor(renderer, palette::kBackground);
    SDL_RenderClear(renderer);

    drawArenaFrame(renderer, camera, scene.params());
    drawWalls(renderer, camera, scene.assets().walls, width, height);
    drawHulls(renderer, camera, scene, world);
    drawClusters(renderer, camera, scene, world);
    drawBullets(renderer, camera, bullets);
    drawBeams(renderer, camera, world, beams);
    drawDebugBoxes(renderer, camera, scene, world, options);
    drawShipRings(renderer, camera, scene, world, options);
    // Hit flashes: older ones fading first, then this frame's normals, then its markers on top
    // (dark frames first, so no frame covers another hit's marker).
    drawHitFlashes(renderer, camera, flashes);
    drawHitMarkers(renderer, camera, flashes);
}

void SceneDraw::drawBlob(SDL_Renderer* renderer, const Camera& camera, const MeshBlob* mesh,
                         const WallSet* walls, const SphereCluster* cluster, int bvh_depth) {
    int width = 0, height = 0;
    SDL_GetRendererOutputSize(renderer, &width, &height);
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    setColor(renderer, palette::kBackground);
    SDL_RenderClear(renderer);
    Transform identity;
    setIdentity(identity);
    if (walls != nullptr) drawWalls(renderer, camera, *walls, width, height);
    if (mesh != nullptr && mesh->triangle_count > 0) {
        addMesh(*mesh, identity, palette::kEnemy, camera);
        flushGeometry(renderer);
        if (bvh_depth >= 0) drawBvh(renderer, camera, *mesh, identity, bvh_depth);
    }
    if (cluster != nullptr) {
        setColor(renderer, palette::kCluster, 200);
        for (std::uint32_t s = 0; s < cluster->count; ++s) {
            const Sphere& sphere = cluster->spheres[s];
            drawCircle(renderer, camera.toScreenX(sphere.center.x), camera.toScreenY(sphere.center.y),
                       sphere.radius * camera.scale, 20);
        }
    }
}

void collectBullets(const World& world, std::vector<BulletView>& out) {
    out.clear();
    const std::uint32_t slots = world.poolUsage(BodyKind::Bullet).capacity;
    for (std::uint32_t i = 0; i < slots; ++i) {
        const BodyId id = world.bodyAt(BodyKind::Bullet, i);
        BulletDesc bullet;
        if (!id.isNull() && world.getBullet(id, bullet) == Status::Ok)
            out.push_back(BulletView{bullet.sphere, bullet.velocity});
    }
}

} // namespace flak::sample

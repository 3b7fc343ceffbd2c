// The shooter sample's headless screenshot shows the scene it claims to: the sample runs once
// under xvfb-run (--headless --frames N --screenshot), then this test plays the same scene and
// seed itself (the sample adds nothing without input) and checks the picture at the places it
// now knows: wall interiors in the wall colour, hull pixels in the hull colours, each hit of the
// last step under a hit marker, the normals drawn, and the colour counts of the whole picture.
#include "flak_support/host_block.h"
#include "flak_support/png_io.h"
#include "flak_support/shooter_view.h"

#include "scene.h"

#include <flak/shooter/wall_set.h>
#include <flak/world/world.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <sys/wait.h>

namespace {

using namespace flak;
using namespace flak::sample;

constexpr const char* kScene = "skirmish";
constexpr std::uint64_t kSeed = 1;
constexpr std::uint32_t kFrames = 90;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;

bool near(std::uint32_t c, Rgb ref, int tolerance = 3) {
    return std::abs(static_cast<int>(red(c)) - red(ref)) <= tolerance &&
           std::abs(static_cast<int>(green(c)) - green(ref)) <= tolerance &&
           std::abs(static_cast<int>(blue(c)) - blue(ref)) <= tolerance;
}

// Hull shading multiplies the base colour by 0.45..1: the dominant channel stays dominant.
bool enemyColour(std::uint32_t c) {
    const int r = red(c), g = green(c), b = blue(c);
    return r >= 90 && r > 2 * g && r > 2 * b;
}
bool playerColour(std::uint32_t c) {
    const int r = red(c), g = green(c), b = blue(c);
    return g >= 90 && g > r + r / 2 && g > b + b / 3;
}
bool clusterColour(std::uint32_t c) { // the sphere-cluster circles, blended over whatever is below
    const int r = red(c), g = green(c), b = blue(c);
    return r >= 150 && g >= 150 && b < r - 40;
}
bool hitColour(std::uint32_t c) {
    return near(c, palette::kHitBullet) || near(c, palette::kHitBeam) || near(c, palette::kHitShipShip) ||
           near(c, palette::kHitShipWall);
}
bool inOverlay(int x, int y) {
    return x >= kOverlayX - 2 && x < kOverlayX + kOverlayWidth + 2 && y >= kOverlayY - 2 &&
           y < kOverlayY + kOverlayHeight + 2;
}

float segmentDistance(const Vec2& p, const Vec2& a, const Vec2& b) {
    Vec2 ab, ap;
    sub(b, a, ab);
    sub(p, a, ap);
    const float len2 = lengthSq(ab);
    const float t = len2 > 0.0f ? std::clamp(dot(ap, ab) / len2, 0.0f, 1.0f) : 0.0f;
    Vec2 q;
    addScaled(a, ab, t, q);
    Vec2 d;
    sub(p, q, d);
    return length(d);
}

float wallDistance(const WallSet& walls, const Vec2& p) {
    float best = 1e30f;
    for (std::uint32_t e = 0; e < walls.point_count; ++e) {
        Vec2 a, b;
        wallEdgePoints(walls, e, a, b);
        best = std::min(best, segmentDistance(p, a, b));
    }
    return best;
}

// The sample's run and the same scene played here.
struct Shared {
    int exit_code = -1;
    std::string output;
    std::string png_path;
    RgbImage image;
    std::string png_error;
    scenes::Scene scene;
    flak::support::HostBlock block;
    World world;
    std::vector<Transform> ship_transforms;
    std::string scene_error;
};

Shared* g_shared = nullptr;

// Runs a shell command; its exit status, and its output appended to `out`.
int run(const std::string& command, std::string& out) {
    std::printf("running: %s\n", command.c_str());
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return -1;
    char line[512];
    while (std::fgets(line, sizeof(line), pipe) != nullptr) out += line;
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class ShooterScreenshot : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        g_shared = new Shared;
        Shared& s = *g_shared;
        s.png_path = std::string(FLAK_SHOOTER_OUT_DIR) + "/shooter_headless.png";
        std::remove(s.png_path.c_str());
        const std::string args = std::string(" --headless --scene ") + kScene + " --seed " +
                                 std::to_string(kSeed) + " --frames " + std::to_string(kFrames) + " --size " +
                                 std::to_string(kWidth) + "x" + std::to_string(kHeight) + " --screenshot \"" +
                                 s.png_path + "\" 2>&1";
        const std::string screen =
            "-screen 0 " + std::to_string(kWidth) + "x" + std::to_string(kHeight) + "x24";
        // In the sanitize build, leaks inside system libraries at exit are not the sample's.
        const std::string env = "LSAN_OPTIONS=suppressions=\"" FLAK_LSAN_SUPPRESSIONS "\" ";
        s.exit_code = run(
            env + "\"" FLAK_XVFB_RUN "\" -a -s \"" + screen + "\" \"" FLAK_SHOOTER_EXE "\"" + args, s.output);
        if (s.exit_code != 0) {
            // Xvfb may be unable to start here (no xauth, no sockets). The sample needs no display
            // when headless, so check its picture anyway, drawn with SDL's dummy video driver.
            std::printf("warning: the run under xvfb-run failed (exit %d):\n%s"
                        "running the sample again with SDL_VIDEODRIVER=dummy\n",
                        s.exit_code, s.output.c_str());
            s.output.clear();
            s.exit_code = run(env + "SDL_VIDEODRIVER=dummy \"" FLAK_SHOOTER_EXE "\"" + args, s.output);
        }
        std::printf("%s", s.output.c_str());
        if (!readPng(s.png_path, s.image, s.png_error)) s.image = RgbImage{};

        // The same scene, frame for frame, as the sample plays it without input.
        scenes::SceneParams params;
        if (!scenes::sceneParams(kScene, params) || !s.scene.build(kScene, params, kSeed, s.scene_error))
            return;
        const WorldConfig config = s.scene.worldConfig();
        const std::size_t bytes = World::requiredBytes(config);
        s.block.reset(bytes, World::kAlignment);
        void* memory = s.block.data();
        if (s.world.init(memory, bytes, config) != Status::Ok || !s.scene.setup(s.world, s.scene_error)) {
            s.scene_error += " (world setup failed)";
            return;
        }
        for (std::uint32_t f = 0; f < kFrames; ++f) {
            s.scene.update(s.world, f);
            (void)s.world.step(s.scene.dt());
        }
        for (const scenes::ScriptedShip& ship : s.scene.ships()) {
            Transform t;
            EXPECT_EQ(s.world.getShipTransform(ship.id, t), Status::Ok);
            s.ship_transforms.push_back(t);
        }
    }
    static void TearDownTestSuite() {
        delete g_shared;
        g_shared = nullptr;
    }
    void SetUp() override {
        ASSERT_EQ(g_shared->exit_code, 0) << g_shared->output;
        ASSERT_EQ(g_shared->image.width, kWidth) << g_shared->png_error;
        ASSERT_EQ(g_shared->image.height, kHeight);
        ASSERT_TRUE(g_shared->scene_error.empty()) << g_shared->scene_error;
        camera = Camera::fit(g_shared->scene.params().arena_half_x, g_shared->scene.params().arena_half_y,
                             kArenaMargin, kWidth, kHeight);
    }
    const RgbImage& image() const { return g_shared->image; }
    bool onScreen(float sx, float sy) const {
        const int x = static_cast<int>(std::floor(sx)), y = static_cast<int>(std::floor(sy));
        return x >= 0 && y >= 0 && x < kWidth && y < kHeight && !inOverlay(x, y);
    }
    std::uint32_t pixelAt(float sx, float sy) const {
        return image().at(static_cast<int>(std::floor(sx)), static_cast<int>(std::floor(sy)));
    }
    Camera camera;
};

// --view: a user's level file, baked in memory and drawn from above where it lies: the arena's
// one-unit wall and its crate (a 2 x 2 square at (3..5, 3..5)) in the wall colour, the floor
// between them not.
TEST(ShooterView, ALevelFileIsDrawnWhereItsWallsAre) {
    const int w = 640, h = 400;
    const std::string png = std::string(FLAK_SHOOTER_OUT_DIR) + "/shooter_view.png";
    std::remove(png.c_str());
    const std::string args = " --view \"" FLAK_VIEW_LEVEL "\" --headless --size " + std::to_string(w) + "x" +
                             std::to_string(h) + " --screenshot \"" + png + "\" 2>&1";
    const std::string env = "LSAN_OPTIONS=suppressions=\"" FLAK_LSAN_SUPPRESSIONS "\" ";
    std::string out;
    if (run(env + "SDL_VIDEODRIVER=dummy \"" FLAK_SHOOTER_EXE "\"" + args, out) != 0) {
        ADD_FAILURE() << out;
        return;
    }
    EXPECT_NE(out.find("2 wall polygons"), std::string::npos) << out;
    RgbImage image;
    std::string error;
    ASSERT_TRUE(readPng(png, image, error)) << error;
    const Camera view = Camera::fit(10.0f, 10.0f, kArenaMargin, w, h);
    const auto at = [&](float x, float y) {
        return image.at(static_cast<int>(view.toScreenX(x)), static_cast<int>(view.toScreenY(y)));
    };
    EXPECT_TRUE(near(at(4.0f, 4.0f), palette::kWallFill, 2));  // the crate
    EXPECT_TRUE(near(at(-9.5f, 0.0f), palette::kWallFill, 2)); // the arena's wall
    EXPECT_TRUE(near(at(9.5f, -5.0f), palette::kWallFill, 2));
    EXPECT_FALSE(near(at(0.0f, -4.0f), palette::kWallFill, 2)); // the floor
    EXPECT_FALSE(near(at(6.0f, 4.0f), palette::kWallFill, 2));
}

TEST_F(ShooterScreenshot, TheSampleShowsTheSameWorld) {
    // The sample prints its hit-stream hash: the world it drew is the one replayed here.
    char expected[64];
    std::snprintf(expected, sizeof(expected), "hash %016" PRIx64, g_shared->world.hitStreamHash());
    EXPECT_NE(g_shared->output.find(expected), std::string::npos)
        << g_shared->output << "\nexpected " << expected;
    char hits[64];
    std::snprintf(hits, sizeof(hits), "hits %u ", g_shared->world.hitCount());
    EXPECT_NE(g_shared->output.find(hits), std::string::npos) << g_shared->output;
}

TEST_F(ShooterScreenshot, IsNotBlank) {
    std::map<std::uint32_t, std::size_t> histogram;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) ++histogram[image().at(x, y)];
    const std::size_t total = static_cast<std::size_t>(kWidth) * kHeight;
    const std::size_t background = histogram[palette::kBackground];
    std::printf("%zu distinct colours, %.1f%% background\n", histogram.size(),
                100.0 * static_cast<double>(background) / static_cast<double>(total));
    EXPECT_GT(histogram.size(), 100u);
    EXPECT_LT(background, total * 85 / 100);
    EXPECT_GT(background, total * 20 / 100); // and not filled over with one colour either
}

TEST_F(ShooterScreenshot, WallsFillTheirInteriorsOnly) {
    // A grid of pixel centres, each classified by the wall set itself; pixels near an edge (the
    // outline, rounding) are left out.
    const WallSet& walls = g_shared->scene.assets().walls;
    ASSERT_GT(walls.point_count, 0u);
    const float margin = 3.0f / camera.scale;
    int inside = 0, inside_ok = 0, outside = 0, outside_bad = 0;
    for (int y = 2; y < kHeight; y += 7) {
        for (int x = 2; x < kWidth; x += 7) {
            if (inOverlay(x, y)) continue;
            const Vec2 p{camera.toWorldX(static_cast<float>(x) + 0.5f),
                         camera.toWorldY(static_cast<float>(y) + 0.5f)};
            if (wallDistance(walls, p) < margin) continue;
            const std::uint32_t c = image().at(x, y);
            if (pointInWalls(walls, p)) {
                ++inside;
                inside_ok += near(c, palette::kWallFill, 2) ? 1 : 0;
            } else {
                ++outside;
                outside_bad += near(c, palette::kWallFill, 2) ? 1 : 0;
            }
        }
    }
    std::printf("wall interior samples %d (%d in the wall colour), outside %d (%d in the wall colour)\n",
                inside, inside_ok, outside, outside_bad);
    ASSERT_GT(inside, 300);
    // Bullets, beams, hit flashes and hulls over a wall hide a few.
    EXPECT_GE(inside_ok, inside * 90 / 100);
    EXPECT_LE(outside_bad, outside / 200);
}

TEST_F(ShooterScreenshot, HullsAreWhereTheShipsAre) {
    // Sample points on each ship's up-facing triangles (centroids, where the triangle is clearly
    // facing the viewer), placed by the ship's transform at the last frame.
    const scenes::SceneAssets& assets = g_shared->scene.assets();
    const std::vector<scenes::ScriptedShip>& ships = g_shared->scene.ships();
    std::size_t enemy_index = 0;
    int ships_checked = 0, enemy_ships_ok = 0, enemy_ships = 0, player_ships_ok = 0, player_ships = 0;
    for (std::size_t i = 0; i < ships.size(); ++i) {
        const MeshBlob& mesh = ships[i].player
                                   ? assets.player_mesh->mesh
                                   : assets.enemy_meshes[enemy_index++ % assets.enemy_meshes.size()]->mesh;
        const Transform& t = g_shared->ship_transforms[i];
        int samples = 0, ok = 0;
        for (std::uint32_t tri = 0; tri < mesh.triangle_count; tri += 3) {
            Vec3 a, b, c, ab, ac, n, centroid, w;
            triangleVertices(mesh, tri, a, b, c);
            sub(b, a, ab);
            sub(c, a, ac);
            cross(ab, ac, n);
            transformVector(t, n, n);
            if (!normalize(n, n) || n.z < 0.6f) continue;
            set((a.x + b.x + c.x) / 3.0f, (a.y + b.y + c.y) / 3.0f, (a.z + b.z + c.z) / 3.0f, centroid);
            transformPoint(t, centroid, w);
            const float sx = camera.toScreenX(w.x), sy = camera.toScreenY(w.y);
            if (!onScreen(sx, sy)) continue;
            const std::uint32_t px = pixelAt(sx, sy);
            ++samples;
            ok += ships[i].player ? (playerColour(px) || clusterColour(px)) : enemyColour(px);
        }
        if (samples < 5) continue; // under the overlay or off screen
        ++ships_checked;
        const bool good = ok >= samples * 60 / 100;
        std::printf("%s ship %zu: %d of %d hull samples in its colour\n",
                    ships[i].player ? "player" : "enemy", i, ok, samples);
        if (ships[i].player) {
            ++player_ships;
            player_ships_ok += good ? 1 : 0;
        } else {
            ++enemy_ships;
            enemy_ships_ok += good ? 1 : 0;
        }
    }
    EXPECT_GE(enemy_ships, 5);
    EXPECT_EQ(enemy_ships_ok, enemy_ships);
    EXPECT_EQ(player_ships_ok, player_ships);
    EXPECT_GE(ships_checked, 6);
}

TEST_F(ShooterScreenshot, EveryHitOfTheLastStepIsMarkedWithItsNormal) {
    const World& world = g_shared->world;
    const Hit* hits = world.hits();
    int visible = 0, marked = 0, own_colour = 0, normals = 0, normals_drawn = 0;
    for (std::uint32_t i = 0; i < world.hitCount(); ++i) {
        const float sx = camera.toScreenX(hits[i].point.x), sy = camera.toScreenY(hits[i].point.y);
        if (!onScreen(sx, sy)) continue;
        ++visible;
        const std::uint32_t c = pixelAt(sx, sy);
        marked += hitColour(c) ? 1 : 0;
        own_colour += near(c, hitColor(hits[i].kind)) ? 1 : 0;
        // Along the normal, past the marker: the normal's line in a hit colour.
        const float nlen =
            std::sqrt(hits[i].normal.x * hits[i].normal.x + hits[i].normal.y * hits[i].normal.y);
        if (nlen > 0.7f) {
            const int half = hitMarkerHalf(camera.scale);
            const float d =
                static_cast<float>(half) + 0.6f * static_cast<float>(hitNormalPixels(camera.scale) - half);
            const float nx = sx + hits[i].normal.x / nlen * d, ny = sy - hits[i].normal.y / nlen * d;
            if (onScreen(nx, ny)) {
                ++normals;
                normals_drawn += hitColour(pixelAt(nx, ny)) ? 1 : 0;
            }
        }
    }
    std::printf("hits %u, on screen %d, marked %d (%d in their kind's colour), normals %d drawn of %d\n",
                world.hitCount(), visible, marked, own_colour, normals_drawn, normals);
    ASSERT_GE(visible, 3) << "the chosen frame should show hits";
    EXPECT_EQ(marked, visible);
    EXPECT_GE(own_colour, visible * 75 / 100); // markers of nearby hits of other kinds may overlap
    EXPECT_GE(normals_drawn, normals * 75 / 100);
}

TEST_F(ShooterScreenshot, ColourCountsMatchTheScene) {
    std::size_t wall = 0, enemy = 0, player = 0, hit = 0, bullet = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            if (inOverlay(x, y)) continue;
            const std::uint32_t c = image().at(x, y);
            wall += near(c, palette::kWallFill, 2) ? 1 : 0;
            enemy += enemyColour(c) ? 1 : 0;
            player += playerColour(c) ? 1 : 0;
            hit += hitColour(c) ? 1 : 0;
            bullet += near(c, palette::kBullet, 2) ? 1 : 0;
        }
    }
    std::printf("pixels: wall %zu, enemy hull %zu, player hull %zu, hit markers %zu, bullets %zu\n", wall,
                enemy, player, hit, bullet);
    const double px_per_unit2 = static_cast<double>(camera.scale) * camera.scale;
    // 24 wall polygons of a few tens of square units each; 8 enemies of ~10 square units.
    EXPECT_GT(static_cast<double>(wall), 24 * 15 * px_per_unit2 * 0.5);
    EXPECT_GT(static_cast<double>(enemy), 6 * 8 * px_per_unit2 * 0.5);
    EXPECT_GT(player, 20u);
    const std::size_t side = static_cast<std::size_t>(2 * hitMarkerHalf(camera.scale) + 1);
    const std::size_t marker = side * side;
    EXPECT_GE(hit, marker * 2);
    EXPECT_GT(bullet, 50u);
}

} // namespace

// The sample's file viewer: reads a blob (or bakes a .walls level file in memory with the baking
// library), loads every section it has, fits the camera to it and draws it with SceneDraw.
#include "file_view.h"

#include "bitmap_font.h"
#include "draw_color.h"
#include "scene_draw.h"

#include "flak_support/png_io.h"
#include "flak_support/shooter_view.h"

#include "blob_inspect.h"
#include "blob_write.h"
#include "wall_build.h"

#include <flak/bvh/mesh_blob.h>
#include <flak/shooter/sphere_cluster.h>
#include <flak/shooter/wall_set.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

namespace flak::sample {

namespace {

// The blob's bytes: the file itself, or a .walls/.level file baked into a wall-only blob.
bool blobBytes(const std::string& path, std::vector<unsigned char>& out, std::string& error) {
    if (bake::isLevelFile(path)) {
        std::vector<bake::WallPolygon> polygons;
        bake::WriteOptions options;
        options.mesh = false;
        if (bake::BakeError e = bake::readLevelFile(path, polygons); e.failed()) {
            error = e.message;
            return false;
        }
        if (bake::BakeError e = bake::buildWallSection(polygons, bake::WallBuildOptions{}, options.walls);
            e.failed()) {
            error = path + ": " + e.message;
            return false;
        }
        if (bake::BakeError e = bake::writeBlob(bake::SourceMesh{}, bake::BuiltTree{}, options, out);
            e.failed()) {
            error = path + ": " + e.message;
            return false;
        }
        return true;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read " + path;
        return false;
    }
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

} // namespace

int runFileView(platform::SdlApp& app, const std::string& path, const std::string& screenshot, bool headless,
                std::string& error) {
    std::vector<unsigned char> bytes;
    if (!blobBytes(path, bytes, error)) return 1;
    std::vector<unsigned char> storage(bytes.size() + 16);
    const std::size_t shift = (16 - reinterpret_cast<std::uintptr_t>(storage.data()) % 16) % 16;
    std::copy(bytes.begin(), bytes.end(), storage.begin() + static_cast<std::ptrdiff_t>(shift));
    Blob whole;
    MeshBlob blob; // empty when the blob has no mesh (walls or a cluster only)
    BlobError blob_error;
    Status status = openBlob(storage.data() + shift, bytes.size(), whole, &blob_error);
    if (status == Status::Ok) status = bake::loadOptionalMesh(whole, blob, &blob_error);
    if (status != Status::Ok) {
        error = path + " does not load: " + statusName(status) + " (" + blob_error.what + ")";
        return 1;
    }
    WallSet walls;
    SphereCluster cluster;
    const bool has_walls = loadWallSet(whole, walls) == Status::Ok;
    const bool has_cluster = loadSphereCluster(whole, cluster) == Status::Ok;
    // The camera: the whole blob, about the world origin (where it was baked).
    float half_x = 1.0f, half_y = 1.0f;
    if (blob.triangle_count > 0) {
        half_x = std::max({half_x, std::fabs(blob.bounds.min.x), std::fabs(blob.bounds.max.x)});
        half_y = std::max({half_y, std::fabs(blob.bounds.min.y), std::fabs(blob.bounds.max.y)});
    }
    if (has_walls) {
        half_x = std::max({half_x, std::fabs(walls.bounds_min.x), std::fabs(walls.bounds_max.x)});
        half_y = std::max({half_y, std::fabs(walls.bounds_min.y), std::fabs(walls.bounds_max.y)});
    }
    SceneDraw drawer;
    int bvh_depth = -1; // B shows the boxes, [ and ] choose the depth
    const std::size_t slash = path.find_last_of('/');
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::string summary = name + ": " + std::to_string(blob.triangle_count) + " TRIANGLES, " +
                                std::to_string(blob.wide_node_count) + " NODES, " +
                                (has_walls ? std::to_string(walls.polygon_count) + " WALL POLYGONS, " : "") +
                                (has_cluster ? std::to_string(cluster.count) + " CLUSTER SPHERES" : "");
    std::printf("flak_shooter: view %s (%u triangles, %u nodes, %u wall polygons, %u cluster spheres)\n",
                path.c_str(), blob.triangle_count, blob.wide_node_count, has_walls ? walls.polygon_count : 0u,
                has_cluster ? cluster.count : 0u);
    for (;;) {
        platform::InputState input;
        app.pollInput(input);
        if (input.quit) return 0;
        for (SDL_Keycode key : input.pressed_keys) {
            if (key == SDLK_ESCAPE) return 0;
            if (key == SDLK_b) bvh_depth = bvh_depth < 0 ? 4 : -1;
            if (key == SDLK_LEFTBRACKET && bvh_depth > 0) --bvh_depth;
            if (key == SDLK_RIGHTBRACKET && bvh_depth >= 0) bvh_depth = std::min(40, bvh_depth + 1);
        }
        const Camera camera = Camera::fit(half_x, half_y, kArenaMargin, app.width(), app.height());
        drawer.drawBlob(app.renderer(), camera, blob.triangle_count > 0 ? &blob : nullptr,
                        has_walls ? &walls : nullptr, has_cluster ? &cluster : nullptr, bvh_depth);
        setColor(app.renderer(), palette::kOverlayText);
        drawText(app.renderer(), summary, 12, 12, 2);
        drawText(app.renderer(), "B: BVH BOXES  [ ]: DEPTH  ESC: QUIT", 12, 36, 2);
        app.present();
        if (headless) {
            RgbImage image;
            if (!app.readPixels(image.rgb, error)) return 1;
            image.width = app.width();
            image.height = app.height();
            return writePng(screenshot, image, error) ? 0 : 1;
        }
    }
}

} // namespace flak::sample

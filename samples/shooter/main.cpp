// flak_shooter: the SDL2 shooter sample. Plays a scripted scene (the frame-budget runner's) from
// above and lets the player drive ship 0 and beam 0; shows hits with their normals, per-phase
// timings, pool usage, dropped work, and the BVH and broad-phase boxes on demand.
//
//   flak_shooter [--scene NAME] [--seed S] [--size WxH] [--frames N] [--bvh] [--tree] [--no-overlay]
//                [--no-vsync] [--screenshot FILE.png]
//   flak_shooter --headless [--frames N] --screenshot FILE.png [...]
//
// Headless: no window and no input; the scene's script alone drives N frames (default 120) and
// the last one is drawn by SDL's software renderer into FILE.png. Same scene and seed, same
// picture (timings in the overlay aside).
#include "flak_support/host_block.h"
#include "flak_support/png_io.h"
#include "flak_support/shooter_view.h"
#include "overlay.h"
#include "player_control.h"
#include "scene_draw.h"

#include "scene.h"

#include <flak/platform/sdl_app.h>
#include <flak/platform/sdl_timer.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace flak;
using namespace flak::sample;

struct Options {
    std::string scene = "skirmish";
    std::uint64_t seed = 1;
    long frames = -1;
    bool headless = false;
    std::string screenshot;
    int width = 1280;
    int height = 800;
    bool bvh = false;
    bool tree = false;
    bool overlay = true;
    bool vsync = true;
};

// Most hit flashes kept on screen (a worst-case scene makes thousands of hits a frame).
constexpr std::size_t kMaxFlashes = 20000;

// One playing scene: its world, the player's control, and what is drawn.
struct Game {
    scenes::Scene scene;
    flak::support::HostBlock block;
    World world;
    PlayerControl control;
    std::vector<BulletView> bullets;
    std::vector<HitFlash> flashes;
    std::uint32_t frame = 0;

    bool start(const std::string& name, std::uint64_t seed, std::string& error) {
        scenes::SceneParams params;
        if (!scenes::sceneParams(name, params)) {
            error = "unknown scene " + name;
            return false;
        }
        if (!scene.build(name, params, seed, error)) return false;
        WorldConfig config = scene.worldConfig();
        config.clock = platform::sdlWorldClock;
        const std::size_t bytes = World::requiredBytes(config);
        block.reset(bytes, World::kAlignment);
        void* memory = block.data();
        const Status init = world.init(memory, bytes, config);
        if (init != Status::Ok) {
            error = std::string("World::init: ") + statusName(init);
            return false;
        }
        if (!scene.setup(world, error)) return false;
        control.reset(scene);
        return true;
    }

    // One frame: the player's spent bullets, the script, the player's overrides, the step.
    void step(const platform::InputState& input, const Camera& camera) {
        control.retireBullets(world, frame);
        scene.update(world, frame);
        control.apply(world, scene, input, camera, scene.dt(), frame);
        (void)world.step(scene.dt()); // BufferFull shows in the overlay's dropped counts
        for (HitFlash& f : flashes) ++f.age;
        flashes.erase(std::remove_if(flashes.begin(), flashes.end(),
                                     [](const HitFlash& f) { return f.age >= kHitFlashFrames; }),
                      flashes.end());
        for (std::uint32_t i = 0; i < world.hitCount() && flashes.size() < kMaxFlashes; ++i) {
            flashes.push_back(HitFlash{world.hits()[i], 0});
        }
        ++frame;
        collectBullets(world, bullets);
    }

    std::vector<BeamView> beamViews() const {
        std::vector<BeamView> views;
        if (frame == 0) return views;
        const std::uint32_t count = scene.params().beam_segments + 1;
        for (std::size_t k = 0; k < scene.beams().size(); ++k) {
            BeamView v;
            v.id = scene.beams()[k];
            if (k == 0 && control.active() && !control.beamPoints().empty()) {
                v.points = control.beamPoints().data();
                v.count = static_cast<std::uint32_t>(control.beamPoints().size());
            } else {
                v.points = scene.beamPoints(k);
                v.count = count;
            }
            views.push_back(v);
        }
        return views;
    }
};

int usage(const char* message) {
    if (message != nullptr) std::fprintf(stderr, "flak_shooter: %s\n", message);
    std::fprintf(stderr,
                 "usage: flak_shooter [--scene NAME] [--seed S] [--size WxH] [--frames N] [--bvh] [--tree]\n"
                 "                    [--no-overlay] [--no-vsync] [--screenshot FILE.png]\n"
                 "       flak_shooter --headless [--frames N] --screenshot FILE.png [...]\n"
                 "scenes:");
    for (const std::string& name : scenes::sceneNames()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\ncontrols:\n%s\n", controlsText());
    return 2;
}

bool saveScreenshot(platform::SdlApp& app, const std::string& path, std::string& error) {
    RgbImage image;
    if (!app.readPixels(image.rgb, error)) return false;
    image.width = app.width();
    image.height = app.height();
    return writePng(path, image, error);
}

std::string shipName(const scenes::Scene& scene, std::size_t index) {
    const std::vector<scenes::ScriptedShip>& ships = scene.ships();
    if (index >= ships.size()) return "NONE";
    std::size_t n = 0;
    for (std::size_t i = 0; i < index; ++i) n += ships[i].player == ships[index].player ? 1u : 0u;
    return (ships[index].player ? "PLAYER " : "ENEMY ") + std::to_string(n);
}

} // namespace

int main(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char* what) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "flak_shooter: %s needs a value\n", what);
                std::exit(2);
            }
            return argv[++i];
        };
        char* end = nullptr;
        if (arg == "--scene") {
            opt.scene = value("--scene");
        } else if (arg == "--seed") {
            opt.seed = std::strtoull(value("--seed"), &end, 10);
            if (*end != '\0') return usage("--seed must be an unsigned integer");
        } else if (arg == "--frames") {
            opt.frames = std::strtol(value("--frames"), &end, 10);
            if (*end != '\0' || opt.frames < 1) return usage("--frames must be a positive integer");
        } else if (arg == "--size") {
            const char* v = value("--size");
            if (std::sscanf(v, "%dx%d", &opt.width, &opt.height) != 2) return usage("--size must be WxH");
        } else if (arg == "--headless") {
            opt.headless = true;
        } else if (arg == "--screenshot") {
            opt.screenshot = value("--screenshot");
        } else if (arg == "--bvh") {
            opt.bvh = true;
        } else if (arg == "--tree") {
            opt.tree = true;
        } else if (arg == "--no-overlay") {
            opt.overlay = false;
        } else if (arg == "--no-vsync") {
            opt.vsync = false;
        } else if (arg == "-h" || arg == "--help") {
            usage(nullptr);
            return 0;
        } else {
            return usage(("unknown argument " + arg).c_str());
        }
    }
    scenes::SceneParams check;
    if (!scenes::sceneParams(opt.scene, check)) return usage(("unknown scene " + opt.scene).c_str());
    if (opt.headless && opt.screenshot.empty()) return usage("--headless needs --screenshot FILE.png");
    if (opt.headless && opt.frames < 0) opt.frames = 120;

    platform::SdlApp app;
    platform::AppConfig config;
    config.title = "flak shooter";
    config.width = opt.width;
    config.height = opt.height;
    config.headless = opt.headless;
    config.vsync = opt.vsync;
    std::string error;
    if (!app.init(config, error)) {
        std::fprintf(stderr, "flak_shooter: %s\n", error.c_str());
        return 1;
    }

    std::fprintf(stderr, "flak_shooter: building scene \"%s\" (baking meshes, fitting the cluster)...\n",
                 opt.scene.c_str());
    auto game = std::make_unique<Game>();
    if (!game->start(opt.scene, opt.seed, error)) {
        std::fprintf(stderr, "flak_shooter: %s\n", error.c_str());
        return 1;
    }

    DrawOptions draw_options;
    draw_options.bvh = opt.bvh;
    draw_options.tree = opt.tree;
    bool overlay = opt.overlay, help = false, paused = false;
    SceneDraw drawer;
    platform::InputState input;

    float zoom = 1.0f;
    // The whole arena, or zoomed in on the driven (else the selected) ship.
    auto viewCamera = [&]() {
        const Camera whole = Camera::fit(game->scene.params().arena_half_x, game->scene.params().arena_half_y,
                                         kArenaMargin, app.width(), app.height());
        if (zoom <= 1.0f) return whole;
        const std::vector<scenes::ScriptedShip>& ships = game->scene.ships();
        const std::size_t follow = game->control.active()
                                       ? static_cast<std::size_t>(game->control.shipIndex())
                                       : draw_options.selected;
        Transform t;
        if (follow >= ships.size() || game->world.getShipTransform(ships[follow].id, t) != Status::Ok)
            return whole;
        return whole.zoomedAt(zoom, t.translation.x, t.translation.y, app.width(), app.height());
    };
    auto drawFrame = [&](double fps) {
        const Camera camera = viewCamera();
        draw_options.controlled = game->control.active() ? game->control.shipIndex() : -1;
        draw_options.highlight = draw_options.bvh;
        drawer.draw(app.renderer(), camera, game->scene, game->world, game->bullets, game->beamViews(),
                    game->flashes, draw_options);
        if (overlay) {
            OverlayInfo info;
            info.scene = game->scene.name();
            info.seed = game->scene.seed();
            info.frame = game->frame;
            info.fps = fps;
            info.player = game->control.active();
            info.paused = paused;
            info.bvh = draw_options.bvh;
            info.bvh_depth = draw_options.bvh_depth;
            info.tree = draw_options.tree;
            info.selected = shipName(game->scene, draw_options.selected);
            drawOverlay(app.renderer(), game->world, info);
        }
        if (help) drawHelp(app.renderer(), app.width(), app.height());
    };

    if (opt.headless) {
        const Camera camera =
            Camera::fit(game->scene.params().arena_half_x, game->scene.params().arena_half_y, kArenaMargin,
                        app.width(), app.height());
        for (long f = 0; f < opt.frames; ++f) {
            app.pollInput(input);
            if (input.quit) break;
            game->step(input, camera);
        }
        drawFrame(0.0);
        app.present();
        if (!saveScreenshot(app, opt.screenshot, error)) {
            std::fprintf(stderr, "flak_shooter: screenshot: %s\n", error.c_str());
            return 1;
        }
        std::printf("flak_shooter: scene %s seed %" PRIu64 " frames %u hits %u bullets %zu hash %016" PRIx64
                    " video %s renderer %s size %dx%d screenshot %s\n",
                    game->scene.name().c_str(), game->scene.seed(), game->frame, game->world.hitCount(),
                    game->bullets.size(), game->world.hitStreamHash(), app.videoDriver(), app.rendererName(),
                    app.width(), app.height(), opt.screenshot.c_str());
        return 0;
    }

    std::fprintf(stderr, "flak_shooter: video %s, renderer %s; press H for the controls\n", app.videoDriver(),
                 app.rendererName());
    game->control.setActive(true, game->world, game->scene);
    platform::FrameClock clock;
    clock.start();
    double accumulator = 0.0;
    int shot = 0;
    const std::vector<std::string> names = scenes::sceneNames();
    while (true) {
        app.pollInput(input);
        if (input.quit) break;
        bool step_once = false, screenshot = false;
        std::string restart;
        const std::size_t ship_count = game->scene.ships().size();
        auto select = [&](int dir) {
            if (ship_count == 0) return;
            draw_options.selected = (draw_options.selected + (dir > 0 ? 1u : ship_count - 1u)) % ship_count;
            draw_options.bvh = true;
        };
        for (SDL_Keycode key : input.pressed_keys) {
            switch (key) {
            case SDLK_c:
                game->control.setActive(!game->control.active(), game->world, game->scene);
                break;
            case SDLK_b:
                draw_options.bvh = !draw_options.bvh;
                break;
            case SDLK_t:
                draw_options.tree = !draw_options.tree;
                break;
            case SDLK_TAB:
                select((SDL_GetModState() & KMOD_SHIFT) != 0 ? -1 : 1);
                break;
            case SDLK_LEFTBRACKET:
                draw_options.bvh_depth = std::max(0, draw_options.bvh_depth - 1);
                break;
            case SDLK_RIGHTBRACKET:
                draw_options.bvh_depth = std::min(40, draw_options.bvh_depth + 1);
                break;
            case SDLK_o:
                overlay = !overlay;
                break;
            case SDLK_p:
                paused = !paused;
                break;
            case SDLK_n:
                step_once = paused;
                break;
            case SDLK_h:
                help = !help;
                break;
            case SDLK_r:
                restart = game->scene.name();
                break;
            case SDLK_1:
                restart = names[0];
                break;
            case SDLK_2:
                restart = names.size() > 1 ? names[1] : names[0];
                break;
            case SDLK_3:
                restart = names.size() > 2 ? names[2] : names[0];
                break;
            case SDLK_F12:
                screenshot = true;
                break;
            case SDLK_EQUALS:
            case SDLK_PLUS:
            case SDLK_KP_PLUS:
                zoom = std::min(8.0f, zoom * 1.25f);
                break;
            case SDLK_MINUS:
            case SDLK_KP_MINUS:
                zoom = std::max(1.0f, zoom / 1.25f);
                break;
            default:
                break;
            }
        }
        if (input.wheel > 0) zoom = std::min(8.0f, zoom * 1.25f);
        if (input.wheel < 0) zoom = std::max(1.0f, zoom / 1.25f);
        for (SDL_GameControllerButton button : input.pressed_buttons) {
            switch (button) {
            case SDL_CONTROLLER_BUTTON_Y:
                draw_options.bvh = !draw_options.bvh;
                break;
            case SDL_CONTROLLER_BUTTON_X:
                draw_options.tree = !draw_options.tree;
                break;
            case SDL_CONTROLLER_BUTTON_LEFTSHOULDER:
                select(-1);
                break;
            case SDL_CONTROLLER_BUTTON_RIGHTSHOULDER:
                select(1);
                break;
            case SDL_CONTROLLER_BUTTON_BACK:
                overlay = !overlay;
                break;
            case SDL_CONTROLLER_BUTTON_START:
                paused = !paused;
                break;
            case SDL_CONTROLLER_BUTTON_B:
                game->control.setActive(!game->control.active(), game->world, game->scene);
                break;
            case SDL_CONTROLLER_BUTTON_DPAD_UP:
                zoom = std::min(8.0f, zoom * 1.25f);
                break;
            case SDL_CONTROLLER_BUTTON_DPAD_DOWN:
                zoom = std::max(1.0f, zoom / 1.25f);
                break;
            default:
                break;
            }
        }
        if (!restart.empty()) {
            std::fprintf(stderr, "flak_shooter: building scene \"%s\"...\n", restart.c_str());
            auto next = std::make_unique<Game>();
            if (next->start(restart, opt.seed, error)) {
                game = std::move(next);
                game->control.setActive(true, game->world, game->scene);
                draw_options.selected = 0;
            } else {
                std::fprintf(stderr, "flak_shooter: %s\n", error.c_str());
            }
            clock.tick();
            accumulator = 0.0;
        }

        // Fixed 60 Hz steps, at most four per drawn frame (slower machines run slow, not jumpy).
        const double elapsed = clock.tick();
        const double dt = static_cast<double>(game->scene.dt());
        const Camera camera = viewCamera();
        if (!paused) {
            accumulator += elapsed;
        } else if (step_once) {
            accumulator = dt;
        }
        int steps = 0;
        while (accumulator >= dt && steps < 4) {
            game->step(input, camera);
            accumulator -= dt;
            ++steps;
        }
        if (steps == 4) accumulator = 0.0;

        drawFrame(clock.fps());
        const bool last = opt.frames > 0 && game->frame >= static_cast<std::uint32_t>(opt.frames);
        if (screenshot || (last && !opt.screenshot.empty())) {
            char name[64];
            std::snprintf(name, sizeof(name), "shooter-%04d.png", shot++);
            const std::string path = screenshot ? std::string(name) : opt.screenshot;
            if (saveScreenshot(app, path, error)) {
                std::fprintf(stderr, "flak_shooter: wrote %s\n", path.c_str());
            } else {
                std::fprintf(stderr, "flak_shooter: screenshot: %s\n", error.c_str());
            }
        }
        app.present();
        if (last) break;
    }
    return 0;
}

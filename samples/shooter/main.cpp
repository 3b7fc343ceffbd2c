// flak_shooter: the SDL2 shooter sample. Plays a scripted scene (the frame-budget runner's) from
// above and lets the player drive ship 0 and beam 0; shows hits with their normals, per-phase
// timings, pool usage, dropped work, and the BVH and broad-phase boxes on demand.
//
//   flak_shooter [--scene NAME] [--seed S] [--size WxH] [--frames N] [--bvh] [--tree] [--no-overlay]
//                [--no-vsync] [--screenshot FILE.png]
//   flak_shooter --headless [--frames N] --screenshot FILE.png [...]
//   flak_shooter --view FILE [--headless --screenshot FILE.png]   (a blob or a .walls level file)
//
// Headless: no window and no input; the scene's script alone drives N frames (default 120) and
// the last one is drawn by SDL's software renderer into FILE.png. Same scene and seed, same
// picture (timings in the overlay aside).
#include "file_view.h"
#include "flak_support/cli_number.h"
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
    std::string view; ///< --view: a blob or .walls file to show instead of a scene
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
        control.applyPushOut(world, scene);
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
                 "       flak_shooter --view BLOB|LEVEL.walls [--headless --screenshot FILE.png]\n"
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

// parseOptions' answer when the program goes on (any other value is main's exit status).
constexpr int kRun = -1;

// One command-line argument at argv[i] (and its value, which advances i) into out: kRun, or the
// status to exit with.
int parseArgument(int argc, char** argv, int& i, Options& out) {
    const std::string arg = argv[i];
    auto value = [&](const char* what) -> const char* {
        if (i + 1 >= argc) {
            std::fprintf(stderr, "flak_shooter: %s needs a value\n", what);
            std::exit(2);
        }
        return argv[++i];
    };
    unsigned long long whole = 0;
    if (arg == "--scene") {
        out.scene = value("--scene");
    } else if (arg == "--seed") {
        if (!support::parseWhole(value("--seed"), 0, ~0ull, whole))
            return usage("--seed must be a whole number below 2^64");
        out.seed = whole;
    } else if (arg == "--frames") {
        if (!support::parseWhole(value("--frames"), 1, 100000000, whole))
            return usage("--frames must be a whole number from 1 to 100,000,000");
        out.frames = static_cast<long>(whole);
    } else if (arg == "--size") {
        const std::string v = value("--size");
        const std::size_t x = v.find('x');
        unsigned long long w = 0, h = 0;
        if (x == std::string::npos || !support::parseWhole(v.substr(0, x).c_str(), 1, 16384, w) ||
            !support::parseWhole(v.c_str() + x + 1, 1, 16384, h))
            return usage("--size must be WxH, each from 1 to 16384");
        out.width = static_cast<int>(w);
        out.height = static_cast<int>(h);
    } else if (arg == "--headless") {
        out.headless = true;
    } else if (arg == "--screenshot") {
        out.screenshot = value("--screenshot");
    } else if (arg == "--view") {
        out.view = value("--view");
    } else if (arg == "--bvh") {
        out.bvh = true;
    } else if (arg == "--tree") {
        out.tree = true;
    } else if (arg == "--no-overlay") {
        out.overlay = false;
    } else if (arg == "--no-vsync") {
        out.vsync = false;
    } else if (arg == "-h" || arg == "--help") {
        usage(nullptr);
        return 0;
    } else {
        return usage(("unknown argument " + arg).c_str());
    }
    return kRun;
}

// The command line into out, checked as a whole (a known scene; headless needs a screenshot and
// plays 120 frames unless told): kRun, or the status to exit with (a usage error, --help).
int parseOptions(int argc, char** argv, Options& out) {
    for (int i = 1; i < argc; ++i) {
        const int status = parseArgument(argc, argv, i, out);
        if (status != kRun) return status;
    }
    scenes::SceneParams check;
    if (!scenes::sceneParams(out.scene, check)) return usage(("unknown scene " + out.scene).c_str());
    if (out.headless && out.screenshot.empty()) return usage("--headless needs --screenshot FILE.png");
    if (out.headless && out.frames < 0) out.frames = 120;
    return kRun;
}

bool initApp(platform::SdlApp& app, const Options& opt, std::string& error) {
    platform::AppConfig config;
    config.title = "flak shooter";
    config.width = opt.width;
    config.height = opt.height;
    config.headless = opt.headless;
    config.vsync = opt.vsync;
    return app.init(config, error);
}

// What the player toggles, and how the scene is looked at and drawn.
struct ViewState {
    DrawOptions draw_options;
    bool overlay = true, help = false, paused = false;
    float zoom = 1.0f;
    SceneDraw drawer;
};

// The whole arena, or zoomed in on the driven (else the selected) ship.
Camera viewCamera(const Game& game, const platform::SdlApp& app, const ViewState& view) {
    const Camera whole = Camera::fit(game.scene.params().arena_half_x, game.scene.params().arena_half_y,
                                     kArenaMargin, app.width(), app.height());
    if (view.zoom <= 1.0f) return whole;
    const std::vector<scenes::ScriptedShip>& ships = game.scene.ships();
    const std::size_t follow = game.control.active() ? static_cast<std::size_t>(game.control.shipIndex())
                                                     : view.draw_options.selected;
    Transform t;
    if (follow >= ships.size() || game.world.getShipTransform(ships[follow].id, t) != Status::Ok)
        return whole;
    return whole.zoomedAt(view.zoom, t.translation.x, t.translation.y, app.width(), app.height());
}

// The scene, then the overlay and the help when they are on.
void drawFrame(platform::SdlApp& app, const Game& game, ViewState& view, double fps) {
    const Camera camera = viewCamera(game, app, view);
    DrawOptions& draw_options = view.draw_options;
    draw_options.controlled = game.control.active() ? game.control.shipIndex() : -1;
    draw_options.highlight = draw_options.bvh;
    view.drawer.draw(app.renderer(), camera, game.scene, game.world, game.bullets, game.beamViews(),
                     game.flashes, draw_options);
    if (view.overlay) {
        OverlayInfo info;
        info.scene = game.scene.name();
        info.seed = game.scene.seed();
        info.frame = game.frame;
        info.fps = fps;
        info.player = game.control.active();
        info.paused = view.paused;
        info.bvh = draw_options.bvh;
        info.bvh_depth = draw_options.bvh_depth;
        info.tree = draw_options.tree;
        info.selected = shipName(game.scene, draw_options.selected);
        drawOverlay(app.renderer(), game.world, info);
    }
    if (view.help) drawHelp(app.renderer(), app.width(), app.height());
}

// Headless: the script alone drives opt.frames frames over the whole arena; the last one is
// drawn into the screenshot and the run summed up on stdout.
int runHeadless(platform::SdlApp& app, Game& game, const Options& opt, ViewState& view, std::string& error) {
    const Camera camera = Camera::fit(game.scene.params().arena_half_x, game.scene.params().arena_half_y,
                                      kArenaMargin, app.width(), app.height());
    platform::InputState input;
    for (long f = 0; f < opt.frames; ++f) {
        app.pollInput(input);
        if (input.quit) break;
        game.step(input, camera);
    }
    drawFrame(app, game, view, 0.0);
    app.present();
    if (!saveScreenshot(app, opt.screenshot, error)) {
        std::fprintf(stderr, "flak_shooter: screenshot: %s\n", error.c_str());
        return 1;
    }
    std::printf("flak_shooter: scene %s seed %" PRIu64 " frames %u hits %u bullets %zu hash %016" PRIx64
                " video %s renderer %s size %dx%d screenshot %s\n",
                game.scene.name().c_str(), game.scene.seed(), game.frame, game.world.hitCount(),
                game.bullets.size(), game.world.hitStreamHash(), app.videoDriver(), app.rendererName(),
                app.width(), app.height(), opt.screenshot.c_str());
    return 0;
}

// What one frame's input asks of the interactive loop besides changing the view.
struct FrameRequests {
    bool step_once = false;
    bool screenshot = false;
    std::string restart; // the scene to start again with, or empty
};

void zoomIn(ViewState& view) { view.zoom = std::min(8.0f, view.zoom * 1.25f); }
void zoomOut(ViewState& view) { view.zoom = std::max(1.0f, view.zoom / 1.25f); }

void toggleControl(Game& game) { game.control.setActive(!game.control.active(), game.world, game.scene); }

// The next (dir > 0) or previous ship becomes the selected one, with its BVH shown.
void selectShip(const Game& game, int dir, ViewState& view) {
    const std::size_t ship_count = game.scene.ships().size();
    if (ship_count == 0) return;
    DrawOptions& draw_options = view.draw_options;
    draw_options.selected = (draw_options.selected + (dir > 0 ? 1u : ship_count - 1u)) % ship_count;
    draw_options.bvh = true;
}

// One key press (the keys listed by controlsText).
void handleKey(SDL_Keycode key, Game& game, const std::vector<std::string>& names, ViewState& view,
               FrameRequests& inout) {
    DrawOptions& draw_options = view.draw_options;
    switch (key) {
    case SDLK_c: toggleControl(game); break;
    case SDLK_b: draw_options.bvh = !draw_options.bvh; break;
    case SDLK_t: draw_options.tree = !draw_options.tree; break;
    case SDLK_TAB: selectShip(game, (SDL_GetModState() & KMOD_SHIFT) != 0 ? -1 : 1, view); break;
    case SDLK_LEFTBRACKET: draw_options.bvh_depth = std::max(0, draw_options.bvh_depth - 1); break;
    case SDLK_RIGHTBRACKET: draw_options.bvh_depth = std::min(40, draw_options.bvh_depth + 1); break;
    case SDLK_o: view.overlay = !view.overlay; break;
    case SDLK_p: view.paused = !view.paused; break;
    case SDLK_n: inout.step_once = view.paused; break;
    case SDLK_h: view.help = !view.help; break;
    case SDLK_r: inout.restart = game.scene.name(); break;
    case SDLK_1: inout.restart = names[0]; break;
    case SDLK_2: inout.restart = names.size() > 1 ? names[1] : names[0]; break;
    case SDLK_3: inout.restart = names.size() > 2 ? names[2] : names[0]; break;
    case SDLK_F12: inout.screenshot = true; break;
    case SDLK_EQUALS:
    case SDLK_PLUS:
    case SDLK_KP_PLUS: zoomIn(view); break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: zoomOut(view); break;
    default: break;
    }
}

// One gamepad button press.
void handleButton(SDL_GameControllerButton button, Game& game, ViewState& view) {
    DrawOptions& draw_options = view.draw_options;
    switch (button) {
    case SDL_CONTROLLER_BUTTON_Y: draw_options.bvh = !draw_options.bvh; break;
    case SDL_CONTROLLER_BUTTON_X: draw_options.tree = !draw_options.tree; break;
    case SDL_CONTROLLER_BUTTON_LEFTSHOULDER: selectShip(game, -1, view); break;
    case SDL_CONTROLLER_BUTTON_RIGHTSHOULDER: selectShip(game, 1, view); break;
    case SDL_CONTROLLER_BUTTON_BACK: view.overlay = !view.overlay; break;
    case SDL_CONTROLLER_BUTTON_START: view.paused = !view.paused; break;
    case SDL_CONTROLLER_BUTTON_B: toggleControl(game); break;
    case SDL_CONTROLLER_BUTTON_DPAD_UP: zoomIn(view); break;
    case SDL_CONTROLLER_BUTTON_DPAD_DOWN: zoomOut(view); break;
    default: break;
    }
}

// The frame's key presses, mouse wheel and button presses, in that order.
FrameRequests handleInput(const platform::InputState& input, Game& game,
                          const std::vector<std::string>& names, ViewState& view) {
    FrameRequests requests;
    for (SDL_Keycode key : input.pressed_keys) handleKey(key, game, names, view, requests);
    if (input.wheel > 0) zoomIn(view);
    if (input.wheel < 0) zoomOut(view);
    for (SDL_GameControllerButton button : input.pressed_buttons) handleButton(button, game, view);
    return requests;
}

// A fresh game of scene `name`, driven by the player; on failure the old one plays on.
void restartGame(const std::string& name, std::uint64_t seed, std::unique_ptr<Game>& inout_game,
                 ViewState& view, std::string& error) {
    std::fprintf(stderr, "flak_shooter: building scene \"%s\"...\n", name.c_str());
    auto next = std::make_unique<Game>();
    if (next->start(name, seed, error)) {
        inout_game = std::move(next);
        inout_game->control.setActive(true, inout_game->world, inout_game->scene);
        view.draw_options.selected = 0;
    } else {
        std::fprintf(stderr, "flak_shooter: %s\n", error.c_str());
    }
}

// Fixed 60 Hz steps, at most four per drawn frame (slower machines run slow, not jumpy).
void stepFixed(Game& game, const platform::InputState& input, const Camera& camera, double elapsed,
               bool paused, bool step_once, double& inout_accumulator) {
    const double dt = static_cast<double>(game.scene.dt());
    if (!paused) {
        inout_accumulator += elapsed;
    } else if (step_once) {
        inout_accumulator = dt;
    }
    int steps = 0;
    while (inout_accumulator >= dt && steps < 4) {
        game.step(input, camera);
        inout_accumulator -= dt;
        ++steps;
    }
    if (steps == 4) inout_accumulator = 0.0;
}

// Saves the frame drawn to `path` and says so (or why not) on stderr.
void writeScreenshot(platform::SdlApp& app, const std::string& path, std::string& error) {
    if (saveScreenshot(app, path, error)) {
        std::fprintf(stderr, "flak_shooter: wrote %s\n", path.c_str());
    } else {
        std::fprintf(stderr, "flak_shooter: screenshot: %s\n", error.c_str());
    }
}

// The window: the player drives ship 0 and beam 0 until quit (or until opt.frames, when given).
// F12 saves numbered screenshots; --screenshot names the last frame's.
int runInteractive(platform::SdlApp& app, std::unique_ptr<Game>& game, const Options& opt, ViewState& view,
                   std::string& error) {
    std::fprintf(stderr, "flak_shooter: video %s, renderer %s; press H for the controls\n", app.videoDriver(),
                 app.rendererName());
    game->control.setActive(true, game->world, game->scene);
    platform::InputState input;
    platform::FrameClock clock;
    clock.start();
    double accumulator = 0.0;
    int shot = 0;
    const std::vector<std::string> names = scenes::sceneNames();
    while (true) {
        app.pollInput(input);
        if (input.quit) break;
        const FrameRequests requests = handleInput(input, *game, names, view);
        if (!requests.restart.empty()) {
            restartGame(requests.restart, opt.seed, game, view, error);
            clock.tick();
            accumulator = 0.0;
        }
        const double elapsed = clock.tick();
        const Camera camera = viewCamera(*game, app, view);
        stepFixed(*game, input, camera, elapsed, view.paused, requests.step_once, accumulator);

        drawFrame(app, *game, view, clock.fps());
        const bool last = opt.frames > 0 && game->frame >= static_cast<std::uint32_t>(opt.frames);
        if (requests.screenshot || (last && !opt.screenshot.empty())) {
            char name[64];
            std::snprintf(name, sizeof(name), "shooter-%04d.png", shot++);
            writeScreenshot(app, requests.screenshot ? std::string(name) : opt.screenshot, error);
        }
        app.present();
        if (last) break;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    Options opt;
    const int status = parseOptions(argc, argv, opt);
    if (status != kRun) return status;

    platform::SdlApp app;
    std::string error;
    if (!initApp(app, opt, error)) {
        std::fprintf(stderr, "flak_shooter: %s\n", error.c_str());
        return 1;
    }
    if (!opt.view.empty()) {
        const int viewed = runFileView(app, opt.view, opt.screenshot, opt.headless, error);
        if (viewed != 0) std::fprintf(stderr, "flak_shooter: %s\n", error.c_str());
        return viewed;
    }
    std::fprintf(stderr, "flak_shooter: building scene \"%s\" (baking meshes, fitting the cluster)...\n",
                 opt.scene.c_str());
    auto game = std::make_unique<Game>();
    if (!game->start(opt.scene, opt.seed, error)) {
        std::fprintf(stderr, "flak_shooter: %s\n", error.c_str());
        return 1;
    }

    ViewState view;
    view.draw_options.bvh = opt.bvh;
    view.draw_options.tree = opt.tree;
    view.overlay = opt.overlay;
    if (opt.headless) return runHeadless(app, *game, opt, view, error);
    return runInteractive(app, game, opt, view, error);
}

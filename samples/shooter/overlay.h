// The overlay: per-phase step timings, pool usage, dropped work and the toggles, in the
// top-left panel (flak_support/shooter_view.h: kOverlay*); and the controls help.
#pragma once

#include <flak/world/world.h>

#include <SDL.h>

#include <cstdint>
#include <string>

namespace flak::sample {

/// What the overlay says besides the World's own numbers.
struct OverlayInfo {
    std::string scene;
    std::uint64_t seed = 0;
    std::uint64_t frame = 0;
    double fps = 0.0;    ///< 0: not shown (headless)
    bool player = false; ///< the player drives ship 0 (else the scene's autopilot)
    bool paused = false;
    bool bvh = false;
    int bvh_depth = 0;
    bool tree = false;
    std::string selected; ///< the ship whose BVH is shown
};

/// Draws the panel (translucent, over the picture).
void drawOverlay(SDL_Renderer* renderer, const World& world, const OverlayInfo& info);

/// Draws the controls, centred in a width x height screen.
void drawHelp(SDL_Renderer* renderer, int width, int height);

/// The controls, one per line (also printed by --help).
const char* controlsText();

} // namespace flak::sample

// Text and bars of the overlay, in the built-in bitmap font.
#include "overlay.h"

#include "draw_color.h"

#include "bitmap_font.h"
#include "flak_support/shooter_view.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

namespace flak::sample {

namespace {

constexpr int kScale = 2;
constexpr int kLine = kGlyphLineHeight * kScale;

#if defined(__GNUC__)
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#endif
std::string format(const char* fmt, ...) {
    char buffer[256];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buffer, sizeof(buffer), fmt, args);
    va_end(args);
    return buffer;
}

std::string usage(const char* name, const PoolUsage& u, bool high) {
    if (high) return format("%s %u/%u/%u", name, u.live, u.high_water, u.capacity);
    return format("%s %u/%u", name, u.live, u.capacity);
}

} // namespace

const char* controlsText() {
    return "WASD / ARROWS    MOVE THE PLAYER SHIP\n"
           "MOUSE            AIM THE BEAM (IT BENDS FROM THE NOSE)\n"
           "SPACE / L-MOUSE  FIRE\n"
           "GAMEPAD          L-STICK MOVE, R-STICK AIM, R-TRIGGER/A FIRE\n"
           "C / GAMEPAD B    PLAYER CONTROL ON/OFF (AUTOPILOT)\n"
           "B / GAMEPAD Y    BVH BOXES OF THE SELECTED SHIP\n"
           "[ ]              BVH DEPTH\n"
           "TAB / SHOULDERS  SELECT ANOTHER SHIP\n"
           "T / GAMEPAD X    BROAD-PHASE TREE BOXES\n"
           "WHEEL + - / DPAD ZOOM (FOLLOWS THE SHIP)\n"
           "O / BACK         OVERLAY ON/OFF\n"
           "P / START        PAUSE;  N  ONE STEP WHILE PAUSED\n"
           "R                RESTART THE SCENE\n"
           "1 2 3            SKIRMISH, ARMADA, WORST\n"
           "F12              SCREENSHOT (SHOOTER-NNNN.PNG)\n"
           "H                THIS HELP;  ESC  QUIT";
}

void drawOverlay(SDL_Renderer* renderer, const World& world, const OverlayInfo& info) {
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    const SDL_Rect panel{kOverlayX, kOverlayY, kOverlayWidth, kOverlayHeight};
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, 175);
    SDL_RenderFillRect(renderer, &panel);
    setColor(renderer, palette::kArenaFrame);
    SDL_RenderDrawRect(renderer, &panel);

    const int x = kOverlayX + 8;
    int y = kOverlayY + 8;
    const StepStats& stats = world.stats();
    setColor(renderer, palette::kOverlayHead);
    drawText(renderer, format("FLAK  %s  SEED %" PRIu64, info.scene.c_str(), info.seed), x, y, kScale);
    y += kLine;
    setColor(renderer, palette::kOverlayText);
    std::string mode = info.player ? "PLAYER" : "AUTOPILOT";
    if (info.paused) mode += " PAUSED";
    if (info.fps > 0.0) {
        drawText(renderer, format("FRAME %" PRIu64 "  %.0f FPS  %s", info.frame, info.fps, mode.c_str()), x,
                 y, kScale);
    } else {
        drawText(renderer, format("FRAME %" PRIu64 "  %s", info.frame, mode.c_str()), x, y, kScale);
    }
    y += kLine;
    drawText(renderer,
             format("STEP %.3f MS  HITS %u  PAIRS %u", static_cast<double>(stats.total_ns) / 1e6, stats.hits,
                    stats.pairs),
             x, y, kScale);
    y += kLine;

    // One line per phase: name, milliseconds, and a bar for its share of the step (red above
    // 1 ms).
    const int bar_x = x + 20 * kGlyphAdvance * kScale;
    const int bar_w = kOverlayX + kOverlayWidth - 12 - bar_x;
    const double total_ms = static_cast<double>(stats.total_ns) / 1e6;
    for (int p = 0; p < static_cast<int>(WorldPhase::Count); ++p) {
        const double ms = static_cast<double>(stats.phase_ns[p]) / 1e6;
        setColor(renderer, palette::kOverlayText);
        drawText(renderer, format("%-9s %7.3f", worldPhaseName(static_cast<WorldPhase>(p)), ms), x, y,
                 kScale);
        const double share = total_ms > 0.0 ? std::min(1.0, ms / total_ms) : 0.0;
        const int w = static_cast<int>(share * bar_w);
        const SDL_Rect bar{bar_x, y + 2, std::max(w, ms > 0.0 ? 1 : 0), kLine - 8};
        setColor(renderer, ms > 1.0 ? palette::kOverlayWarn : palette::kTreeMoving, 200);
        SDL_RenderFillRect(renderer, &bar);
        y += kLine;
    }
    const bool dropped = stats.hits_dropped + stats.pairs_dropped + stats.contacts_dropped > 0;
    setColor(renderer, dropped ? palette::kOverlayWarn : palette::kOverlayText);
    drawText(renderer,
             format("DROPPED HITS %u PAIRS %u CONTACTS %u", stats.hits_dropped, stats.pairs_dropped,
                    stats.contacts_dropped),
             x, y, kScale);
    y += kLine;
    setColor(renderer, palette::kOverlayText);
    drawText(renderer,
             usage("ENEMY", world.poolUsage(BodyKind::Enemy), false) + "  " +
                 usage("PLAYER", world.poolUsage(BodyKind::Player), false) + "  " +
                 usage("BEAM", world.poolUsage(BodyKind::Beam), false),
             x, y, kScale);
    y += kLine;
    drawText(renderer,
             usage("BULLET", world.poolUsage(BodyKind::Bullet), true) + "  " +
                 usage("LEVEL", world.poolUsage(BodyKind::Level), false) + "  " +
                 usage("WALL", world.poolUsage(BodyKind::Walls), false),
             x, y, kScale);
    y += kLine;
    setColor(renderer, palette::kOverlayHead);
    std::string toggles =
        info.bvh ? format("BVH %s D%d", info.selected.c_str(), info.bvh_depth) : std::string("BVH OFF");
    toggles += info.tree ? "  TREE ON" : "  TREE OFF";
    toggles += "  H: KEYS";
    drawText(renderer, toggles, x, y, kScale);
    y += kLine;
    // The legend of the hit markers: each kind's name in its colour.
    setColor(renderer, palette::kOverlayText);
    int lx = x + drawText(renderer, "HITS:", x, y, kScale);
    for (const HitKind kind : {HitKind::Bullet, HitKind::Beam, HitKind::ShipShip, HitKind::ShipWall}) {
        setColor(renderer, hitColor(kind));
        std::string name = hitKindName(kind);
        std::transform(name.begin(), name.end(), name.begin(), [](char c) { return c == '_' ? '-' : c; });
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        lx += kGlyphAdvance * kScale;
        lx += drawText(renderer, name, lx, y, kScale);
    }
}

void drawHelp(SDL_Renderer* renderer, int width, int height) {
    const std::string text = controlsText();
    int lines = 1, longest = 0, current = 0;
    for (char c : text) {
        if (c == '\n') {
            ++lines;
            current = 0;
        } else {
            longest = std::max(longest, ++current);
        }
    }
    const int w = longest * kGlyphAdvance * kScale + 32, h = lines * kLine + 32;
    const SDL_Rect panel{(width - w) / 2, (height - h) / 2, w, h};
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, 215);
    SDL_RenderFillRect(renderer, &panel);
    setColor(renderer, palette::kOverlayHead);
    SDL_RenderDrawRect(renderer, &panel);
    setColor(renderer, palette::kOverlayText);
    drawText(renderer, text, panel.x + 16, panel.y + 16, kScale);
}

} // namespace flak::sample

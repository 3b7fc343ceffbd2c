// How the shooter sample maps the play plane to the screen, and the colours it draws with. Shared
// with the test that checks its screenshots, so both agree on where and what colour things are.
#pragma once

#include <flak/world/hit.h>

#include <cstdint>

namespace flak::sample {

/// An RGB colour, 0xRRGGBB.
using Rgb = std::uint32_t;

/// Colours the drawing uses; the test looks for the exact ones (flat fills and markers).
namespace palette {
constexpr Rgb kBackground = 0x0C0E16;
constexpr Rgb kArenaFrame = 0x323850;
constexpr Rgb kWallFill = 0x2E62A8; ///< solid wall interior (exact)
constexpr Rgb kWallEdge = 0x78B4FF; ///< wall outlines (rings and holes)
constexpr Rgb kLevel = 0x8C8278;    ///< asteroids, shaded (times 0.45..1)
constexpr Rgb kEnemy = 0xE6503C;    ///< enemy hulls, shaded (times 0.45..1): red dominant
constexpr Rgb kPlayer = 0x46DC78;   ///< player hulls, shaded (times 0.45..1): green dominant
constexpr Rgb kCluster = 0xF0F078;  ///< player sphere-cluster circles
constexpr Rgb kBullet = 0xEBEBEB;
constexpr Rgb kBeam = 0xA078FF;
constexpr Rgb kBeamCore = 0xE6DCFF;
constexpr Rgb kHitBullet = 0xFFFF00; ///< hit markers by kind (exact, this frame's hits)
constexpr Rgb kHitBeam = 0xFF00FF;
constexpr Rgb kHitShipShip = 0xFF8000;
constexpr Rgb kHitShipWall = 0x00FFFF;
constexpr Rgb kSelected = 0xFFFFFF;
constexpr Rgb kTreeMoving = 0x50FF50;
constexpr Rgb kTreeStatic = 0x50A0FF;
constexpr Rgb kOverlayText = 0xE6E6E6;
constexpr Rgb kOverlayHead = 0xFFD25A;
constexpr Rgb kOverlayWarn = 0xFF5A5A;
} // namespace palette

/// The colour of a hit marker of `kind`.
constexpr Rgb hitColor(HitKind kind) {
    return kind == HitKind::Bullet     ? palette::kHitBullet
           : kind == HitKind::Beam     ? palette::kHitBeam
           : kind == HitKind::ShipShip ? palette::kHitShipShip
                                       : palette::kHitShipWall;
}

constexpr std::uint8_t red(Rgb c) { return static_cast<std::uint8_t>(c >> 16); }
constexpr std::uint8_t green(Rgb c) { return static_cast<std::uint8_t>(c >> 8); }
constexpr std::uint8_t blue(Rgb c) { return static_cast<std::uint8_t>(c); }

/// Size of this frame's hit markers at `scale` pixels per world unit: a filled square of
/// 2 * half + 1 pixels a side centred on the hit point (half = 1..4, half a world unit), so
/// crowded, zoomed-out scenes are not buried under markers.
constexpr int hitMarkerHalf(float scale) {
    const int half = static_cast<int>(scale * 0.5f + 0.5f);
    return half < 1 ? 1 : (half > 4 ? 4 : half);
}
/// Length in pixels of a hit's normal line from its point (8..26, 3.5 world units).
constexpr int hitNormalPixels(float scale) {
    const int len = static_cast<int>(scale * 3.5f);
    return len < 8 ? 8 : (len > 26 ? 26 : len);
}

/// The overlay panel (top-left corner, pixels). The test leaves it out of its checks.
constexpr int kOverlayX = 8;
constexpr int kOverlayY = 8;
constexpr int kOverlayWidth = 520;
constexpr int kOverlayHeight = 300;

/// World (play plane, +y up) to screen (pixels, +y down): the arena [-hx, hx] x [-hy, hy] plus a
/// margin, fitted and centred. Plain value.
struct Camera {
    float scale = 1.0f;    ///< pixels per world unit
    float origin_x = 0.0f; ///< screen position of world (0, 0)
    float origin_y = 0.0f;

    /// Fits the arena (half extents in world units) with `margin` (a fraction of each half
    /// extent) into a width x height screen.
    static Camera fit(float half_x, float half_y, float margin, int width, int height) {
        Camera c;
        const float wx = 2.0f * half_x * (1.0f + margin), wy = 2.0f * half_y * (1.0f + margin);
        const float sx = static_cast<float>(width) / wx, sy = static_cast<float>(height) / wy;
        c.scale = sx < sy ? sx : sy;
        c.origin_x = 0.5f * static_cast<float>(width);
        c.origin_y = 0.5f * static_cast<float>(height);
        return c;
    }
    /// This camera magnified `zoom` times with world point (x, y) at the screen centre.
    Camera zoomedAt(float zoom, float x, float y, int width, int height) const {
        Camera c;
        c.scale = scale * zoom;
        c.origin_x = 0.5f * static_cast<float>(width) - x * c.scale;
        c.origin_y = 0.5f * static_cast<float>(height) + y * c.scale;
        return c;
    }
    float toScreenX(float x) const { return origin_x + x * scale; }
    float toScreenY(float y) const { return origin_y - y * scale; }
    float toWorldX(float sx) const { return (sx - origin_x) / scale; }
    float toWorldY(float sy) const { return (origin_y - sy) / scale; }
};

/// The arena margin the sample uses (fraction of the half extents).
constexpr float kArenaMargin = 0.04f;

} // namespace flak::sample

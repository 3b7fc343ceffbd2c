// A built-in 5x7 bitmap font for the overlay (no SDL_ttf): ASCII letters (upper case; lower case
// is drawn as upper), digits and common punctuation, drawn as filled rectangles.
#pragma once

#include <SDL.h>

#include <string>
#include <vector>

namespace flak::sample {

/// Pixels a glyph advances at scale 1 (5 wide plus 1 of spacing) and a line's height.
constexpr int kGlyphAdvance = 6;
constexpr int kGlyphLineHeight = 9;

/// Appends the rectangles that draw `text` at (x, y) (top-left, pixels) with each font pixel
/// `scale` screen pixels square. Unknown characters draw as a box.
void layoutText(const std::string& text, int x, int y, int scale, std::vector<SDL_Rect>& out_rects);

/// Draws `text` in the renderer's current draw colour; returns the width in pixels.
int drawText(SDL_Renderer* renderer, const std::string& text, int x, int y, int scale);

} // namespace flak::sample

// The sample's one way to set SDL's draw colour from a palette entry (flak_support/shooter_view.h).
#pragma once

#include "flak_support/shooter_view.h"

#include <SDL.h>

#include <cstdint>

namespace flak::sample {

inline void setColor(SDL_Renderer* renderer, Rgb c, std::uint8_t alpha = 255) {
    SDL_SetRenderDrawColor(renderer, red(c), green(c), blue(c), alpha);
}

} // namespace flak::sample

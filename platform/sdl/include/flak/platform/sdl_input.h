// flak platform — what the player did this frame: keyboard, mouse and gamepad, merged.
#pragma once

#include <SDL.h>

#include <vector>

namespace flak::platform {

/// Input of one frame, refilled by SdlInput::poll(). Plain value.
struct InputState {
    bool quit = false;   ///< window closed, Ctrl-C, or Escape
    float move_x = 0.0f; ///< -1..1: WASD / arrow keys / left stick (+x right)
    float move_y = 0.0f; ///< -1..1: +y up (W, up arrow, stick pushed forward)
    int mouse_x = 0;     ///< cursor in window pixels (valid when mouse_seen)
    int mouse_y = 0;
    bool mouse_seen = false;               ///< the cursor has been inside the window at least once
    bool mouse_moved = false;              ///< the cursor moved this frame
    float aim_x = 0.0f;                    ///< -1..1: right stick (+x right), 0 when centred
    float aim_y = 0.0f;                    ///< -1..1: +y up
    bool aim_stick = false;                ///< the right stick is pushed past its dead zone
    bool fire = false;                     ///< held: Space, left mouse button, right trigger, or A
    bool activity = false;                 ///< any move, aim or fire input this frame
    int wheel = 0;                         ///< mouse wheel clicks this frame (+ away from the user)
    std::vector<SDL_Keycode> pressed_keys; ///< keys pressed this frame (no repeats)
    std::vector<SDL_GameControllerButton> pressed_buttons; ///< gamepad buttons pressed this frame
    int controllers = 0;                                   ///< gamepads open now
};

/// Owns the open gamepads and turns SDL events into an InputState. Needs SDL_INIT_VIDEO and
/// SDL_INIT_GAMECONTROLLER; one thread (the one that created the window).
class SdlInput {
public:
    SdlInput() = default;
    SdlInput(const SdlInput&) = delete;
    SdlInput& operator=(const SdlInput&) = delete;
    ~SdlInput();

    /// Drains SDL's event queue into `state`: per-frame fields (pressed lists, mouse_moved,
    /// activity) are reset first; held state (keys, buttons, sticks, cursor) carries over.
    /// Gamepads are opened as they are plugged in and closed as they go.
    void poll(InputState& state);

    /// Closes every gamepad.
    void close();

private:
    std::vector<SDL_GameController*> m_controllers;
};

} // namespace flak::platform

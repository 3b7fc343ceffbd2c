// flak platform — an SDL2 app: a window with an SDL_Renderer, or an off-screen software canvas
// for headless runs (screenshots, tests under Xvfb or with no display at all).
#pragma once

#include <flak/platform/sdl_input.h>

#include <SDL.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flak::platform {

/// How to open an SdlApp. Plain value.
struct AppConfig {
    std::string title = "flak";
    int width = 1280; ///< window or canvas size in pixels
    int height = 800;
    /// No window: draw into an off-screen surface through SDL's software renderer. Video is
    /// still initialised when a driver is available (x11 under Xvfb), but nothing depends on it.
    bool headless = false;
    bool vsync = true; ///< windowed only: present in step with the display
};

/// The window (or canvas), its renderer, gamepads and events. One per process; the thread that
/// calls init() must make every other call. Tears everything down in its destructor.
class SdlApp {
public:
    SdlApp() = default;
    SdlApp(const SdlApp&) = delete;
    SdlApp& operator=(const SdlApp&) = delete;
    ~SdlApp();

    /// Initialises SDL and opens the window or canvas. False with a message on failure. Headless:
    /// tries SDL_VIDEODRIVER as set, then "offscreen", then "dummy", then no video at all; the
    /// software canvas works in every case.
    bool init(const AppConfig& config, std::string& error);

    /// The renderer to draw with (valid after a successful init).
    SDL_Renderer* renderer() const { return m_renderer; }
    /// Drawable size in pixels (follows window resizes and high-DPI scaling).
    int width() const;
    int height() const;
    bool headless() const { return m_headless; }
    /// SDL's video driver in use, or "none" (headless without video).
    const char* videoDriver() const;
    /// The renderer's name ("software", "opengl", ...).
    const char* rendererName() const;

    /// Drains the event queue into `input` (mouse positions in drawable pixels). Headless: only
    /// quit requests are seen; no keyboard, mouse or gamepad state is read.
    void pollInput(InputState& input);
    /// Shows the frame (windowed); headless: finishes drawing into the canvas.
    void present();
    /// The frame drawn since the last present() (windowed: read before present), as tightly
    /// packed RGB rows, top row first: width() * height() * 3 bytes. False with a message.
    bool readPixels(std::vector<std::uint8_t>& out_rgb, std::string& error);

private:
    bool m_headless = false;
    bool m_video = false;
    SDL_Window* m_window = nullptr;
    SDL_Surface* m_canvas = nullptr; // headless only
    SDL_Renderer* m_renderer = nullptr;
    SdlInput m_input;
};

} // namespace flak::platform

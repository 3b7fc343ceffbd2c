// SDL2 bring-up for the samples: a window with a renderer, or a software canvas when headless.
#include <flak/platform/sdl_app.h>

#include <cstdlib>
#include <cstring>

namespace flak::platform {

namespace {

// Video for a headless run: whatever SDL_VIDEODRIVER says (x11 under xvfb-run), then the
// drivers that need no display. None of them is required: the canvas is a plain surface.
bool initHeadlessVideo() {
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) == 0) return true;
    for (const char* driver : {"offscreen", "dummy"}) {
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, driver, SDL_HINT_OVERRIDE);
        if (SDL_InitSubSystem(SDL_INIT_VIDEO) == 0) return true;
    }
    return false;
}

} // namespace

SdlApp::~SdlApp() {
    m_input.close();
    if (m_renderer != nullptr) SDL_DestroyRenderer(m_renderer);
    if (m_canvas != nullptr) SDL_FreeSurface(m_canvas);
    if (m_window != nullptr) SDL_DestroyWindow(m_window);
    SDL_Quit();
}

bool SdlApp::init(const AppConfig& config, std::string& error) {
    m_headless = config.headless;
    if (config.width < 16 || config.height < 16 || config.width > 16384 || config.height > 16384) {
        error = "window size out of range (16..16384)";
        return false;
    }
    if (SDL_Init(SDL_INIT_EVENTS) != 0) {
        error = std::string("SDL_Init: ") + SDL_GetError();
        return false;
    }
    if (m_headless) {
        m_video = initHeadlessVideo();
        m_canvas =
            SDL_CreateRGBSurfaceWithFormat(0, config.width, config.height, 32, SDL_PIXELFORMAT_ARGB8888);
        if (m_canvas == nullptr) {
            error = std::string("SDL_CreateRGBSurfaceWithFormat: ") + SDL_GetError();
            return false;
        }
        m_renderer = SDL_CreateSoftwareRenderer(m_canvas);
        if (m_renderer == nullptr) {
            error = std::string("SDL_CreateSoftwareRenderer: ") + SDL_GetError();
            return false;
        }
        return true;
    }
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        error = std::string("SDL video: ") + SDL_GetError() + " (no display? try --headless)";
        return false;
    }
    m_video = true;
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0) {
        SDL_Log("flak: no gamepad support: %s", SDL_GetError());
    }
    m_window = SDL_CreateWindow(config.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                config.width, config.height, SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (m_window == nullptr) {
        error = std::string("SDL_CreateWindow: ") + SDL_GetError();
        return false;
    }
    const Uint32 flags = static_cast<Uint32>(SDL_RENDERER_ACCELERATED) |
                         (config.vsync ? static_cast<Uint32>(SDL_RENDERER_PRESENTVSYNC) : 0u);
    m_renderer = SDL_CreateRenderer(m_window, -1, flags);
    if (m_renderer == nullptr) m_renderer = SDL_CreateRenderer(m_window, -1, SDL_RENDERER_SOFTWARE);
    if (m_renderer == nullptr) {
        error = std::string("SDL_CreateRenderer: ") + SDL_GetError();
        return false;
    }
    return true;
}

int SdlApp::width() const {
    int w = 0, h = 0;
    if (m_renderer != nullptr) SDL_GetRendererOutputSize(m_renderer, &w, &h);
    return w;
}

int SdlApp::height() const {
    int w = 0, h = 0;
    if (m_renderer != nullptr) SDL_GetRendererOutputSize(m_renderer, &w, &h);
    return h;
}

const char* SdlApp::videoDriver() const {
    const char* name = m_video ? SDL_GetCurrentVideoDriver() : nullptr;
    return name != nullptr ? name : "none";
}

const char* SdlApp::rendererName() const {
    SDL_RendererInfo info;
    if (m_renderer == nullptr || SDL_GetRendererInfo(m_renderer, &info) != 0) return "none";
    return info.name;
}

void SdlApp::pollInput(InputState& input) {
    if (m_headless) {
        input.pressed_keys.clear();
        input.pressed_buttons.clear();
        input.mouse_moved = false;
        input.activity = false;
        input.wheel = 0;
        SDL_Event event;
        while (SDL_PollEvent(&event) != 0) {
            if (event.type == SDL_QUIT) input.quit = true;
        }
        return;
    }
    m_input.poll(input);
    // Window coordinates to drawable pixels (they differ on high-DPI displays).
    int ww = 0, wh = 0;
    SDL_GetWindowSize(m_window, &ww, &wh);
    const int dw = width(), dh = height();
    if (ww > 0 && wh > 0 && (ww != dw || wh != dh)) {
        input.mouse_x = static_cast<int>(static_cast<long long>(input.mouse_x) * dw / ww);
        input.mouse_y = static_cast<int>(static_cast<long long>(input.mouse_y) * dh / wh);
    }
}

void SdlApp::present() {
    if (m_renderer == nullptr) return;
    if (m_headless) {
        SDL_RenderFlush(m_renderer);
        return;
    }
    SDL_RenderPresent(m_renderer);
}

bool SdlApp::readPixels(std::vector<std::uint8_t>& out_rgb, std::string& error) {
    const int w = width(), h = height();
    if (w <= 0 || h <= 0) {
        error = "nothing to read";
        return false;
    }
    std::vector<Uint32> argb(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    if (m_headless) {
        SDL_RenderFlush(m_renderer);
        if (SDL_MUSTLOCK(m_canvas)) SDL_LockSurface(m_canvas);
        for (int y = 0; y < h; ++y) {
            std::memcpy(argb.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w),
                        static_cast<const std::uint8_t*>(m_canvas->pixels) +
                            static_cast<std::ptrdiff_t>(y) * m_canvas->pitch,
                        static_cast<std::size_t>(w) * 4u);
        }
        if (SDL_MUSTLOCK(m_canvas)) SDL_UnlockSurface(m_canvas);
    } else if (SDL_RenderReadPixels(m_renderer, nullptr, SDL_PIXELFORMAT_ARGB8888, argb.data(), w * 4) != 0) {
        error = std::string("SDL_RenderReadPixels: ") + SDL_GetError();
        return false;
    }
    out_rgb.resize(argb.size() * 3u);
    for (std::size_t i = 0; i < argb.size(); ++i) {
        out_rgb[3 * i + 0] = static_cast<std::uint8_t>(argb[i] >> 16);
        out_rgb[3 * i + 1] = static_cast<std::uint8_t>(argb[i] >> 8);
        out_rgb[3 * i + 2] = static_cast<std::uint8_t>(argb[i]);
    }
    return true;
}

} // namespace flak::platform

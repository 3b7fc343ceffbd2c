// Keyboard, mouse and SDL_GameController events merged into one InputState per frame.
#include <flak/platform/sdl_input.h>

#include <algorithm>
#include <cmath>

namespace flak::platform {

namespace {

constexpr float kStickDeadZone = 0.22f;
constexpr float kTriggerThreshold = 0.35f;

float axisValue(SDL_GameController* pad, SDL_GameControllerAxis axis) {
    return static_cast<float>(SDL_GameControllerGetAxis(pad, axis)) / 32767.0f;
}

// Radial dead zone, rescaled so the usable range still reaches 1.
void deadZone(float& x, float& y) {
    const float len = std::sqrt(x * x + y * y);
    if (len < kStickDeadZone) {
        x = y = 0.0f;
        return;
    }
    const float scaled = std::min(1.0f, (len - kStickDeadZone) / (1.0f - kStickDeadZone));
    x = x / len * scaled;
    y = y / len * scaled;
}

} // namespace

SdlInput::~SdlInput() { close(); }

void SdlInput::close() {
    for (SDL_GameController* pad : m_controllers) SDL_GameControllerClose(pad);
    m_controllers.clear();
}

void SdlInput::poll(InputState& state) {
    state.pressed_keys.clear();
    state.pressed_buttons.clear();
    state.mouse_moved = false;
    state.activity = false;
    state.wheel = 0;
    bool fire_button = false;
    SDL_Event event;
    while (SDL_PollEvent(&event) != 0) {
        switch (event.type) {
        case SDL_QUIT: state.quit = true; break;
        case SDL_KEYDOWN:
            if (event.key.repeat == 0) {
                state.pressed_keys.push_back(event.key.keysym.sym);
                if (event.key.keysym.sym == SDLK_ESCAPE) state.quit = true;
            }
            break;
        case SDL_MOUSEMOTION:
            state.mouse_x = event.motion.x;
            state.mouse_y = event.motion.y;
            state.mouse_seen = true;
            state.mouse_moved = true;
            break;
        case SDL_MOUSEWHEEL:
            state.wheel += event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -event.wheel.y : event.wheel.y;
            break;
        case SDL_CONTROLLERDEVICEADDED:
            if (SDL_GameController* pad = SDL_GameControllerOpen(event.cdevice.which))
                m_controllers.push_back(pad);
            break;
        case SDL_CONTROLLERDEVICEREMOVED:
            for (std::size_t i = 0; i < m_controllers.size(); ++i) {
                SDL_Joystick* joystick = SDL_GameControllerGetJoystick(m_controllers[i]);
                if (SDL_JoystickInstanceID(joystick) == event.cdevice.which) {
                    SDL_GameControllerClose(m_controllers[i]);
                    m_controllers.erase(m_controllers.begin() + static_cast<std::ptrdiff_t>(i));
                    break;
                }
            }
            break;
        case SDL_CONTROLLERBUTTONDOWN:
            state.pressed_buttons.push_back(static_cast<SDL_GameControllerButton>(event.cbutton.button));
            break;
        default: break;
        }
    }
    state.controllers = static_cast<int>(m_controllers.size());

    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    float mx = 0.0f, my = 0.0f;
    if (keys[SDL_SCANCODE_A] || keys[SDL_SCANCODE_LEFT]) mx -= 1.0f;
    if (keys[SDL_SCANCODE_D] || keys[SDL_SCANCODE_RIGHT]) mx += 1.0f;
    if (keys[SDL_SCANCODE_W] || keys[SDL_SCANCODE_UP]) my += 1.0f;
    if (keys[SDL_SCANCODE_S] || keys[SDL_SCANCODE_DOWN]) my -= 1.0f;
    fire_button = keys[SDL_SCANCODE_SPACE] != 0;
    if ((SDL_GetMouseState(nullptr, nullptr) & SDL_BUTTON_LMASK) != 0 && state.mouse_seen) fire_button = true;

    state.aim_x = state.aim_y = 0.0f;
    state.aim_stick = false;
    for (SDL_GameController* pad : m_controllers) {
        float lx = axisValue(pad, SDL_CONTROLLER_AXIS_LEFTX), ly = -axisValue(pad, SDL_CONTROLLER_AXIS_LEFTY);
        deadZone(lx, ly);
        mx += lx;
        my += ly;
        float rx = axisValue(pad, SDL_CONTROLLER_AXIS_RIGHTX),
              ry = -axisValue(pad, SDL_CONTROLLER_AXIS_RIGHTY);
        deadZone(rx, ry);
        if (rx != 0.0f || ry != 0.0f) {
            state.aim_x = rx;
            state.aim_y = ry;
            state.aim_stick = true;
        }
        if (axisValue(pad, SDL_CONTROLLER_AXIS_TRIGGERRIGHT) > kTriggerThreshold ||
            SDL_GameControllerGetButton(pad, SDL_CONTROLLER_BUTTON_A) != 0)
            fire_button = true;
    }
    const float len = std::sqrt(mx * mx + my * my);
    if (len > 1.0f) {
        mx /= len;
        my /= len;
    }
    state.move_x = mx;
    state.move_y = my;
    state.fire = fire_button;
    state.activity = mx != 0.0f || my != 0.0f || state.mouse_moved || state.aim_stick || fire_button;
}

} // namespace flak::platform

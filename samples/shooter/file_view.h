// The sample's file viewer (--view FILE): a baked blob (mesh, walls, sphere cluster) or a .walls
// level file, drawn from above where it was baked, with its BVH boxes on demand.
#pragma once

#include <flak/platform/sdl_app.h>

#include <string>

namespace flak::sample {

/// Shows `path` until the window closes; headless, draws it once into `screenshot`. Returns the
/// exit status (1 with `error` set when the file cannot be read, baked or loaded).
int runFileView(platform::SdlApp& app, const std::string& path, const std::string& screenshot, bool headless,
                std::string& error);

} // namespace flak::sample

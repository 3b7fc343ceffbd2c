# The README's frame example (the ```cpp block after "A frame with the World") must equal the
# lines of samples/hello/main.cpp between "// [readme-frame-begin]" and "// [readme-frame-end]",
# with the function body's indentation removed.
# Usage: cmake -DREADME=README.md -DSOURCE=samples/hello/main.cpp -P readme_excerpt.cmake
file(READ ${README} readme)
string(FIND "${readme}" "A frame with the World" at)
if(at LESS 0)
  message(FATAL_ERROR "README: no \"A frame with the World\" section")
endif()
string(SUBSTRING "${readme}" ${at} -1 readme)
string(FIND "${readme}" "```cpp\n" begin)
string(FIND "${readme}" "\n```\n" end)
if(begin LESS 0 OR end LESS begin)
  message(FATAL_ERROR "README: no cpp block after \"A frame with the World\"")
endif()
math(EXPR begin "${begin} + 7")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${readme}" ${begin} ${length} example)

file(READ ${SOURCE} source)
string(FIND "${source}" "// [readme-frame-begin]\n" begin)
string(FIND "${source}" "    // [readme-frame-end]" end)
if(begin LESS 0 OR end LESS begin)
  message(FATAL_ERROR "${SOURCE}: no readme-frame markers")
endif()
math(EXPR begin "${begin} + 24")
math(EXPR length "${end} - ${begin} - 1")
string(SUBSTRING "${source}" ${begin} ${length} excerpt)
# (CMake's "^" matches again after each replacement, so strip "\n" + four spaces only.)
string(REPLACE "\n    " "\n" excerpt "\n${excerpt}")
string(SUBSTRING "${excerpt}" 1 -1 excerpt)

if(NOT example STREQUAL excerpt)
  message(FATAL_ERROR "README's frame example differs from samples/hello/main.cpp's excerpt.\n"
                      "README:\n${example}\n--- excerpt:\n${excerpt}")
endif()
message(STATUS "README's frame example is samples/hello/main.cpp's excerpt")

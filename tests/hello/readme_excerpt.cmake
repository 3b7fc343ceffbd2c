# The README's frame example (the ```cpp block after "A frame with the World") must equal the
# lines of samples/hello/main.cpp between "// [readme-frame-begin]" and "// [readme-frame-end]",
# with the function body's indentation removed.
# Usage: cmake -DREADME=README.md -DSOURCE=samples/hello/main.cpp -P readme_excerpt.cmake

# out = the text of `text` between the first `open` and the next `close` after it (both left out).
function(text_between text open close what out)
  string(FIND "${text}" "${open}" begin)
  if(begin LESS 0)
    message(FATAL_ERROR "${what}: no \"${open}\"")
  endif()
  string(LENGTH "${open}" open_length)
  math(EXPR begin "${begin} + ${open_length}")
  string(SUBSTRING "${text}" ${begin} -1 rest)
  string(FIND "${rest}" "${close}" end)
  if(end LESS 0)
    message(FATAL_ERROR "${what}: no \"${close}\" after \"${open}\"")
  endif()
  string(SUBSTRING "${rest}" 0 ${end} between)
  set(${out} "${between}" PARENT_SCOPE)
endfunction()

file(READ ${README} readme)
text_between("${readme}" "A frame with the World" "\n```\n" "README" section)
text_between("${section}\n```\n" "```cpp\n" "\n```\n" "README" example)

file(READ ${SOURCE} source)
text_between("${source}" "// [readme-frame-begin]\n" "\n    // [readme-frame-end]" "${SOURCE}" excerpt)
# (CMake's "^" matches again after each replacement, so strip "\n" + four spaces only.)
string(REPLACE "\n    " "\n" excerpt "\n${excerpt}")
string(SUBSTRING "${excerpt}" 1 -1 excerpt)

if(NOT example STREQUAL excerpt)
  message(FATAL_ERROR "README's frame example differs from samples/hello/main.cpp's excerpt.\n"
                      "README:\n${example}\n--- excerpt:\n${excerpt}")
endif()
message(STATUS "README's frame example is samples/hello/main.cpp's excerpt")

# Writes build_info.h for the frame-budget runner's run metadata: the source commit (with
# "-dirty" when the tree has changes), compiler and flags. Run at every build (cmake -P); the file
# is rewritten only when its text changes, so an unchanged tree rebuilds nothing.
# -DSOURCE=<repository> -DOUT=<header> -DCOMPILER=<id version> -DFLAGS=<flags>
set(commit "unknown")
find_program(GIT git)
if(GIT AND EXISTS "${SOURCE}/.git")
  execute_process(COMMAND "${GIT}" -C "${SOURCE}" rev-parse --short=12 HEAD OUTPUT_VARIABLE head
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    set(commit "${head}")
    execute_process(COMMAND "${GIT}" -C "${SOURCE}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes ERROR_QUIET)
    if(changes)
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
string(STRIP "${FLAGS}" FLAGS)
string(REPLACE "\\" "\\\\" FLAGS "${FLAGS}")
string(REPLACE "\"" "\\\"" FLAGS "${FLAGS}")
set(text "// Written by build_info.cmake at build time: what the runner reports as its build.\n#pragma once\n#define FLAK_BUILD_COMMIT \"${commit}\"\n#define FLAK_BUILD_COMPILER \"${COMPILER}\"\n#define FLAK_BUILD_FLAGS \"${FLAGS}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

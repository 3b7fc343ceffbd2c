# flak_shooter's options: a number that is not the whole argument, or out of range, is a usage
# error (exit 2) named on stderr, found before any window opens.
# Usage: cmake -DSHOOTER=flak_shooter -P shooter_cli.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../support/cli_run.cmake)
foreach(bad "--size;10x10junk" "--size;-5x3" "--size;0x10" "--size;640" "--seed;-1" "--seed;4x" "--frames;0"
            "--frames;1.5" "--frames;99999999999999999999")
  expect_run(2 ${SHOOTER} --headless --screenshot unused.png ${bad})
  list(GET bad 0 option)
  if(NOT last_err MATCHES "${option} must be")
    message(FATAL_ERROR "${bad}: no clear refusal:\n${last_err}")
  endif()
endforeach()
message(STATUS "flak_shooter: bad numbers refused")

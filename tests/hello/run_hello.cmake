# flak_hello exits 0 (its own checks of the hits, the push-out and the query passed) and prints
# its summary line with the expected counts. Usage: cmake -DHELLO=flak_hello -P run_hello.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../support/cli_run.cmake)
expect_run(0 ${HELLO})
set(summary "hello: flak [0-9.]+, 8 triangles, 8 cluster spheres, 12 wall points; 3 hit\\(s\\), then 0; 0 dropped")
if(NOT last_out MATCHES "${summary}")
  message(FATAL_ERROR "flak_hello's summary differs:\n${last_out}")
endif()
message(STATUS "${last_out}")

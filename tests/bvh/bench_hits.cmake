# The benchmark's scenes on a real mesh, small counts: flak's hit counts must equal those of the
# peers that answer the very same question: Embree for spheres (its callback runs flak's
# kernel) and segments (closest hit, watertight), FCL for mesh-vs-mesh pairs and any contact.
# Bullet's and GImpact's counts are printed, not required: Bullet's ray test is not watertight
# and GImpact counts pairs its own way (docs/performance.md). A peer not built in is skipped.
# Usage: cmake -DBENCH=flak_bench -DMESH=PATH.obj -P bench_hits.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../support/cli_run.cmake)
set(checked 0)
foreach(scene sphere segment meshmesh)
  expect_run(0 ${BENCH} ${scene} --mesh ${MESH} --count 3000 --repeat 1 --json)
  string(REPLACE "\n" ";" lines "${last_out}")
  list(REMOVE_ITEM lines "")
  foreach(line IN LISTS lines)
    string(JSON name GET "${line}" scene)
    string(JSON flak_hits GET "${line}" flak_hits)
    foreach(peer embree fcl)
      string(JSON peer_hits ERROR_VARIABLE missing GET "${line}" ${peer}_hits)
      if(missing)
        continue()
      endif()
      if(NOT flak_hits EQUAL peer_hits)
        message(FATAL_ERROR "${name}: flak ${flak_hits} hits, ${peer} ${peer_hits}")
      endif()
      message(STATUS "${name}: flak ${flak_hits} hits = ${peer} ${peer_hits}")
      math(EXPR checked "${checked} + 1")
    endforeach()
  endforeach()
endforeach()
message(STATUS "${checked} hit counts equal to a peer's")

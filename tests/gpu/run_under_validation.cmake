# Runs PROGRAM (with ARGS, ';'-separated) and fails on any validation-layer message in its output
# except the known best-practices advice of docs/gpu.md. Exit 0 or 3 (the frame-budget runner's
# FAIL verdict) is the program's own result. The test's environment names the layer and asks the
# loader to say which layers it inserts (VK_LOADER_DEBUG=layer): no message means nothing unless
# the layer was there. cmake -DPROGRAM=... -DARGS=... -P run_under_validation.cmake
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 AND NOT rc EQUAL 3)
  message(FATAL_ERROR "${PROGRAM} exited ${rc}:\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "Insert instance layer \"VK_LAYER_KHRONOS_validation\"")
  message(FATAL_ERROR "the validation layer was not loaded (Debian: vulkan-validationlayers):\n${err}")
endif()
set(known "UNASSIGNED-BestPractices-vkBindMemory-small-dedicated-allocation"
          "UNASSIGNED-BestPractices-vkCreateInstance-specialuse-extension-debugging")
string(REPLACE "\n" ";" lines "${out}\n${err}")
set(seen 0)
foreach(line IN LISTS lines)
  if(line MATCHES "Validation|SYNC-HAZARD|BestPractices")
    set(is_known FALSE)
    foreach(id IN LISTS known)
      string(FIND "${line}" "${id}" at)
      if(NOT at EQUAL -1)
        set(is_known TRUE)
      endif()
    endforeach()
    if(NOT is_known)
      message(SEND_ERROR "validation: ${line}")
    endif()
    math(EXPR seen "${seen} + 1")
  endif()
endforeach()
message(STATUS "${seen} validation message(s), all known advice")

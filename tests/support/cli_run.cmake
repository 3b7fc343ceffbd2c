# Shared by the command-line test scripts (cmake -P): expect_run(RC COMMAND...) runs a command,
# fails the test unless it exits with RC, and leaves its stdout and stderr in last_out / last_err.
function(expect_run expected_rc)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "expected exit ${expected_rc}, got ${rc}: ${ARGN}\n${out}\n${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

# expect_refusal(REGEX COMMAND...): the command exits 1, says why on stderr (matching REGEX), and
# writes no output: the path after -o, if it did not exist before, still does not.
function(expect_refusal regex)
  set(output "")
  list(FIND ARGN "-o" at)
  if(at GREATER -1)
    math(EXPR at "${at} + 1")
    list(GET ARGN ${at} output)
    if(EXISTS "${output}")
      set(output "") # it was there before: not this command's output
    endif()
  endif()
  expect_run(1 ${ARGN})
  if(NOT last_err MATCHES "${regex}")
    message(FATAL_ERROR "no clear refusal (expected '${regex}'): ${ARGN}\n${last_err}")
  endif()
  if(output AND EXISTS "${output}")
    message(FATAL_ERROR "a refused command wrote its output ${output}: ${ARGN}")
  endif()
  set(last_err "${last_err}" PARENT_SCOPE)
endfunction()

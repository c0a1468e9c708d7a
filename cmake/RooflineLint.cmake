# RooflineLint.cmake - roofline-lint as a build check, the way projects add
# clang-tidy.
#
#   list(APPEND CMAKE_MODULE_PATH "<roofline-lint>/cmake")
#   include(RooflineLint)
#   add_library(kernels kernels/gemm.cpp kernels/axpy.cpp)
#   roofline_lint(TARGET kernels
#                 [MACHINE t4] [MODEL compulsory]
#                 [FAIL_ON memory-bound unanalyzable ...]
#                 [FORMAT text|json|sarif] [OUTPUT file]
#                 [CONFIG_FILE file] [BASELINE file] [JOBS n]
#                 [CHECK_TARGET name] [ARGS extra roofline-lint arguments ...]
#                 [ALL])
#
# adds the custom target roofline-lint-<TARGET> (or CHECK_TARGET) running
#
#   roofline-lint -p ${CMAKE_BINARY_DIR} [options] <TARGET's C/C++/CUDA sources>
#
# from CMAKE_SOURCE_DIR (so SARIF paths are relative to the source tree, and
# the .roofline.yaml files there apply). The target fails when roofline-lint
# exits non-zero: 1 for a policy hit, 2 for a usage, config or compile
# error. ALL adds it to the default build. Every check target is also a
# dependency of `roofline-lint-check`.
#
# The tool is found on PATH or given with -DROOFLINE_LINT_EXECUTABLE=...;
# compile commands come from compile_commands.json, which this module turns
# on (CMAKE_EXPORT_COMPILE_COMMANDS, and EXPORT_COMPILE_COMMANDS on TARGET).

include_guard(GLOBAL)

if(NOT DEFINED CMAKE_EXPORT_COMPILE_COMMANDS)
  set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
endif()

find_program(ROOFLINE_LINT_EXECUTABLE roofline-lint
  DOC "roofline-lint, for the roofline_lint() check targets")

function(roofline_lint)
  cmake_parse_arguments(PARSE_ARGV 0 RL "ALL"
    "TARGET;MACHINE;MODEL;FORMAT;OUTPUT;CONFIG_FILE;BASELINE;JOBS;CHECK_TARGET"
    "FAIL_ON;ARGS")
  if(RL_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "roofline_lint: unknown arguments: ${RL_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT RL_TARGET)
    message(FATAL_ERROR "roofline_lint: TARGET is required")
  endif()
  if(NOT TARGET ${RL_TARGET})
    message(FATAL_ERROR "roofline_lint: '${RL_TARGET}' is not a target")
  endif()
  if(NOT ROOFLINE_LINT_EXECUTABLE)
    message(FATAL_ERROR "roofline_lint: roofline-lint not found; put it on "
                        "PATH or set ROOFLINE_LINT_EXECUTABLE")
  endif()

  # The target's compilable sources, as absolute paths.
  get_target_property(sources ${RL_TARGET} SOURCES)
  get_target_property(source_dir ${RL_TARGET} SOURCE_DIR)
  set(files "")
  foreach(src IN LISTS sources)
    if(src MATCHES "\\$<")
      continue() # generator expressions: not known at configure time
    endif()
    get_filename_component(ext "${src}" LAST_EXT)
    if(NOT ext MATCHES "^\\.(c|cc|cpp|cxx|cu)$")
      continue()
    endif()
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${source_dir}/${src}")
    endif()
    list(APPEND files "${src}")
  endforeach()
  if(NOT files)
    message(FATAL_ERROR "roofline_lint: '${RL_TARGET}' has no C, C++ or CUDA source")
  endif()
  set_property(TARGET ${RL_TARGET} PROPERTY EXPORT_COMPILE_COMMANDS ON)

  set(cmd "${ROOFLINE_LINT_EXECUTABLE}" -p "${CMAKE_BINARY_DIR}")
  if(RL_MACHINE)
    list(APPEND cmd "--machine=${RL_MACHINE}")
  endif()
  if(RL_MODEL)
    list(APPEND cmd "--model=${RL_MODEL}")
  endif()
  if(RL_FAIL_ON)
    string(REPLACE ";" "," fail_on "${RL_FAIL_ON}")
    list(APPEND cmd "--fail-on=${fail_on}")
  endif()
  if(RL_FORMAT)
    list(APPEND cmd "--format=${RL_FORMAT}")
  endif()
  if(RL_OUTPUT)
    if(NOT IS_ABSOLUTE "${RL_OUTPUT}")
      set(RL_OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/${RL_OUTPUT}")
    endif()
    list(APPEND cmd -o "${RL_OUTPUT}")
  endif()
  if(RL_CONFIG_FILE)
    get_filename_component(RL_CONFIG_FILE "${RL_CONFIG_FILE}" ABSOLUTE)
    list(APPEND cmd "--config-file=${RL_CONFIG_FILE}")
  endif()
  if(RL_BASELINE)
    get_filename_component(RL_BASELINE "${RL_BASELINE}" ABSOLUTE)
    list(APPEND cmd "--baseline=${RL_BASELINE}")
  endif()
  if(RL_JOBS)
    list(APPEND cmd -j "${RL_JOBS}")
  endif()
  list(APPEND cmd ${RL_ARGS} ${files})

  set(name "${RL_CHECK_TARGET}")
  if(NOT name)
    set(name "roofline-lint-${RL_TARGET}")
  endif()
  set(all "")
  if(RL_ALL)
    set(all ALL)
  endif()
  add_custom_target(${name} ${all}
    COMMAND ${cmd}
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "roofline-lint: checking ${RL_TARGET}"
    VERBATIM)
  if(NOT TARGET roofline-lint-check)
    add_custom_target(roofline-lint-check)
  endif()
  add_dependencies(roofline-lint-check ${name})
endfunction()

# RooflineLint.cmake - roofline-lint as a build check, the way projects add
# clang-tidy (docs/ci.md#cmake).
#
#   find_package(RooflineLint)            # an installed roofline-lint, or:
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
# the .roofline.yaml files there apply). With OUTPUT, the findings are
# printed in the build log as text whatever FORMAT says, and the FORMAT
# report goes to OUTPUT from the same run. The check is a custom command with a stamp file: it runs again
# only when the target's sources (or the config, baseline, tool, compile
# commands) change, and until it passes. The target fails when roofline-lint
# exits non-zero: 1 for a policy hit, 2 for a usage, config or compile
# error. ALL adds it to the default build. Every check target is also a
# dependency of `roofline-lint-check`.
#
# The tool is found on PATH or given with -DROOFLINE_LINT_EXECUTABLE=...
# (find_package(RooflineLint) sets it to the installed one). Without it,
# configuring still works: a status message says so, and the check targets
# fail with that message when built. Compile commands come from
# compile_commands.json, which this module turns on
# (CMAKE_EXPORT_COMPILE_COMMANDS, and EXPORT_COMPILE_COMMANDS on TARGET).

include_guard(GLOBAL)

if(NOT DEFINED CMAKE_EXPORT_COMPILE_COMMANDS)
  set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
endif()

find_program(ROOFLINE_LINT_EXECUTABLE roofline-lint
  DOC "roofline-lint, for the roofline_lint() check targets")
if(ROOFLINE_LINT_EXECUTABLE)
  message(STATUS "roofline-lint: ${ROOFLINE_LINT_EXECUTABLE}")
else()
  message(STATUS "roofline-lint: not found (put it on PATH or set "
                 "ROOFLINE_LINT_EXECUTABLE); the roofline_lint() check "
                 "targets will say so when built")
endif()

# The .roofline.yaml files that may govern a source: in its directory and
# above, up to the source tree's root.
function(_roofline_lint_configs out)
  set(configs "")
  foreach(file IN LISTS ARGN)
    get_filename_component(dir "${file}" DIRECTORY)
    while(dir MATCHES "^${CMAKE_SOURCE_DIR}")
      if(EXISTS "${dir}/.roofline.yaml")
        list(APPEND configs "${dir}/.roofline.yaml")
      endif()
      get_filename_component(parent "${dir}" DIRECTORY)
      if(parent STREQUAL dir)
        break()
      endif()
      set(dir "${parent}")
    endwhile()
  endforeach()
  list(REMOVE_DUPLICATES configs)
  set(${out} "${configs}" PARENT_SCOPE)
endfunction()

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
  if(RL_FORMAT AND NOT RL_FORMAT MATCHES "^(text|json|sarif)$")
    message(FATAL_ERROR "roofline_lint: FORMAT must be text, json or sarif")
  endif()

  # The target's compilable sources, as absolute paths, and its headers
  # (a change to one re-runs the check too).
  get_target_property(sources ${RL_TARGET} SOURCES)
  get_target_property(source_dir ${RL_TARGET} SOURCE_DIR)
  set(files "")
  set(depends "")
  foreach(src IN LISTS sources)
    if(src MATCHES "\\$<")
      continue() # generator expressions: not known at configure time
    endif()
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${source_dir}/${src}")
    endif()
    get_filename_component(ext "${src}" LAST_EXT)
    if(ext MATCHES "^\\.(c|cc|cpp|cxx|cu)$")
      list(APPEND files "${src}")
      list(APPEND depends "${src}")
    elseif(ext MATCHES "^\\.(h|hh|hpp|hxx|cuh|inl|inc)$")
      list(APPEND depends "${src}")
    endif()
  endforeach()
  if(NOT files)
    message(FATAL_ERROR "roofline_lint: '${RL_TARGET}' has no C, C++ or CUDA source")
  endif()
  set_property(TARGET ${RL_TARGET} PROPERTY EXPORT_COMPILE_COMMANDS ON)

  set(name "${RL_CHECK_TARGET}")
  if(NOT name)
    set(name "roofline-lint-${RL_TARGET}")
  endif()
  if(NOT TARGET roofline-lint-check)
    add_custom_target(roofline-lint-check)
  endif()

  if(NOT ROOFLINE_LINT_EXECUTABLE)
    # Configuring must not need the tool; building the check does.
    add_custom_target(${name}
      COMMAND "${CMAKE_COMMAND}" -E echo
              "roofline-lint: not found: put it on PATH or set ROOFLINE_LINT_EXECUTABLE, then re-run cmake"
      COMMAND "${CMAKE_COMMAND}" -E false
      VERBATIM)
    add_dependencies(roofline-lint-check ${name})
    return()
  endif()

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
  # The findings always go to the build log as text; a report in another
  # format (or a text copy) goes to OUTPUT too, from the same run.
  set(format "${RL_FORMAT}")
  if(NOT format)
    set(format text)
  endif()
  set(byproducts "")
  if(RL_OUTPUT)
    if(NOT IS_ABSOLUTE "${RL_OUTPUT}")
      set(RL_OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/${RL_OUTPUT}")
    endif()
    list(APPEND cmd "--output=text:-,${format}:${RL_OUTPUT}")
    list(APPEND byproducts "${RL_OUTPUT}")
  else()
    list(APPEND cmd "--format=${format}") # the report itself in the log
  endif()
  if(RL_CONFIG_FILE)
    get_filename_component(RL_CONFIG_FILE "${RL_CONFIG_FILE}" ABSOLUTE)
    list(APPEND cmd "--config-file=${RL_CONFIG_FILE}")
    list(APPEND depends "${RL_CONFIG_FILE}")
  endif()
  if(RL_BASELINE)
    get_filename_component(RL_BASELINE "${RL_BASELINE}" ABSOLUTE)
    list(APPEND cmd "--baseline=${RL_BASELINE}")
    list(APPEND depends "${RL_BASELINE}")
  endif()
  if(RL_JOBS)
    list(APPEND cmd -j "${RL_JOBS}")
  endif()
  list(APPEND cmd ${RL_ARGS} ${files})

  _roofline_lint_configs(configs ${files})
  list(APPEND depends ${configs})
  if(CMAKE_EXPORT_COMPILE_COMMANDS)
    list(APPEND depends "${CMAKE_BINARY_DIR}/compile_commands.json")
  endif()
  if(IS_ABSOLUTE "${ROOFLINE_LINT_EXECUTABLE}")
    list(APPEND depends "${ROOFLINE_LINT_EXECUTABLE}")
  endif()

  set(all "")
  if(RL_ALL)
    set(all ALL)
  endif()
  # The stamp is written only when the check passes: a failing check runs
  # again on the next build, a passing one only after a change.
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${name}.stamp")
  add_custom_command(OUTPUT "${stamp}"
    COMMAND ${cmd}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${depends}
    BYPRODUCTS ${byproducts}
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "roofline-lint: checking ${RL_TARGET}"
    VERBATIM)
  add_custom_target(${name} ${all} DEPENDS "${stamp}")
  add_dependencies(roofline-lint-check ${name})
endfunction()

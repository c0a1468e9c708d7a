# Inputs/project's library with an installed roofline-lint found as a CMake
# package (test/Integration/cmake-module.test).
cmake_minimum_required(VERSION 3.20)
project(rooflinepackage CXX)
find_package(RooflineLint 0.1 REQUIRED)

add_library(kernels STATIC src/gemm.cpp src/axpy.cpp include/sizes.h)
target_include_directories(kernels PRIVATE include)
target_compile_definitions(kernels PRIVATE GEMM_N=512)
roofline_lint(TARGET kernels MACHINE t4 ARGS --no-source)
get_target_property(exe RooflineLint::roofline-lint IMPORTED_LOCATION)
message(STATUS "imported roofline-lint: ${exe}")

# Fails when a source file includes a header of a higher layer (run by ctest as LayerDirection).
# Usage: cmake -DROOT=<source dir> -P cmake/check_layers.cmake
#
# The layers, lowest first; each may include itself and every layer listed before it, except that
# solvers and search are siblings, and so are cli and python: neither of a pair includes the other.
cmake_minimum_required(VERSION 3.25)
set(layers engine solvers search agents experiments play cli python)
set(allowed_engine engine)
set(allowed_solvers engine solvers)
set(allowed_search engine search)
set(allowed_agents engine solvers search agents)
set(allowed_experiments engine solvers search agents experiments)
set(allowed_play engine solvers search agents experiments play)
set(allowed_cli engine solvers search agents experiments play cli)
# python/ (the `import sling` extension) sits on play/, beside cli/: the command line and the module
# share everything below them and neither includes the other.
set(allowed_python engine solvers search agents experiments play python)

set(violations "")
foreach(layer IN LISTS layers)
  file(GLOB_RECURSE sources "${ROOT}/${layer}/*.h" "${ROOT}/${layer}/*.cpp")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^#include \"[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" target "${line}")
      if(NOT target IN_LIST layers)
        continue()
      endif()
      if(NOT target IN_LIST allowed_${layer})
        file(RELATIVE_PATH relative "${ROOT}" "${source}")
        string(APPEND violations "  ${relative} (${layer}) includes ${target}/: ${line}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "A lower layer includes a higher one:\n${violations}")
endif()
message(STATUS "Layer direction: every include goes downwards")

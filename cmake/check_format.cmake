# Fails when a C++ source file differs from what clang-format makes of it under the committed
# .clang-format (run by ctest as Formatting; ./sling-test installs clang-format).
# Usage: cmake -DROOT=<source dir> -P cmake/check_format.cmake
cmake_minimum_required(VERSION 3.25)
find_program(clang_format clang-format)
if(NOT clang_format)
  message(FATAL_ERROR "clang-format is missing: ./sling-test installs it (apt-get install clang-format)")
endif()
set(folders engine solvers search agents experiments play cli python tests bench fuzz examples)
set(sources "")
foreach(folder IN LISTS folders)
  file(GLOB_RECURSE found "${ROOT}/${folder}/*.h" "${ROOT}/${folder}/*.cpp")
  list(APPEND sources ${found})
endforeach()
list(LENGTH sources count)
if(count EQUAL 0)
  message(FATAL_ERROR "no C++ sources found under ${ROOT}")
endif()
execute_process(COMMAND "${clang_format}" --dry-run --Werror --style=file ${sources}
                WORKING_DIRECTORY "${ROOT}"
                RESULT_VARIABLE status ERROR_VARIABLE complaints)
if(NOT status EQUAL 0)
  string(REGEX MATCHALL "${ROOT}/[^:\n]+:[0-9]+" places "${complaints}")
  list(REMOVE_DUPLICATES places)
  string(REPLACE "${ROOT}/" "" places "${places}")
  string(REPLACE ";" "\n  " places "${places}")
  message(FATAL_ERROR "not formatted as .clang-format says (clang-format -i FILE fixes it):\n  ${places}")
endif()
message(STATUS "${count} C++ files formatted as .clang-format says")

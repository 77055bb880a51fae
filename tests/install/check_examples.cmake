# Builds every program of examples/ against the installed kinema package and runs it.
#
# Installs the build tree into a scratch prefix, configures examples/ (the top-level
# examples/CMakeLists.txt, which adds every folder) against it with
# find_package(kinema), builds with -Wall -Wextra -Wconversion -Wsign-conversion
# -Werror, and runs each folder's program (examples/NAME builds NAME); any that is
# missing or exits non-zero fails the test. The playback example also runs on MODEL
# when that file exists. Each folder is then configured on its own, as a standalone
# project.
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX_COMPILER, MODEL.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()

set(configure_args -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                   -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                   "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Wconversion -Wsign-conversion -Werror")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/build ${configure_args}
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring examples/ against the installed package failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "an example does not build against the installed package (errors above)")
endif()

# Every folder with a CMakeLists.txt is an example whose program has its name.
file(GLOB lists RELATIVE ${SOURCE_DIR}/examples ${SOURCE_DIR}/examples/*/CMakeLists.txt)
set(names "")
foreach(list IN LISTS lists)
  get_filename_component(name ${list} DIRECTORY)
  list(APPEND names ${name})
endforeach()
list(LENGTH names count)
if(count EQUAL 0)
  message(FATAL_ERROR "no example folder found in ${SOURCE_DIR}/examples")
endif()

# `character` needs a glTF file; the others run without arguments.
set(runs "")
foreach(name IN LISTS names)
  if(NOT name STREQUAL "character")
    list(APPEND runs "${name}")
  endif()
endforeach()
if(EXISTS "${MODEL}")
  list(APPEND runs "playback|${MODEL}" "character|${MODEL}")
else()
  message("SKIPPED running playback and character on a glTF file: ${MODEL} is not there (set KINEMA_ASSETS)")
endif()

set(failed "")
foreach(run IN LISTS runs)
  string(REPLACE "|" ";" run "${run}")
  list(POP_FRONT run name)
  set(program ${WORK_DIR}/build/${name}/${name})
  string(JOIN " " command ${name} ${run})
  if(NOT EXISTS ${program})
    message("${command}: not built (is examples/${name} added by examples/CMakeLists.txt?)")
    list(APPEND failed "${name} (not built)")
    continue()
  endif()
  execute_process(COMMAND ${program} ${run} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc
                  TIMEOUT 120)
  string(STRIP "${out}${err}" printed)
  string(REPLACE "\n" "\n  " printed "${printed}")
  message("${command}: exit ${rc}\n  ${printed}")
  if(NOT rc EQUAL 0)
    list(APPEND failed "${command} (${rc})")
  endif()
endforeach()

# A clip name the file lacks is refused with what was refused, not a bare exit 1.
if(EXISTS "${MODEL}" AND EXISTS ${WORK_DIR}/build/character/character)
  execute_process(COMMAND ${WORK_DIR}/build/character/character ${MODEL} Walk OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 120)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "play 'Walk': no clip of this name")
    message("character ${MODEL} Walk: exit ${rc}, said: ${out}${err}")
    list(APPEND failed "character with an unknown clip name")
  endif()
endif()

# Each folder is a project of its own too.
foreach(name IN LISTS names)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/${name} -B ${WORK_DIR}/alone/${name}
                          ${configure_args}
                  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message("examples/${name} does not configure on its own:\n${err}")
    list(APPEND failed "${name} (standalone configure)")
  endif()
endforeach()
if(failed)
  string(REPLACE ";" ", " failed "${failed}")
  message(FATAL_ERROR "examples failed: ${failed}")
endif()
message("${count} examples built with -Wall -Wextra -Wconversion -Wsign-conversion -Werror and ran")

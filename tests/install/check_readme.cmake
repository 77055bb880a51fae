# Builds every ```cpp block of README.md as a program against the installed kinema
# package (find_package(kinema), -Wall -Wextra -Wconversion -Wsign-conversion
# -Werror) and runs it, so that the README's examples compile as shown and keep working.
#
# Each block is a whole program whose first line is "// NAME.cpp: what it shows".
# A block that reads argv[1] is run with MODEL as its argument; when MODEL is absent
# that run is skipped with a message (the program is still built). Compiler errors
# point at README.md lines (#line). Any block that fails to build, or exits non-zero,
# fails the test.
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX_COMPILER, MODEL.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()

# The blocks: from a line "```cpp" to the next line starting "```". The text is
# handled with string(FIND/SUBSTRING) only, never as a list (C++ has semicolons).
set(readme_path ${SOURCE_DIR}/README.md)
file(READ ${readme_path} readme)
set(project_dir ${WORK_DIR}/readme)
set(names "")
set(model_names "")
set(offset 0)
set(fence "```cpp\n")
string(LENGTH "${fence}" fence_length)
while(TRUE)
  string(SUBSTRING "${readme}" ${offset} -1 tail)
  string(FIND "${tail}" "${fence}" start)
  if(start EQUAL -1)
    break()
  endif()
  math(EXPR body "${offset} + ${start} + ${fence_length}")
  # The README line of the block's first line of code, for #line.
  string(SUBSTRING "${readme}" 0 ${body} before)
  string(REGEX REPLACE "[^\n]" "" newlines "${before}")
  string(LENGTH "${newlines}" line)
  math(EXPR line "${line} + 1")
  string(SUBSTRING "${readme}" ${body} -1 tail)
  string(FIND "${tail}" "\n```" length)
  if(length EQUAL -1)
    message(FATAL_ERROR "README.md:${line}: the ```cpp block is not closed")
  endif()
  string(SUBSTRING "${tail}" 0 ${length} code)
  math(EXPR offset "${body} + ${length} + 4")

  if(NOT code MATCHES "^// ([A-Za-z0-9_]+)\\.cpp")
    message(FATAL_ERROR "README.md:${line}: a ```cpp block must start with \"// NAME.cpp: ...\" "
                        "naming the program")
  endif()
  set(name ${CMAKE_MATCH_1})
  if(name IN_LIST names)
    message(FATAL_ERROR "README.md:${line}: a second block named ${name}.cpp")
  endif()
  list(APPEND names ${name})
  string(FIND "${code}" "argv[1]" uses_model)
  if(NOT uses_model EQUAL -1)
    list(APPEND model_names ${name})
  endif()
  file(WRITE ${project_dir}/${name}.cpp "#line ${line} \"${readme_path}\"\n${code}\n")
endwhile()
list(LENGTH names count)
if(count EQUAL 0)
  message(FATAL_ERROR "no ```cpp block found in ${readme_path}")
endif()
string(REPLACE ";" ", " listed "${names}")
message("README.md: ${count} C++ examples: ${listed}")

# A consumer project with one program per block.
string(CONCAT lists "cmake_minimum_required(VERSION 3.25)\nproject(kinema_readme LANGUAGES CXX)\n"
                    "find_package(kinema 0.1 REQUIRED)\n")
foreach(name IN LISTS names)
  string(APPEND lists "add_executable(${name} ${name}.cpp)\n"
                      "target_link_libraries(${name} PRIVATE kinema::kinema)\n"
                      "target_compile_options(${name} PRIVATE -Wall -Wextra -Wconversion -Wsign-conversion -Werror)\n")
endforeach()
file(WRITE ${project_dir}/CMakeLists.txt "${lists}")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${project_dir} -B ${project_dir}/build
                        -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the README examples against the installed package failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${project_dir}/build --parallel 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a README example does not build (the errors above name its README.md line)")
endif()

set(failed "")
foreach(name IN LISTS names)
  set(args "")
  if(name IN_LIST model_names)
    if(NOT EXISTS "${MODEL}")
      message("SKIPPED running ${name}: it needs a model and ${MODEL} is not there (set KINEMA_ASSETS)")
      continue()
    endif()
    set(args "${MODEL}")
  endif()
  execute_process(COMMAND ${project_dir}/build/${name} ${args} OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc TIMEOUT 120)
  string(STRIP "${out}${err}" printed)
  string(JOIN " " command ${name} ${args})
  message("${command}: exit ${rc}\n  ${printed}")
  if(NOT rc EQUAL 0)
    list(APPEND failed "${name} (${rc})")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "README examples failed: ${failed}")
endif()

# Installs the kinema build tree into a scratch prefix, builds examples/hello_world
# against the installed package with find_package(kinema), and runs it.
# Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX_COMPILER.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/hello_world -B ${WORK_DIR}/hello
                        -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring hello_world against the installed package failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/hello RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building hello_world failed: ${rc}")
endif()
execute_process(COMMAND ${WORK_DIR}/hello/hello_world OUTPUT_VARIABLE out RESULT_VARIABLE rc)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hello_world exited with ${rc}")
endif()
if(NOT out MATCHES "t=1.0 elbow rotation z=0.7071 w=0.7071")
  message(FATAL_ERROR "hello_world printed an unexpected pose")
endif()

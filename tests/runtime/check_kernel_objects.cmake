# The kernel files (src/runtime/kernels/kernels_<set>.cpp) are compiled with their
# instruction set's flags. Any inline function or template they emit out of line is
# a weak symbol the linker may pick for every caller, baseline code included, which
# would then run AVX2 or AVX-512 code on a CPU without it (docs/SIMD.md). So no
# kernel object may define visible code: its functions are all local, reached only
# through its kernel table. (Visible data is harmless and expected: the table, and
# the type descriptors UBSan's function check emits as weak objects.)
#
#   cmake -DNM=<nm> -DOBJECTS=<list of the runtime library's objects> -P check_kernel_objects.cmake
if(NOT NM OR NOT OBJECTS)
  message(FATAL_ERROR "check_kernel_objects.cmake: NM and OBJECTS must be set")
endif()
set(checked 0)
set(offending "")
foreach(object IN LISTS OBJECTS)
  if(NOT object MATCHES "kernels_[a-z0-9]+\\.cpp\\.o(bj)?$")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  execute_process(COMMAND ${NM} --defined-only ${object}
    OUTPUT_VARIABLE symbols ERROR_VARIABLE nm_error RESULT_VARIABLE nm_result)
  if(NOT nm_result EQUAL 0)
    message(FATAL_ERROR "${NM} failed on ${object}: ${nm_error}")
  endif()
  string(REPLACE "\n" ";" lines "${symbols}")
  foreach(line IN LISTS lines)
    # "<address> <type> <name>": T global code, W and w weak code (or weak data
    # not marked as an object), i an indirect function; t is local code.
    if(NOT line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) (.+)$")
      continue()
    endif()
    set(type "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    if(NOT type MATCHES "^[TWwi]$")
      continue()
    endif()
    # The sanitizers' own module constructors and bookkeeping are not kernel code.
    if(name MATCHES "(asan|ubsan|sancov)")
      continue()
    endif()
    string(APPEND offending "\n  ${object}: ${type} ${name}")
  endforeach()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "check_kernel_objects.cmake: no kernel object among the ${OBJECTS}")
endif()
if(offending)
  message(FATAL_ERROR "kernel objects define visible code (an inline function or template compiled with a wider "
                      "instruction set, which the linker may use for baseline callers):${offending}")
endif()
message(STATUS "${checked} kernel objects define no visible code")

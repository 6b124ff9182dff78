# Fails when `gpusim params --reference` differs from the committed docs/config-reference.md.
execute_process(COMMAND ${GPUSIM} params --reference OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpusim params --reference failed (${rc})")
endif()
file(READ ${EXPECTED} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${EXPECTED} is stale: regenerate it with\n  ./build/gpusim params --reference > docs/config-reference.md")
endif()

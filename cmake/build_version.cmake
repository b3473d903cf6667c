# Writes OUTPUT, a header with the project's VERSION and the commit the
# build is made from (git describe of SOURCE; "unknown" outside a git
# checkout). Run at every build; the header is rewritten only when it
# changes, so that nothing rebuilds for nothing.
execute_process(COMMAND git -C "${SOURCE}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE status ERROR_QUIET)
if(NOT status EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "// Generated at build time: this build's version and commit.\n#pragma once\n#define D3DCAP_VERSION \"${VERSION}\"\n#define D3DCAP_BUILD_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()

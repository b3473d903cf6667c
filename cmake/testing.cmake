# d3dcap_add_output_test(NAME name STATUS code OUTPUT regex COMMAND command args...)
# A test of a command's exit status and output together: the command must exit
# with STATUS and print (stdout and stderr) something that REGEX matches.
# ctest's PASS_REGULAR_EXPRESSION alone would ignore the exit status.
function(d3dcap_add_output_test)
  cmake_parse_arguments(PARSE_ARGV 0 test "" "NAME;STATUS;OUTPUT" "COMMAND")
  if(NOT DEFINED test_NAME OR NOT DEFINED test_STATUS OR NOT DEFINED test_OUTPUT
     OR NOT test_COMMAND)
    message(FATAL_ERROR "d3dcap_add_output_test needs NAME, STATUS, OUTPUT and COMMAND")
  endif()
  add_test(NAME ${test_NAME}
           COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/tests/tools/expect-output
                   ${test_STATUS} "${test_OUTPUT}" -- ${test_COMMAND})
endfunction()

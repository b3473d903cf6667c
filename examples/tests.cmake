# The examples' tests: each runs a program and checks its output (or a
# capture and replay of it); included from CMakeLists.txt with BUILD_TESTING.

# The tile traffic of the default run; the null device tracks the same
# mappings but keeps no texels, so only the checksum differs there.
set(tiled_streaming_counts
    "mapped 1000 unmapped 820 uploaded 915 tiles \\(57\\.2 MiB\\), 11 decals, pool peak 384 final 320 tiles \\(grown 5x, shrunk 1x, 78 tiles moved\\), clipmap scrolled 7x")
set(tiled_streaming_tests
    "example: tiled_streaming runs 12 frames on the reference device"
    "example: tiled_streaming emits its markers on the reference device"
    "example: tiled_streaming runs 12 frames on the null device")
d3dcap_add_output_test(NAME "example: tiled_streaming runs 12 frames on the reference device"
  STATUS 0 COMMAND $<TARGET_FILE:tiled_streaming> --quiet
  OUTPUT "^summary: 12 frames, ${tiled_streaming_counts}, checksum 0xab2f5802\n$")
# --markers takes the path a capture tool turns on (IsAnnotationEnabled).
d3dcap_add_output_test(NAME "example: tiled_streaming emits its markers on the reference device"
  STATUS 0 COMMAND $<TARGET_FILE:tiled_streaming> --quiet --markers
  OUTPUT "^summary: 12 frames, ${tiled_streaming_counts}, checksum 0xab2f5802\n$")
d3dcap_add_output_test(NAME "example: tiled_streaming runs 12 frames on the null device"
  STATUS 0 COMMAND $<TARGET_FILE:tiled_streaming> --driver null
  OUTPUT "\nsummary: 12 frames, ${tiled_streaming_counts}, checksum 0x[0-9a-f]+\n$")
# With D3DCAP_DEBUG_MESSAGES=1 the runtime reports every call it rejects or
# drops on stderr; a correct program causes none.
set_tests_properties(${tiled_streaming_tests} PROPERTIES
  ENVIRONMENT "D3DCAP_DEBUG_MESSAGES=1"
  FAIL_REGULAR_EXPRESSION "d3dcap:"
  LABELS example)

# Every draw runs (D3DCAP_DEBUG_MESSAGES=1 would print any the device refused
# before the summary); the counts come from the device's SO statistics and
# pipeline-statistics queries (on lavapipe where there is no GPU), under the
# validation layer with synchronization validation, whose every message fails.
d3dcap_add_output_test(NAME "example: stages streams, tessellates and draws 6 frames on the hardware device"
  STATUS 0 COMMAND $<TARGET_FILE:stages> --quiet
  OUTPUT "^summary: 6 frames on the hardware device, 384 particles streamed, 278 ground triangles, checksum 0x[0-9a-f]+\n$")
set_tests_properties("example: stages streams, tessellates and draws 6 frames on the hardware device"
  PROPERTIES ENVIRONMENT "D3DCAP_DEBUG_MESSAGES=1;LP_NUM_THREADS=2;D3DCAP_VULKAN_VALIDATION=1"
  FAIL_REGULAR_EXPRESSION "vulkan: Validation" LABELS example)

# On the default (hardware) device every draw runs: with D3DCAP_DEBUG_MESSAGES=1
# a refused call would print before the summary, and under the validation
# layer any message fails. The checksum differs between devices (the
# reference and null devices draw nothing, GPUs may round blends apart), so
# only its form is checked.
d3dcap_add_output_test(NAME "example: immediate_ui draws 3 frames on the hardware device"
  STATUS 0 COMMAND $<TARGET_FILE:immediate_ui> --frames 3
  OUTPUT "^frame 0: [^\n]*\nframe 1: [^\n]*\nframe 2: [^\n]*\nsummary: 3 frames on the hardware device, 5 draws a frame, checksum 0x[0-9a-f]+\n$")
set_tests_properties("example: immediate_ui draws 3 frames on the hardware device" PROPERTIES
  ENVIRONMENT "D3DCAP_DEBUG_MESSAGES=1;LP_NUM_THREADS=2;D3DCAP_VULKAN_VALIDATION=1"
  FAIL_REGULAR_EXPRESSION "d3dcap:;vulkan: Validation" LABELS example)
# Captured with content hashes and replayed with --verify: on the reference
# device (which runs no draws, so it is captured there too) and on the CPU
# Vulkan device, where the draws run and every hash must come out the same.
foreach(device IN ITEMS reference warp)
  set(name "example: immediate_ui captured on the ${device} device replays there with every hash")
  d3dcap_add_output_test(NAME ${name} STATUS 0
    COMMAND sh -c "\"$0\" capture --device $2 --hashes all -o \"$1\" -- \"$3\" --frames 3 --quiet && exec \"$0\" replay \"$1\" --device $2 --verify --quiet"
            $<TARGET_FILE:d3dcap_cli> ${CMAKE_CURRENT_BINARY_DIR}/immediate_ui_${device}.d3dcap
            ${device} $<TARGET_FILE:immediate_ui>
    OUTPUT "immediate_ui_${device}.d3dcap: [0-9.]+ [KM]iB, [0-9]+ events, 4 frames; [^\n]* exited with status 0\n.*HRESULT mismatches: 0\ndraws 15, dispatches 0[^\n]*\nadaptations: 0\ncontent hashes: [1-9][0-9]* checked, 0 differ\n$")
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "LP_NUM_THREADS=2;D3DCAP_VULKAN_VALIDATION=1"
    FAIL_REGULAR_EXPRESSION "vulkan: Validation" LABELS example)
endforeach()

# cmake -DINPUT=FILE -DOUTPUT=HEADER -DNAME=IDENTIFIER -P embed_binary.cmake
# Writes a header holding FILE's bytes as `inline constexpr unsigned char
# IDENTIFIER[]`, for programs that carry data (compiled shaders) inside.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}"
     "// Generated from ${INPUT}; do not edit.\n#pragma once\n"
     "inline constexpr unsigned char ${NAME}[] = {${bytes}};\n")

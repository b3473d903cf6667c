# Cross-compiling for Windows with Debian's mingw-w64 (the posix thread
# model, for std::thread) against mingw-w64's own Windows headers: 64-bit,
# or 32-bit with -DD3DCAP_MINGW_ARCH=i686.
if(NOT D3DCAP_MINGW_ARCH)
  set(D3DCAP_MINGW_ARCH x86_64)
endif()
set(triple ${D3DCAP_MINGW_ARCH}-w64-mingw32)
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR ${D3DCAP_MINGW_ARCH})
set(CMAKE_C_COMPILER ${triple}-gcc-posix)
set(CMAKE_CXX_COMPILER ${triple}-g++-posix)
set(CMAKE_RC_COMPILER ${triple}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${triple})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

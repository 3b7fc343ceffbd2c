# Cross toolchain: Debian's powerpc64-linux-gnu gcc, test programs run under qemu-user (qemu-ppc64).
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/powerpc64-linux-gnu.cmake ...
# (apt-get install g++-powerpc64-linux-gnu qemu-user; tools/run cross uses it.)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64)
set(CMAKE_C_COMPILER powerpc64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER powerpc64-linux-gnu-g++)

# Headers, libraries and packages from the target's sysroot only; programs (ninja, qemu) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest, gtest_discover_tests and add_custom_command run target programs through this;
# -L points qemu's dynamic loader at the target's libc and libstdc++.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64 -L /usr/powerpc64-linux-gnu)

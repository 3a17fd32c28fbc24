// The experiments' error check: on a CUDA (or cuBLAS) error, print it with the failing call and
// line, and return 1 from main.
#pragma once

#include <cstdio>

#define CHECK(x)                                                    \
  do {                                                              \
    if (auto e = (x); e != 0) {                                     \
      std::printf("error %d: %s (line %d)\n", int(e), #x, __LINE__); \
      return 1;                                                     \
    }                                                               \
  } while (0)

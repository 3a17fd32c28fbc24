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

#include <cstdlib>
#include <string>

/// For checks inside lambdas, where CHECK cannot return from main: print what failed, exit 1.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "%s failed\n", what);
    std::exit(1);
  }
}

/// The row-major problem of the library-level experiments' command lines: [M N K [LAYOUT [ROUNDS]]],
/// defaults 4096^3, `nt`.
struct ShapeArgs {
  int m = 4096, n = 4096, k = 4096;
  std::string layout = "nt";
  int rounds = 0;
};

inline ShapeArgs shape_args(int argc, char** argv, int default_rounds) {
  ShapeArgs a;
  if (argc > 1) a.m = std::atoi(argv[1]);
  if (argc > 2) a.n = std::atoi(argv[2]);
  if (argc > 3) a.k = std::atoi(argv[3]);
  if (argc > 4) a.layout = argv[4];
  a.rounds = argc > 5 ? std::atoi(argv[5]) : default_rounds;
  return a;
}

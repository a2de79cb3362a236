// The cost of an OpenMP fork and join (an empty parallel region) and of a
// barrier inside one region, at 1, 2, 4, 8 and 16 threads (best of 5 runs of
// 20,000). Build with LLVM's libomp, as the objects use:
//   clang-22 -O2 -fopenmp=libomp bench/threads/forkjoin.c \
//     -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -o forkjoin
#include <omp.h>
#include <stdio.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
volatile int sink;
int main(void) {
  int counts[] = {1, 2, 4, 8, 16};
  for (int c = 0; c < 5; ++c) {
    int n = counts[c], reps = 20000;
    double best = 1e9, bestb = 1e9;
    for (int r = 0; r < 5; ++r) {
      double t0 = now();
      for (int i = 0; i < reps; ++i) {
#pragma omp parallel num_threads(n)
        {
          sink = omp_get_thread_num();
        }
      }
      double t = (now() - t0) / reps;
      if (t < best)
        best = t;
      t0 = now();
#pragma omp parallel num_threads(n)
      for (int i = 0; i < reps; ++i) {
#pragma omp barrier
      }
      t = (now() - t0) / reps;
      if (t < bestb)
        bestb = t;
    }
    printf("threads %2d: fork/join %.2f us, barrier %.2f us\n", n, best * 1e6,
           bestb * 1e6);
  }
  return 0;
}

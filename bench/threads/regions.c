// Where a model's time goes across threads: an LD_PRELOAD library that times
// every OpenMP parallel region (each __kmpc_fork_call, fork to join) and sums
// it per outlined function, plus the time between regions (sequential code);
// at exit it prints the 25 costliest regions to stderr with their offset in
// the executable (resolve with nm). Build and use:
//   cc -O2 -shared -fPIC bench/threads/regions.c -o regions.so -ldl
//   LD_PRELOAD=$PWD/regions.so DIR/bin/resnet50-int8 DIR/test.npy out.npy 20 16
// Regions with more than 8 arguments abort (the outlined regions MLIR's
// OpenMP translation makes pass one or a few pointers).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef void (*micro)(int *, int *, ...);
typedef void (*forkfn)(void *, int, micro, ...);
static forkfn real;
#define MAXF 4096
static void *keys[MAXF];
static double tot[MAXF];
static long cnt[MAXF];
static double lastEnd, gaps, t0;
static int started;
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int slot(void *k) {
  unsigned long h = ((unsigned long)k >> 4) % MAXF;
  while (keys[h] && keys[h] != k)
    h = (h + 1) % MAXF;
  keys[h] = k;
  return h;
}
void __kmpc_fork_call(void *loc, int argc, micro fn, ...) {
  if (!real)
    real = (forkfn)dlsym(RTLD_NEXT, "__kmpc_fork_call");
  void *a[16];
  va_list ap;
  va_start(ap, fn);
  for (int i = 0; i < argc && i < 16; ++i)
    a[i] = va_arg(ap, void *);
  va_end(ap);
  double s = now();
  if (started)
    gaps += s - lastEnd;
  else {
    started = 1;
    t0 = s;
  }
  switch (argc) {
  case 0:
    real(loc, argc, fn);
    break;
  case 1:
    real(loc, argc, fn, a[0]);
    break;
  case 2:
    real(loc, argc, fn, a[0], a[1]);
    break;
  case 3:
    real(loc, argc, fn, a[0], a[1], a[2]);
    break;
  case 4:
    real(loc, argc, fn, a[0], a[1], a[2], a[3]);
    break;
  case 5:
    real(loc, argc, fn, a[0], a[1], a[2], a[3], a[4]);
    break;
  case 6:
    real(loc, argc, fn, a[0], a[1], a[2], a[3], a[4], a[5]);
    break;
  case 7:
    real(loc, argc, fn, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    break;
  case 8:
    real(loc, argc, fn, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    break;
  default:
    fprintf(stderr, "regions: argc %d unsupported\n", argc);
    abort();
  }
  double e = now();
  int k = slot((void *)fn);
  tot[k] += e - s;
  cnt[k]++;
  lastEnd = e;
}
__attribute__((destructor)) static void report(void) {
  double all = 0;
  long n = 0;
  for (int i = 0; i < MAXF; ++i)
    if (keys[i]) {
      all += tot[i];
      n += cnt[i];
    }
  fprintf(stderr,
          "regions: %ld calls, %.3f s inside regions, %.3f s between them\n", n,
          all, gaps);
  for (int r = 0; r < 25; ++r) {
    int best = -1;
    for (int i = 0; i < MAXF; ++i)
      if (keys[i] && (best < 0 || tot[i] > tot[best]))
        best = i;
    if (best < 0 || tot[best] <= 0)
      break;
    Dl_info info;
    long off = dladdr(keys[best], &info)
                   ? (long)((char *)keys[best] - (char *)info.dli_fbase)
                   : 0;
    fprintf(stderr, "  %6.2f%% %8.1f us/call %6ld calls 0x%lx\n",
            100 * tot[best] / all, 1e6 * tot[best] / cnt[best], cnt[best], off);
    tot[best] = -1;
  }
}

/* A C driver for a model compiled by quant-compile (one input, one output).
 *
 *   quant-compile int8.mlir -o dir/model.o      (writes dir/model.h)
 *   cc -Idir -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN run_model.c \
 *      dir/model.o -lm -o run
 *   ./run in.npy out.npy [repeats [threads]]
 *
 * With `repeats` > 0 it also times `repeats` passes over all samples and
 * prints the best latency per sample. `threads` (> 0) is passed to
 * <MODEL>_set_num_threads when the object was compiled with
 * --parallel=omp (the header then defines <MODEL_UPPER>_HAS_THREADS; link
 * it with libomp as the header says); a single-threaded object ignores it.
 *
 * in.npy: float32, C order, samples stacked along the first dimension (its
 * element count a multiple of the model input's: one run per compiled
 * batch); out.npy: float32, the runs' outputs stacked along the first
 * dimension (for batch 1: (samples, <output shape without its leading 1>),
 * the layout quant-run writes). Uses only the generated header: <MODEL>_run, the size enums and
 * the output shape macro (-DMODEL_UPPER=SMALL_CNN names the macros).
 */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define RUN CAT(MODEL, _run)
#define IN_SIZE CAT(MODEL, _input0_size)
#define OUT_SIZE CAT(MODEL, _output0_size)
/* 1 when the header declares <MODEL>_set_num_threads, 0 otherwise (an
 * undefined macro in #if). */
#define HAS_THREADS CAT(MODEL_UPPER, _HAS_THREADS)

static int fail(const char *message) {
  fprintf(stderr, "driver: %s\n", message);
  return 1;
}

/* Reads a float32 C-order .npy file; returns the element count or -1. */
static long readNpy(const char *path, float **data) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  unsigned char magic[8];
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "\x93NUMPY", 6) != 0) {
    fclose(f);
    return -1;
  }
  unsigned long headerLen = 0;
  if (magic[6] == 1) {
    unsigned char b[2];
    if (fread(b, 1, 2, f) != 2) {
      fclose(f);
      return -1;
    }
    headerLen = b[0] | (b[1] << 8);
  } else {
    unsigned char b[4];
    if (fread(b, 1, 4, f) != 4) {
      fclose(f);
      return -1;
    }
    headerLen = b[0] | (b[1] << 8) | ((unsigned long)b[2] << 16) |
                ((unsigned long)b[3] << 24);
  }
  char *header = malloc(headerLen + 1);
  if (fread(header, 1, headerLen, f) != headerLen) {
    free(header);
    fclose(f);
    return -1;
  }
  header[headerLen] = 0;
  if (!strstr(header, "'<f4'") || strstr(header, "'fortran_order': True")) {
    free(header);
    fclose(f);
    return -1;
  }
  long count = 1;
  char *shape = strchr(strstr(header, "'shape'"), '(');
  for (char *p = shape + 1; *p && *p != ')';) {
    char *end;
    long d = strtol(p, &end, 10);
    if (end == p)
      break;
    count *= d;
    p = end;
    while (*p == ',' || *p == ' ')
      ++p;
  }
  free(header);
  *data = malloc(sizeof(float) * (count ? count : 1));
  long got = (long)fread(*data, sizeof(float), count, f);
  fclose(f);
  return got == count ? count : -1;
}

/* Writes `runs` outputs stacked: (runs * the output's first dimension,
 * the rest of its shape). */
static int writeNpy(const char *path, const float *data, long runs) {
  static const long outShape[] = CAT(MODEL_UPPER, _OUTPUT0_SHAPE);
  const int rank = sizeof(outShape) / sizeof(outShape[0]);
  char shape[256];
  int n = snprintf(shape, sizeof shape, "(%ld,", runs * outShape[0]);
  for (int i = 1; i < rank; ++i)
    n += snprintf(shape + n, sizeof shape - n, " %ld,", outShape[i]);
  if (rank > 1)
    shape[n - 1] = 0; /* drop the trailing comma of a multi-dim tuple */
  char header[512];
  int len = snprintf(header, sizeof header,
                     "{'descr': '<f4', 'fortran_order': False, "
                     "'shape': %s), }",
                     shape);
  int total = 10 + len + 1;
  int pad = (64 - total % 64) % 64;
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  unsigned short hlen = (unsigned short)(len + pad + 1);
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc(hlen & 0xff, f);
  fputc(hlen >> 8, f);
  fwrite(header, 1, len, f);
  for (int i = 0; i < pad; ++i)
    fputc(' ', f);
  fputc('\n', f);
  fwrite(data, sizeof(float), runs * OUT_SIZE, f);
  return fclose(f);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 5)
    return fail("usage: run in.npy out.npy [repeats [threads]]");
  int threads = argc == 5 ? atoi(argv[4]) : 0;
  if (argc == 5 && threads <= 0)
    return fail("threads must be a positive number");
#if HAS_THREADS
  if (threads > 0)
    CAT(MODEL, _set_num_threads)(threads);
#endif
  float *in = NULL;
  long count = readNpy(argv[1], &in);
  if (count < 0 || count % IN_SIZE != 0)
    return fail("cannot read a float32 .npy of whole model inputs");
  /* One run per compiled batch (the input's first dimension). */
  static const long inShape[] = CAT(MODEL_UPPER, _INPUT0_SHAPE);
  const long batch = inShape[0];
  long runs = count / IN_SIZE;
  float *out = malloc(sizeof(float) * (runs ? runs : 1) * OUT_SIZE);
  for (long s = 0; s < runs; ++s)
    if (RUN(in + s * IN_SIZE, out + s * OUT_SIZE) != 0)
      return fail("the model returned an error (1: this CPU lacks the "
                  "features the object was compiled for; see the header)");
  if (writeNpy(argv[2], out, runs) != 0)
    return fail("cannot write the output");
  const char *isa = CAT(MODEL, _int8_isa)();
  printf("ran %ld samples (int8 kernels: %s)\n", runs * batch,
         isa ? isa : "none");
  int repeats = argc >= 4 ? atoi(argv[3]) : 0;
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    double start = now();
    for (long s = 0; s < runs; ++s)
      RUN(in + s * IN_SIZE, out + s * OUT_SIZE);
    double t = (now() - start) / (runs ? runs : 1);
    if (r == 0 || t < best)
      best = t;
  }
  char how[32] = "one thread";
#if HAS_THREADS
  snprintf(how, sizeof how, threads > 0 ? "%d threads" : "default threads",
           threads);
#endif
  if (repeats > 0 && batch == 1)
    printf("latency %.1f us per sample (best of %d passes over %ld samples, "
           "%s)\n",
           best * 1e6, repeats, runs, how);
  else if (repeats > 0)
    printf("latency %.1f us per sample, %.1f us per batch of %ld (best of "
           "%d passes over %ld batches, %s)\n",
           best * 1e6 / batch, best * 1e6, batch, repeats, runs, how);
  free(in);
  free(out);
  return 0;
}

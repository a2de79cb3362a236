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
 * the layout quant-run writes). Uses only the generated header (<MODEL>_run,
 * the size enums and the shape macros; -DMODEL_UPPER=SMALL_CNN names the
 * macros) and npy_io.h beside this file (.npy I/O, the clock).
 */
#include "model.h"
#include "npy_io.h"

#include <stdio.h>
#include <stdlib.h>

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
  static const long outShape[] = CAT(MODEL_UPPER, _OUTPUT0_SHAPE);
  if (writeNpy(argv[2], out, runs, outShape,
               sizeof(outShape) / sizeof(outShape[0])) != 0)
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

/* A C driver for a model compiled by quant-compile, any number of inputs
 * and outputs.
 *
 *   quant-compile int8.mlir -o dir/model.o      (writes dir/model.h)
 *   cc -Idir -DMODEL=small_cnn -DMODEL_UPPER=SMALL_CNN run_model.c \
 *      dir/model.o -lm -o run
 *   ./run in.npy out.npy [repeats [threads]]
 *   ./run in0.npy in1.npy out0.npy out1.npy [repeats [threads]]
 *
 * One .npy file per model input, then one per output, in model order (the
 * header lists them). With `repeats` > 0 it also times `repeats` passes
 * over all samples and prints the best latency per sample. `threads` (> 0)
 * is passed to <MODEL>_set_num_threads when the object was compiled with
 * --parallel=omp (the header then defines <MODEL_UPPER>_HAS_THREADS; link
 * it with libomp as the header says); a single-threaded object ignores it.
 *
 * Inputs: float32, C order, samples stacked along the first dimension (each
 * file's element count a multiple of its input's, the same number of runs
 * for every input: one run per compiled batch). Outputs: float32, or the
 * output's integer dtype (ArgMax indices: int64, ...; the header's
 * <MODEL_UPPER>_OUTPUT_DTYPES), the runs' outputs stacked along the first
 * dimension (for batch 1: (samples, <output shape without its leading 1>),
 * the layout quant-run writes).
 * Uses only the generated header (<MODEL>_runv, the counts and the
 * by-index size and shape macros; -DMODEL_UPPER=SMALL_CNN names the macros)
 * and npy_io.h beside this file (.npy I/O, the clock).
 */
#include "model.h"
#include "npy_io.h"

#include <stdio.h>
#include <stdlib.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define RUNV CAT(MODEL, _runv)
#define NUM_INPUTS CAT(MODEL, _num_inputs)
#define NUM_OUTPUTS CAT(MODEL, _num_outputs)
/* 1 when the header declares <MODEL>_set_num_threads, 0 otherwise (an
 * undefined macro in #if). */
#define HAS_THREADS CAT(MODEL_UPPER, _HAS_THREADS)

static int fail(const char *message) {
  fprintf(stderr, "driver: %s\n", message);
  return 1;
}

static const long inSizes[] = CAT(MODEL_UPPER, _INPUT_SIZES);
static const long inShapes[] = CAT(MODEL_UPPER, _INPUT_SHAPES);
static const long outSizes[] = CAT(MODEL_UPPER, _OUTPUT_SIZES);
static const long outRanks[] = CAT(MODEL_UPPER, _OUTPUT_RANKS);
static const long outShapes[] = CAT(MODEL_UPPER, _OUTPUT_SHAPES);

static const char *const outDtypes[] = CAT(MODEL_UPPER, _OUTPUT_DTYPES);
static const long outBytes[] = CAT(MODEL_UPPER, _OUTPUT_ELEMENT_BYTES);

/* Runs the model on run `r` of every input into run `r` of every output. */
static int runOnce(float *const *in, char *const *out, long r) {
  const float *ins[NUM_INPUTS];
  void *outs[NUM_OUTPUTS];
  for (int i = 0; i < NUM_INPUTS; ++i)
    ins[i] = in[i] + r * inSizes[i];
  for (int o = 0; o < NUM_OUTPUTS; ++o)
    outs[o] = out[o] + r * outSizes[o] * outBytes[o];
  /* <MODEL>_runv takes float pointers, or void pointers when an output is
   * an integer tensor (ArgMax indices): void * converts to either. */
  return RUNV(ins, (void *)outs);
}

int main(int argc, char **argv) {
  const int tensors = NUM_INPUTS + NUM_OUTPUTS;
  if (argc < 1 + tensors || argc > 3 + tensors) {
    fprintf(stderr,
            "usage: run <%d input .npy> <%d output .npy> [repeats "
            "[threads]]\n",
            NUM_INPUTS, NUM_OUTPUTS);
    return 1;
  }
  int threads = argc == 3 + tensors ? atoi(argv[2 + tensors]) : 0;
  if (argc == 3 + tensors && threads <= 0)
    return fail("threads must be a positive number");
#if HAS_THREADS
  if (threads > 0)
    CAT(MODEL, _set_num_threads)(threads);
#endif
  float *in[NUM_INPUTS];
  char *out[NUM_OUTPUTS];
  long runs = -1;
  for (int i = 0; i < NUM_INPUTS; ++i) {
    long count = readNpy(argv[1 + i], &in[i]);
    if (count <= 0 || count % inSizes[i] != 0) {
      fprintf(stderr, "driver: %s: not a float32 .npy of whole inputs %d\n",
              argv[1 + i], i);
      return 1;
    }
    if (runs >= 0 && count / inSizes[i] != runs)
      return fail("the inputs hold different numbers of samples");
    runs = count / inSizes[i];
  }
  for (int o = 0; o < NUM_OUTPUTS; ++o)
    out[o] = malloc(outBytes[o] * runs * outSizes[o]);
  for (long r = 0; r < runs; ++r)
    if (runOnce(in, out, r) != 0)
      return fail("the model returned an error (1: this CPU lacks the "
                  "features the object was compiled for; see the header)");
  const long *shape = outShapes;
  for (int o = 0; o < NUM_OUTPUTS; ++o) {
    const char *descr = npyDescr(outDtypes[o]);
    if (!descr ||
        writeNpyTyped(argv[1 + NUM_INPUTS + o], out[o], descr, outBytes[o],
                      runs, shape, (int)outRanks[o]) != 0)
      return fail("cannot write an output");
    shape += outRanks[o];
  }
  /* One run per compiled batch (the first input's first dimension). */
  const long batch = inShapes[0];
  const char *isa = CAT(MODEL, _int8_isa)();
  printf("ran %ld samples (int8 kernels: %s)\n", runs * batch,
         isa ? isa : "none");
  int repeats = argc >= 2 + tensors ? atoi(argv[1 + tensors]) : 0;
  double best = 0;
  for (int rep = 0; rep < repeats; ++rep) {
    double start = now();
    for (long r = 0; r < runs; ++r)
      runOnce(in, out, r);
    double t = (now() - start) / runs;
    if (rep == 0 || t < best)
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
  for (int i = 0; i < NUM_INPUTS; ++i)
    free(in[i]);
  for (int o = 0; o < NUM_OUTPUTS; ++o)
    free(out[o]);
  return 0;
}

/* The quantc contestant of bench/peers: times one object compiled by
 *   quant-compile model.onnx [--calibration-data calib.npy] --batch B \
 *       --parallel=omp -o dir/model.o --name m      (writes dir/model.h)
 *   cc -O2 -Idir time_model.c dir/model.o -L<libomp dir> \
 *       -Wl,-rpath,<libomp dir> -lomp -lm -o time_model
 * (modelled on examples/common/run_model.c; the symbol prefix must be `m`).
 *
 *   time_model time in.npy runs warmup threads
 *     m_set_num_threads(threads), `warmup` untimed runs, then `runs` timed
 *     runs on the first B images of in.npy (repeated if it has fewer);
 *     prints one JSON line: {"best_ms": ..., "median_ms": ..., "runs": ...,
 *     "batch": B, "threads": T, "isa": "<m_int8_isa()>"} (ms per run of the
 *     whole batch).
 *   time_model run in.npy out.npy
 *     runs every whole batch of in.npy and writes the outputs stacked
 *     (float32, or output 0's integer dtype; (runs * B, <output shape
 *     without its batch>)).
 */
#include "../../examples/common/npy_io.h"
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes per element of each output (float32 or an integer dtype). */
static const long outBytes[] = M_OUTPUT_ELEMENT_BYTES;

static int fail(const char *message) {
  fprintf(stderr, "time_model: %s\n", message);
  return 1;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  static const long inShape[] = M_INPUT0_SHAPE;
  const long batch = inShape[0];
  if (argc == 6 && strcmp(argv[1], "time") == 0) {
    int runs = atoi(argv[3]), warmup = atoi(argv[4]), threads = atoi(argv[5]);
    if (runs <= 0 || warmup < 0 || threads <= 0)
      return fail("runs and threads must be positive, warmup >= 0");
#ifdef M_HAS_THREADS
    m_set_num_threads(threads);
#else
    if (threads != 1)
      return fail("the object is single-threaded (compile with "
                  "--parallel=omp)");
#endif
    float *images = NULL;
    long count = readNpy(argv[2], &images);
    long imageSize = m_input0_size / batch;
    if (count <= 0 || count % imageSize != 0)
      return fail("cannot read a float32 .npy of whole images");
    /* The first B images, repeated when the file has fewer. */
    float *in = malloc(sizeof(float) * m_input0_size);
    for (long i = 0; i < m_input0_size; ++i)
      in[i] = images[i % count];
    /* Output 0 may be an integer tensor (ArgMax indices): its own element
     * size; void * converts to the header's pointer type. */
    void *out = malloc(outBytes[0] * m_output0_size);
    for (int r = 0; r < warmup; ++r)
      if (m_run(in, out) != 0)
        return fail("the model returned an error (this CPU lacks the "
                    "features the object was compiled for)");
    double *t = malloc(sizeof(double) * runs);
    for (int r = 0; r < runs; ++r) {
      double start = now();
      if (m_run(in, out) != 0)
        return fail("the model returned an error");
      t[r] = now() - start;
    }
    qsort(t, runs, sizeof(double), compareDoubles);
    const char *isa = m_int8_isa();
    printf("{\"best_ms\": %.4f, \"median_ms\": %.4f, \"runs\": %d, "
           "\"batch\": %ld, \"threads\": %d, \"isa\": \"%s\"}\n",
           t[0] * 1e3, t[runs / 2] * 1e3, runs, batch, threads,
           isa ? isa : "none");
    free(t);
    free(in);
    free(out);
    free(images);
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "run") == 0) {
    float *in = NULL;
    long count = readNpy(argv[2], &in);
    if (count <= 0 || count % m_input0_size != 0)
      return fail("cannot read a float32 .npy of whole model inputs");
    long runs = count / m_input0_size;
    char *out = malloc(outBytes[0] * runs * m_output0_size);
    for (long s = 0; s < runs; ++s)
      if (m_run(in + s * m_input0_size,
                (void *)(out + s * m_output0_size * outBytes[0])) != 0)
        return fail("the model returned an error");
    static const long outShape[] = M_OUTPUT0_SHAPE;
    static const char *const outDtypes[] = M_OUTPUT_DTYPES;
    if (writeNpyTyped(argv[3], out, npyDescr(outDtypes[0]), outBytes[0], runs,
                      outShape, sizeof(outShape) / sizeof(outShape[0])) != 0)
      return fail("cannot write the output");
    free(in);
    free(out);
    return 0;
  }
  return fail("usage: time_model time in.npy runs warmup threads | "
              "time_model run in.npy out.npy");
}

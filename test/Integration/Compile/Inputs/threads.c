/* Reentrancy and leak check for a model compiled by quant-compile (one
 * input, one output): four threads call <MODEL>_run 2000 times each on the
 * same input and compare with a first single-threaded result; the maximum
 * resident set size must not grow (every call frees what it allocates).
 *
 *   cc -Idir -DMODEL=small_cnn threads.c dir/model.o -lm -lpthread
 */
#include "model.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define RUN CAT(MODEL, _run)
#define IN_SIZE CAT(MODEL, _input0_size)
#define OUT_SIZE CAT(MODEL, _output0_size)

static float input[IN_SIZE];
static float expected[OUT_SIZE];

static void *work(void *iterations) {
  float out[OUT_SIZE];
  long mismatches = 0;
  for (long i = 0; i < (long)iterations; ++i) {
    if (RUN(input, out) != 0)
      ++mismatches;
    mismatches += memcmp(out, expected, sizeof out) != 0;
  }
  return (void *)mismatches;
}

static long maxRssKb(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int main(void) {
  for (int i = 0; i < IN_SIZE; ++i)
    input[i] = (float)(i % 17) * 0.25f - 1.0f;
  RUN(input, expected);
  work((void *)200);
  long before = maxRssKb();
  pthread_t threads[4];
  long mismatches = 0;
  for (int t = 0; t < 4; ++t)
    pthread_create(&threads[t], NULL, work, (void *)2000);
  for (int t = 0; t < 4; ++t) {
    void *result;
    pthread_join(threads[t], &result);
    mismatches += (long)result;
  }
  long growth = maxRssKb() - before;
  printf("mismatches: %ld\n", mismatches);
  /* Thread stacks and allocator arenas: well under a megabyte. A leak of
   * even one activation buffer per call would be tens of megabytes. */
  printf("%s\n", growth < 4096 ? "RSS STABLE" : "RSS GROWS");
  return 0;
}

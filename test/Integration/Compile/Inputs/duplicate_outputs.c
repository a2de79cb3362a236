// Runs duplicate_outputs.onnx (g_run: x -> concat(x, x) -> relu -> flatten,
// returned three times) on a fixed input and checks every output against
// the expected values. Prints OK or the first mismatch.
#include "model.h"

#include <stdio.h>

int main(void) {
  float x[18], out[3][36];
  for (int i = 0; i < 18; ++i)
    x[i] = (float)(i % 7) - 3.0f;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 36; ++i)
      out[k][i] = -100.0f;
  if (g_run(x, out[0], out[1], out[2]) != 0) {
    printf("g_run failed\n");
    return 1;
  }
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 36; ++i) {
      float v = x[i % 18], expected = v > 0.0f ? v : 0.0f;
      if (out[k][i] != expected) {
        printf("output %d [%d]: %g, expected %g\n", k, i, out[k][i], expected);
        return 1;
      }
    }
  printf("OK\n");
  return 0;
}

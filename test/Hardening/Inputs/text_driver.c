/* Runs a model compiled from hostile names (test/Hardening/text-*.mlir):
 * the header comes with -include, MODEL is the model's symbol prefix. It
 * prints what the model computed and its metadata; nothing else may print
 * (a constructor smuggled into the header through a name would print
 * INJECTED before main). */
#include <stdio.h>

#define CAT(a, b) a##b
#define SYMBOL(model, suffix) CAT(model, suffix)

int main(void) {
  float in[4] = {-1, 2, -3, 4}, out[4];
  int rc = SYMBOL(MODEL, _run)(in, out);
  printf("rc %d: %g %g %g %g\n", rc, out[0], out[1], out[2], out[3]);
  printf("metadata %s\n", SYMBOL(MODEL, _metadata)());
  return rc;
}

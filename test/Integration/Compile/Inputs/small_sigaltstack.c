/* Runs examples/common/run_model.c's main (compiled with -Dmain=model_main)
 * after installing an 8 KB alternate signal stack: enough for a signal
 * frame with AVX-512 state, too small for one with AMX tile data, so Linux
 * refuses the process the tile state (ARCH_REQ_XCOMP_PERM fails with
 * ENOSPC) and an object must do without its amx-int8 variant. */
#include <signal.h>
#include <stdlib.h>

int model_main(int argc, char **argv);

int main(int argc, char **argv) {
  stack_t stack = {.ss_sp = malloc(8192), .ss_flags = 0, .ss_size = 8192};
  if (!stack.ss_sp || sigaltstack(&stack, NULL) != 0)
    return 2;
  return model_main(argc, argv);
}

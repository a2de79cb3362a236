// Driver of amx_tiles.mlir (amx-twin.mlir): fills a, b and c with seeded
// random bytes, runs amx_tiles (compiled with the portable twin or natively
// for AMX), computes the same c from the definition of tdpb[su][su]d, prints
// how many of its int32 differ and writes c to a file.
//
//   amx_tiles SEED FLAG OUT [--amx]
//
// --amx first asks Linux for the tile state (arch_prctl
// ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA), which a process needs before
// its first tile instruction.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

void amx_tiles(int8_t *a, int8_t *b, int32_t *c, int32_t flag);

static uint64_t state;
static uint32_t next(void) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(state >> 32);
}

static uint32_t ext(uint8_t v, int zext) {
  return zext ? (uint32_t)v : (uint32_t)(int32_t)(int8_t)v;
}

// c[m][n] += sum over k < K, i < 4 of ext(a[m][4k+i]) * ext(b[k][4n+i]), in
// uint32_t: int32 wrap-around without undefined behaviour.
static void muli(uint32_t *c, int cs, const uint8_t *a, int as,
                 const uint8_t *b, int bs, int m, int n, int k, int za,
                 int zb) {
  for (int r = 0; r < m; ++r)
    for (int j = 0; j < n; ++j) {
      uint32_t sum = c[r * cs + j];
      for (int g = 0; g < k; ++g)
        for (int i = 0; i < 4; ++i)
          sum += ext(a[r * as + 4 * g + i], za) * ext(b[g * bs + 4 * j + i], zb);
      c[r * cs + j] = sum;
    }
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s SEED FLAG OUT [--amx]\n", argv[0]);
    return 2;
  }
  state = strtoull(argv[1], 0, 10);
  int flag = atoi(argv[2]);
  if (argc > 4 && !strcmp(argv[4], "--amx")) {
#ifdef SYS_arch_prctl
    if (syscall(SYS_arch_prctl, 0x1023, 18) != 0) {
      perror("arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)");
      return 2;
    }
#else
    fprintf(stderr, "--amx: not an x86-64 Linux host\n");
    return 2;
#endif
  }
  static uint8_t a[8192], b[8192];
  static uint32_t c[4096], want[4096];
  for (int i = 0; i < 8192; ++i) {
    a[i] = (uint8_t)next();
    b[i] = (uint8_t)next();
  }
  for (int i = 0; i < 4096; ++i)
    c[i] = want[i] = next();

  // 1. Four steps of full tiles into a zero accumulator, stride 32.
  for (int r = 0; r < 16; ++r)
    memset(want + r * 32, 0, 16 * sizeof(uint32_t));
  for (int s = 0; s < 4; ++s)
    muli(want, 32, a + 64 * s, 256, b + 1024 * s, 64, 16, 16, 16, 1, 0);
  // 2. 7 x 20 times 5 x 12 into 7 x 3, the four sign combinations.
  for (int j = 0; j < 4; ++j)
    muli(want + 1024 + 64 * j, 5, a + 4096 + 512 * j, 24, b + 4096 + 512 * j,
         13, 7, 3, 5, j >= 2, j & 1);
  // 3. The loop's tile or zeros, stride 16.
  for (int r = 0; r < 16; ++r)
    for (int j = 0; j < 16; ++j)
      want[2048 + 16 * r + j] = flag ? want[32 * r + j] : 0;

  amx_tiles((int8_t *)a, (int8_t *)b, (int32_t *)c, flag);
  int differ = 0;
  for (int i = 0; i < 4096; ++i)
    differ += c[i] != want[i];
  printf("amx_tiles: %d of 4096 int32 differ from the definition\n", differ);
  FILE *out = fopen(argv[3], "wb");
  if (!out || fwrite(c, sizeof c, 1, out) != 1 || fclose(out)) {
    perror(argv[3]);
    return 2;
  }
  return differ != 0;
}

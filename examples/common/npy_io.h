/* float32 .npy reading and writing and a monotonic clock for the C drivers
 * of compiled models (examples/common/run_model.c, bench/peers/time_model.c).
 * Plain C, header only: the drivers stay single files a user can copy.
 */
#ifndef QUANTC_EXAMPLES_NPY_IO_H
#define QUANTC_EXAMPLES_NPY_IO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Reads a float32 C-order .npy file (version 1 or 2 header) into a new
 * buffer; returns the element count, or -1 for a file that is unreadable,
 * not a .npy, truncated, not '<f4' or in Fortran order. */
static long readNpy(const char *path, float **data) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  unsigned char magic[8];
  if (fread(magic, 1, 8, f) != 8 || memcmp(magic, "\x93NUMPY", 6) != 0) {
    fclose(f);
    return -1;
  }
  unsigned char b[4] = {0, 0, 0, 0};
  int lenBytes = magic[6] == 1 ? 2 : 4;
  if (fread(b, 1, lenBytes, f) != (size_t)lenBytes) {
    fclose(f);
    return -1;
  }
  unsigned long headerLen = b[0] | (b[1] << 8) | ((unsigned long)b[2] << 16) |
                            ((unsigned long)b[3] << 24);
  char *header = malloc(headerLen + 1);
  if (fread(header, 1, headerLen, f) != headerLen) {
    free(header);
    fclose(f);
    return -1;
  }
  header[headerLen] = 0;
  if (!strstr(header, "'<f4'") || strstr(header, "'fortran_order': True") ||
      !strstr(header, "'shape'")) {
    free(header);
    fclose(f);
    return -1;
  }
  long count = 1;
  char *shape = strchr(strstr(header, "'shape'"), '(');
  for (char *p = shape ? shape + 1 : header + headerLen; *p && *p != ')';) {
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

/* Writes `runs` arrays of shape `shape` (rank `rank`) stacked along the
 * first dimension: a float32 .npy of shape (runs * shape[0], shape[1:]).
 * Returns 0, or -1 when the file cannot be written. */
static int writeNpy(const char *path, const float *data, long runs,
                    const long *shape, int rank) {
  long elements = runs;
  char dims[256];
  int n = snprintf(dims, sizeof dims, "(%ld,", runs * shape[0]);
  for (int i = 0; i < rank; ++i)
    elements *= shape[i];
  for (int i = 1; i < rank; ++i)
    n += snprintf(dims + n, sizeof dims - n, " %ld,", shape[i]);
  if (rank > 1)
    dims[n - 1] = 0; /* drop the trailing comma of a multi-dim tuple */
  char header[512];
  int len = snprintf(header, sizeof header,
                     "{'descr': '<f4', 'fortran_order': False, "
                     "'shape': %s), }",
                     dims);
  int pad = (64 - (10 + len + 1) % 64) % 64;
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
  fwrite(data, sizeof(float), elements, f);
  return fclose(f) == 0 ? 0 : -1;
}

/* Seconds on a monotonic clock. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

#endif /* QUANTC_EXAMPLES_NPY_IO_H */

/* float32 .npy reading, .npy writing (float32 and integer dtypes) and a
 * monotonic clock for the C drivers of compiled models
 * (examples/common/run_model.c, bench/peers/time_model.c). Plain C, header
 * only: the drivers stay single files a user can copy.
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
/* The .npy descr of a NumPy dtype name ("float32", "int64", "uint8",
 * "bool", ...: the <MODEL>_OUTPUT_DTYPES of a generated header); NULL for
 * another name. */
static const char *npyDescr(const char *dtype) {
  static const char *const table[][2] = {{"float32", "<f4"}, {"int64", "<i8"},
                                         {"int32", "<i4"},   {"int16", "<i2"},
                                         {"int8", "|i1"},    {"uint64", "<u8"},
                                         {"uint32", "<u4"},  {"uint16", "<u2"},
                                         {"uint8", "|u1"},   {"bool", "|b1"}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(dtype, table[i][0]) == 0)
      return table[i][1];
  return NULL;
}

/* Writes `runs` arrays of shape `shape` stacked along the first dimension,
 * elements of `elementBytes` bytes (little-endian) whose .npy descr is
 * `descr` ("<f4", "<i8", ...); 0 on success. */
static int writeNpyTyped(const char *path, const void *data, const char *descr,
                         long elementBytes, long runs, const long *shape,
                         int rank) {
  long elements = runs;
  char dims[256];
  /* A scalar (rank 0) output: one value per run, shape (runs,). */
  int n =
      snprintf(dims, sizeof dims, "(%ld,", rank > 0 ? runs * shape[0] : runs);
  for (int i = 0; i < rank; ++i)
    elements *= shape[i];
  for (int i = 1; i < rank; ++i)
    n += snprintf(dims + n, sizeof dims - n, " %ld,", shape[i]);
  if (rank > 1)
    dims[n - 1] = 0; /* drop the trailing comma of a multi-dim tuple */
  char header[512];
  int len = snprintf(header, sizeof header,
                     "{'descr': '%s', 'fortran_order': False, "
                     "'shape': %s), }",
                     descr, dims);
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
  fwrite(data, elementBytes, elements, f);
  return fclose(f) == 0 ? 0 : -1;
}

/* Writes float32 arrays (as writeNpyTyped). */
static inline int writeNpy(const char *path, const float *data, long runs,
                           const long *shape, int rank) {
  return writeNpyTyped(path, data, "<f4", sizeof(float), runs, shape, rank);
}

/* Seconds on a monotonic clock. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

#endif /* QUANTC_EXAMPLES_NPY_IO_H */

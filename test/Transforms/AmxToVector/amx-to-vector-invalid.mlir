// RUN: quant-opt %s --quantc-amx-to-vector -verify-diagnostics

// The float tile product has no twin.
func.func @mulf(%p: memref<?xbf16>, %q: memref<?xf32>, %i: index, %s: index) {
  %a = amx.tile_load %p[%i], %s : memref<?xbf16> into !amx.tile<16x32xbf16>
  %c = amx.tile_load %q[%i], %s : memref<?xf32> into !amx.tile<16x16xf32>
  // expected-error @below {{failed to legalize operation 'amx.tile_mulf'}}
  %r = amx.tile_mulf %a, %a, %c : !amx.tile<16x32xbf16>, !amx.tile<16x32xbf16>, !amx.tile<16x16xf32>
  amx.tile_store %q[%i], %r, %s : memref<?xf32>, !amx.tile<16x16xf32>
  return
}

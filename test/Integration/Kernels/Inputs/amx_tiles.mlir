// Tile operations for the portable-twin execution test (amx-twin.mlir):
// amx.tile_zero / tile_load / tile_muli / tile_store as the amx-int8 kernels
// use them, on bare pointers (a, b: 8192 bytes, c: 4096 int32), the
// reference in amx_tiles.c:
// 1. full 16x64 tiles, u8 x s8, accumulated over 4 steps of a loop
//    (iter_args), stored with a stride of 32 (c[0..511]);
// 2. tiles of 7 rows, K = 5, N = 3 at odd strides, the accumulator loaded
//    from c (int32 wrap-around), once per sign combination (ss, su, us, uu:
//    c[1024 + 64 j]);
// 3. an scf.if choosing between the loop's tile and a zero tile by `flag`
//    (c[2048..2303], stride 16).
func.func @amx_tiles(%a: memref<8192xi8>, %b: memref<8192xi8>,
                     %c: memref<4096xi32>, %flag: i32)
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c13 = arith.constant 13 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  %zero = amx.tile_zero : !amx.tile<16x16xi32>
  %acc = scf.for %s = %c0 to %c4 step %c1 iter_args(%t = %zero)
      -> (!amx.tile<16x16xi32>) {
    %ia = arith.muli %s, %c64 : index
    %ib = arith.muli %s, %c1024 : index
    %ta = amx.tile_load %a[%ia], %c256 : memref<8192xi8> into !amx.tile<16x64xi8>
    %tb = amx.tile_load %b[%ib], %c64 : memref<8192xi8> into !amx.tile<16x64xi8>
    %next = amx.tile_muli %ta zext, %tb, %t
        : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
    scf.yield %next : !amx.tile<16x16xi32>
  }
  amx.tile_store %c[%c0], %acc, %c32 : memref<4096xi32>, !amx.tile<16x16xi32>
  %ab0 = arith.constant 4096 : index
  %co0 = arith.constant 1024 : index
  %lhs0 = amx.tile_load %a[%ab0], %c24 : memref<8192xi8> into !amx.tile<7x20xi8>
  %rhs0 = amx.tile_load %b[%ab0], %c13 : memref<8192xi8> into !amx.tile<5x12xi8>
  %acc0 = amx.tile_load %c[%co0], %c5 : memref<4096xi32> into !amx.tile<7x3xi32>
  %res0 = amx.tile_muli %lhs0, %rhs0, %acc0
      : !amx.tile<7x20xi8>, !amx.tile<5x12xi8>, !amx.tile<7x3xi32>
  amx.tile_store %c[%co0], %res0, %c5 : memref<4096xi32>, !amx.tile<7x3xi32>
  %ab1 = arith.constant 4608 : index
  %co1 = arith.constant 1088 : index
  %lhs1 = amx.tile_load %a[%ab1], %c24 : memref<8192xi8> into !amx.tile<7x20xi8>
  %rhs1 = amx.tile_load %b[%ab1], %c13 : memref<8192xi8> into !amx.tile<5x12xi8>
  %acc1 = amx.tile_load %c[%co1], %c5 : memref<4096xi32> into !amx.tile<7x3xi32>
  %res1 = amx.tile_muli %lhs1, %rhs1 zext, %acc1
      : !amx.tile<7x20xi8>, !amx.tile<5x12xi8>, !amx.tile<7x3xi32>
  amx.tile_store %c[%co1], %res1, %c5 : memref<4096xi32>, !amx.tile<7x3xi32>
  %ab2 = arith.constant 5120 : index
  %co2 = arith.constant 1152 : index
  %lhs2 = amx.tile_load %a[%ab2], %c24 : memref<8192xi8> into !amx.tile<7x20xi8>
  %rhs2 = amx.tile_load %b[%ab2], %c13 : memref<8192xi8> into !amx.tile<5x12xi8>
  %acc2 = amx.tile_load %c[%co2], %c5 : memref<4096xi32> into !amx.tile<7x3xi32>
  %res2 = amx.tile_muli %lhs2 zext, %rhs2, %acc2
      : !amx.tile<7x20xi8>, !amx.tile<5x12xi8>, !amx.tile<7x3xi32>
  amx.tile_store %c[%co2], %res2, %c5 : memref<4096xi32>, !amx.tile<7x3xi32>
  %ab3 = arith.constant 5632 : index
  %co3 = arith.constant 1216 : index
  %lhs3 = amx.tile_load %a[%ab3], %c24 : memref<8192xi8> into !amx.tile<7x20xi8>
  %rhs3 = amx.tile_load %b[%ab3], %c13 : memref<8192xi8> into !amx.tile<5x12xi8>
  %acc3 = amx.tile_load %c[%co3], %c5 : memref<4096xi32> into !amx.tile<7x3xi32>
  %res3 = amx.tile_muli %lhs3 zext, %rhs3 zext, %acc3
      : !amx.tile<7x20xi8>, !amx.tile<5x12xi8>, !amx.tile<7x3xi32>
  amx.tile_store %c[%co3], %res3, %c5 : memref<4096xi32>, !amx.tile<7x3xi32>
  %zero32 = arith.constant 0 : i32
  %take = arith.cmpi ne, %flag, %zero32 : i32
  %chosen = scf.if %take -> !amx.tile<16x16xi32> {
    scf.yield %acc : !amx.tile<16x16xi32>
  } else {
    scf.yield %zero : !amx.tile<16x16xi32>
  }
  amx.tile_store %c[%c2048], %chosen, %c16 : memref<4096xi32>, !amx.tile<16x16xi32>
  return
}

// The amx-int8 tile kernel (ConvTile.cpp) against the int8 reference, where
// the machine running the tests has AMX: 50 random convolutions and linear
// layers it takes (input channels per group a multiple of 64, or a long
// reduction of few channels;
// 1x1 read in place, others from the padded copy; 16-row and 32-row steps,
// strided layers from the padded copy split into stride phases; RGB-like
// stems as im2col rows; the last
// block of an image overlapping the one before; 64-channel blocks
// and a tail; groups; u8 and i8 inputs; residuals; large multipliers).
// REQUIRES: amx-int8
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/random_convs.py %t 50 35 tile
// RUN: %python %S/Inputs/check_kernels.py %quantc_tools_dir %quantc_src_root %t 50 jit-amx-int8 aot-amx-int8 | FileCheck %s
// CHECK: jit-amx-int8: 50 of 50 models bit-identical to the int8 reference
// CHECK: aot-amx-int8: 50 of 50 models bit-identical to the int8 reference

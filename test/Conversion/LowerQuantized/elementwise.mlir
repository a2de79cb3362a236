// RUN: quant-opt %s --qnt-lower-quantized --split-input-file | FileCheck %s
// RUN: quant-opt %s --qnt-lower-quantized=isa=avx2 --split-input-file | FileCheck %s --check-prefix=X86
// RUN: quant-opt %s --qnt-lower-quantized=isa=neon-dot --split-input-file | FileCheck %s --check-prefix=A64

// Add: 40 elements = 2 vectors of 16 lanes + a scalar tail of 8.
// ma = 0.5 / 0.25 = 2, mb = 0.125 / 0.25 = 0.5; relu with zero point 20:
// the rounded sum is clamped to [zp - zp, 255 - zp] = [0, 235], then 20 is
// added.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.*]]: tensor<2x20xi8>, %[[B:.*]]: tensor<2x20xi8>) -> tensor<2x20xi8>
// CHECK: %[[BA:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<2x20xi8> to memref<2x20xi8>
// CHECK: %[[FA:.*]] = memref.collapse_shape %[[BA]] {{\[\[}}0, 1]] : memref<2x20xi8> into memref<40xi8>
// CHECK: %[[BB:.*]] = bufferization.to_buffer %[[B]] read_only
// CHECK: %[[FB:.*]] = memref.collapse_shape %[[BB]]
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x20xi8>
// CHECK: %[[FO:.*]] = memref.collapse_shape %[[OUT]]
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[C16]]) {
// CHECK:   %[[VA:.*]] = vector.load %[[FA]][%[[I]]] : memref<40xi8>, vector<16xi8>
// CHECK:   %[[VB:.*]] = vector.load %[[FB]][%[[I]]] : memref<40xi8>, vector<16xi8>
// CHECK:   arith.extui %[[VA]] : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<10> : vector<16xi32>
// CHECK:   %[[MA:.*]] = arith.constant dense<2.000000e+00> : vector<16xf32>
// CHECK:   arith.extsi %[[VB]] : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<-3> : vector<16xi32>
// CHECK:   %[[MB:.*]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK:   %[[T1:.*]] = arith.mulf %{{.*}}, %[[MA]]
// CHECK:   %[[T2:.*]] = arith.mulf %{{.*}}, %[[MB]]
// CHECK:   %[[SUM:.*]] = arith.addf %[[T1]], %[[T2]] : vector<16xf32>
// CHECK:   %[[R:.*]] = math.roundeven %[[SUM]] : vector<16xf32>
// CHECK:   %[[LO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK:   %[[MAX:.*]] = arith.maxnumf %[[R]], %[[LO]]
// CHECK:   %[[HI:.*]] = arith.constant dense<2.350000e+02> : vector<16xf32>
// CHECK:   %[[MIN:.*]] = arith.minnumf %[[MAX]], %[[HI]]
// CHECK:   %[[Q:.*]] = arith.fptosi %[[MIN]] : vector<16xf32> to vector<16xi32>
// CHECK:   %[[ZP:.*]] = arith.constant dense<20> : vector<16xi32>
// CHECK:   %[[S:.*]] = arith.addi %[[Q]], %[[ZP]]
// CHECK:   %[[N:.*]] = arith.trunci %[[S]] : vector<16xi32> to vector<16xi8>
// CHECK:   vector.store %[[N]], %[[FO]][%[[I]]] : memref<40xi8>, vector<16xi8>
// CHECK: }
// CHECK: %[[C40:.*]] = arith.constant 40 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[C40]] step %{{.*}} {
// CHECK:   memref.load %[[FA]][%[[J]]] : memref<40xi8>
// CHECK:   arith.constant 5.000000e-01 : f32
// CHECK:   math.roundeven %{{.*}} : f32
// CHECK:   arith.constant 2.350000e+02 : f32
// CHECK:   memref.store %{{.*}}, %[[FO]][%[[J]]] : memref<40xi8>
// CHECK: }
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<2x20xi8> to tensor<2x20xi8>
// CHECK: return %[[T]]
func.func @add(%a: tensor<2x20x!quant.uniform<u8:f32, 0.5:10>>, %b: tensor<2x20x!quant.uniform<i8:f32, 0.125:-3>>) -> tensor<2x20x!quant.uniform<u8:f32, 0.25:20>> {
  %0 = qnt.add %a, %b {activation = #qnt<activation relu>} : (tensor<2x20x!quant.uniform<u8:f32, 0.5:10>>, tensor<2x20x!quant.uniform<i8:f32, 0.125:-3>>) -> tensor<2x20x!quant.uniform<u8:f32, 0.25:20>>
  return %0 : tensor<2x20x!quant.uniform<u8:f32, 0.25:20>>
}

// -----

// Quantize: x * (1 / 0.25) = x * 4, NaN -> 0, clamp to [0 - 10, 255 - 10],
// + 10. 8 elements: no vector part, only the scalar loop.
// CHECK-LABEL: func.func @qcast
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>) -> tensor<8xi8>
// CHECK: %[[BX:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<8xf32> to memref<8xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xi8>
// CHECK-NOT: vector.load
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[V:.*]] = memref.load %[[BX]][%[[I]]] : memref<8xf32>
// CHECK:   %[[INV:.*]] = arith.constant 4.000000e+00 : f32
// CHECK:   %[[M:.*]] = arith.mulf %[[V]], %[[INV]] : f32
// CHECK:   %[[R:.*]] = math.roundeven %[[M]] : f32
// CHECK:   %[[NAN:.*]] = arith.cmpf uno, %[[R]], %[[R]] : f32
// CHECK:   %[[Z:.*]] = arith.select %[[NAN]], %{{.*}}, %[[R]] : f32
// CHECK:   arith.constant -1.000000e+01 : f32
// CHECK:   arith.maxnumf %[[Z]]
// CHECK:   arith.constant 2.450000e+02 : f32
// CHECK:   arith.minnumf
// CHECK:   arith.fptosi
// CHECK:   arith.constant 10 : i32
// CHECK:   arith.trunci
// CHECK:   memref.store %{{.*}}, %[[OUT]][%[[I]]] : memref<8xi8>
func.func @qcast(%x: tensor<8xf32>) -> tensor<8x!quant.uniform<u8:f32, 0.25:10>> {
  %0 = quant.qcast %x : tensor<8xf32> to tensor<8x!quant.uniform<u8:f32, 0.25:10>>
  return %0 : tensor<8x!quant.uniform<u8:f32, 0.25:10>>
}

// -----

// Dequantize: float(q - zp) * scale; i8 storage is sign-extended.
// CHECK-LABEL: func.func @dcast
// CHECK-SAME: (%{{.*}}: tensor<1x16xi8>) -> tensor<1x16xf32>
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x16xf32>
// CHECK: scf.parallel
// CHECK:   vector.load %{{.*}} : memref<16xi8>, vector<16xi8>
// CHECK:   arith.extsi %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<-7> : vector<16xi32>
// CHECK:   arith.subi
// CHECK:   arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK:   arith.constant dense<1.250000e-01> : vector<16xf32>
// CHECK:   arith.mulf
// CHECK:   vector.store %{{.*}} : memref<16xf32>, vector<16xf32>
// CHECK-NOT: scf.for
// CHECK: bufferization.to_tensor %{{.*}} restrict writable : memref<1x16xf32> to tensor<1x16xf32>
func.func @dcast(%q: tensor<1x16x!quant.uniform<i8:f32, 0.125:-7>>) -> tensor<1x16xf32> {
  %0 = quant.dcast %q : tensor<1x16x!quant.uniform<i8:f32, 0.125:-7>> to tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}

// -----

// Requantize u8 (0.5, 100) -> i8<-100:100> (0.25, 3): (q - 100) * 2, clamp
// to [-100 - 3, 100 - 3], + 3.
// CHECK-LABEL: func.func @requantize
// CHECK: scf.parallel
// CHECK:   arith.extui %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK:   arith.constant dense<100> : vector<16xi32>
// CHECK:   arith.subi
// CHECK:   arith.constant dense<2.000000e+00> : vector<16xf32>
// CHECK:   arith.mulf
// CHECK:   math.roundeven
// CHECK:   arith.constant dense<-1.030000e+02> : vector<16xf32>
// CHECK:   arith.constant dense<9.700000e+01> : vector<16xf32>
// CHECK:   arith.constant dense<3> : vector<16xi32>
func.func @requantize(%q: tensor<16x!quant.uniform<u8:f32, 0.5:100>>) -> tensor<16x!quant.uniform<i8<-100:100>:f32, 0.25:3>> {
  %0 = qnt.requantize %q : (tensor<16x!quant.uniform<u8:f32, 0.5:100>>) -> tensor<16x!quant.uniform<i8<-100:100>:f32, 0.25:3>>
  return %0 : tensor<16x!quant.uniform<i8<-100:100>:f32, 0.25:3>>
}

// -----

// A lookup: the table becomes a constant global of i32 entries read by a
// 16-lane vector.gather at the i8 value + 128 (entry 0 is -128), then a
// scalar tail of memref.loads (20 elements).
// On x86 the body is 32 lanes of byte shuffles instead: the entry index is
// the byte with its top bit flipped, vpshufb by its low nibble in each of
// the 16 slices of 16 entries (repeated in both 128-bit lanes), selected by
// its high nibble; 20 elements are all tail.
// X86-LABEL: func.func @lookup
// X86-NOT: vector.gather
// X86: scf.for
// X86:   memref.load %{{.*}} : memref<256xi32>
// X86-LABEL: func.func @lookup_shuffle
// X86: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
// X86:   %[[V:.*]] = vector.load %{{.*}} : memref<70xi8>, vector<32xi8>
// X86:   %[[K:.*]] = arith.xori %[[V]], %{{.*}} : vector<32xi8>
// X86:   %[[LO:.*]] = arith.andi %[[K]], %{{.*}} : vector<32xi8>
// X86:   %[[HI:.*]] = arith.shrui %[[K]], %{{.*}} : vector<32xi8>
// X86:   qnt.pure_intrinsic "llvm.x86.avx2.pshuf.b"(%{{.*}}, %[[LO]]) : (vector<32xi8>, vector<32xi8>) -> vector<32xi8>
// X86:   arith.cmpi eq, %[[HI]], %{{.*}} : vector<32xi8>
// X86:   arith.select
// X86-NOT: vector.gather
// X86: scf.for
// AArch64: 16 lanes, the OR of tbl4 over the four 64-entry slices, at the
// index minus 0, 64, 128, 192 (wrapping).
// A64-LABEL: func.func @lookup_shuffle
// A64: %[[V:.*]] = vector.load %{{.*}} : memref<70xi8>, vector<16xi8>
// A64: %[[K:.*]] = arith.xori %[[V]], %{{.*}} : vector<16xi8>
// A64: qnt.pure_intrinsic "llvm.aarch64.neon.tbl4.v16i8"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[K]])
// A64: %[[K1:.*]] = arith.subi %[[K]], %{{.*}} : vector<16xi8>
// A64: qnt.pure_intrinsic "llvm.aarch64.neon.tbl4.v16i8"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[K1]])
// A64: arith.ori
// CHECK: memref.global "private" constant @__qnt_table_0 : memref<256xi32> = dense<"0xFF000000FE000000
// CHECK-LABEL: func.func @lookup
// CHECK: %[[T:.*]] = memref.get_global @__qnt_table_0 : memref<256xi32>
// CHECK: scf.parallel
// CHECK:   %[[V:.*]] = vector.load %{{.*}} : memref<20xi8>, vector<16xi8>
// CHECK:   %[[E:.*]] = arith.extsi %[[V]] : vector<16xi8> to vector<16xi32>
// CHECK:   %[[K:.*]] = arith.addi %[[E]], %{{.*}} : vector<16xi32>
// CHECK:   %[[G:.*]] = vector.gather %[[T]][%{{.*}}] [%[[K]]], %{{.*}}, %{{.*}} : memref<256xi32>, vector<16xi32>, vector<16xi1>, vector<16xi32> into vector<16xi32>
// CHECK:   arith.trunci %[[G]] : vector<16xi32> to vector<16xi8>
// CHECK: scf.for
// CHECK:   memref.load %[[T]][%{{.*}}] : memref<256xi32>
func.func @lookup(%x: tensor<20x!quant.uniform<i8:f32, 0.1>>) -> tensor<20x!quant.uniform<u8:f32, 0.5>> {
  %0 = qnt.lookup %x {table = array<i32: 255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242, 241, 240, 239, 238, 237, 236, 235, 234, 233, 232, 231, 230, 229, 228, 227, 226, 225, 224, 223, 222, 221, 220, 219, 218, 217, 216, 215, 214, 213, 212, 211, 210, 209, 208, 207, 206, 205, 204, 203, 202, 201, 200, 199, 198, 197, 196, 195, 194, 193, 192, 191, 190, 189, 188, 187, 186, 185, 184, 183, 182, 181, 180, 179, 178, 177, 176, 175, 174, 173, 172, 171, 170, 169, 168, 167, 166, 165, 164, 163, 162, 161, 160, 159, 158, 157, 156, 155, 154, 153, 152, 151, 150, 149, 148, 147, 146, 145, 144, 143, 142, 141, 140, 139, 138, 137, 136, 135, 134, 133, 132, 131, 130, 129, 128, 127, 126, 125, 124, 123, 122, 121, 120, 119, 118, 117, 116, 115, 114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103, 102, 101, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0>} : (tensor<20x!quant.uniform<i8:f32, 0.1>>) -> tensor<20x!quant.uniform<u8:f32, 0.5>>
  return %0 : tensor<20x!quant.uniform<u8:f32, 0.5>>
}

// -----

// 70 elements: two 32-lane bodies on x86 (four 16-lane ones on AArch64), a
// tail of 6.
func.func @lookup_shuffle(%x: tensor<70x!quant.uniform<i8:f32, 0.1>>) -> tensor<70x!quant.uniform<u8:f32, 0.5>> {
  %0 = qnt.lookup %x {table = array<i32: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255>} : (tensor<70x!quant.uniform<i8:f32, 0.1>>) -> tensor<70x!quant.uniform<u8:f32, 0.5>>
  return %0 : tensor<70x!quant.uniform<u8:f32, 0.5>>
}

// -----

// A squeeze-excitation multiply [1, 3, 5, 32] x [1, 1, 1, 32]: a loop nest
// over (H, W) around 16-lane chunks of the 32 channels; the scale operand
// is read at the channel offset only. The product of the centered values
// is requantized with 0.5 * 0.25 / 0.125 = 1.
// CHECK-LABEL: func.func @mul_broadcast
// CHECK: scf.parallel (%[[H:.*]], %[[W:.*]]) =
// CHECK:   %[[RH:.*]] = arith.muli %[[H]], %{{.*}} : index
// CHECK:   %[[RW:.*]] = arith.muli %[[W]], %{{.*}} : index
// CHECK:   %[[BASE:.*]] = arith.addi %[[RH]], %[[RW]] : index
// CHECK:   scf.for %[[C:.*]] =
// CHECK:     %[[I:.*]] = arith.addi %[[BASE]], %[[C]] : index
// CHECK:     vector.load %{{.*}}[%[[I]]] : memref<480xi8>, vector<16xi8>
// CHECK:     vector.load %{{.*}}[%[[C]]] : memref<32xi8>, vector<16xi8>
// CHECK:     arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK:     arith.constant dense<1.000000e+00> : vector<16xf32>
func.func @mul_broadcast(%x: tensor<1x3x5x32x!quant.uniform<u8:f32, 0.5:3>>, %s: tensor<1x1x1x32x!quant.uniform<u8:f32, 0.25>>) -> tensor<1x3x5x32x!quant.uniform<i8:f32, 0.125>> {
  %0 = qnt.mul %x, %s : (tensor<1x3x5x32x!quant.uniform<u8:f32, 0.5:3>>, tensor<1x1x1x32x!quant.uniform<u8:f32, 0.25>>) -> tensor<1x3x5x32x!quant.uniform<i8:f32, 0.125>>
  return %0 : tensor<1x3x5x32x!quant.uniform<i8:f32, 0.125>>
}

// The inner loops of the convolution kernel use each target's int8
// dot-product instructions (assembly from quant-compile --emit=asm).
//
// x86 without VNNI (default CPU x86-64-v3): 7-bit activations prove that
// vpmaddubsw's 16-bit pair sums cannot saturate.
// RUN: quant-compile %S/Inputs/conv-7bit.mlir --emit=asm -o - --remarks 2> %t.remarks | FileCheck %s --check-prefix=AVX2
// RUN: FileCheck %s --check-prefix=AVX2-REMARK < %t.remarks
// AVX2: vpmaddubsw {{.*}}%ymm
// AVX2: vpmaddwd {{.*}}%ymm
// AVX2-REMARK: remark: int8 kernel: avx2: vpmaddubsw + vpmaddwd (every 16-bit pair sum is provably within int16)
//
// Full-range u8 activations with weights up to 127 could saturate: no
// vpmaddubsw, but vpmaddwd on the input widened to 16 bits.
// RUN: quant-compile %S/Inputs/conv-fullrange.mlir --emit=asm -o - --remarks 2> %t.remarks2 | FileCheck %s --check-prefix=EXACT
// RUN: FileCheck %s --check-prefix=EXACT-REMARK < %t.remarks2
// EXACT-NOT: vpmaddubsw
// EXACT: vpmaddwd {{.*}}%ymm
// EXACT-NOT: vpmaddubsw
// EXACT-REMARK: remark: int8 kernel: avx2: vpmaddwd on inputs widened to 16 bits
//
// AVX-512 VNNI uses vpdpbusd.
// RUN: quant-compile %S/Inputs/conv-fullrange.mlir --cpu=cascadelake --emit=asm -o - | FileCheck %s --check-prefix=CASCADELAKE
// CASCADELAKE: vpdpbusd {{.*}}%zmm
//
// AArch64 dot product: sdot; int8 matrix multiply: smmla.
// RUN: quant-compile %S/Inputs/conv-fullrange.mlir --target aarch64-linux-gnu --mattr=+dotprod --emit=asm -o - | FileCheck %s --check-prefix=SDOT
// SDOT: sdot v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// RUN: quant-compile %S/Inputs/conv-fullrange.mlir --target aarch64-linux-gnu --mattr=+dotprod,+i8mm --emit=asm -o - | FileCheck %s --check-prefix=SMMLA
// SMMLA: smmla v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b

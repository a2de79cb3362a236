// quant-run writes a model with several outputs to a .npz archive only, and
// names unnamed inputs by number.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy; numpy.save('%t/x.npy', numpy.ones((1, 4), numpy.float32))"
// RUN: not quant-run %s --function float_two --input %t/x.npy -o %t/y.npy 2>&1 | FileCheck %s
// RUN: not quant-run %s --function int8_two --reference --input %t/x.npy -o %t/y.npy 2>&1 | FileCheck %s
// CHECK: quant-run: error: the model has 2 outputs: write them to a .npz archive (-o outputs.npz)
// RUN: not ls %t/y.npy
//
// Inputs without names are numbered in messages.
// RUN: %python -c "import numpy; numpy.savez('%t/first.npz', numpy.ones((1, 4), numpy.float32))"
// RUN: not quant-run %s --function unnamed_two --input %t/first.npz -o %t/y.npy 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: quant-run: error: {{.*}}first.npz: no array for the model input 1 (the archive's arrays: 'arr_0')

func.func @float_two(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %a = tosa.abs %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %b = tosa.exp %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %a, %b : tensor<1x4xf32>, tensor<1x4xf32>
}

func.func @int8_two(%x: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %q = quant.qcast %x : tensor<1x4xf32> to tensor<1x4x!quant.uniform<u8:f32, 0.1>>
  %d = quant.dcast %q : tensor<1x4x!quant.uniform<u8:f32, 0.1>> to tensor<1x4xf32>
  %e = quant.dcast %q : tensor<1x4x!quant.uniform<u8:f32, 0.1>> to tensor<1x4xf32>
  return %d, %e : tensor<1x4xf32>, tensor<1x4xf32>
}

func.func @unnamed_two(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %s = tosa.add %x, %y : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %s : tensor<1x4xf32>
}

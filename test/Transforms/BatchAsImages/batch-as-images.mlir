// RUN: quant-opt %s --quantc-batch-as-images --split-input-file --verify-diagnostics | FileCheck %s

// A batch of 4 through an NHWC layout change, a clamp, ONNX Gemm's reshape
// to matmul rows (the images on dimension 1 of the matmul) and back, and a
// broadcast bias: every op keeps the images apart, so the function computes
// one image; the reshapes get shapes of one image.
// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %{{.*}}: tensor<1x2x3x3xf32>) -> tensor<1x5xf32>
// CHECK-SAME: quantc.images = 4 : i64
// CHECK: tosa.transpose {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: tosa.clamp {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: %[[ROWS:.*]] = tosa.const_shape {values = dense<[1, 1, 18]> : tensor<3xindex>}
// CHECK: tosa.reshape %{{.*}}, %[[ROWS]] : {{.*}} -> tensor<1x1x18xf32>
// CHECK: tosa.matmul {{.*}} -> tensor<1x1x5xf32>
// CHECK: %[[FLAT:.*]] = tosa.const_shape {values = dense<[1, 5]> : tensor<2xindex>}
// CHECK: tosa.reshape %{{.*}}, %[[FLAT]] : {{.*}} -> tensor<1x5xf32>
// CHECK: tosa.add {{.*}} : (tensor<1x5xf32>, tensor<1x5xf32>) -> tensor<1x5xf32>
// CHECK: return {{.*}} : tensor<1x5xf32>
// expected-remark @below {{computes the batch of 4 as 4 images, one at a time}}
func.func @gemm(%x: tensor<4x2x3x3xf32>) -> tensor<4x5xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x2x3x3xf32>) -> tensor<4x3x3x2xf32>
  %c = tosa.clamp %t {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<4x3x3x2xf32>) -> tensor<4x3x3x2xf32>
  %rows = tosa.const_shape {values = dense<[1, 4, 18]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %c, %rows : (tensor<4x3x3x2xf32>, !tosa.shape<3>) -> tensor<1x4x18xf32>
  %w = "tosa.const"() {values = dense<1.0> : tensor<1x18x5xf32>} : () -> tensor<1x18x5xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %r, %w, %zp, %zp : (tensor<1x4x18xf32>, tensor<1x18x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5xf32>
  %flat = tosa.const_shape {values = dense<[4, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %o = tosa.reshape %m, %flat : (tensor<1x4x5xf32>, !tosa.shape<2>) -> tensor<4x5xf32>
  %bias = "tosa.const"() {values = dense<0.5> : tensor<1x5xf32>} : () -> tensor<1x5xf32>
  %y = tosa.add %o, %bias : (tensor<4x5xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

// ShuffleNet's channel split: a slice of all the images (its size follows),
// a channel concat.
// CHECK-LABEL: func.func @split(
// CHECK-SAME: tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
// CHECK: %[[SIZE:.*]] = tosa.const_shape {values = dense<[1, 2, 2, 4]> : tensor<4xindex>}
// CHECK: tosa.slice %{{.*}}, %{{.*}}, %[[SIZE]] : {{.*}} -> tensor<1x2x2x4xf32>
// CHECK: tosa.concat {{.*}} -> tensor<1x2x2x8xf32>
// expected-remark @below {{computes the batch of 3 as 3 images, one at a time}}
func.func @split(%x: tensor<3x2x2x8xf32>) -> tensor<3x2x2x8xf32> {
  %start = tosa.const_shape {values = dense<[0, 0, 0, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[3, 2, 2, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<3x2x2x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<3x2x2x4xf32>
  %y = tosa.concat %s, %s {axis = 3 : i32} : (tensor<3x2x2x4xf32>, tensor<3x2x2x4xf32>) -> tensor<3x2x2x8xf32>
  return %y : tensor<3x2x2x8xf32>
}

// -----

// A slice of some of the images (tiled back to 4).
// CHECK-LABEL: func.func @some(
// CHECK-SAME: tensor<4x6xf32>) -> tensor<4x6xf32> {
func.func @some(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %start = tosa.const_shape {values = dense<[2, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @below {{keeps the batch of 4 whole: 'tosa.slice' has a result without the images}}
  %s = tosa.slice %x, %start, %size : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x6xf32>
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.tile %s, %m : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  return %t : tensor<4x6xf32>
}

// -----

// A reduction over the images mixes them: the batch stays whole.
// CHECK-LABEL: func.func @reduce(
// CHECK-SAME: tensor<4x6xf32>) -> tensor<4x6xf32> {
func.func @reduce(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-remark @below {{keeps the batch of 4 whole: 'tosa.reduce_sum' computes along the images}}
  %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<4x6xf32>) -> tensor<1x6xf32>
  %y = tosa.add %x, %s : (tensor<4x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A reshape that puts two images in one row.
// CHECK-LABEL: func.func @pairs(
// CHECK-SAME: tensor<4x6xf32>) -> tensor<4x6xf32> {
func.func @pairs(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s = tosa.const_shape {values = dense<[2, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-remark @below {{keeps the batch of 4 whole: 'tosa.reshape' mixes the images with other dimensions}}
  %r = tosa.reshape %x, %s : (tensor<4x6xf32>, !tosa.shape<2>) -> tensor<2x12xf32>
  %b = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.reshape %r, %b : (tensor<2x12xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A constant with a value per image (not broadcast along the images).
// CHECK-LABEL: func.func @per_image_constant(
// CHECK-SAME: tensor<4x6xf32>) -> tensor<4x6xf32> {
func.func @per_image_constant(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %c = "tosa.const"() {values = dense<1.0> : tensor<4x6xf32>} : () -> tensor<4x6xf32>
  // expected-remark @below {{keeps the batch of 4 whole: 'tosa.add' has an operand without the images that does not broadcast along them}}
  %y = tosa.add %x, %c : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A constant residual with a value per image (qnt.conv2d's operand of the
// result's shape, not the images of the input).
// CHECK-LABEL: func.func @per_image_residual(
// CHECK-SAME: tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32> {
func.func @per_image_residual(%x: tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32> {
  %w = arith.constant dense<0.5> : tensor<8x1x1x8xf32>
  %r = arith.constant dense<1.0> : tensor<2x4x4x8xf32>
  // expected-remark @below {{keeps the batch of 2 whole: 'qnt.conv2d' adds an operand without the images that differs per image}}
  %y = qnt.conv2d %x, %w residual(%r) : (tensor<2x4x4x8xf32>, tensor<8x1x1x8xf32>, tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  return %y : tensor<2x4x4x8xf32>
}

// -----

// The images on the last dimension (where per-channel parameters are).
// CHECK-LABEL: func.func @last(
// CHECK-SAME: tensor<4x6xf32>) -> tensor<4x6xf32> {
func.func @last(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  // expected-remark @below {{keeps the batch of 4 whole: 'tosa.sigmoid' has the images on its last dimension}}
  %s = tosa.sigmoid %t : (tensor<6x4xf32>) -> tensor<6x4xf32>
  %y = tosa.transpose %s {perms = array<i32: 1, 0>} : (tensor<6x4xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// Batch 1, a private function and arguments of different batches: nothing
// to do, no remark.
// CHECK-LABEL: func.func @one(
// CHECK-SAME: tensor<1x6xf32>) -> tensor<1x6xf32> {
func.func @one(%x: tensor<1x6xf32>) -> tensor<1x6xf32> {
  return %x : tensor<1x6xf32>
}
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: tensor<4x6xf32>) -> tensor<4x6xf32> {
func.func private @helper(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  return %x : tensor<4x6xf32>
}
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: tensor<4x6xf32>, %{{.*}}: tensor<2x6xf32>) -> tensor<4x6xf32> {
func.func @mixed(%x: tensor<4x6xf32>, %z: tensor<2x6xf32>) -> tensor<4x6xf32> {
  return %x : tensor<4x6xf32>
}

// RUN: quant-opt %s --quantc-merge-functions --split-input-file | FileCheck %s

// Three layers alike but for their weights, scale and bias: one function
// that takes them (the splat bias as its element, broadcast inside); the
// data equal in all three (the 0.0 clamp) stays a constant. The fourth
// has another trip count and stays itself.

memref.global "private" constant @w0 : memref<8xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<8xf32> = dense<2.0>
memref.global "private" constant @w2 : memref<8xf32> = dense<3.0>

// CHECK-LABEL: func.func @model(
// CHECK-SAME:    %[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>)
// CHECK:         %[[W0:.*]] = memref.get_global @w0
// CHECK:         %[[S0:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         %[[B0:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         call @layer0(%[[X]], %[[Y]], %[[W0]], %[[S0]], %[[B0]])
// CHECK:         %[[W1:.*]] = memref.get_global @w1
// CHECK:         %[[S1:.*]] = arith.constant 2.500000e-01 : f32
// CHECK:         %[[B1:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:         call @layer0(%[[Y]], %[[X]], %[[W1]], %[[S1]], %[[B1]])
// CHECK:         %[[W2:.*]] = memref.get_global @w2
// CHECK:         %[[S2:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         %[[B2:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:         call @layer0(%[[X]], %[[Y]], %[[W2]], %[[S2]], %[[B2]])
// CHECK:         call @layer3(%[[X]], %[[Y]])
// CHECK:         return

// CHECK-LABEL: func.func private @layer0(
// CHECK-SAME:    %{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>, %[[W:.*]]: memref<8xf32>, %[[S:.*]]: f32, %[[B:.*]]: f32)
// CHECK-SAME:    attributes {no_inline}
// CHECK:         %[[BV:.*]] = vector.broadcast %[[B]] : f32 to vector<4xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.for {{.*}} to %[[C8]]
// CHECK:           memref.load %[[W]]
// CHECK:           arith.mulf {{.*}}, %[[S]]
// CHECK:           arith.maximumf {{.*}}, %[[ZERO]]
// CHECK:           vector.transfer_read
// CHECK:           arith.addf {{.*}}, %[[BV]]
// CHECK-NOT:   func.func private @layer1
// CHECK-NOT:   func.func private @layer2
// CHECK:       func.func private @layer3(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK:         arith.constant 4 : index
func.func @model(%x: memref<8xf32>, %y: memref<8xf32>) {
  call @layer0(%x, %y) : (memref<8xf32>, memref<8xf32>) -> ()
  call @layer1(%y, %x) : (memref<8xf32>, memref<8xf32>) -> ()
  call @layer2(%x, %y) : (memref<8xf32>, memref<8xf32>) -> ()
  call @layer3(%x, %y) : (memref<8xf32>, memref<8xf32>) -> ()
  return
}
func.func private @layer0(%x: memref<8xf32>, %y: memref<8xf32>) attributes {no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = memref.get_global @w0 : memref<8xf32>
  %s = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<1.0> : vector<4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %b = memref.load %w[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.maximumf %q, %zero : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  %v = vector.transfer_read %y[%c0], %zero : memref<8xf32>, vector<4xf32>
  %u = arith.addf %v, %bias : vector<4xf32>
  vector.transfer_write %u, %y[%c0] : vector<4xf32>, memref<8xf32>
  return
}
func.func private @layer1(%x: memref<8xf32>, %y: memref<8xf32>) attributes {no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = memref.get_global @w1 : memref<8xf32>
  %s = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<2.0> : vector<4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %b = memref.load %w[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.maximumf %q, %zero : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  %v = vector.transfer_read %y[%c0], %zero : memref<8xf32>, vector<4xf32>
  %u = arith.addf %v, %bias : vector<4xf32>
  vector.transfer_write %u, %y[%c0] : vector<4xf32>, memref<8xf32>
  return
}
func.func private @layer2(%x: memref<8xf32>, %y: memref<8xf32>) attributes {no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = memref.get_global @w2 : memref<8xf32>
  %s = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<3.0> : vector<4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %b = memref.load %w[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.maximumf %q, %zero : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  %v = vector.transfer_read %y[%c0], %zero : memref<8xf32>, vector<4xf32>
  %u = arith.addf %v, %bias : vector<4xf32>
  vector.transfer_write %u, %y[%c0] : vector<4xf32>, memref<8xf32>
  return
}
func.func private @layer3(%x: memref<8xf32>, %y: memref<8xf32>) attributes {no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = memref.get_global @w2 : memref<8xf32>
  %s = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<3.0> : vector<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %b = memref.load %w[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %s : f32
    %r = arith.maximumf %q, %zero : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  %v = vector.transfer_read %y[%c0], %zero : memref<8xf32>, vector<4xf32>
  %u = arith.addf %v, %bias : vector<4xf32>
  vector.transfer_write %u, %y[%c0] : vector<4xf32>, memref<8xf32>
  return
}

// -----

// Equal functions: one, no arguments added. A public function, one whose
// address is taken and one that differs in an attribute (fastmath) or in
// the flow of values stay.

// CHECK-LABEL: func.func @calls(
// CHECK:         call @f(%{{.*}}) : (f32) -> f32
// CHECK:         call @f(%{{.*}}) : (f32) -> f32
// CHECK:         call @public_f(
// CHECK:         call @taken(
// CHECK:         call @fast(
// CHECK:         call @swapped(
// CHECK:         constant @taken
// CHECK:       func.func private @f(%{{.*}}: f32) -> f32
// CHECK-NOT:   func.func private @g
// CHECK:       func.func @public_f(
// CHECK:       func.func private @taken(
// CHECK:       func.func private @fast(
// CHECK:       func.func private @swapped(
func.func @calls(%a: f32) -> (f32, f32, f32, f32, f32, f32, (f32) -> f32) {
  %0 = call @f(%a) : (f32) -> f32
  %1 = call @g(%a) : (f32) -> f32
  %2 = call @public_f(%a) : (f32) -> f32
  %3 = call @taken(%a) : (f32) -> f32
  %4 = call @fast(%a) : (f32) -> f32
  %5 = call @swapped(%a) : (f32) -> f32
  %fn = func.constant @taken : (f32) -> f32
  return %0, %1, %2, %3, %4, %5, %fn : f32, f32, f32, f32, f32, f32, (f32) -> f32
}
func.func private @f(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %y = arith.subf %x, %c : f32
  return %y : f32
}
func.func private @g(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %y = arith.subf %x, %c : f32
  return %y : f32
}
func.func @public_f(%x: f32) -> f32 {
  %c = arith.constant 3.0 : f32
  %y = arith.subf %x, %c : f32
  return %y : f32
}
func.func private @taken(%x: f32) -> f32 {
  %c = arith.constant 4.0 : f32
  %y = arith.subf %x, %c : f32
  return %y : f32
}
func.func private @fast(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %y = arith.subf %x, %c fastmath<fast> : f32
  return %y : f32
}
func.func private @swapped(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %y = arith.subf %c, %x : f32
  return %y : f32
}

// -----

// Data first in the body (the argument's broadcast takes its place), and
// two splats: one broadcast each.

// CHECK-LABEL: func.func @first(
// CHECK:         %[[A:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[B:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:         call @h(%{{.*}}, %[[A]], %[[B]])
// CHECK:         %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:         %[[D:.*]] = arith.constant 4.000000e+00 : f32
// CHECK:         call @h(%{{.*}}, %[[C]], %[[D]])
// CHECK:       func.func private @h(%[[X:.*]]: vector<4xf32>, %[[P:.*]]: f32, %[[Q:.*]]: f32) -> vector<4xf32>
// CHECK-DAG:     %[[PV:.*]] = vector.broadcast %[[P]] : f32 to vector<4xf32>
// CHECK-DAG:     %[[QV:.*]] = vector.broadcast %[[Q]] : f32 to vector<4xf32>
// CHECK:         %[[S:.*]] = arith.addf %[[X]], %[[PV]]
// CHECK:         arith.mulf %[[S]], %[[QV]]
// CHECK-NOT:   func.func private @i
func.func @first(%v: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %0 = call @h(%v) : (vector<4xf32>) -> vector<4xf32>
  %1 = call @i(%v) : (vector<4xf32>) -> vector<4xf32>
  return %0, %1 : vector<4xf32>, vector<4xf32>
}
func.func private @h(%x: vector<4xf32>) -> vector<4xf32> {
  %c = arith.constant dense<1.0> : vector<4xf32>
  %d = arith.constant dense<3.0> : vector<4xf32>
  %s = arith.addf %x, %c : vector<4xf32>
  %p = arith.mulf %s, %d : vector<4xf32>
  return %p : vector<4xf32>
}
func.func private @i(%x: vector<4xf32>) -> vector<4xf32> {
  %c = arith.constant dense<2.0> : vector<4xf32>
  %d = arith.constant dense<4.0> : vector<4xf32>
  %s = arith.addf %x, %c : vector<4xf32>
  %p = arith.mulf %s, %d : vector<4xf32>
  return %p : vector<4xf32>
}

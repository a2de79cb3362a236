// A CI-sized slice of the torchvision zoo (bench/zoo/zoo.py): models with
// the ops this importer added (ceil-mode pools, channel shuffle, slices,
// HardSwish and squeeze-excitation), built with seeded weights and
// re-estimated BatchNorm statistics, exported at opset 13, compiled to
// float objects, run by the C driver and compared with PyTorch (1e-4 of the
// output's magnitude). At 64x64; the full table (224x224, 20 models) is
// `bench/zoo/zoo.sh > docs/zoo.md`.
//
// REQUIRES: torchvision
// RUN: /usr/bin/python3 %quantc_src_root/bench/zoo/zoo.py --models squeezenet1_1,shufflenet_v2_x1_0,mobilenet_v3_small --size 64 --out %t --bin %quantc_tools_dir 2>/dev/null | FileCheck %s
// CHECK: | `squeezenet1_1` | 64x64 | {{.*}} | ok |
// CHECK: | `shufflenet_v2_x1_0` | 64x64 | {{.*}} | ok |
// CHECK: | `mobilenet_v3_small` | 64x64 | {{.*}} | ok |

// Invalid models: every check the importer makes where input enters
// refuses a model with a message naming the node, the attribute or
// input and the allowed range, a non-zero exit status and no output.
// Generated with the models by scripts/gen_invalid_models.py.
//
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/add_one_input.onnx -o %t.add_one_input.mlir 2>&1 | FileCheck %s --check-prefix=ADD_ONE_INPUT
// RUN: not test -e %t.add_one_input.mlir
// ADD_ONE_INPUT: error: '{{.*}}add_one_input.onnx': node 'n' (Add): expected 2 inputs, got 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/identity_no_input.onnx -o %t.identity_no_input.mlir 2>&1 | FileCheck %s --check-prefix=IDENTITY_NO_INPUT
// RUN: not test -e %t.identity_no_input.mlir
// IDENTITY_NO_INPUT: error: '{{.*}}identity_no_input.onnx': node 'n' (Identity): expected 1 input, got 0
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/relu_two_outputs.onnx -o %t.relu_two_outputs.mlir 2>&1 | FileCheck %s --check-prefix=RELU_TWO_OUTPUTS
// RUN: not test -e %t.relu_two_outputs.mlir
// RELU_TWO_OUTPUTS: error: '{{.*}}relu_two_outputs.onnx': node 'n' (Relu): expected 1 output, got 2
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv_strides_zero.onnx -o %t.conv_strides_zero.mlir 2>&1 | FileCheck %s --check-prefix=CONV_STRIDES_ZERO
// RUN: not test -e %t.conv_strides_zero.mlir
// CONV_STRIDES_ZERO: error: '{{.*}}conv_strides_zero.onnx': node 'n' (Conv): strides must be >= 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv_same_strides_zero.onnx -o %t.conv_same_strides_zero.mlir 2>&1 | FileCheck %s --check-prefix=CONV_SAME_STRIDES_ZERO
// RUN: not test -e %t.conv_same_strides_zero.mlir
// CONV_SAME_STRIDES_ZERO: error: '{{.*}}conv_same_strides_zero.onnx': node 'n' (Conv): strides must be >= 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv_strides_float.onnx -o %t.conv_strides_float.mlir 2>&1 | FileCheck %s --check-prefix=CONV_STRIDES_FLOAT
// RUN: not test -e %t.conv_strides_float.mlir
// CONV_STRIDES_FLOAT: error: '{{.*}}conv_strides_float.onnx': node 'n' (Conv): attribute 'strides' must be a list of integers
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv_pads_huge.onnx -o %t.conv_pads_huge.mlir 2>&1 | FileCheck %s --check-prefix=CONV_PADS_HUGE
// RUN: not test -e %t.conv_pads_huge.mlir
// CONV_PADS_HUGE: error: '{{.*}}conv_pads_huge.onnx': node 'n' (Conv): attribute 'pads' holds 9223372036854775807, out of range (allowed: -1073741824 to 1073741824)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv_group_zero.onnx -o %t.conv_group_zero.mlir 2>&1 | FileCheck %s --check-prefix=CONV_GROUP_ZERO
// RUN: not test -e %t.conv_group_zero.mlir
// CONV_GROUP_ZERO: error: '{{.*}}conv_group_zero.onnx': node 'n' (Conv): weight shape does not match input channels and group 0
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv_kernel_shape.onnx -o %t.conv_kernel_shape.mlir 2>&1 | FileCheck %s --check-prefix=CONV_KERNEL_SHAPE
// RUN: not test -e %t.conv_kernel_shape.mlir
// CONV_KERNEL_SHAPE: error: '{{.*}}conv_kernel_shape.onnx': node 'n' (Conv): kernel_shape does not match the weight
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/maxpool_strides_zero.onnx -o %t.maxpool_strides_zero.mlir 2>&1 | FileCheck %s --check-prefix=MAXPOOL_STRIDES_ZERO
// RUN: not test -e %t.maxpool_strides_zero.mlir
// MAXPOOL_STRIDES_ZERO: error: '{{.*}}maxpool_strides_zero.onnx': node 'n' (MaxPool): strides must be >= 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/avgpool_kernel_zero.onnx -o %t.avgpool_kernel_zero.mlir 2>&1 | FileCheck %s --check-prefix=AVGPOOL_KERNEL_ZERO
// RUN: not test -e %t.avgpool_kernel_zero.mlir
// AVGPOOL_KERNEL_ZERO: error: '{{.*}}avgpool_kernel_zero.onnx': node 'n' (AveragePool): kernel sizes must be >= 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_weight_channels.onnx -o %t.convtranspose_weight_channels.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_WEIGHT_CHANNELS
// RUN: not test -e %t.convtranspose_weight_channels.mlir
// CONVTRANSPOSE_WEIGHT_CHANNELS: error: '{{.*}}convtranspose_weight_channels.onnx': node 'n' (ConvTranspose): weight of 3 input channels does not match the input's 2 channels and group 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_group.onnx -o %t.convtranspose_group.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_GROUP
// RUN: not test -e %t.convtranspose_group.mlir
// CONVTRANSPOSE_GROUP: error: '{{.*}}convtranspose_group.onnx': node 'n' (ConvTranspose): weight of 2 input channels does not match the input's 2 channels and group 4
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_weight_rank.onnx -o %t.convtranspose_weight_rank.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_WEIGHT_RANK
// RUN: not test -e %t.convtranspose_weight_rank.mlir
// CONVTRANSPOSE_WEIGHT_RANK: error: '{{.*}}convtranspose_weight_rank.onnx': node 'n' (ConvTranspose): weight must be 4-D
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_3d.onnx -o %t.convtranspose_3d.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_3D
// RUN: not test -e %t.convtranspose_3d.mlir
// CONVTRANSPOSE_3D: error: '{{.*}}convtranspose_3d.onnx': node 'n' (ConvTranspose): only 1-D and 2-D transposed convolutions (3-D or 4-D input) are supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_kernel_shape.onnx -o %t.convtranspose_kernel_shape.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_KERNEL_SHAPE
// RUN: not test -e %t.convtranspose_kernel_shape.mlir
// CONVTRANSPOSE_KERNEL_SHAPE: error: '{{.*}}convtranspose_kernel_shape.onnx': node 'n' (ConvTranspose): kernel_shape does not match the weight
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_bias.onnx -o %t.convtranspose_bias.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_BIAS
// RUN: not test -e %t.convtranspose_bias.mlir
// CONVTRANSPOSE_BIAS: error: '{{.*}}convtranspose_bias.onnx': node 'n' (ConvTranspose): bias must have one value per output channel (3)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_strides_zero.onnx -o %t.convtranspose_strides_zero.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_STRIDES_ZERO
// RUN: not test -e %t.convtranspose_strides_zero.mlir
// CONVTRANSPOSE_STRIDES_ZERO: error: '{{.*}}convtranspose_strides_zero.onnx': node 'n' (ConvTranspose): strides must be >= 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_strides_length.onnx -o %t.convtranspose_strides_length.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_STRIDES_LENGTH
// RUN: not test -e %t.convtranspose_strides_length.mlir
// CONVTRANSPOSE_STRIDES_LENGTH: error: '{{.*}}convtranspose_strides_length.onnx': node 'n' (ConvTranspose): attribute 'strides' must have 2 value(s) for a 2-D window, got 3
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_strides_huge.onnx -o %t.convtranspose_strides_huge.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_STRIDES_HUGE
// RUN: not test -e %t.convtranspose_strides_huge.mlir
// CONVTRANSPOSE_STRIDES_HUGE: error: '{{.*}}convtranspose_strides_huge.onnx': node 'n' (ConvTranspose): strides, dilations or output_shape make a tensor of more than 2147483648 elements
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_output_shape_huge.onnx -o %t.convtranspose_output_shape_huge.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_OUTPUT_SHAPE_HUGE
// RUN: not test -e %t.convtranspose_output_shape_huge.mlir
// CONVTRANSPOSE_OUTPUT_SHAPE_HUGE: error: '{{.*}}convtranspose_output_shape_huge.onnx': node 'n' (ConvTranspose): strides, dilations or output_shape make a tensor of more than 2147483648 elements
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_output_padding.onnx -o %t.convtranspose_output_padding.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_OUTPUT_PADDING
// RUN: not test -e %t.convtranspose_output_padding.mlir
// CONVTRANSPOSE_OUTPUT_PADDING: error: '{{.*}}convtranspose_output_padding.onnx': node 'n' (ConvTranspose): output_padding must be smaller than the stride or the dilation
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_pads_too_large.onnx -o %t.convtranspose_pads_too_large.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_PADS_TOO_LARGE
// RUN: not test -e %t.convtranspose_pads_too_large.mlir
// CONVTRANSPOSE_PADS_TOO_LARGE: error: '{{.*}}convtranspose_pads_too_large.onnx': node 'n' (ConvTranspose): the output would be empty (size -2 along spatial dimension 0): pads or output_shape too large
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_output_shape_zero.onnx -o %t.convtranspose_output_shape_zero.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_OUTPUT_SHAPE_ZERO
// RUN: not test -e %t.convtranspose_output_shape_zero.mlir
// CONVTRANSPOSE_OUTPUT_SHAPE_ZERO: error: '{{.*}}convtranspose_output_shape_zero.onnx': node 'n' (ConvTranspose): output_shape must be positive
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_output_shape_length.onnx -o %t.convtranspose_output_shape_length.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_OUTPUT_SHAPE_LENGTH
// RUN: not test -e %t.convtranspose_output_shape_length.mlir
// CONVTRANSPOSE_OUTPUT_SHAPE_LENGTH: error: '{{.*}}convtranspose_output_shape_length.onnx': node 'n' (ConvTranspose): output_shape must have 2 (or 4) values, got 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_auto_pad.onnx -o %t.convtranspose_auto_pad.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_AUTO_PAD
// RUN: not test -e %t.convtranspose_auto_pad.mlir
// CONVTRANSPOSE_AUTO_PAD: error: '{{.*}}convtranspose_auto_pad.onnx': node 'n' (ConvTranspose): unsupported auto_pad 'FOO'
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/convtranspose_per_axis_0.onnx -o %t.convtranspose_per_axis_0.mlir 2>&1 | FileCheck %s --check-prefix=CONVTRANSPOSE_PER_AXIS_0
// RUN: not test -e %t.convtranspose_per_axis_0.mlir
// CONVTRANSPOSE_PER_AXIS_0: error: '{{.*}}convtranspose_per_axis_0.onnx': node 'n' (ConvTranspose): per-axis weight quantization of a ConvTranspose must be along its output channels (axis 1)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv1d_pads_length.onnx -o %t.conv1d_pads_length.mlir 2>&1 | FileCheck %s --check-prefix=CONV1D_PADS_LENGTH
// RUN: not test -e %t.conv1d_pads_length.mlir
// CONV1D_PADS_LENGTH: error: '{{.*}}conv1d_pads_length.onnx': node 'n' (Conv): attribute 'pads' must have 2 value(s) for a 1-D window, got 4
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv1d_weight_rank.onnx -o %t.conv1d_weight_rank.mlir 2>&1 | FileCheck %s --check-prefix=CONV1D_WEIGHT_RANK
// RUN: not test -e %t.conv1d_weight_rank.mlir
// CONV1D_WEIGHT_RANK: error: '{{.*}}conv1d_weight_rank.onnx': node 'n' (Conv): weight must be 3-D
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/maxpool_3d.onnx -o %t.maxpool_3d.mlir 2>&1 | FileCheck %s --check-prefix=MAXPOOL_3D
// RUN: not test -e %t.maxpool_3d.mlir
// MAXPOOL_3D: error: '{{.*}}maxpool_3d.onnx': node 'n' (MaxPool): only 1-D and 2-D pooling (3-D or 4-D input) is supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/maxpool1d_kernel_length.onnx -o %t.maxpool1d_kernel_length.mlir 2>&1 | FileCheck %s --check-prefix=MAXPOOL1D_KERNEL_LENGTH
// RUN: not test -e %t.maxpool1d_kernel_length.mlir
// MAXPOOL1D_KERNEL_LENGTH: error: '{{.*}}maxpool1d_kernel_length.onnx': node 'n' (MaxPool): attribute 'strides' must have 1 value(s) for a 1-D window, got 2
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/depthtospace_channels.onnx -o %t.depthtospace_channels.mlir 2>&1 | FileCheck %s --check-prefix=DEPTHTOSPACE_CHANNELS
// RUN: not test -e %t.depthtospace_channels.mlir
// DEPTHTOSPACE_CHANNELS: error: '{{.*}}depthtospace_channels.onnx': node 'n' (DepthToSpace): channels (2) must be a multiple of blocksize^2 (4)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/depthtospace_mode.onnx -o %t.depthtospace_mode.mlir 2>&1 | FileCheck %s --check-prefix=DEPTHTOSPACE_MODE
// RUN: not test -e %t.depthtospace_mode.mlir
// DEPTHTOSPACE_MODE: error: '{{.*}}depthtospace_mode.onnx': node 'n' (DepthToSpace): mode must be DCR or CRD, got 'XYZ'
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/depthtospace_no_blocksize.onnx -o %t.depthtospace_no_blocksize.mlir 2>&1 | FileCheck %s --check-prefix=DEPTHTOSPACE_NO_BLOCKSIZE
// RUN: not test -e %t.depthtospace_no_blocksize.mlir
// DEPTHTOSPACE_NO_BLOCKSIZE: error: '{{.*}}depthtospace_no_blocksize.onnx': node 'n' (DepthToSpace): attribute 'blocksize' is required
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/spacetodepth_size.onnx -o %t.spacetodepth_size.mlir 2>&1 | FileCheck %s --check-prefix=SPACETODEPTH_SIZE
// RUN: not test -e %t.spacetodepth_size.mlir
// SPACETODEPTH_SIZE: error: '{{.*}}spacetodepth_size.onnx': node 'n' (SpaceToDepth): height and width (6, 6) must be multiples of blocksize (4)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/spacetodepth_blocksize_zero.onnx -o %t.spacetodepth_blocksize_zero.mlir 2>&1 | FileCheck %s --check-prefix=SPACETODEPTH_BLOCKSIZE_ZERO
// RUN: not test -e %t.spacetodepth_blocksize_zero.mlir
// SPACETODEPTH_BLOCKSIZE_ZERO: error: '{{.*}}spacetodepth_blocksize_zero.onnx': node 'n' (SpaceToDepth): blocksize must be >= 1, got 0
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/flatten_axis.onnx -o %t.flatten_axis.mlir 2>&1 | FileCheck %s --check-prefix=FLATTEN_AXIS
// RUN: not test -e %t.flatten_axis.mlir
// FLATTEN_AXIS: error: '{{.*}}flatten_axis.onnx': node 'n' (Flatten): axis 7 is out of range
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/concat_axis.onnx -o %t.concat_axis.mlir 2>&1 | FileCheck %s --check-prefix=CONCAT_AXIS
// RUN: not test -e %t.concat_axis.mlir
// CONCAT_AXIS: error: '{{.*}}concat_axis.onnx': node 'n' (Concat): axis -9 is out of range for rank 4 (allowed: -4 to 3)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/transpose_perm.onnx -o %t.transpose_perm.mlir 2>&1 | FileCheck %s --check-prefix=TRANSPOSE_PERM
// RUN: not test -e %t.transpose_perm.mlir
// TRANSPOSE_PERM: error: '{{.*}}transpose_perm.onnx': node 'n' (Transpose): perm is not a permutation of the 4 dimensions
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/leaky_relu_nan.onnx -o %t.leaky_relu_nan.mlir 2>&1 | FileCheck %s --check-prefix=LEAKY_RELU_NAN
// RUN: not test -e %t.leaky_relu_nan.mlir
// LEAKY_RELU_NAN: error: '{{.*}}leaky_relu_nan.onnx': node 'n' (LeakyRelu): attribute 'alpha' is nan; it must be a finite number
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/softmax_axis.onnx -o %t.softmax_axis.mlir 2>&1 | FileCheck %s --check-prefix=SOFTMAX_AXIS
// RUN: not test -e %t.softmax_axis.mlir
// SOFTMAX_AXIS: error: '{{.*}}softmax_axis.onnx': node 'n' (Softmax): axis 4 is out of range for rank 4
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/reshape_huge.onnx -o %t.reshape_huge.mlir 2>&1 | FileCheck %s --check-prefix=RESHAPE_HUGE
// RUN: not test -e %t.reshape_huge.mlir
// RESHAPE_HUGE: error: '{{.*}}reshape_huge.onnx': node 'n' (Reshape): input 1 holds 9223372036854775807, out of range
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/reshape_count.onnx -o %t.reshape_count.mlir 2>&1 | FileCheck %s --check-prefix=RESHAPE_COUNT
// RUN: not test -e %t.reshape_count.mlir
// RESHAPE_COUNT: error: '{{.*}}reshape_count.onnx': node 'n' (Reshape): cannot infer the -1 dimension
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/gather_index.onnx -o %t.gather_index.mlir 2>&1 | FileCheck %s --check-prefix=GATHER_INDEX
// RUN: not test -e %t.gather_index.mlir
// GATHER_INDEX: error: '{{.*}}gather_index.onnx': node 'n' (Gather): index 2 is out of range for a dimension of 2
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/gather_empty_indices.onnx -o %t.gather_empty_indices.mlir 2>&1 | FileCheck %s --check-prefix=GATHER_EMPTY_INDICES
// RUN: not test -e %t.gather_empty_indices.mlir
// GATHER_EMPTY_INDICES: error: '{{.*}}gather_empty_indices.onnx': node 'n' (Gather): empty indices (an empty result) are not supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/expand_zero.onnx -o %t.expand_zero.mlir 2>&1 | FileCheck %s --check-prefix=EXPAND_ZERO
// RUN: not test -e %t.expand_zero.mlir
// EXPAND_ZERO: error: '{{.*}}expand_zero.onnx': node 'n' (Expand): shape value 0 is not supported (at least 1)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/conv_weight_empty.onnx -o %t.conv_weight_empty.mlir 2>&1 | FileCheck %s --check-prefix=CONV_WEIGHT_EMPTY
// RUN: not test -e %t.conv_weight_empty.mlir
// CONV_WEIGHT_EMPTY: error: '{{.*}}conv_weight_empty.onnx': node 'n' (Conv): the result has a dimension of size 0; empty activations are not supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/slice_step_zero.onnx -o %t.slice_step_zero.mlir 2>&1 | FileCheck %s --check-prefix=SLICE_STEP_ZERO
// RUN: not test -e %t.slice_step_zero.mlir
// SLICE_STEP_ZERO: error: '{{.*}}slice_step_zero.onnx': node 'n' (Slice): steps must not be 0
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/resize_scale_zero.onnx -o %t.resize_scale_zero.mlir 2>&1 | FileCheck %s --check-prefix=RESIZE_SCALE_ZERO
// RUN: not test -e %t.resize_scale_zero.mlir
// RESIZE_SCALE_ZERO: error: '{{.*}}resize_scale_zero.onnx': node 'n' (Resize): scales must be finite and positive
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/resize_scale_nan.onnx -o %t.resize_scale_nan.mlir 2>&1 | FileCheck %s --check-prefix=RESIZE_SCALE_NAN
// RUN: not test -e %t.resize_scale_nan.mlir
// RESIZE_SCALE_NAN: error: '{{.*}}resize_scale_nan.onnx': node 'n' (Resize): scales must be finite and positive
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/constant_of_shape_huge.onnx -o %t.constant_of_shape_huge.mlir 2>&1 | FileCheck %s --check-prefix=CONSTANT_OF_SHAPE_HUGE
// RUN: not test -e %t.constant_of_shape_huge.mlir
// CONSTANT_OF_SHAPE_HUGE: error: '{{.*}}constant_of_shape_huge.onnx': node 'n' (ConstantOfShape): the shape: too many elements
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/initializer_huge.onnx -o %t.initializer_huge.mlir 2>&1 | FileCheck %s --check-prefix=INITIALIZER_HUGE
// RUN: not test -e %t.initializer_huge.mlir
// INITIALIZER_HUGE: error: '{{.*}}initializer_huge.onnx': initializer: tensor 'big': dimension 1099511627776 is too large
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/initializer_u8_range.onnx -o %t.initializer_u8_range.mlir 2>&1 | FileCheck %s --check-prefix=INITIALIZER_U8_RANGE
// RUN: not test -e %t.initializer_u8_range.mlir
// INITIALIZER_U8_RANGE: error: '{{.*}}initializer_u8_range.onnx': initializer: tensor 'c' holds 1000, out of range for its type (0 to 255)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_scale_zero.onnx -o %t.qdq_scale_zero.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_SCALE_ZERO
// RUN: not test -e %t.qdq_scale_zero.mlir
// QDQ_SCALE_ZERO: error: '{{.*}}qdq_scale_zero.onnx': node 'q' (QuantizeLinear): scale 0.000000e+00 is out of range (a finite float32 >= 1.175494e-38)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_scale_negative.onnx -o %t.qdq_scale_negative.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_SCALE_NEGATIVE
// RUN: not test -e %t.qdq_scale_negative.mlir
// QDQ_SCALE_NEGATIVE: error: '{{.*}}qdq_scale_negative.onnx': node 'q' (QuantizeLinear): scale -5.000000e-01 is out of range
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_scale_inf.onnx -o %t.qdq_scale_inf.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_SCALE_INF
// RUN: not test -e %t.qdq_scale_inf.mlir
// QDQ_SCALE_INF: error: '{{.*}}qdq_scale_inf.onnx': node 'q' (QuantizeLinear): scale INF is out of range
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_scale_nan.onnx -o %t.qdq_scale_nan.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_SCALE_NAN
// RUN: not test -e %t.qdq_scale_nan.mlir
// QDQ_SCALE_NAN: error: '{{.*}}qdq_scale_nan.onnx': node 'q' (QuantizeLinear): scale nan is out of range
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_scale_2d.onnx -o %t.qdq_scale_2d.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_SCALE_2D
// RUN: not test -e %t.qdq_scale_2d.mlir
// QDQ_SCALE_2D: error: '{{.*}}qdq_scale_2d.onnx': node 'q' (QuantizeLinear): the scale must be a scalar or 1-D
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_zero_point_range.onnx -o %t.qdq_zero_point_range.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_ZERO_POINT_RANGE
// RUN: not test -e %t.qdq_zero_point_range.mlir
// QDQ_ZERO_POINT_RANGE: error: '{{.*}}qdq_zero_point_range.onnx': initializer: tensor 'z' holds 1000, out of range for its type (0 to 255)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_zero_point_int32.onnx -o %t.qdq_zero_point_int32.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_ZERO_POINT_INT32
// RUN: not test -e %t.qdq_zero_point_int32.mlir
// QDQ_ZERO_POINT_INT32: error: '{{.*}}qdq_zero_point_int32.onnx': node 'q' (QuantizeLinear): only int8 / uint8 zero points are supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_zero_point_size.onnx -o %t.qdq_zero_point_size.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_ZERO_POINT_SIZE
// RUN: not test -e %t.qdq_zero_point_size.mlir
// QDQ_ZERO_POINT_SIZE: error: '{{.*}}qdq_zero_point_size.onnx': node 'q' (QuantizeLinear): the zero point's shape differs from the scale's
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_axis_range.onnx -o %t.qdq_axis_range.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_AXIS_RANGE
// RUN: not test -e %t.qdq_axis_range.mlir
// QDQ_AXIS_RANGE: error: '{{.*}}qdq_axis_range.onnx': node 'q' (QuantizeLinear): axis 4 is out of range for rank 4
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_axis_size.onnx -o %t.qdq_axis_size.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_AXIS_SIZE
// RUN: not test -e %t.qdq_axis_size.mlir
// QDQ_AXIS_SIZE: error: '{{.*}}qdq_axis_size.onnx': node 'q' (QuantizeLinear): per-axis scale does not match the input's axis 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_dq_zero_point.onnx -o %t.qdq_dq_zero_point.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_DQ_ZERO_POINT
// RUN: not test -e %t.qdq_dq_zero_point.mlir
// QDQ_DQ_ZERO_POINT: error: '{{.*}}qdq_dq_zero_point.onnx': node 'dq' (DequantizeLinear): zero point differs from its QuantizeLinear's
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/qdq_dq_scale.onnx -o %t.qdq_dq_scale.mlir 2>&1 | FileCheck %s --check-prefix=QDQ_DQ_SCALE
// RUN: not test -e %t.qdq_dq_scale.mlir
// QDQ_DQ_SCALE: error: '{{.*}}qdq_dq_scale.onnx': node 'dq' (DequantizeLinear): scale differs from its QuantizeLinear's
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/where_activation.onnx -o %t.where_activation.mlir 2>&1 | FileCheck %s --check-prefix=WHERE_ACTIVATION
// RUN: not test -e %t.where_activation.mlir
// WHERE_ACTIVATION: error: '{{.*}}where_activation.onnx': node 'n' (Where): input 'x' is computed from the model's input; Where is supported on constants only (index and mask computations)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/mod_float_fmod0.onnx -o %t.mod_float_fmod0.mlir 2>&1 | FileCheck %s --check-prefix=MOD_FLOAT_FMOD0
// RUN: not test -e %t.mod_float_fmod0.mlir
// MOD_FLOAT_FMOD0: error: '{{.*}}mod_float_fmod0.onnx': node 'n' (Mod): floating-point Mod requires fmod=1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/mod_zero.onnx -o %t.mod_zero.mlir 2>&1 | FileCheck %s --check-prefix=MOD_ZERO
// RUN: not test -e %t.mod_zero.mlir
// MOD_ZERO: error: '{{.*}}mod_zero.onnx': node 'n' (Mod): integer division by zero
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/range_delta_zero.onnx -o %t.range_delta_zero.mlir 2>&1 | FileCheck %s --check-prefix=RANGE_DELTA_ZERO
// RUN: not test -e %t.range_delta_zero.mlir
// RANGE_DELTA_ZERO: error: '{{.*}}range_delta_zero.onnx': node 'n' (Range): delta is 0
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/range_huge.onnx -o %t.range_huge.mlir 2>&1 | FileCheck %s --check-prefix=RANGE_HUGE
// RUN: not test -e %t.range_huge.mlir
// RANGE_HUGE: error: '{{.*}}range_huge.onnx': node 'n' (Range): the result has too many elements
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/scatternd_index.onnx -o %t.scatternd_index.mlir 2>&1 | FileCheck %s --check-prefix=SCATTERND_INDEX
// RUN: not test -e %t.scatternd_index.mlir
// SCATTERND_INDEX: error: '{{.*}}scatternd_index.onnx': node 'n' (ScatterND): index 5 is out of range for a dimension of size 3
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/scatternd_updates.onnx -o %t.scatternd_updates.mlir 2>&1 | FileCheck %s --check-prefix=SCATTERND_UPDATES
// RUN: not test -e %t.scatternd_updates.mlir
// SCATTERND_UPDATES: error: '{{.*}}scatternd_updates.onnx': node 'n' (ScatterND): updates have the wrong shape
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/dropout_training.onnx -o %t.dropout_training.mlir 2>&1 | FileCheck %s --check-prefix=DROPOUT_TRAINING
// RUN: not test -e %t.dropout_training.mlir
// DROPOUT_TRAINING: error: '{{.*}}dropout_training.onnx': node 'n' (Dropout): training mode with a ratio of 0.5 is not supported (inference only)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/matmul_inner.onnx -o %t.matmul_inner.mlir 2>&1 | FileCheck %s --check-prefix=MATMUL_INNER
// RUN: not test -e %t.matmul_inner.mlir
// MATMUL_INNER: error: '{{.*}}matmul_inner.onnx': node 'n' (MatMul): input shapes do not match: [..., 6, 6] x [..., 3, 12]
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/matmul_batch.onnx -o %t.matmul_batch.mlir 2>&1 | FileCheck %s --check-prefix=MATMUL_BATCH
// RUN: not test -e %t.matmul_batch.mlir
// MATMUL_BATCH: error: '{{.*}}matmul_batch.onnx': node 'n' (MatMul): the leading dimensions do not broadcast
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_no_equation.onnx -o %t.einsum_no_equation.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_NO_EQUATION
// RUN: not test -e %t.einsum_no_equation.mlir
// EINSUM_NO_EQUATION: error: '{{.*}}einsum_no_equation.onnx': node 'n' (Einsum): the equation attribute is required
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_terms.onnx -o %t.einsum_terms.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_TERMS
// RUN: not test -e %t.einsum_terms.mlir
// EINSUM_TERMS: error: '{{.*}}einsum_terms.onnx': node 'n' (Einsum): equation 'ij,jk->ik' has 2 operand term(s) for 1 input(s)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_rank.onnx -o %t.einsum_rank.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_RANK
// RUN: not test -e %t.einsum_rank.mlir
// EINSUM_RANK: error: '{{.*}}einsum_rank.onnx': node 'n' (Einsum): term 'ij' of equation 'ij->ji' does not match an input of rank 4
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_subscript.onnx -o %t.einsum_subscript.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_SUBSCRIPT
// RUN: not test -e %t.einsum_subscript.mlir
// EINSUM_SUBSCRIPT: error: '{{.*}}einsum_subscript.onnx': node 'n' (Einsum): equation 'ab1d->abd' has the invalid subscript '1' (letters and '...' only)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_diagonal.onnx -o %t.einsum_diagonal.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_DIAGONAL
// RUN: not test -e %t.einsum_diagonal.mlir
// EINSUM_DIAGONAL: error: '{{.*}}einsum_diagonal.onnx': node 'n' (Einsum): term 'abcc' of equation 'abcc->abc' repeats 'c' (a diagonal), which is not supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_ellipses.onnx -o %t.einsum_ellipses.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_ELLIPSES
// RUN: not test -e %t.einsum_ellipses.mlir
// EINSUM_ELLIPSES: error: '{{.*}}einsum_ellipses.onnx': node 'n' (Einsum): term '......' of equation '......->...' has two ellipses
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_arrows.onnx -o %t.einsum_arrows.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_ARROWS
// RUN: not test -e %t.einsum_arrows.mlir
// EINSUM_ARROWS: error: '{{.*}}einsum_arrows.onnx': node 'n' (Einsum): equation 'abcd->abcd->abcd' has more than one '->'
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_output.onnx -o %t.einsum_output.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_OUTPUT
// RUN: not test -e %t.einsum_output.mlir
// EINSUM_OUTPUT: error: '{{.*}}einsum_output.onnx': node 'n' (Einsum): output subscript 'e' of equation 'abcd->abe' is in no operand
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_sizes.onnx -o %t.einsum_sizes.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_SIZES
// RUN: not test -e %t.einsum_sizes.mlir
// EINSUM_SIZES: error: '{{.*}}einsum_sizes.onnx': node 'n' (Einsum): equation 'abcd,abce->abde' gives subscript 'c' the sizes 6 and 3 (broadcasting is not supported)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/einsum_three.onnx -o %t.einsum_three.mlir 2>&1 | FileCheck %s --check-prefix=EINSUM_THREE
// RUN: not test -e %t.einsum_three.mlir
// EINSUM_THREE: error: '{{.*}}einsum_three.onnx': node 'n' (Einsum): expected 1 to 2 inputs, got 3
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/layer_norm_mean_output.onnx -o %t.layer_norm_mean_output.mlir 2>&1 | FileCheck %s --check-prefix=LAYER_NORM_MEAN_OUTPUT
// RUN: not test -e %t.layer_norm_mean_output.mlir
// LAYER_NORM_MEAN_OUTPUT: error: '{{.*}}layer_norm_mean_output.onnx': node 'n' (LayerNormalization): the Mean and InvStdDev outputs are not supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/layer_norm_scale_shape.onnx -o %t.layer_norm_scale_shape.mlir 2>&1 | FileCheck %s --check-prefix=LAYER_NORM_SCALE_SHAPE
// RUN: not test -e %t.layer_norm_scale_shape.mlir
// LAYER_NORM_SCALE_SHAPE: error: '{{.*}}layer_norm_scale_shape.onnx': node 'n' (LayerNormalization): Scale must broadcast to the normalized dimensions
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/split_output_is_its_input.onnx -o %t.split_output_is_its_input.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT_OUTPUT_IS_ITS_INPUT
// RUN: not test -e %t.split_output_is_its_input.mlir
// SPLIT_OUTPUT_IS_ITS_INPUT: error: '{{.*}}split_output_is_its_input.onnx': node 'n' (Split): output 'c' is already defined (every value of an ONNX graph is defined once)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/output_defined_twice.onnx -o %t.output_defined_twice.mlir 2>&1 | FileCheck %s --check-prefix=OUTPUT_DEFINED_TWICE
// RUN: not test -e %t.output_defined_twice.mlir
// OUTPUT_DEFINED_TWICE: error: '{{.*}}output_defined_twice.onnx': node 'n' (Relu): output 'y' is already defined
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/no_outputs.onnx -o %t.no_outputs.mlir 2>&1 | FileCheck %s --check-prefix=NO_OUTPUTS
// RUN: not test -e %t.no_outputs.mlir
// NO_OUTPUTS: error: '{{.*}}no_outputs.onnx': the graph has no outputs
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/input_dim_zero.onnx -o %t.input_dim_zero.mlir 2>&1 | FileCheck %s --check-prefix=INPUT_DIM_ZERO
// RUN: not test -e %t.input_dim_zero.mlir
// INPUT_DIM_ZERO: error: '{{.*}}input_dim_zero.onnx': graph input 'x' has a dimension of size 0
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/input_dim_huge.onnx -o %t.input_dim_huge.mlir 2>&1 | FileCheck %s --check-prefix=INPUT_DIM_HUGE
// RUN: not test -e %t.input_dim_huge.mlir
// INPUT_DIM_HUGE: error: '{{.*}}input_dim_huge.onnx': graph input 'x' has a dimension of size 1099511627776 (at most 1073741824)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/input_too_many_elements.onnx -o %t.input_too_many_elements.mlir 2>&1 | FileCheck %s --check-prefix=INPUT_TOO_MANY_ELEMENTS
// RUN: not test -e %t.input_too_many_elements.mlir
// INPUT_TOO_MANY_ELEMENTS: error: '{{.*}}input_too_many_elements.onnx': graph input 'x' has more than 2147483648 elements
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/opset_too_new.onnx -o %t.opset_too_new.mlir 2>&1 | FileCheck %s --check-prefix=OPSET_TOO_NEW
// RUN: not test -e %t.opset_too_new.mlir
// OPSET_TOO_NEW: error: '{{.*}}opset_too_new.onnx': unsupported opset 99 of the default ONNX domain (supported: 7-21)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/opset_too_old.onnx -o %t.opset_too_old.mlir 2>&1 | FileCheck %s --check-prefix=OPSET_TOO_OLD
// RUN: not test -e %t.opset_too_old.mlir
// OPSET_TOO_OLD: error: '{{.*}}opset_too_old.onnx': unsupported opset 6 of the default ONNX domain (supported: 7-21)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/no_default_opset.onnx -o %t.no_default_opset.mlir 2>&1 | FileCheck %s --check-prefix=NO_DEFAULT_OPSET
// RUN: not test -e %t.no_default_opset.mlir
// NO_DEFAULT_OPSET: error: '{{.*}}no_default_opset.onnx': the model imports no opset of the default ONNX domain (ai.onnx)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/resize18_antialias.onnx -o %t.resize18_antialias.mlir 2>&1 | FileCheck %s --check-prefix=RESIZE18_ANTIALIAS
// RUN: not test -e %t.resize18_antialias.mlir
// RESIZE18_ANTIALIAS: error: '{{.*}}resize18_antialias.onnx': node 'n' (Resize): attribute 'antialias' is 2; it must be 0 or 1
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/resize18_axes_count.onnx -o %t.resize18_axes_count.mlir 2>&1 | FileCheck %s --check-prefix=RESIZE18_AXES_COUNT
// RUN: not test -e %t.resize18_axes_count.mlir
// RESIZE18_AXES_COUNT: error: '{{.*}}resize18_axes_count.onnx': node 'n' (Resize): scales or sizes must have one value per axis (2)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/resize18_keep_aspect.onnx -o %t.resize18_keep_aspect.mlir 2>&1 | FileCheck %s --check-prefix=RESIZE18_KEEP_ASPECT
// RUN: not test -e %t.resize18_keep_aspect.mlir
// RESIZE18_KEEP_ASPECT: error: '{{.*}}resize18_keep_aspect.onnx': node 'n' (Resize): unsupported keep_aspect_ratio_policy 'larger'
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/resize18_keep_aspect_channels.onnx -o %t.resize18_keep_aspect_channels.mlir 2>&1 | FileCheck %s --check-prefix=RESIZE18_KEEP_ASPECT_CHANNELS
// RUN: not test -e %t.resize18_keep_aspect_channels.mlir
// RESIZE18_KEEP_ASPECT_CHANNELS: error: '{{.*}}resize18_keep_aspect_channels.onnx': node 'n' (Resize): keep_aspect_ratio_policy scales N or C to [2, 4] (only H and W can be resized: give axes)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/split18_num_outputs.onnx -o %t.split18_num_outputs.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT18_NUM_OUTPUTS
// RUN: not test -e %t.split18_num_outputs.mlir
// SPLIT18_NUM_OUTPUTS: error: '{{.*}}split18_num_outputs.onnx': node 'n' (Split): num_outputs is 3 but the node has 2 outputs
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/pad18_axes_count.onnx -o %t.pad18_axes_count.mlir 2>&1 | FileCheck %s --check-prefix=PAD18_AXES_COUNT
// RUN: not test -e %t.pad18_axes_count.mlir
// PAD18_AXES_COUNT: error: '{{.*}}pad18_axes_count.onnx': node 'n' (Pad): pads must have 4 values (two per axis)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/pad18_wrap.onnx -o %t.pad18_wrap.mlir 2>&1 | FileCheck %s --check-prefix=PAD18_WRAP
// RUN: not test -e %t.pad18_wrap.mlir
// PAD18_WRAP: error: '{{.*}}pad18_wrap.onnx': node 'n' (Pad): unsupported mode 'wrap'
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/batchnorm9_training.onnx -o %t.batchnorm9_training.mlir 2>&1 | FileCheck %s --check-prefix=BATCHNORM9_TRAINING
// RUN: not test -e %t.batchnorm9_training.mlir
// BATCHNORM9_TRAINING: error: '{{.*}}batchnorm9_training.onnx': node 'n' (BatchNormalization): training mode (the mean / variance outputs) is not supported: inference only
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/batchnorm7_spatial.onnx -o %t.batchnorm7_spatial.mlir 2>&1 | FileCheck %s --check-prefix=BATCHNORM7_SPATIAL
// RUN: not test -e %t.batchnorm7_spatial.mlir
// BATCHNORM7_SPATIAL: error: '{{.*}}batchnorm7_spatial.onnx': node 'n' (BatchNormalization): spatial=0 (per-element statistics) is not supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/quantize21_block_size.onnx -o %t.quantize21_block_size.mlir 2>&1 | FileCheck %s --check-prefix=QUANTIZE21_BLOCK_SIZE
// RUN: not test -e %t.quantize21_block_size.mlir
// QUANTIZE21_BLOCK_SIZE: error: '{{.*}}quantize21_block_size.onnx': node 'n' (QuantizeLinear): blocked quantization (block_size 2) is not supported
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/quantize21_output_dtype.onnx -o %t.quantize21_output_dtype.mlir 2>&1 | FileCheck %s --check-prefix=QUANTIZE21_OUTPUT_DTYPE
// RUN: not test -e %t.quantize21_output_dtype.mlir
// QUANTIZE21_OUTPUT_DTYPE: error: '{{.*}}quantize21_output_dtype.onnx': node 'n' (QuantizeLinear): output_dtype 5 is not supported (int8 or uint8)
// RUN: not quant-translate --import-onnx %S/Inputs/invalid/upsample7_no_scales.onnx -o %t.upsample7_no_scales.mlir 2>&1 | FileCheck %s --check-prefix=UPSAMPLE7_NO_SCALES
// RUN: not test -e %t.upsample7_no_scales.mlir
// UPSAMPLE7_NO_SCALES: error: '{{.*}}upsample7_no_scales.onnx': node 'n' (Upsample): attribute 'scales' (floats) is required

//===- OnnxMutator.cpp - Structure-level mutations of ONNX models ---------===//

#include "fuzz/OnnxMutator/OnnxMutator.h"
#include "quantc/Import/OnnxImporter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace quantc::fuzz;

namespace {

using Rng = std::mt19937_64;

/// A uniform integer in [0, n) (n > 0).
size_t pick(Rng &rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

bool coin(Rng &rng, int oneIn = 2) { return pick(rng, oneIn) == 0; }

template <typename T> const T &pickFrom(Rng &rng, const std::vector<T> &v) {
  return v[pick(rng, v.size())];
}

/// Integers at and beyond the ranges attributes and dims have: small values
/// around ranks and axes, powers of two, and the int32 / int64 extremes.
int64_t interestingInt(Rng &rng) {
  static const std::vector<int64_t> values = {
      0,
      1,
      -1,
      2,
      -2,
      3,
      -3,
      4,
      -4,
      5,
      -5,
      7,
      8,
      16,
      255,
      256,
      -128,
      1000,
      65536,
      int64_t(1) << 31,
      -(int64_t(1) << 31),
      (int64_t(1) << 32) + 1,
      int64_t(1) << 40,
      int64_t(1) << 62,
      std::numeric_limits<int64_t>::max(),
      std::numeric_limits<int64_t>::min(),
      std::numeric_limits<int64_t>::max() - 1,
      std::numeric_limits<int64_t>::min() + 1};
  if (coin(rng, 8))
    return static_cast<int64_t>(rng());
  return pickFrom(rng, values);
}

float interestingFloat(Rng &rng) {
  static const std::vector<float> values = {
      0.0f,
      -0.0f,
      1.0f,
      -1.0f,
      0.5f,
      2.0f,
      1e-3f,
      1e-30f,
      1e-45f,
      1e30f,
      3.4e38f,
      -3.4e38f,
      std::numeric_limits<float>::quiet_NaN(),
      std::numeric_limits<float>::infinity(),
      -std::numeric_limits<float>::infinity()};
  if (coin(rng, 8))
    return std::uniform_real_distribution<float>(-10.0f, 10.0f)(rng);
  return pickFrom(rng, values);
}

const std::vector<std::string> &attributeNames() {
  // The attributes of the ops the importer knows (and a few it does not).
  static const std::vector<std::string> names = {
      "axis",
      "axes",
      "keepdims",
      "strides",
      "pads",
      "kernel_shape",
      "dilations",
      "group",
      "auto_pad",
      "ceil_mode",
      "count_include_pad",
      "perm",
      "mode",
      "alpha",
      "beta",
      "transA",
      "transB",
      "epsilon",
      "momentum",
      "min",
      "max",
      "to",
      "value",
      "split",
      "starts",
      "ends",
      "scales",
      "sizes",
      "coordinate_transformation_mode",
      "nearest_mode",
      "cubic_coeff_a",
      "exclude_outside",
      "extrapolation_value",
      "storage_order",
      "output_padding",
      "output_shape",
      "allowzero",
      "noop_with_empty_axes",
      "select_last_index",
      "training_mode",
      "blocksize",
      "saturate"};
  return names;
}

const std::vector<std::string> &stringValues() {
  static const std::vector<std::string> values = {"",
                                                  "NOTSET",
                                                  "SAME_UPPER",
                                                  "SAME_LOWER",
                                                  "VALID",
                                                  "nearest",
                                                  "linear",
                                                  "cubic",
                                                  "bilinear",
                                                  "constant",
                                                  "reflect",
                                                  "edge",
                                                  "half_pixel",
                                                  "asymmetric",
                                                  "align_corners",
                                                  "pytorch_half_pixel",
                                                  "tf_crop_and_resize",
                                                  "round_prefer_floor",
                                                  "round_prefer_ceil",
                                                  "floor",
                                                  "ceil",
                                                  "tanh",
                                                  "none",
                                                  std::string(300, 'x')};
  return values;
}

const std::vector<std::string> &opTypes() {
  // Op types for retargeting a node: those of the importer's registry
  // (quant-translate --list-onnx-ops), so the node's inputs and attributes
  // meet a handler that did not expect them, and two it does not know.
  // Other domains' ops (com.microsoft.*) need their domain: left out.
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> ops;
    for (const quantc::OnnxImportedOp &op : quantc::onnxImportedOps())
      if (op.opType.find('.') == std::string::npos)
        ops.push_back(op.opType);
    ops.push_back("Hardmax");
    ops.push_back("");
    return ops;
  }();
  return ops;
}

/// The names values go by in `graph`: inputs, initializers, node outputs.
std::vector<std::string> valueNames(const onnx::GraphProto &graph) {
  std::vector<std::string> names;
  for (const auto &in : graph.input())
    names.push_back(in.name());
  for (const auto &t : graph.initializer())
    names.push_back(t.name());
  for (const auto &node : graph.node())
    for (const auto &out : node.output())
      names.push_back(out);
  return names;
}

std::string anyValueName(Rng &rng, const onnx::GraphProto &graph) {
  std::vector<std::string> names = valueNames(graph);
  if (names.empty() || coin(rng, 8))
    return coin(rng) ? std::string() : "undefined_" + std::to_string(rng() % 4);
  return pickFrom(rng, names);
}

template <typename Field> void eraseAt(Field *field, int index) {
  field->erase(field->begin() + index);
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

int32_t anyDataType(Rng &rng) {
  static const std::vector<int32_t> types = {
      onnx::TensorProto::FLOAT,     onnx::TensorProto::UINT8,
      onnx::TensorProto::INT8,      onnx::TensorProto::INT32,
      onnx::TensorProto::INT64,     onnx::TensorProto::BOOL,
      onnx::TensorProto::DOUBLE,    onnx::TensorProto::FLOAT16,
      onnx::TensorProto::STRING,    onnx::TensorProto::UINT16,
      onnx::TensorProto::UNDEFINED, 99};
  return pickFrom(rng, types);
}

/// The size of one element of `dtype` in raw_data (0: not supported here).
size_t elementSize(int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
    return 4;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::DOUBLE:
    return 8;
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL:
    return 1;
  default:
    return 0;
  }
}

/// Overwrites one element of `t`'s payload with an interesting value of its
/// type (raw_data or the typed field, whichever holds it).
void mutateTensorValue(onnx::TensorProto &t, Rng &rng) {
  bool inRaw = !t.raw_data().empty();
  auto patch = [&](const void *bytes, size_t size) {
    std::string *raw = t.mutable_raw_data();
    if (raw->size() < size)
      return;
    size_t at = pick(rng, raw->size() / size) * size;
    std::memcpy(&(*raw)[at], bytes, size);
  };
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT: {
    float v = interestingFloat(rng);
    if (inRaw)
      patch(&v, sizeof v);
    else if (t.float_data_size())
      t.set_float_data(pick(rng, t.float_data_size()), v);
    else
      t.add_float_data(v);
    return;
  }
  case onnx::TensorProto::INT64: {
    int64_t v = interestingInt(rng);
    if (inRaw)
      patch(&v, sizeof v);
    else if (t.int64_data_size())
      t.set_int64_data(pick(rng, t.int64_data_size()), v);
    else
      t.add_int64_data(v);
    return;
  }
  default: {
    int64_t v = interestingInt(rng);
    int32_t v32 = static_cast<int32_t>(v);
    if (inRaw) {
      // One byte of a type without a size here (FLOAT16, unknown ones).
      patch(&v, std::max<size_t>(elementSize(t.data_type()), 1));
    } else if (t.int32_data_size()) {
      t.set_int32_data(pick(rng, t.int32_data_size()), v32);
    } else {
      t.add_int32_data(v32);
    }
    return;
  }
  }
}

/// A new small shape (one dimension changed to 0 to 4, or one added or
/// removed) with a payload that matches it, so that the tensor decodes and
/// the handlers meet the shape: empty tensors, scalars, extra ranks.
void reshapeTensor(onnx::TensorProto &t, Rng &rng) {
  size_t size = elementSize(t.data_type());
  if (!size)
    return;
  switch (pick(rng, 3)) {
  case 0:
    if (t.dims_size()) {
      t.set_dims(pick(rng, t.dims_size()), pick(rng, 5));
      break;
    }
    [[fallthrough]];
  case 1:
    t.add_dims(pick(rng, 5));
    break;
  default:
    if (t.dims_size())
      eraseAt(t.mutable_dims(), pick(rng, t.dims_size()));
    break;
  }
  uint64_t count = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || (d > 0 && count > 4096 / static_cast<uint64_t>(d)))
      return; // too large to rewrite: leave the mismatch
    count *= d;
  }
  t.clear_float_data();
  t.clear_int32_data();
  t.clear_int64_data();
  t.clear_double_data();
  std::string raw(count * size, '\0');
  for (size_t i = 0; i < raw.size(); i += size)
    raw[i] = static_cast<char>(pick(rng, 4)); // small values: 0 to 3
  if (t.data_type() == onnx::TensorProto::FLOAT)
    for (size_t i = 0; i < raw.size(); i += size) {
      float v = static_cast<float>(pick(rng, 4)) * 0.5f;
      std::memcpy(&raw[i], &v, sizeof v);
    }
  t.set_raw_data(raw);
}

void mutateTensor(onnx::TensorProto &t, Rng &rng) {
  switch (pick(rng, 11)) {
  case 9:
  case 10:
    reshapeTensor(t, rng);
    return;
  case 0: // one dim
    if (t.dims_size())
      t.set_dims(pick(rng, t.dims_size()), interestingInt(rng));
    else
      t.add_dims(interestingInt(rng));
    return;
  case 1: // rank
    if (t.dims_size() && coin(rng))
      eraseAt(t.mutable_dims(), pick(rng, t.dims_size()));
    else
      t.mutable_dims()->Add(coin(rng) ? 1 : interestingInt(rng));
    return;
  case 2:
    t.set_data_type(anyDataType(rng));
    return;
  case 3: { // truncate or extend the payload
    std::string *raw = t.mutable_raw_data();
    if (!raw->empty() && coin(rng))
      raw->resize(pick(rng, raw->size()));
    else
      raw->append(pick(rng, 9), '\x7f');
    return;
  }
  case 4: // move the payload to the typed fields or drop it
    if (coin(rng)) {
      t.clear_raw_data();
    } else {
      t.clear_float_data();
      t.clear_int64_data();
      t.clear_int32_data();
    }
    return;
  case 5:
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    return;
  case 6:
    t.clear_dims();
    return;
  default:
    for (size_t k = 0, n = 1 + pick(rng, 3); k < n; ++k)
      mutateTensorValue(t, rng);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

void setRandomValue(onnx::AttributeProto &a, Rng &rng) {
  switch (a.type()) {
  case onnx::AttributeProto::INT:
    a.set_i(interestingInt(rng));
    return;
  case onnx::AttributeProto::FLOAT:
    a.set_f(interestingFloat(rng));
    return;
  case onnx::AttributeProto::STRING:
    a.set_s(pickFrom(rng, stringValues()));
    return;
  case onnx::AttributeProto::INTS:
    switch (pick(rng, 5)) {
    case 0:
      if (a.ints_size()) {
        eraseAt(a.mutable_ints(), pick(rng, a.ints_size()));
        return;
      }
      [[fallthrough]];
    case 1:
      a.add_ints(interestingInt(rng));
      return;
    case 2:
      a.clear_ints();
      return;
    default:
      if (a.ints_size())
        a.set_ints(pick(rng, a.ints_size()), interestingInt(rng));
      else
        a.add_ints(interestingInt(rng));
      return;
    }
  case onnx::AttributeProto::FLOATS:
    if (a.floats_size() && coin(rng))
      a.set_floats(pick(rng, a.floats_size()), interestingFloat(rng));
    else if (a.floats_size() && coin(rng))
      eraseAt(a.mutable_floats(), pick(rng, a.floats_size()));
    else
      a.add_floats(interestingFloat(rng));
    return;
  case onnx::AttributeProto::TENSOR:
    mutateTensor(*a.mutable_t(), rng);
    return;
  default:
    return;
  }
}

onnx::AttributeProto::AttributeType anyAttributeType(Rng &rng) {
  static const std::vector<onnx::AttributeProto::AttributeType> types = {
      onnx::AttributeProto::INT,    onnx::AttributeProto::FLOAT,
      onnx::AttributeProto::STRING, onnx::AttributeProto::INTS,
      onnx::AttributeProto::FLOATS, onnx::AttributeProto::TENSOR,
      onnx::AttributeProto::GRAPH,  onnx::AttributeProto::UNDEFINED};
  return pickFrom(rng, types);
}

void mutateAttributes(onnx::NodeProto &node, Rng &rng) {
  auto *attrs = node.mutable_attribute();
  if (attrs->empty() || coin(rng, 4)) { // add one
    onnx::AttributeProto *a = node.add_attribute();
    a->set_name(pickFrom(rng, attributeNames()));
    a->set_type(anyAttributeType(rng));
    if (a->type() == onnx::AttributeProto::TENSOR)
      a->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
    setRandomValue(*a, rng);
    return;
  }
  int index = pick(rng, attrs->size());
  onnx::AttributeProto &a = (*attrs)[index];
  switch (pick(rng, 8)) {
  case 0:
    eraseAt(attrs, index);
    return;
  case 1: // the wrong type (the value fields stay as they were)
    a.set_type(anyAttributeType(rng));
    return;
  case 2: // a type with its value, other fields cleared
    a.Clear();
    a.set_name((*attrs)[pick(rng, attrs->size())].name());
    a.set_type(anyAttributeType(rng));
    setRandomValue(a, rng);
    return;
  case 3: // a duplicate
    *node.add_attribute() = a;
    return;
  default:
    for (size_t k = 0, n = 1 + pick(rng, 2); k < n; ++k)
      setRandomValue(a, rng);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

/// The initializer named `name`, or null.
onnx::TensorProto *findInitializer(onnx::GraphProto &graph,
                                   const std::string &name) {
  for (onnx::TensorProto &t : *graph.mutable_initializer())
    if (t.name() == name)
      return &t;
  return nullptr;
}

void mutateNode(onnx::GraphProto &graph, Rng &rng) {
  auto *nodes = graph.mutable_node();
  if (nodes->empty()) {
    onnx::NodeProto *node = graph.add_node();
    node->set_op_type(pickFrom(rng, opTypes()));
    node->add_input(anyValueName(rng, graph));
    node->add_output("new_" + std::to_string(rng() % 4));
    return;
  }
  int index = pick(rng, nodes->size());
  onnx::NodeProto &node = (*nodes)[index];
  switch (pick(rng, 16)) {
  case 0:
    node.set_op_type(pickFrom(rng, opTypes()));
    return;
  case 1:
    eraseAt(nodes, index);
    return;
  case 2: { // a copy somewhere else (duplicate outputs, use before def)
    onnx::NodeProto copy = node;
    *graph.add_node() = copy;
    nodes->SwapElements(nodes->size() - 1, pick(rng, nodes->size()));
    return;
  }
  case 3: // reorder
    nodes->SwapElements(index, pick(rng, nodes->size()));
    return;
  case 4: // one input fewer
    if (node.input_size())
      eraseAt(node.mutable_input(), pick(rng, node.input_size()));
    return;
  case 5: // one input more
    node.add_input(anyValueName(rng, graph));
    return;
  case 6: // another value as an input
    if (node.input_size())
      node.set_input(pick(rng, node.input_size()), anyValueName(rng, graph));
    return;
  case 7: // outputs
    if (node.output_size() && coin(rng))
      eraseAt(node.mutable_output(), pick(rng, node.output_size()));
    else if (node.output_size() && coin(rng))
      node.set_output(pick(rng, node.output_size()), anyValueName(rng, graph));
    else
      node.add_output(coin(rng) ? anyValueName(rng, graph) : "extra_out");
    return;
  case 8:
    node.clear_input();
    return;
  case 9:
    if (coin(rng))
      node.set_domain(coin(rng) ? "com.microsoft" : "ai.onnx");
    else
      node.clear_name();
    return;
  case 10:
  case 11: { // a constant input's values, dims or type (QDQ scales and
             // zero points, shapes, axes, weights)
    for (const std::string &in : node.input())
      if (onnx::TensorProto *t = findInitializer(graph, in))
        if (coin(rng)) {
          mutateTensor(*t, rng);
          return;
        }
    [[fallthrough]];
  }
  default:
    mutateAttributes(node, rng);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Graph inputs, outputs, initializers, opset
//===----------------------------------------------------------------------===//

void mutateValueInfo(onnx::ValueInfoProto &v, Rng &rng) {
  onnx::TypeProto_Tensor *tensor = v.mutable_type()->mutable_tensor_type();
  onnx::TensorShapeProto *shape = tensor->mutable_shape();
  switch (pick(rng, 6)) {
  case 0:
    tensor->set_elem_type(anyDataType(rng));
    return;
  case 1:
    if (shape->dim_size())
      eraseAt(shape->mutable_dim(), pick(rng, shape->dim_size()));
    return;
  case 2:
    shape->add_dim()->set_dim_value(coin(rng) ? 1 : interestingInt(rng));
    return;
  case 3:
    v.clear_type();
    return;
  default: {
    if (!shape->dim_size())
      shape->add_dim();
    onnx::TensorShapeProto_Dimension *dim =
        shape->mutable_dim(pick(rng, shape->dim_size()));
    if (coin(rng, 4))
      dim->set_dim_param("N");
    else if (coin(rng, 4))
      dim->clear_value();
    else
      dim->set_dim_value(interestingInt(rng));
    return;
  }
  }
}

void mutateGraph(onnx::GraphProto &graph, Rng &rng) {
  switch (pick(rng, 10)) {
  case 0: // graph inputs
    if (graph.input_size()) {
      if (coin(rng, 4))
        eraseAt(graph.mutable_input(), pick(rng, graph.input_size()));
      else
        mutateValueInfo(*graph.mutable_input(pick(rng, graph.input_size())),
                        rng);
    }
    return;
  case 1: // graph outputs: none, duplicates, other values
    switch (pick(rng, 5)) {
    case 0:
      graph.clear_output();
      return;
    case 1:
      if (graph.output_size())
        *graph.add_output() = graph.output(pick(rng, graph.output_size()));
      return;
    case 2:
      graph.add_output()->set_name(anyValueName(rng, graph));
      return;
    case 3:
      if (graph.output_size())
        graph.mutable_output(pick(rng, graph.output_size()))
            ->set_name(anyValueName(rng, graph));
      return;
    default:
      if (graph.output_size())
        mutateValueInfo(*graph.mutable_output(pick(rng, graph.output_size())),
                        rng);
      return;
    }
  case 2: // initializers
    if (graph.initializer_size()) {
      int index = pick(rng, graph.initializer_size());
      if (coin(rng, 4))
        eraseAt(graph.mutable_initializer(), index);
      else if (coin(rng, 3))
        graph.mutable_initializer(index)->set_name(anyValueName(rng, graph));
      else
        mutateTensor(*graph.mutable_initializer(index), rng);
    }
    return;
  default:
    mutateNode(graph, rng);
    return;
  }
}

void mutateModel(onnx::ModelProto &model, Rng &rng) {
  if (!coin(rng, 16)) {
    mutateGraph(*model.mutable_graph(), rng);
    return;
  }
  switch (pick(rng, 4)) {
  case 0:
    model.clear_opset_import();
    return;
  case 1: {
    onnx::OperatorSetIdProto *o = model.opset_import_size()
                                      ? model.mutable_opset_import(0)
                                      : model.add_opset_import();
    o->set_version(coin(rng) ? static_cast<int64_t>(pick(rng, 25))
                             : interestingInt(rng));
    return;
  }
  case 2: // a second default-domain opset entry
    model.add_opset_import()->set_version(pick(rng, 25));
    return;
  default:
    model.clear_graph();
    return;
  }
}

} // namespace

void quantc::fuzz::mutateOnnxModel(onnx::ModelProto &model, Rng &rng,
                                   int maxMutations) {
  for (size_t k = 0, n = 1 + pick(rng, maxMutations); k < n; ++k)
    mutateModel(model, rng);
}

//===- OpRegistry.cpp - ONNX op type -> import handler --------------------===//
//
// The registry of import handlers (OpRegistry.h): versioned lookup by op
// type and opset, and the one registry filled by the files of lib/Import/Ops.
//
//===----------------------------------------------------------------------===//

#include "OpRegistry.h"

using namespace mlir;
using namespace quantc::onnx_import;

void OpRegistry::add(StringRef opType, OpHandler handler, int64_t since) {
  auto &versions = handlers[opType];
  versions.push_back({since, handler});
  llvm::sort(versions, [](auto &a, auto &b) { return a.first < b.first; });
}

OpHandler OpRegistry::lookup(StringRef opType, int64_t opset) const {
  auto it = handlers.find(opType);
  if (it == handlers.end())
    return nullptr;
  OpHandler result = nullptr;
  for (auto [since, handler] : it->second)
    if (since <= opset)
      result = handler;
  return result;
}

std::vector<std::string> OpRegistry::opTypes() const {
  std::vector<std::string> names;
  for (const auto &entry : handlers)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

const OpRegistry &OpRegistry::get() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    registerConstantOps(r);
    registerConvOps(r);
    registerMatMulOps(r);
    registerElementwiseOps(r);
    registerLogicOps(r);
    registerNormalizationOps(r);
    registerPoolOps(r);
    registerQuantOps(r);
    registerResizeOps(r);
    registerShapeOps(r);
    return r;
  }();
  return registry;
}

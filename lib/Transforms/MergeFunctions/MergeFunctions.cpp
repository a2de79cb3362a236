//===- MergeFunctions.cpp - One function for loop nests equal up to data --===//
//
// Models repeat their layers: ViT-B/16's 12 encoder blocks are alike, and
// so are most bottlenecks of a ResNet stage. After quantc-outline-loop-nests
// each layer's loop nests are functions that differ only in their data:
// weights and tables (memref.get_global), scales, zero points and clamp
// bounds (arith.constant). LLVM's -O3 and code generation take most of a
// compile, and they would optimize and emit every copy. This pass merges
// the private functions that are equal up to such constants into one,
// which takes the constants that differ as arguments; each caller passes
// its own.
//
//===----------------------------------------------------------------------===//

#include "quantc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace quantc {
#define GEN_PASS_DEF_MERGEFUNCTIONS
#include "quantc/Transforms/Passes.h.inc"
} // namespace quantc

using namespace mlir;

/// Whether `op` holds data a merged function may take as an argument:
/// a global (memref.get_global) or a constant that is not an index or a
/// boolean (trip counts, offsets and predicates stay part of the structure:
/// LLVM unrolls, vectorizes and folds by them).
static bool isData(Operation *op) {
  if (isa<memref::GetGlobalOp>(op))
    return true;
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant)
    return false;
  Type element = getElementTypeOrSelf(constant.getType());
  return !element.isIndex() && !element.isInteger(1);
}

/// The data of `op` (isData): the global's name or the constant's value.
static Attribute dataOf(Operation *op) {
  if (auto global = dyn_cast<memref::GetGlobalOp>(op))
    return global.getNameAttr();
  return cast<arith::ConstantOp>(op).getValue();
}

/// A splat vector constant's element, or null.
static TypedAttr splatElement(Attribute data) {
  auto dense = dyn_cast<DenseElementsAttr>(data);
  if (!dense || !dense.isSplat() || !isa<VectorType>(dense.getType()))
    return {};
  return dense.getSplatValue<TypedAttr>();
}

namespace {
/// A candidate function's operations in pre-order, and a hash of its
/// structure (everything but its name and its data).
struct Candidate {
  func::FuncOp fn;
  SmallVector<Operation *> ops;
  llvm::hash_code hash;
  bool merged = false;
};
} // namespace

static Candidate describe(func::FuncOp fn) {
  Candidate c{fn, {}, mlir::hash_value(Type(fn.getFunctionType()))};
  fn.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    c.ops.push_back(op);
    c.hash = llvm::hash_combine(c.hash, op->getName().getAsOpaquePointer(),
                                op->getNumOperands(), op->getNumRegions());
    for (Type t : op->getResultTypes())
      c.hash = llvm::hash_combine(c.hash, t);
    if (!isData(op))
      c.hash = llvm::hash_combine(c.hash, op->getRawDictionaryAttrs(),
                                  op->hashProperties());
  });
  return c;
}

/// The function attributes other than the name.
static SmallVector<NamedAttribute> attributesBesidesName(func::FuncOp fn) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : fn->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      attrs.push_back(attr);
  return attrs;
}

/// Whether `a` and `b` are the same function up to their names and data:
/// the same operations, attributes, types, regions and use of values.
static bool equivalent(Candidate &a, Candidate &b) {
  if (a.hash != b.hash || a.ops.size() != b.ops.size() ||
      a.fn.getFunctionType() != b.fn.getFunctionType() ||
      attributesBesidesName(a.fn) != attributesBesidesName(b.fn))
    return false;
  DenseMap<Value, Value> values;
  DenseMap<Block *, Block *> blocks;
  auto mapRegion = [&](Region &x, Region &y) {
    if (x.getBlocks().size() != y.getBlocks().size())
      return false;
    for (auto [bx, by] : llvm::zip(x, y)) {
      if (bx.getArgumentTypes() != by.getArgumentTypes())
        return false;
      blocks[&bx] = &by;
      for (auto [vx, vy] : llvm::zip(bx.getArguments(), by.getArguments()))
        values[vx] = vy;
    }
    return true;
  };
  if (!mapRegion(a.fn.getBody(), b.fn.getBody()))
    return false;
  // First the definitions (a use may precede its definition in pre-order
  // across blocks), then the uses.
  for (auto [x, y] : llvm::zip(a.ops, b.ops)) {
    if (x->getName() != y->getName() ||
        x->getNumOperands() != y->getNumOperands() ||
        x->getNumSuccessors() != y->getNumSuccessors() ||
        x->getNumRegions() != y->getNumRegions() ||
        x->getResultTypes() != y->getResultTypes())
      return false;
    if (!isData(x) &&
        (x->getRawDictionaryAttrs() != y->getRawDictionaryAttrs() ||
         !x->getName().compareOpProperties(x->getPropertiesStorage(),
                                           y->getPropertiesStorage())))
      return false;
    for (auto [vx, vy] : llvm::zip(x->getResults(), y->getResults()))
      values[vx] = vy;
    for (auto [rx, ry] : llvm::zip(x->getRegions(), y->getRegions()))
      if (!mapRegion(rx, ry))
        return false;
  }
  for (auto [x, y] : llvm::zip(a.ops, b.ops)) {
    for (auto [vx, vy] : llvm::zip(x->getOperands(), y->getOperands()))
      if (values.lookup(vx) != vy)
        return false;
    for (auto [sx, sy] : llvm::zip(x->getSuccessors(), y->getSuccessors()))
      if (blocks.lookup(sx) != sy)
        return false;
  }
  return true;
}

namespace {
/// One argument of a merged function: the position of the data in the
/// functions' operations, and whether every function's data there is a
/// splat vector (the argument is then the element, broadcast inside).
struct Parameter {
  size_t position;
  bool splat;
};
} // namespace

/// Merges `group` (equivalent functions; the first one stays) and redirects
/// their `calls` to it; returns the number of arguments added. (A function
/// is in one group at most, so `calls` needs no update for the kept one.)
static size_t
merge(ArrayRef<Candidate *> group,
      const llvm::MapVector<StringAttr, SmallVector<func::CallOp>> &calls) {
  Candidate &kept = *group.front();
  SmallVector<Parameter> parameters;
  for (auto [position, op] : llvm::enumerate(kept.ops)) {
    if (!isData(op))
      continue;
    Attribute data = dataOf(op);
    bool differs = false, splat = static_cast<bool>(splatElement(data));
    for (Candidate *other : group.drop_front()) {
      Attribute otherData = dataOf(other->ops[position]);
      differs |= otherData != data;
      splat &= static_cast<bool>(splatElement(otherData));
    }
    if (differs)
      parameters.push_back({position, splat});
  }

  // The callers pass their data: a copy of their function's constant or
  // global (or the splat's element) before the call.
  for (Candidate *c : group) {
    for (func::CallOp call : calls.lookup(c->fn.getSymNameAttr())) {
      OpBuilder b(call);
      SmallVector<Value> operands(call.getOperands());
      for (const Parameter &p : parameters) {
        Operation *data = c->ops[p.position];
        if (p.splat)
          operands.push_back(arith::ConstantOp::create(
              b, data->getLoc(), splatElement(dataOf(data))));
        else
          operands.push_back(b.clone(*data)->getResult(0));
      }
      call.setCallee(kept.fn.getSymName());
      call->setOperands(operands);
    }
  }

  // The kept function takes them.
  Block &entry = kept.fn.getBody().front();
  OpBuilder b(kept.fn.getContext());
  for (const Parameter &p : parameters) {
    Operation *data = kept.ops[p.position];
    Value value = data->getResult(0);
    // (Anew each time: the data erased below may be the first operation.)
    b.setInsertionPointToStart(&entry);
    if (p.splat) {
      BlockArgument element = entry.addArgument(
          getElementTypeOrSelf(value.getType()), data->getLoc());
      value.replaceAllUsesWith(vector::BroadcastOp::create(
          b, data->getLoc(), value.getType(), element));
    } else {
      value.replaceAllUsesWith(
          entry.addArgument(value.getType(), data->getLoc()));
    }
    data->erase();
  }
  kept.fn.setFunctionType(
      FunctionType::get(kept.fn.getContext(), entry.getArgumentTypes(),
                        kept.fn.getFunctionType().getResults()));
  for (Candidate *other : group.drop_front())
    other->fn.erase();
  return parameters.size();
}

namespace {
struct MergeFunctionsPass
    : public quantc::impl::MergeFunctionsBase<MergeFunctionsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The calls of each function; a function used otherwise (its address
    // taken, say) is not merged.
    llvm::MapVector<StringAttr, SmallVector<func::CallOp>> calls;
    DenseSet<StringAttr> usedOtherwise;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&module.getBodyRegion())) {
      for (const SymbolTable::SymbolUse &use : *uses) {
        StringAttr name = use.getSymbolRef().getRootReference();
        auto call = dyn_cast<func::CallOp>(use.getUser());
        if (call && call.getCalleeAttr() == use.getSymbolRef())
          calls[name].push_back(call);
        else
          usedOtherwise.insert(name);
      }
    } else {
      return; // Unknown symbol uses: nothing is provably private.
    }

    // Candidates bucketed by their structure's hash.
    std::vector<Candidate> candidates;
    for (func::FuncOp fn : module.getOps<func::FuncOp>())
      if (fn.isPrivate() && !fn.isDeclaration() &&
          !usedOtherwise.contains(fn.getSymNameAttr()))
        candidates.push_back(describe(fn));
    llvm::MapVector<llvm::hash_code, SmallVector<Candidate *>> buckets;
    for (Candidate &c : candidates)
      buckets[c.hash].push_back(&c);

    for (auto &[hash, bucket] : buckets) {
      for (auto [i, first] : llvm::enumerate(bucket)) {
        if (first->merged)
          continue;
        SmallVector<Candidate *> group = {first};
        for (Candidate *other : llvm::drop_begin(bucket, i + 1))
          if (!other->merged && equivalent(*first, *other)) {
            other->merged = true;
            group.push_back(other);
          }
        if (group.size() > 1) {
          numArguments += merge(group, calls);
          numMerged += group.size() - 1;
        }
      }
    }
  }
};
} // namespace

//===- ByteLookup.cpp - qnt.lookup by byte shuffles -----------------------===//
//
// The 256-entry byte tables of qnt.lookup applied with byte shuffles, no
// gather; a kernel family's KernelFamily::lookup picks one. The entry
// index is the byte q - storageMin (an s8 input, `isSigned`: q with its top
// bit flipped).
//   pshufbLookup (x86, vpshufb ymm, 32 lanes: each 128-bit lane shuffles
//   its own copy of a 16-byte slice): per slice g of 16 entries, vpshufb by
//   the low nibble, kept where the high nibble is g (vpcmpeqb + vpblendvb);
//   a slice of one repeated byte is a splat;
//   tbl4Lookup (AArch64, tbl4, 16 lanes: a 64-byte table; indices past it
//   give 0): the OR of tbl4 over the four 64-entry slices s at k - 64 s
//   (wrapping: only the lanes of slice s fall inside it).
//
//===----------------------------------------------------------------------===//

#include "KernelFamily.h"

#include "dialects/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::qnt::conv;

namespace {

/// What both lookups build on: splats, the entry index k and slices of the
/// table, as vectors of q's type.
struct Shuffle {
  Shuffle(OpBuilder &b, Location loc, Value q, bool isSigned,
          ArrayRef<int8_t> bytes, int64_t expectedLanes)
      : b(b), loc(loc), vt(cast<VectorType>(q.getType())),
        lanes(vt.getNumElements()), bytes(bytes) {
    assert(lanes == expectedLanes && "one vector width per instruction");
    (void)expectedLanes;
    k = isSigned ? arith::XOrIOp::create(b, loc, q, splat(-128)).getResult()
                 : q;
  }
  Value splat(int8_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vt, b.getI8IntegerAttr(v).getValue()));
  }
  /// vector<L x i8> of bytes[first + i % width].
  Value slice(int64_t first, int64_t width) {
    SmallVector<int8_t> v(lanes);
    for (int64_t i = 0; i < lanes; ++i)
      v[i] = bytes[first + i % width];
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vt, ArrayRef(v)));
  }
  Value call(StringRef name, ValueRange args) {
    return intrinsic(b, loc, vt, name, args);
  }

  OpBuilder &b;
  Location loc;
  VectorType vt;
  int64_t lanes;
  ArrayRef<int8_t> bytes;
  Value k;
};

} // namespace

Value mlir::qnt::conv::tbl4Lookup(OpBuilder &b, Location loc, Value q,
                                  bool isSigned, ArrayRef<int8_t> bytes) {
  Shuffle s(b, loc, q, isSigned, bytes, kTbl4Lanes);
  Value result;
  for (int64_t part = 0; part < 4; ++part) {
    SmallVector<Value> args;
    for (int64_t t = 0; t < 4; ++t)
      args.push_back(s.slice(64 * part + 16 * t, 16));
    args.push_back(
        part ? arith::SubIOp::create(b, loc, s.k,
                                     s.splat(static_cast<int8_t>(64 * part)))
                   .getResult()
             : s.k);
    Value r = s.call("llvm.aarch64.neon.tbl4.v16i8", args);
    result = part ? arith::OrIOp::create(b, loc, result, r).getResult() : r;
  }
  return result;
}

Value mlir::qnt::conv::pshufbLookup(OpBuilder &b, Location loc, Value q,
                                    bool isSigned, ArrayRef<int8_t> bytes) {
  Shuffle s(b, loc, q, isSigned, bytes, kPshufbLanes);
  Value lo = arith::AndIOp::create(b, loc, s.k, s.splat(0x0F));
  Value hi = arith::ShRUIOp::create(b, loc, s.k, s.splat(4));
  // Slice 0 covers every lane first; a later slice that is the same
  // repeated byte as slice 0 (e.g. the flat ends of GELU or a sigmoid)
  // changes nothing.
  Value result;
  std::optional<int8_t> first;
  for (int64_t g = 0; g < 16; ++g) {
    ArrayRef<int8_t> part = bytes.slice(16 * g, 16);
    bool flat = llvm::all_equal(part);
    if (g == 0 && flat)
      first = part[0];
    else if (flat && first == part[0])
      continue;
    Value r = flat ? s.splat(part[0])
                   : s.call("llvm.x86.avx2.pshuf.b", {s.slice(16 * g, 16), lo});
    if (!result) {
      result = r;
      continue;
    }
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, hi,
                                     s.splat(static_cast<int8_t>(g)));
    result = arith::SelectOp::create(b, loc, in, r, result);
  }
  return result;
}

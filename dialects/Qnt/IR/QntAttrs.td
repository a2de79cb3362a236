//===- QntAttrs.td - Attributes of the qnt dialect ---------*- tablegen -*-===//
//
// Observer configuration and calibrated observer state. Field names follow
// PyTorch's observer constructor arguments so that a PyTorch user recognises
// every one of them.
//
//===----------------------------------------------------------------------===//

#ifndef QNT_ATTRS_TD
#define QNT_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "QntDialect.td"
include "QntEnums.td"

class Qnt_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Qnt_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// An enum parameter that may be omitted in the textual form.
class Qnt_DefaultEnumParameter<EnumAttrInfo info, string value>
    : EnumParameter<info> {
  let defaultValue = value;
}

/// An optional float parameter held as a FloatAttr of the given width and
/// printed as the shortest decimal that parses back to the same bits.
class Qnt_OptionalFloatParameter<int width, string desc>
    : OptionalParameter<"::mlir::FloatAttr", desc> {
  let parser = "::mlir::qnt::parseFloatParameter($_parser, " # width # ")";
  let printer = "::mlir::qnt::printFloatParameter($_printer, $_self)";
}

/// A list of f32 values written `[1.0, 2.0]`.
class Qnt_F32ArrayParameter<string desc>
    : AttrParameter<"::mlir::DenseF32ArrayAttr", desc> {
  let printer = "::mlir::qnt::printF32Array($_printer, $_self)";
}

/// An optional list of f32 values written `[1.0, 2.0]`.
class Qnt_OptionalF32ArrayParameter<string desc>
    : OptionalParameter<"::mlir::DenseF32ArrayAttr", desc> {
  let printer = "::mlir::qnt::printF32Array($_printer, $_self)";
}

def Qnt_ObserverConfigAttr : Qnt_Attr<"ObserverConfig", "observer"> {
  let summary = "What an observer collects and which quantization it targets";
  let description = [{
    The configuration of a `qnt.observe` op, with PyTorch's observer
    vocabulary:

    * `kind`: `min_max`, `moving_average_min_max`, `histogram`,
      `per_channel_min_max`, `per_channel_moving_average_min_max` (PyTorch's
      observers) or the calibrators `percentile`, `entropy` (KL divergence)
      and `mse` (TensorRT / ONNX Runtime); `auto` collects the calibrators'
      statistics and is resolved to `min_max` or a calibrator after
      calibration (quant-compile `--activation-observer=auto`);
    * `dtype`: `quint8` (default) or `qint8`; `qscheme`: `affine` (default) or
      `symmetric`; per-channel follows from the kind;
    * `quant_min`, `quant_max`: a custom quantized range (both or neither);
      `reduce_range`: use 7 of the 8 bits (x86 without VNNI);
    * `ch_axis`: the channel axis of per-channel kinds (required for them,
      rejected for the others; negative values count from the end);
    * kind options: `averaging_constant` (moving averages, default 0.01),
      `bins` (histogram kinds, default 2048), `upsample_rate` (`histogram`,
      default 128), `percentile` (`percentile`, default 99.99);
    * `eps`: the smallest scale (default float32 epsilon).

    Options are omitted when they take their default; an option that does not
    apply to the kind is an error.

    Example: `#qnt.observer<kind = histogram, dtype = qint8, qscheme = symmetric, reduce_range = true>`
  }];
  let parameters = (ins
    EnumParameter<Qnt_ObserverKind>:$kind,
    Qnt_DefaultEnumParameter<Qnt_QuantDtype, "::mlir::qnt::QuantDtype::quint8">:$dtype,
    Qnt_DefaultEnumParameter<Qnt_QScheme, "::mlir::qnt::QScheme::affine">:$qscheme,
    OptionalParameter<"std::optional<int64_t>">:$quant_min,
    OptionalParameter<"std::optional<int64_t>">:$quant_max,
    DefaultValuedParameter<"bool", "false">:$reduce_range,
    OptionalParameter<"std::optional<int64_t>">:$ch_axis,
    Qnt_OptionalFloatParameter<64, "moving-average weight of a new batch">:$averaging_constant,
    OptionalParameter<"std::optional<int64_t>">:$bins,
    OptionalParameter<"std::optional<int64_t>">:$upsample_rate,
    Qnt_OptionalFloatParameter<64, "percentile of |x| kept">:$percentile,
    Qnt_OptionalFloatParameter<32, "smallest scale">:$eps
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True for the kinds that keep one range per channel.
    bool isPerChannel() const;
    /// True for the kinds whose state includes a histogram.
    bool hasHistogram() const;
    /// Options with their defaults applied.
    double getAveragingConstantOrDefault() const;
    int64_t getBinsOrDefault() const;
    int64_t getUpsampleRateOrDefault() const;
    double getPercentileOrDefault() const;
    float getEpsOrDefault() const;
  }];
}

def Qnt_ObserverStateAttr : Qnt_Attr<"ObserverState", "observer_state"> {
  let summary = "Statistics an observer collected during calibration";
  let description = [{
    * `batches`: how many tensors (forward passes) were observed;
    * `min`, `max`: the running minimum and maximum (one value per channel
      for per-channel kinds, one otherwise; moving averages for the
      moving-average kinds);
    * `histogram`, `hist_min`, `hist_max`: the histogram of the histogram
      kinds (`histogram`, `percentile`, `entropy`, `mse`) and the range its
      bins cover, which can be wider than [`min`, `max`].
  }];
  let parameters = (ins
    "int64_t":$batches,
    Qnt_F32ArrayParameter<"running minimum per channel">:$min,
    Qnt_F32ArrayParameter<"running maximum per channel">:$max,
    Qnt_OptionalF32ArrayParameter<"bin counts">:$histogram,
    Qnt_OptionalFloatParameter<32, "lower edge of the first bin">:$hist_min,
    Qnt_OptionalFloatParameter<32, "upper edge of the last bin">:$hist_max
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // QNT_ATTRS_TD

//===- Profile.cpp - Calibration profiles (JSON) --------------------------===//

#include "quantc/Calibrate/Profile.h"
#include "quantc/Support/Fail.h"
#include "quantc/Support/InputFile.h"
#include "quantc/Support/OutputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;
using namespace quantc;

const char *const quantc::kToolVersion = "quantc 0.1.0";

static constexpr StringLiteral kFormat = "quantc-calibration-profile";
static constexpr int64_t kVersion = 1;

using quantc::fail;

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

template <typename T> static json::Array toArray(const std::vector<T> &values) {
  json::Array array;
  for (const T &v : values)
    array.push_back(v);
  return array;
}

json::Value quantc::toJSON(const obs::ObserverConfig &c) {
  return json::Object{
      {"kind", obs::toString(c.kind)},
      {"dtype", obs::toString(c.dtype)},
      {"qscheme", obs::toString(c.qscheme)},
      {"quant_min", c.quantMin ? json::Value(*c.quantMin) : nullptr},
      {"quant_max", c.quantMax ? json::Value(*c.quantMax) : nullptr},
      {"reduce_range", c.reduceRange},
      {"ch_axis", c.chAxis},
      {"averaging_constant", c.averagingConstant},
      {"bins", c.bins},
      {"upsample_rate", c.upsampleRate},
      {"percentile", c.percentile},
      {"eps", c.eps},
  };
}

static json::Value toJSON(const obs::ObserverState &s) {
  json::Object state{
      {"batches", s.batches}, {"min", toArray(s.min)}, {"max", toArray(s.max)}};
  if (!s.histogram.empty()) {
    state["histogram"] = toArray(s.histogram);
    state["hist_min"] = s.histMin;
    state["hist_max"] = s.histMax;
  }
  return state;
}

json::Value quantc::toJSON(const ObserverChoice &choice) {
  json::Object scores;
  for (const auto &[kind, score] : choice.scores)
    scores[obs::toString(kind)] = score;
  return json::Object{{"kind", obs::toString(choice.kind)},
                      {"scores", std::move(scores)},
                      {"consumers", choice.consumers}};
}

json::Value quantc::toJSON(const Profile &profile) {
  json::Array observers;
  for (const ProfileObserver &o : profile.observers) {
    json::Object entry{{"name", o.name},
                       {"location", o.location},
                       {"shape", toArray(o.shape)},
                       {"config", toJSON(o.config)},
                       {"state", ::toJSON(o.state)}};
    if (o.choice)
      entry["choice"] = toJSON(*o.choice);
    // Derived numbers, for the reader: the float range each scale came from
    // (an auto observer's from its chosen kind).
    quantc::StatusOr<obs::Observer> observer = obs::Observer::create(o.config);
    if (observer.ok() && o.state.batches > 0 &&
        observer->setState(o.state).ok() && o.choice)
      observer = observer->asKind(o.choice->kind);
    if (observer.ok() && o.state.batches > 0) {
      auto range = observer->computeRange();
      auto qparams = observer->computeQParams();
      if (range.ok() && qparams.ok()) {
        entry["range"] = json::Object{{"min", toArray(range->first)},
                                      {"max", toArray(range->second)}};
        entry["qparams"] =
            json::Object{{"scale", toArray(qparams->scale)},
                         {"zero_point", toArray(qparams->zeroPoint)}};
      }
    }
    observers.push_back(std::move(entry));
  }
  return json::Object{
      {"format", kFormat},
      {"version", kVersion},
      {"tool", profile.tool},
      {"model", json::Object{{"hash", profile.modelHash},
                             {"function", profile.function}}},
      {"samples", profile.samples},
      {"batch_size", profile.batchSize},
      {"sources", toArray(profile.sources)},
      {"observers", std::move(observers)},
  };
}

Error quantc::writeProfile(StringRef path, const Profile &profile,
                           OutputSet *outputs) {
  auto write = [&](raw_ostream &os) {
    os << formatv("{0:2}", toJSON(profile)) << "\n";
  };
  OutputOptions options;
  options.allowCharDevice = true;
  if (!outputs)
    return writeOutputFile(path, write, options);
  Expected<raw_pwrite_stream &> os = outputs->open(path, options);
  if (!os)
    return os.takeError();
  write(*os);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {
/// Reads fields of one JSON object, recording the first problem.
class Reader {
public:
  Reader(const json::Object *object, std::string where)
      : object(object), where(std::move(where)) {}

  template <typename T> T get(StringRef key) {
    const json::Value *value = object ? object->get(key) : nullptr;
    T result{};
    if (!value) {
      problem("missing '" + key + "'");
      return result;
    }
    json::Path::Root root;
    if (!json::fromJSON(*value, result, json::Path(root)))
      problem("'" + key + "' has the wrong type");
    return result;
  }

  const json::Object *object;
  std::string where;
  std::string error;

  void problem(const Twine &message) {
    if (error.empty())
      error = where + ": " + message.str();
  }
};
} // namespace

/// The observer library's observer for a profile entry (config and state);
/// a failure starts with `context`.
static Expected<obs::Observer> toObserver(const ProfileObserver &o,
                                          const Twine &context) {
  quantc::StatusOr<obs::Observer> observer = obs::Observer::create(o.config);
  if (observer.ok() && o.state.batches > 0)
    if (Status s = observer->setState(o.state); s.failed())
      return toError(s, context);
  return toExpected(std::move(observer), context);
}

/// An `auto` observer's recorded choice; `where` names the observer.
static Expected<ObserverChoice> readChoice(const json::Object &object,
                                           const std::string &where) {
  Reader r(&object, where + " choice");
  ObserverChoice choice;
  std::string kind = r.get<std::string>("kind");
  choice.consumers = r.get<std::string>("consumers");
  Reader scores(object.getObject("scores"), r.where + " scores");
  for (obs::ObserverKind candidate : obs::kAutoCandidates)
    choice.scores.emplace_back(candidate,
                               scores.get<double>(obs::toString(candidate)));
  for (const std::string &e : {r.error, scores.error})
    if (!e.empty())
      return fail(e);
  std::optional<obs::ObserverKind> k = obs::parseObserverKind(kind);
  if (!k || !llvm::is_contained(obs::kAutoCandidates, *k))
    return fail(r.where + ": '" + kind +
                "' is not a kind an auto observer can become");
  choice.kind = *k;
  return choice;
}

static Expected<ProfileObserver> readObserver(const json::Value &value,
                                              size_t index) {
  ProfileObserver o;
  Reader r(value.getAsObject(), "observer #" + std::to_string(index));
  o.name = r.get<std::string>("name");
  o.location = r.get<std::string>("location");
  o.shape = r.get<std::vector<int64_t>>("shape");
  Reader c(r.object ? r.object->getObject("config") : nullptr,
           r.where + " config");
  std::string kind = c.get<std::string>("kind");
  std::string dtype = c.get<std::string>("dtype");
  std::string qscheme = c.get<std::string>("qscheme");
  o.config.quantMin = c.get<std::optional<int64_t>>("quant_min");
  o.config.quantMax = c.get<std::optional<int64_t>>("quant_max");
  o.config.reduceRange = c.get<bool>("reduce_range");
  o.config.chAxis = c.get<int64_t>("ch_axis");
  o.config.averagingConstant = c.get<double>("averaging_constant");
  o.config.bins = c.get<int64_t>("bins");
  o.config.upsampleRate = c.get<int64_t>("upsample_rate");
  o.config.percentile = c.get<double>("percentile");
  o.config.eps = static_cast<float>(c.get<double>("eps"));
  Reader s(r.object ? r.object->getObject("state") : nullptr,
           r.where + " state");
  o.state.batches = s.get<int64_t>("batches");
  auto toFloats = [](const std::vector<double> &v) {
    return std::vector<float>(v.begin(), v.end());
  };
  o.state.min = toFloats(s.get<std::vector<double>>("min"));
  o.state.max = toFloats(s.get<std::vector<double>>("max"));
  if (s.object && s.object->get("histogram")) {
    o.state.histogram = toFloats(s.get<std::vector<double>>("histogram"));
    o.state.histMin = static_cast<float>(s.get<double>("hist_min"));
    o.state.histMax = static_cast<float>(s.get<double>("hist_max"));
  }
  for (const std::string &e : {r.error, c.error, s.error})
    if (!e.empty())
      return fail(e);
  if (const json::Object *choice = r.object->getObject("choice")) {
    Expected<ObserverChoice> parsed = readChoice(*choice, r.where);
    if (!parsed)
      return parsed.takeError();
    o.choice = std::move(*parsed);
  }

  std::optional<obs::ObserverKind> k = obs::parseObserverKind(kind);
  std::optional<obs::Dtype> d = obs::parseDtype(dtype);
  std::optional<obs::QScheme> q = obs::parseQScheme(qscheme);
  if (!k || !d || !q)
    return fail(r.where + " ('" + o.name + "'): unknown " +
                (!k   ? "kind '" + kind + "'"
                 : !d ? "dtype '" + dtype + "'"
                      : "qscheme '" + qscheme + "'"));
  o.config.kind = *k;
  o.config.dtype = *d;
  o.config.qscheme = *q;
  if (Error e = toObserver(o, r.where + " ('" + o.name + "'): ").takeError())
    return std::move(e);
  if (o.choice && o.config.kind != obs::ObserverKind::Auto)
    return fail(r.where + " ('" + o.name + "'): a " +
                obs::toString(o.config.kind) +
                " observer has no choice to record (only auto observers)");
  return o;
}

Expected<Profile> quantc::readProfile(StringRef path) {
  Expected<std::unique_ptr<MemoryBuffer>> buffer = readInputFile(path);
  if (!buffer)
    return buffer.takeError();
  return parseProfile((*buffer)->getBuffer(), path);
}

Expected<Profile> quantc::parseProfile(StringRef text, StringRef path) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return fail(path + ": invalid JSON: " + toString(parsed.takeError()));
  Reader r(parsed->getAsObject(), path.str());
  if (r.get<std::string>("format") != kFormat || !r.error.empty())
    return fail(path + ": not a quantc calibration profile");
  if (int64_t version = r.get<int64_t>("version"); version != kVersion)
    return fail(path + ": unsupported profile version " + Twine(version));
  Profile profile;
  profile.tool = r.get<std::string>("tool");
  Reader m(r.object->getObject("model"), path.str() + " model");
  profile.modelHash = m.get<std::string>("hash");
  profile.function = m.get<std::string>("function");
  profile.samples = r.get<int64_t>("samples");
  profile.batchSize = r.get<int64_t>("batch_size");
  profile.sources = r.get<std::vector<std::string>>("sources");
  if (!r.error.empty() || !m.error.empty())
    return fail(r.error.empty() ? m.error : r.error);
  const json::Array *observers = r.object->getArray("observers");
  if (!observers)
    return fail(path + ": missing 'observers'");
  for (auto [i, value] : llvm::enumerate(*observers)) {
    Expected<ProfileObserver> o = readObserver(value, i);
    if (!o)
      return fail(path + ": " + toString(o.takeError()));
    profile.observers.push_back(std::move(*o));
  }
  return profile;
}

//===----------------------------------------------------------------------===//
// Merging
//===----------------------------------------------------------------------===//

Expected<Profile> quantc::mergeProfiles(ArrayRef<Profile> profiles) {
  if (profiles.empty())
    return fail("no profiles to merge");
  // A canonical order (by content) makes the result independent of the order
  // the profiles were given in, also for merges that are not associative.
  std::vector<std::pair<std::string, const Profile *>> ordered;
  for (const Profile &p : profiles)
    ordered.emplace_back(formatv("{0}", toJSON(p)).str(), &p);
  llvm::sort(ordered,
             [](const auto &a, const auto &b) { return a.first < b.first; });

  const Profile &first = *ordered.front().second;
  Profile merged = first;
  merged.tool = kToolVersion;
  std::vector<obs::Observer> observers;
  for (const ProfileObserver &o : first.observers) {
    Expected<obs::Observer> observer =
        toObserver(o, "observer '" + o.name + "': ");
    if (!observer)
      return observer.takeError();
    observers.push_back(std::move(*observer));
  }
  for (size_t p = 1; p < ordered.size(); ++p) {
    const Profile &other = *ordered[p].second;
    if (other.modelHash != first.modelHash || other.function != first.function)
      return fail("profiles come from different models (hash " +
                  first.modelHash.substr(0, 12) + "... vs " +
                  other.modelHash.substr(0, 12) + "...)");
    if (other.observers.size() != first.observers.size())
      return fail("profiles have different observers");
    if (other.batchSize != first.batchSize)
      return fail("profiles were calibrated with different batch sizes (" +
                  Twine(first.batchSize) + " and " + Twine(other.batchSize) +
                  ")");
    for (size_t i = 0; i < observers.size(); ++i) {
      const ProfileObserver &o = other.observers[i];
      if (o.name != first.observers[i].name ||
          o.shape != first.observers[i].shape)
        return fail("profiles have different observers ('" +
                    first.observers[i].name + "' vs '" + o.name + "')");
      Expected<obs::Observer> observer =
          toObserver(o, "observer '" + o.name + "': ");
      if (!observer)
        return observer.takeError();
      if (Error e = toError(observers[i].merge(*observer),
                            "observer '" + o.name + "': "))
        return e;
    }
    merged.samples += other.samples;
    merged.sources.insert(merged.sources.end(), other.sources.begin(),
                          other.sources.end());
  }
  for (size_t i = 0; i < observers.size(); ++i) {
    merged.observers[i].state = observers[i].state();
    if (ordered.size() > 1)
      merged.observers[i].choice.reset();
  }
  llvm::sort(merged.sources);
  return merged;
}

#include "training/deep_potential/deepmd_input.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>

#include "core/error.hpp"
#include "core/suggest.hpp"

namespace surrox::training {

namespace fs = std::filesystem;

namespace {

YAML::Node load(const fs::path& path) {
  try {
    return YAML::LoadFile(path.string());
  } catch (const YAML::Exception& e) {
    throw InputError(e.msg, {path.string(), e.mark.line + 1, e.mark.column + 1, ""});
  }
}

// One DeePMD-kit section being read: each key is taken by a handler or refused.
class Section {
 public:
  Section(const fs::path& file, const YAML::Node& node, std::string path)
      : file_(file), node_(node), path_(std::move(path)) {
    if (node_ && !node_.IsMap()) fail("", "expected a section (a JSON object)");
  }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    const YAML::Mark mark = key.empty() || !node_[key] ? node_.Mark() : node_[key].Mark();
    throw InputError(message, {file_.string(), mark.line + 1, mark.column + 1, where(key)});
  }
  std::string where(const std::string& key) const {
    return path_.empty() ? key : key.empty() ? path_ : path_ + "." + key;
  }
  bool has(const std::string& key) const { return node_ && node_[key] && !node_[key].IsNull(); }
  YAML::Node operator[](const std::string& key) const { return node_[key]; }
  Section section(const std::string& key) const {
    if (!has(key)) fail(key, "missing section");
    return Section(file_, node_[key], where(key));
  }
  template <class T>
  T get(const std::string& key) const {
    try {
      return node_[key].as<T>();
    } catch (const YAML::Exception&) {
      fail(key, "wrong type of value");
    }
  }
  template <class T>
  T get_or(const std::string& key, const T& fallback) const {
    return has(key) ? get<T>(key) : fallback;
  }
  // Refuses every key that is neither in `known` nor output-only nor a comment.
  void only(const std::vector<std::string>& known,
            const std::vector<std::string>& output_only = {}) const {
    if (!node_) return;
    for (const auto& item : node_) {
      const std::string key = item.first.as<std::string>();
      if (key.rfind("_comment", 0) == 0) continue;
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      if (std::find(output_only.begin(), output_only.end(), key) != output_only.end()) continue;
      fail(key, "DeePMD-kit's key " + key + " is not implemented by surrox (it takes: " +
                    join(known) + ")" + did_you_mean(key, known));
    }
  }
  // A key surrox implements with one value only: anything else is refused.
  template <class T>
  void require(const std::string& key, const T& value, const std::string& why) const {
    if (has(key) && get<T>(key) != value) fail(key, why);
  }
  const fs::path& file() const { return file_; }

 private:
  fs::path file_;
  YAML::Node node_;
  std::string path_;
};

// tanh, and one precision for every net of the model: DeePMD-kit's `precision` per descriptor
// and fitting net ("default" and absent: float64), recorded as model.precision; a section that
// differs from the ones before is refused (surrox has one precision per model).
void require_tanh_and_precision(const Section& s, YAML::Node model) {
  s.require<std::string>("activation_function", "tanh", "surrox's networks use tanh only");
  std::string p = s.has("precision") ? s.get<std::string>("precision") : "default";
  if (p == "default") p = "float64";
  if (p != "float64" && p != "float32")
    s.fail("precision", "surrox's deep potentials are float64 or float32 (precision: " + p + ")");
  if (model["precision"] && model["precision"].as<std::string>() != p)
    s.fail("precision",
           "surrox runs every net of a model in one precision: the sections before "
           "say " +
               model["precision"].as<std::string>() + ", this one " + p +
               " (absent or \"default\" means float64)");
  model["precision"] = p;
}

bool is_type(const Section& d, std::initializer_list<const char*> names) {
  const auto type = d.has("type") ? d.get<std::string>("type") : std::string("se_e2_a");
  for (const char* n : names)
    if (type == n) return true;
  return false;
}

// se_e2_a (alias se_a) → model.{rcut, rcut_smth, sel, embedding, axis_neuron, seed}.
void map_se_e2_a(const Section& d, YAML::Node model) {
  d.only({"type", "rcut", "rcut_smth", "sel", "neuron", "axis_neuron", "resnet_dt", "seed",
          "activation_function", "precision", "type_one_side", "trainable", "exclude_types",
          "set_davg_zero"});
  require_tanh_and_precision(d, model);
  d.require<bool>("resnet_dt", false, "surrox's embedding nets have no resnet timestep");
  d.require<bool>("type_one_side", false,
                  "surrox's se_e2_a has one embedding net per (centre, neighbour) type pair "
                  "(DeePMD-kit's type_one_side: false)");
  d.require<bool>("trainable", true, "surrox trains every layer");
  d.require<bool>("set_davg_zero", false, "surrox always computes davg from the data");
  if (d.has("exclude_types") && d["exclude_types"].size() > 0)
    d.fail("exclude_types", "surrox does not exclude type pairs");
  if (!d.has("sel") || !d["sel"].IsSequence())
    d.fail("sel", "give sel as a list per type (\"auto\" is not implemented)");
  model["rcut"] = d.get_or("rcut", 6.0);
  model["rcut_smth"] = d.get_or("rcut_smth", 0.5);
  model["sel"] = d.get<std::vector<int>>("sel");
  model["embedding"] = d.get_or("neuron", std::vector<int>{10, 20, 40});
  model["axis_neuron"] = d.get_or("axis_neuron", 4);
  if (d.has("seed")) model["seed"] = d.get<long>("seed");
}

// se_e3 (aliases se_t, se_at) → model.three_body.
void map_se_e3(const Section& d, YAML::Node model) {
  d.only({"type", "rcut", "rcut_smth", "sel", "neuron", "resnet_dt", "seed", "activation_function",
          "precision", "trainable", "set_davg_zero"});
  require_tanh_and_precision(d, model);
  d.require<bool>("resnet_dt", false, "surrox's embedding nets have no resnet timestep");
  d.require<bool>("trainable", true, "surrox trains every layer");
  d.require<bool>("set_davg_zero", false, "surrox always computes davg from the data");
  YAML::Node t = model["three_body"];
  t["rcut"] = d.get_or("rcut", 6.0);
  t["rcut_smth"] = d.get_or("rcut_smth", 0.5);
  if (!d.has("sel") || !d["sel"].IsSequence()) d.fail("sel", "give sel as a list per type");
  t["sel"] = d.get<std::vector<int>>("sel");
  t["embedding"] = d.get_or("neuron", std::vector<int>{10, 20, 40});
}

// se_e2_r (alias se_r) beside se_e2_a: surrox's radial_embedding, on se_e2_a's environment.
void map_se_e2_r(const Section& d, const Section& a, YAML::Node model) {
  d.only({"type", "rcut", "rcut_smth", "sel", "neuron", "resnet_dt", "seed", "activation_function",
          "precision", "trainable", "set_davg_zero"});
  require_tanh_and_precision(d, model);
  for (const char* k : {"rcut", "rcut_smth"})
    if (d.has(k) && (!a.has(k) || d.get<double>(k) != a.get<double>(k)))
      d.fail(
          k,
          std::string("surrox's se_e2_r part shares se_e2_a's environment: give it the same ") + k);
  if (d.has("sel") &&
      (!a.has("sel") || d.get<std::vector<int>>("sel") != a.get<std::vector<int>>("sel")))
    d.fail("sel", "surrox's se_e2_r part shares se_e2_a's environment: give it the same sel");
  model["radial_embedding"] = d.get_or("neuron", std::vector<int>{10, 20, 40});
}

void map_descriptor(const Section& d, YAML::Node model) {
  if (is_type(d, {"se_e2_a", "se_a"})) return map_se_e2_a(d, model);
  if (!is_type(d, {"hybrid"}))
    d.fail("type", "surrox implements se_e2_a, and hybrid of se_e2_a with se_e3 and se_e2_r (not " +
                       d.get<std::string>("type") + ")");
  d.only({"type", "list"});
  if (!d.has("list") || !d["list"].IsSequence())
    d.fail("list", "hybrid needs a list of descriptors");
  std::vector<Section> parts;
  for (std::size_t k = 0; k < d["list"].size(); ++k)
    parts.emplace_back(d.file(), d["list"][k], d.where("list") + "[" + std::to_string(k) + "]");
  const Section* a = nullptr;
  for (const auto& p : parts)
    if (is_type(p, {"se_e2_a", "se_a"})) {
      if (a) p.fail("type", "one se_e2_a part only");
      a = &p;
    }
  if (!a) d.fail("list", "surrox's hybrid needs one se_e2_a part");
  map_se_e2_a(*a, model);
  for (const auto& p : parts) {
    if (&p == a) continue;
    if (is_type(p, {"se_e3", "se_t", "se_at"}))
      map_se_e3(p, model);
    else if (is_type(p, {"se_e2_r", "se_r"}))
      map_se_e2_r(p, *a, model);
    else
      p.fail("type", "surrox's hybrid combines se_e2_a with se_e3 and se_e2_r (not " +
                         p.get<std::string>("type") + ")");
  }
}

void map_fitting(const Section& f, YAML::Node model) {
  f.only({"type", "neuron", "resnet_dt", "seed", "activation_function", "precision", "trainable",
          "rcond", "numb_fparam", "numb_aparam", "atom_ener"});
  require_tanh_and_precision(f, model);
  if (f.has("type") && f.get<std::string>("type") != "ener")
    f.fail("type", "surrox fits energies only (type: ener)");
  f.require<int>("numb_fparam", 0, "surrox's models take no frame parameters");
  f.require<int>("numb_aparam", 0, "surrox's models take no atomic parameters");
  f.require<bool>("trainable", true, "surrox trains every layer");
  if (f.has("atom_ener") && f["atom_ener"].size() > 0)
    f.fail("atom_ener", "surrox does not pin atomic energies");
  model["fitting"] = f.get_or("neuron", std::vector<int>{120, 120, 120});
  model["resnet_dt"] = f.get_or("resnet_dt", true);
}

void map_learning_rate(const Section& l, YAML::Node training) {
  l.only({"type", "start_lr", "stop_lr", "decay_steps"});
  if (l.has("type") && l.get<std::string>("type") != "exp")
    l.fail("type", "surrox implements DeePMD-kit's exponential decay only (type: exp)");
  training["optimizer"]["type"] = "adam";
  training["optimizer"]["lr"] = l.get_or("start_lr", 1e-3);
  training["stop_lr"] = l.get_or("stop_lr", 1e-8);
  training["decay_steps"] = l.get_or("decay_steps", 5000L);
}

void map_loss(const Section& l, YAML::Node training) {
  const std::vector<std::string> prefactors = {"start_pref_e", "limit_pref_e", "start_pref_f",
                                               "limit_pref_f", "start_pref_v", "limit_pref_v"};
  std::vector<std::string> known = prefactors;
  known.push_back("type");
  l.only(known);
  if (l.has("type") && l.get<std::string>("type") != "ener")
    l.fail("type", "surrox implements DeePMD-kit's ener loss only");
  const double defaults[] = {0.02, 1.0, 1000, 1.0, 0, 0};  // DeePMD-kit's
  for (std::size_t k = 0; k < prefactors.size(); ++k)
    training["loss"][prefactors[k]] = l.get_or(prefactors[k], defaults[k]);
}

// DeePMD-kit's batch_size "auto" / "auto:N": ⌈N / atoms⌉ frames (N = 32) per system; surrox has
// one batch size, so the systems must agree.
long batch_size(const Section& data, const std::vector<fs::path>& systems) {
  std::string text = "auto";  // DeePMD-kit's default
  if (data.has("batch_size")) {
    if (!data["batch_size"].IsScalar())
      data.fail("batch_size", "give an integer or \"auto\" (surrox takes one batch size)");
    text = data["batch_size"].as<std::string>();
    if (text.rfind("auto", 0) != 0) return data.get<long>("batch_size");
  }
  long target = 32;
  if (text.size() > 5 && text[4] == ':') {
    try {
      target = std::stol(text.substr(5));
    } catch (const std::exception&) {
      data.fail("batch_size", "expected auto:N with an integer N");
    }
  }
  long size = 0;
  for (const auto& system : systems) {
    std::ifstream in(system / "type.raw");
    if (!in) data.fail("systems", system.string() + ": no type.raw (not a DeePMD npy system)");
    long atoms = 0;
    for (std::string line; std::getline(in, line);) atoms += !line.empty();
    const long s = atoms > 0 ? (target + atoms - 1) / atoms : 1;
    if (size && s != size)
      data.fail("batch_size", "\"" + text +
                                  "\" gives different batch sizes per system; surrox "
                                  "takes one: give an integer");
    size = s;
  }
  return std::max(size, 1L);
}

std::vector<fs::path> systems(const Section& data) {
  if (!data.has("systems")) data.fail("systems", "missing list of systems");
  std::vector<fs::path> out;
  const YAML::Node s = data["systems"];
  auto add = [&](const std::string& p) { out.push_back(fs::absolute(p).lexically_normal()); };
  if (s.IsScalar())
    add(s.as<std::string>());
  else
    for (const auto& item : s) add(item.as<std::string>());
  return out;
}

std::vector<std::string> strings(const std::vector<fs::path>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) out.push_back(p.string());
  return out;
}

void map_training(const Section& t, YAML::Node data, YAML::Node training) {
  t.only({"training_data", "validation_data", "numb_steps", "seed", "disp_freq", "save_freq",
          "stop_batch"},
         {"disp_file", "save_ckpt", "disp_training", "time_training", "profiling", "profiling_file",
          "tensorboard", "tensorboard_log_dir", "tensorboard_freq", "max_ckpt_keep"});
  const Section train = t.section("training_data");
  train.only({"systems", "batch_size", "set_prefix"});
  train.require<std::string>("set_prefix", "set", "surrox reads set.* folders only");
  const auto train_systems = systems(train);
  data["train"] = strings(train_systems);
  training["batch_size"] = batch_size(train, train_systems);
  if (t.has("validation_data")) {
    const Section valid = t.section("validation_data");
    valid.only({"systems", "batch_size", "numb_btch", "set_prefix"});
    valid.require<std::string>("set_prefix", "set", "surrox reads set.* folders only");
    const auto valid_systems = systems(valid);
    data["validation"] = strings(valid_systems);
    const long frames = batch_size(valid, valid_systems) * valid.get_or("numb_btch", 1L);
    training["validation_frames"] = frames;
  }
  if (t.has("numb_steps") && t.has("stop_batch"))
    t.fail("stop_batch", "give numb_steps or its old name stop_batch, not both");
  if (!t.has("numb_steps") && !t.has("stop_batch")) t.fail("", "missing numb_steps");
  training["steps"] = t.has("numb_steps") ? t.get<long>("numb_steps") : t.get<long>("stop_batch");
  if (t.has("seed")) training["seed"] = t.get<long>("seed");
  training["disp_freq"] = t.get_or("disp_freq", 1000L);
  training["save_freq"] = t.get_or("save_freq", 1000L);
}

}  // namespace

bool is_deepmd_input(const fs::path& path) {
  if (path.extension() != ".json" || !fs::is_regular_file(path)) return false;
  const YAML::Node root = load(path);
  return root.IsMap() && root["model"] && root["model"].IsMap() && root["model"]["descriptor"];
}

std::string deepmd_input_to_config(const fs::path& path) {
  const Section root(path, load(path), "");
  root.only({"model", "learning_rate", "loss", "training"});
  YAML::Node config;
  config["family"] = "deep_potential";
  YAML::Node model = config["model"], training = config["training"], data = config["data"];
  const Section m = root.section("model");
  m.only({"type_map", "descriptor", "fitting_net", "data_stat_nbatch", "type"});
  if (m.has("type") && m.get<std::string>("type") != "standard")
    m.fail("type", "surrox implements DeePMD-kit's standard energy model only");
  if (m.has("type_map")) model["type_map"] = m.get<std::vector<std::string>>("type_map");
  map_descriptor(m.section("descriptor"), model);
  map_fitting(m.section("fitting_net"), model);
  // Absent sections take DeePMD-kit's defaults as absent keys do (Section of a null node).
  map_learning_rate(Section(path, root["learning_rate"], "learning_rate"), training);
  map_loss(Section(path, root["loss"], "loss"), training);
  map_training(root.section("training"), data, training);
  data["stat_frames"] = m.get_or("data_stat_nbatch", 10L) * training["batch_size"].as<long>();
  YAML::Emitter out;
  out << config;
  return "# surrox config from the DeePMD-kit input " + fs::absolute(path).string() + "\n" +
         out.c_str() + "\n";
}

}  // namespace surrox::training

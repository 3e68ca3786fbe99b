#include "core/case_node.hpp"

namespace surrox {

CaseNode::CaseNode(YAML::Node node, std::shared_ptr<const CaseOrigin> origin, std::string path)
    : node_(std::move(node)), origin_(std::move(origin)), path_(std::move(path)) {
  if (!origin_) origin_ = std::make_shared<CaseOrigin>();
}

std::string CaseNode::path_of(const std::string& key) const {
  if (key.empty()) return path_;
  return path_.empty() ? key : path_ + "." + key;
}

ErrorContext CaseNode::context(const std::string& key) const {
  ErrorContext context;
  context.key_path = path_of(key);
  // A value that came from the command line is reported as such, not as a file line.
  if (auto it = origin_->overrides.find(context.key_path); it != origin_->overrides.end()) {
    context.file = it->second;
    return context;
  }
  context.file = origin_->file;
  YAML::Mark mark = node_.Mark();
  if (!key.empty() && node_.IsMap() && node_[key]) mark = node_[key].Mark();
  if (mark.line >= 0) {
    context.line = mark.line + 1;
    context.column = mark.column + 1;
  }
  return context;
}

void CaseNode::fail(const std::string& key, const std::string& message) const {
  throw InputError(message, context(key));
}

bool CaseNode::has(const std::string& key) const {
  return node_.IsMap() && node_[key] && !node_[key].IsNull();
}

YAML::Node CaseNode::value(const std::string& key) const {
  if (!has(key)) fail(key, "missing required key");
  return node_[key];
}

template <class T>
T CaseNode::as(const std::string& key, const char* what) const {
  YAML::Node v = value(key);
  try {
    if (!v.IsScalar()) throw YAML::Exception(v.Mark(), "not a scalar");
    return v.as<T>();
  } catch (const YAML::Exception&) {
    fail(key, std::string("expected ") + what);
  }
}

bool CaseNode::boolean(const std::string& key) const { return as<bool>(key, "a bool"); }
long long CaseNode::integer(const std::string& key) const {
  return as<long long>(key, "an integer");
}
double CaseNode::real(const std::string& key) const { return as<double>(key, "a real number"); }
std::string CaseNode::string(const std::string& key) const {
  return as<std::string>(key, "a string");
}

std::vector<double> CaseNode::reals(const std::string& key) const {
  YAML::Node v = value(key);
  if (!v.IsSequence()) fail(key, "expected a list of real numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    try {
      out.push_back(v[i].as<double>());
    } catch (const YAML::Exception&) {
      fail(key, "entry " + std::to_string(i) + " is not a real number");
    }
  }
  return out;
}

std::vector<long long> CaseNode::integers(const std::string& key) const {
  YAML::Node v = value(key);
  if (!v.IsSequence()) fail(key, "expected a list of integers");
  std::vector<long long> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    try {
      out.push_back(v[i].as<long long>());
    } catch (const YAML::Exception&) {
      fail(key, "entry " + std::to_string(i) + " is not an integer");
    }
  }
  return out;
}

std::vector<std::string> CaseNode::strings(const std::string& key) const {
  YAML::Node v = value(key);
  if (!v.IsSequence()) fail(key, "expected a list of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].IsScalar()) fail(key, "entry " + std::to_string(i) + " is not a string");
    out.push_back(v[i].Scalar());
  }
  return out;
}

CaseNode CaseNode::section(const std::string& key) const {
  if (has(key)) {
    const YAML::Node v = node_[key];
    if (!v.IsMap()) fail(key, "expected a section (a map of keys)");
    return CaseNode(v, origin_, path_of(key));
  }
  return CaseNode(YAML::Node(YAML::NodeType::Map), origin_, path_of(key));
}

}  // namespace surrox

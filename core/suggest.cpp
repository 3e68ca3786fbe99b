#include "core/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace surrox {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution =
          diagonal + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_match(const std::string& name,
                                         const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(name, candidate);
    if (!best || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  // A typo changes a few characters; beyond a third of the name it is another word.
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  if (best && best_distance <= limit) return best;
  return std::nullopt;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  if (auto match = closest_match(name, candidates)) return " (did you mean '" + *match + "'?)";
  return {};
}

}  // namespace surrox

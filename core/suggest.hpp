#pragma once
// "Did you mean" support: the closest candidate to a misspelt name.
#include <optional>
#include <string>
#include <vector>

namespace surrox {

// Levenshtein distance between two strings.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `name`, if it is close enough to be a plausible typo.
std::optional<std::string> closest_match(const std::string& name,
                                         const std::vector<std::string>& candidates);

// "a, b, c" for error messages.
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");

// " (did you mean 'x'?)" or "" — appended to unknown-name errors.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace surrox

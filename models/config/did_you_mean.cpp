// The messages' helpers: the nearest valid name to a mistyped one, and lists of names.
#include <algorithm>
#include <vector>

#include "models/config/strict_yaml.hpp"
#include "models/config/strict_yaml_state.hpp"

namespace walksim::config {

using yaml_detail::in_quotes;

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: a transposed pair ("nodse") counts as one edit.
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const std::size_t dist = edit_distance(word, c);
    if (best == nullptr || dist < best_distance) {
      best = &c;
      best_distance = dist;
    }
  }
  if (best == nullptr) return std::nullopt;
  // Close enough to be a typo: a third of the longer word, and at least 2 edits.
  const std::size_t limit = std::max<std::size_t>(2, std::max(word.size(), best->size()) / 3);
  if (best_distance <= limit) return *best;
  // Or an abbreviation: "barcelona" for "barcelona-2s8c".
  for (const std::string& c : candidates) {
    if (word.size() >= 3 && c.rfind(word, 0) == 0) return c;
  }
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const auto match = closest_match(word, candidates);
  return match ? " (did you mean " + in_quotes(*match) + "?)" : "";
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ", ";
    out += in_quotes(n);
  }
  return out;
}

}  // namespace walksim::config

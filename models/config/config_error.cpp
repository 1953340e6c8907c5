// The one format of every configuration error: FILE:LINE:COLUMN: key 'a.b': message.
#include "models/config/config_error.hpp"

#include "models/config/printable.hpp"

namespace walksim::config {

std::string ConfigError::format(const SourceMark& m, const std::string& key, const std::string& msg) {
  std::string s = printable(m.file);
  if (m.line > 0) {
    s += ':';
    s += std::to_string(m.line);
    s += ':';
    s += std::to_string(m.column);
  }
  if (!s.empty()) s += ": ";
  if (!key.empty()) {
    s += "key '";
    s += printable(key);
    s += "': ";
  }
  s += printable(msg);
  return s;
}

}  // namespace walksim::config

// The one error type every input loader throws: it names the file, line, column and key path so
// the command line can print a single clear message and exit with code 2.
#pragma once

#include <stdexcept>
#include <string>

#include "models/config/printable.hpp"

namespace walksim::config {

struct SourceMark {
  std::string file;  // path as the user gave it
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
};

class ConfigError : public std::runtime_error {
 public:
  ConfigError(SourceMark mark, std::string key_path, std::string message)
      : std::runtime_error(format(mark, key_path, message)),
        mark_(std::move(mark)),
        key_path_(std::move(key_path)),
        message_(std::move(message)) {}

  const SourceMark& mark() const { return mark_; }
  const std::string& key_path() const { return key_path_; }
  const std::string& message() const { return message_; }  // as given; what() is escaped

 private:
  // File names, keys and messages quote the user's input, so control characters in it are
  // escaped here, once for every loader (see printable.hpp). Out of line (config_error.cpp): inlined
  // into every file that throws, its string concatenations set off GCC 12's false -Wstringop-overflow.
  static std::string format(const SourceMark& m, const std::string& key, const std::string& msg);

  SourceMark mark_;
  std::string key_path_;
  std::string message_;
};

}  // namespace walksim::config

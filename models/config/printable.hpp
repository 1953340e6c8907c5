// Makes text from an input file safe to print on a terminal. Error messages quote user input (a
// misspelt key, a bad token of a trace file), and a raw ESC or a byte of a binary file would reach
// the terminal as a control sequence: it could retitle the window, recolour or hide the rest of
// the message. Every message built by ConfigError passes through `printable`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace walksim::config {

namespace detail {

inline void append_hex_byte(std::string& out, unsigned char b) {
  constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 0xf];
}

// Length of the well-formed UTF-8 sequence starting at s[i] and its code point, or 0 if the bytes
// there are not one (a stray continuation byte, a truncated or overlong sequence, a surrogate).
inline std::size_t utf8_sequence(std::string_view s, std::size_t i, std::uint32_t& code) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  std::uint32_t min = 0;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    len = 2;
    code = b0 & 0x1fu;
    min = 0x80;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    len = 3;
    code = b0 & 0x0fu;
    min = 0x800;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    len = 4;
    code = b0 & 0x07u;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    code = (code << 6) | (b & 0x3fu);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return len;
}

// C1 controls (U+0080..U+009F; U+009B is a CSI on many terminals) and the bidirectional overrides
// and isolates that can make a message read differently from what it says.
inline bool is_unsafe_code_point(std::uint32_t c) {
  return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x2028 ||
         c == 0x2029;
}

}  // namespace detail

// `text` with every non-printable byte escaped: \n, \r and \t as such, other control bytes, bytes
// that are not well-formed UTF-8, and the unsafe code points above as \xNN per byte. Printable
// ASCII and well-formed UTF-8 text (names in other scripts) are kept as they are.
inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7f) {
      out += static_cast<char>(b);
      ++i;
      continue;
    }
    if (b == '\n' || b == '\r' || b == '\t') {
      out += b == '\n' ? "\\n" : b == '\r' ? "\\r" : "\\t";
      ++i;
      continue;
    }
    std::uint32_t code = 0;
    const std::size_t len = b >= 0x80 ? detail::utf8_sequence(text, i, code) : 0;
    if (len > 0 && !detail::is_unsafe_code_point(code)) {
      out.append(text.substr(i, len));
      i += len;
      continue;
    }
    const std::size_t n = len > 0 ? len : 1;
    for (std::size_t k = 0; k < n; ++k) detail::append_hex_byte(out, static_cast<unsigned char>(text[i + k]));
    i += n;
  }
  return out;
}

}  // namespace walksim::config

// The syscall mini-language: what parses, and the message for what does not.
#include "models/kernel/syscall.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace walksim::kernel {
namespace {

TEST(SyscallParse, AStatNamesItsPath) {
  const auto s = parse_syscall("stat ./file");
  EXPECT_EQ(s.sys, Sys::kStat);
  EXPECT_EQ(s.path, "./file");
}

TEST(SyscallParse, OpenFlagsCombineWithBars) {
  const auto s = parse_syscall("open ./f O_WRONLY|O_CREAT");
  EXPECT_TRUE(s.write);
  EXPECT_TRUE(s.create);
  EXPECT_EQ(to_string(s), "open ./f O_WRONLY|O_CREAT");
}

TEST(SyscallParse, WriteTakesAByteCount) { EXPECT_EQ(parse_syscall("write ./f 3").bytes, 3u); }

TEST(SyscallParse, MistakesSayWhatIsWrong) {
  auto message = [](const std::string& text) {
    try {
      parse_syscall(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  EXPECT_NE(message("sttat ./f").find("unknown syscall 'sttat'"), std::string::npos);
  EXPECT_NE(message("stat").find("needs a path"), std::string::npos);
  EXPECT_NE(message("write ./f three").find("not a whole number"), std::string::npos);
  EXPECT_NE(message("open ./f O_TRUNC").find("unknown open flag 'O_TRUNC'"), std::string::npos);
  EXPECT_NE(message("stat ./f extra").find("unexpected 'extra'"), std::string::npos);
  EXPECT_NE(message("").find("empty syscall"), std::string::npos);
}

}  // namespace
}  // namespace walksim::kernel

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
  EXPECT_NE(message("write ./f").find("needs a byte count"), std::string::npos);
  EXPECT_NE(message("open ./f O_TRUNC").find("unknown open flag 'O_TRUNC'"), std::string::npos);
  EXPECT_NE(message("stat ./f extra").find("unexpected 'extra'"), std::string::npos);
  EXPECT_NE(message("").find("empty syscall"), std::string::npos);
}

std::string parse_message(const std::string& text) {
  try {
    parse_syscall(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "parsed";
}

TEST(SyscallParse, ANegativeByteCountIsRejectedNotWrapped) {
  // std::stoull("-5") is 2^64-5: the call would have moved 18446744073709551611 bytes.
  EXPECT_EQ(parse_message("write ./f -5"), "byte count '-5' is not a whole number of bytes (digits only, e.g. 4096)");
  EXPECT_NE(parse_message("read ./f -1").find("not a whole number"), std::string::npos);
  EXPECT_NE(parse_message("pwrite ./f +5").find("not a whole number"), std::string::npos);
  EXPECT_NE(parse_message("pread ./f 0x10").find("not a whole number"), std::string::npos);
  EXPECT_NE(parse_message("write ./f 1e3").find("not a whole number"), std::string::npos);
}

TEST(SyscallParse, AByteCountAboveWhatOneCallMovesIsRejected) {
  EXPECT_EQ(parse_syscall("write ./f 2147479552").bytes, kMaxRwCount);
  EXPECT_EQ(parse_syscall("read ./f 0000000000000000000000004096").bytes, 4096u);
  EXPECT_NE(parse_message("write ./f 2147479553").find("at most 2147479552 bytes"), std::string::npos);
  EXPECT_NE(parse_message("read ./f 99999999999999999999").find("too large"), std::string::npos);
  EXPECT_NE(parse_message("lock-hold 1000000001").find("the limit is 1000000000 ns"), std::string::npos);
  EXPECT_EQ(parse_syscall("lock-hold 100").bytes, 100u);
}

}  // namespace
}  // namespace walksim::kernel

// Tests for the typed unit parsers: each unit scales exactly, rounding is to the nearest
// picosecond, and every malformed quantity is refused with a message naming the valid units.
#include "models/config/units.hpp"

#include <gtest/gtest.h>

#include <string>

namespace walksim::config {
namespace {

std::string unit_error(auto&& f) {
  try {
    f();
  } catch (const UnitError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Units, TimesScaleToPicoseconds) {
  EXPECT_EQ(parse_time("85ns"), 85'000);
  EXPECT_EQ(parse_time("1.5us"), 1'500'000);
  EXPECT_EQ(parse_time("250ps"), 250);
  EXPECT_EQ(parse_time("2ms"), 2'000'000'000);
  EXPECT_EQ(parse_time("1s"), 1'000'000'000'000);
  EXPECT_EQ(parse_time("0ns"), 0);
  EXPECT_EQ(parse_time(" 85 ns "), 85'000);
  EXPECT_EQ(parse_time("0.1ns"), 100);
  EXPECT_EQ(parse_time("1e2ns"), 100'000);
}

TEST(Units, CyclesConvertAtTheGivenClockAndRoundToTheNearestPicosecond) {
  EXPECT_EQ(parse_time("3cycles", 2.3e9), 1304);  // 1304.35 ps
  EXPECT_EQ(parse_time("2cycles", 3e9), 667);     // 666.67 ps
  EXPECT_EQ(parse_time("1cycle", 1e9), 1000);
  EXPECT_EQ(parse_time("40cycles", 2.93e9), 13652);
}

TEST(Units, CyclesWithoutAClockAreRefused) {
  EXPECT_NE(unit_error([] { parse_time("3cycles"); }).find("no clock"), std::string::npos);
}

TEST(Units, AnUnknownTimeUnitNamesTheValidUnits) {
  const std::string msg = unit_error([] { parse_time("85nsec"); });
  EXPECT_NE(msg.find("'nsec'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ps, ns, us, ms, s, cycles"), std::string::npos) << msg;
}

TEST(Units, AWrongCaseUnitSuggestsTheRightOne) {
  EXPECT_NE(unit_error([] { parse_time("85NS"); }).find("did you mean 'ns'?"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_frequency("2.3ghz"); }).find("did you mean 'GHz'?"), std::string::npos);
}

TEST(Units, AMissingUnitIsRefused) {
  EXPECT_NE(unit_error([] { parse_time("85"); }).find("missing unit"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_size("64"); }).find("missing unit"), std::string::npos);
}

TEST(Units, NegativeQuantitiesAreRefused) {
  EXPECT_NE(unit_error([] { parse_time("-5ns"); }).find("negative"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_size("-64B"); }).find("negative"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_count("-1"); }).find("negative"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_bandwidth("-1GB/s"); }).find("negative"), std::string::npos);
}

TEST(Units, GarbageIsRefused) {
  EXPECT_NE(unit_error([] { parse_time("ns"); }).find("bad time"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_time(""); }).find("empty time"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_time("1.2.3ns"); }).find("unknown time unit"), std::string::npos);
}

TEST(Units, FrequenciesScaleToHertz) {
  EXPECT_DOUBLE_EQ(parse_frequency("2.3GHz"), 2.3e9);
  EXPECT_DOUBLE_EQ(parse_frequency("800MHz"), 800e6);
  EXPECT_DOUBLE_EQ(parse_frequency("100kHz"), 100e3);
  EXPECT_DOUBLE_EQ(parse_frequency("50Hz"), 50.0);
}

TEST(Units, SizesAreBinary) {
  EXPECT_EQ(parse_size("64B"), 64u);
  EXPECT_EQ(parse_size("64KiB"), 65536u);
  EXPECT_EQ(parse_size("2MiB"), 2u * 1024 * 1024);
  EXPECT_EQ(parse_size("1GiB"), 1024u * 1024 * 1024);
  EXPECT_EQ(parse_size("1.5KiB"), 1536u);
}

TEST(Units, DecimalSizeUnitsAreRefusedWithTheBinaryOneSuggested) {
  const std::string kb = unit_error([] { parse_size("64KB"); });
  EXPECT_NE(kb.find("ambiguous"), std::string::npos) << kb;
  EXPECT_NE(kb.find("'KiB'"), std::string::npos) << kb;
  EXPECT_NE(unit_error([] { parse_size("2MB"); }).find("'MiB'"), std::string::npos);
}

TEST(Units, ASizeMustBeAWholeNumberOfBytes) {
  EXPECT_NE(unit_error([] { parse_size("1.5B"); }).find("whole number of bytes"), std::string::npos);
}

TEST(Units, BandwidthsAreDecimalUnlessWrittenBinary) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("3.2GB/s"), 3.2e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("6.4GB/s"), 6.4e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("800MB/s"), 800e6);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1GiB/s"), 1073741824.0);
}

TEST(Units, BandwidthInBitsIsRefused) {
  EXPECT_NE(unit_error([] { parse_bandwidth("10Gb/s"); }).find("in bits"), std::string::npos);
}

TEST(Units, CountsAreBareWholeNumbers) {
  EXPECT_EQ(parse_count("4"), 4u);
  EXPECT_EQ(parse_count("0"), 0u);
  EXPECT_NE(unit_error([] { parse_count("4.5"); }).find("whole number"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_count("four"); }).find("whole number"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_count("4ns"); }).find("whole number"), std::string::npos);
}

TEST(Units, RealsAcceptSignsAndRejectNonNumbers) {
  EXPECT_DOUBLE_EQ(parse_real("0.5"), 0.5);
  EXPECT_DOUBLE_EQ(parse_real("-3"), -3.0);
  EXPECT_NE(unit_error([] { parse_real("nan"); }).find("expected a number"), std::string::npos);
  EXPECT_NE(unit_error([] { parse_real("1x"); }).find("expected a number"), std::string::npos);
}

}  // namespace
}  // namespace walksim::config

// The path's bytes: getname's copy, the component hash and the name compare are charged per byte
// (docs/reference/name-bytes.md). A longer name costs more private work on 2.6.x by exactly its
// extra bytes times the three per-byte costs; on 6.x only the copy grows.
#include <gtest/gtest.h>

#include <map>

#include "models/kernel/test_support.hpp"

namespace walksim::kernel {
namespace {

using testing::trace;

double cost(const std::string& kernel, const std::string& step) {
  return load_kernel(kernel, testing::kernel_dirs()).costs.cycles.at(step);
}

sim::Picos cycles_ps(double n) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  return m.cycles(n);
}

// Private work of each compute step of the call, summed by step name, and how often each ran.
std::map<std::string, std::pair<sim::Picos, int>> by_step(const TraceResult& t) {
  std::map<std::string, std::pair<sim::Picos, int>> out;
  for (const auto& op : t.ops) {
    if (op.op != "compute") continue;
    out[op.field].first += op.compute;
    ++out[op.field].second;
  }
  return out;
}

TEST(NameBytes, A2635StatPaysEachExtraByteOfItsLeafThreeTimes) {
  const auto short_name = trace("linux-2.6.35", "stat ./f").totals.compute;
  const auto long_name = trace("linux-2.6.35", "stat ./file_with_a_long_name.c").totals.compute;
  const double per_byte = cost("linux-2.6.35", "getname_byte") + cost("linux-2.6.35", "name_hash_byte") +
                          cost("linux-2.6.35", "name_compare_byte");
  ASSERT_GT(per_byte, 0);
  const double extra = static_cast<double>(std::string("file_with_a_long_name.c").size() - 1);
  // Each compute step is rounded to a picosecond on its own: allow one per step.
  EXPECT_NEAR(static_cast<double>(long_name - short_name), static_cast<double>(cycles_ps(extra * per_byte)), 3);
}

TEST(NameBytes, EveryComponentIsHashedByItsOwnLengthAndTheWholePathIsCopiedWithItsNul) {
  const auto steps = by_step(trace("linux-2.6.35", "stat ./dir/file"));
  // ".", "dir" and "file" are each hashed: 1 + 3 + 4 bytes in three steps.
  EXPECT_EQ(steps.at("name_hash_byte").second, 3);
  EXPECT_NEAR(static_cast<double>(steps.at("name_hash_byte").first),
              static_cast<double>(cycles_ps(8 * cost("linux-2.6.35", "name_hash_byte"))), 3);
  // "./dir/file" and its NUL: 11 bytes, one step.
  EXPECT_EQ(steps.at("getname_byte").second, 1);
  EXPECT_NEAR(static_cast<double>(steps.at("getname_byte").first),
              static_cast<double>(cycles_ps(11 * cost("linux-2.6.35", "getname_byte"))), 1);
  // The dcache compares the names it finds: "dir" and "file", not ".".
  EXPECT_EQ(steps.at("name_compare_byte").second, 2);
  EXPECT_NEAR(static_cast<double>(steps.at("name_compare_byte").first),
              static_cast<double>(cycles_ps(7 * cost("linux-2.6.35", "name_compare_byte"))), 2);
}

TEST(NameBytes, RenameCopiesBothPaths) {
  const auto steps = by_step(trace("linux-2.6.35", "rename ./a ./bcd"));
  EXPECT_NEAR(static_cast<double>(steps.at("getname_byte").first),
              static_cast<double>(cycles_ps((4 + 6) * cost("linux-2.6.35", "getname_byte"))), 1);
}

TEST(NameBytes, On6xOnlyTheCopyGrowsWithTheName) {
  ASSERT_EQ(cost("linux-6.x", "name_hash_byte"), 0);
  ASSERT_EQ(cost("linux-6.x", "name_compare_byte"), 0);
  const auto short_name = trace("linux-6.x", "stat ./f").totals.compute;
  const auto long_name = trace("linux-6.x", "stat ./file_with_a_long_name.c").totals.compute;
  const double extra = static_cast<double>(std::string("file_with_a_long_name.c").size() - 1);
  EXPECT_NEAR(static_cast<double>(long_name - short_name),
              static_cast<double>(cycles_ps(extra * cost("linux-6.x", "getname_byte"))), 3);
  // Zero-cost steps leave no operation behind.
  EXPECT_EQ(by_step(trace("linux-6.x", "stat ./file")).count("name_hash_byte"), 0u);
}

}  // namespace
}  // namespace walksim::kernel

// dcache_readdir (fs/libfs.c of each era) drops the lock that guards a directory's children around
// each entry's filldir and takes it again to move the cursor past the entry; since 5.4 each entry
// is found under the directory's d_lock and pinned by a reference instead. These tests count the
// locks a listing takes per entry, from what the simulator executes.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "models/kernel/test_support.hpp"

namespace walksim::kernel {
namespace {

// `readdir ./d` (opendir, two getdents, closedir) of a directory holding `entries` files.
TraceResult listing(const std::string& kernel, int entries) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel(kernel, testing::kernel_dirs());
  TraceRequest req;
  req.syscall = "readdir ./d";
  for (int i = 0; i < entries; ++i) req.files.push_back("/home/user/d/f" + std::to_string(i));
  return trace_syscall(m, k, req);
}

// How many times the listing takes `field` of the object named `object`.
int acquisitions(const TraceResult& t, std::string_view object, std::string_view field) {
  int n = 0;
  for (const auto& op : t.ops) n += op.kop == "spin_lock" && op.object == object && op.field == field;
  return n;
}

// Of any file's dentry (the entries are f0, f1, ...).
// (A lockref kernel's d_lock is the lock half of d_lockref.)
int file_d_lock_acquisitions(const TraceResult& t, std::string_view field = "d_lock") {
  int n = 0;
  for (const auto& op : t.ops) n += op.kop == "spin_lock" && op.object.rfind("dentry 'f", 0) == 0 && op.field == field;
  return n;
}

TEST(ReaddirCounts, A2635ListingTakesTheGlobalDcacheLockOnceMorePerEntry) {
  const auto one = listing("linux-2.6.35", 1), five = listing("linux-2.6.35", 5);
  ASSERT_FALSE(one.failed);
  ASSERT_FALSE(five.failed);
  // 2.6.35: the cursor's d_alloc and d_kill, each getdents once, and once more per entry.
  EXPECT_EQ(acquisitions(one, "globals", "dcache_lock"), 5);
  EXPECT_EQ(acquisitions(five, "globals", "dcache_lock") - acquisitions(one, "globals", "dcache_lock"), 4);
  EXPECT_EQ(file_d_lock_acquisitions(five), 0);  // dcache_lock alone guards the children
}

TEST(ReaddirCounts, A2638ListingRetakesTheDirectorysDLockPerEntryAndEachEntrysTwice) {
  const auto one = listing("linux-2.6.38", 1), five = listing("linux-2.6.38", 5);
  ASSERT_FALSE(five.failed);
  EXPECT_EQ(acquisitions(five, "dentry 'd'", "d_lock") - acquisitions(one, "dentry 'd'", "d_lock"), 4);
  // simple_positive under the entry's lock, then list_move under it again.
  EXPECT_EQ(file_d_lock_acquisitions(five), 10);
  EXPECT_EQ(acquisitions(five, "globals", "dcache_lock"), 0);
}

TEST(ReaddirCounts, ALockrefListingPinsEachEntryWithAReferenceAndDropsIt) {
  const auto one = listing("linux-6.x", 1), five = listing("linux-6.x", 5);
  ASSERT_FALSE(five.failed);
  // scan_positives per entry and once at the end, then the cursor's unlink; the second getdents
  // finds the cursor unlinked and takes nothing.
  EXPECT_EQ(acquisitions(one, "dentry 'd'", "d_lockref"),
            4);  // the entry's scan, the last scan, the cursor's unlink and d_kill
  EXPECT_EQ(acquisitions(five, "dentry 'd'", "d_lockref") - acquisitions(one, "dentry 'd'", "d_lockref"), 4);
  EXPECT_EQ(file_d_lock_acquisitions(five, "d_lockref"), 5);  // dget_dlock under the entry's lock
  // Each reference dropped again (lockref_put_return: one cmpxchg on the entry's line).
  int puts = 0;
  for (const auto& op : five.ops) puts += op.object.rfind("dentry 'f", 0) == 0 && op.op == "rmw-cmpxchg";
  EXPECT_EQ(puts, 5);
}

}  // namespace
}  // namespace walksim::kernel

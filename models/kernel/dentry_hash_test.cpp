// The dentry hash table as the kernel builds it: sized from the machine's memory, its pages spread
// over the nodes, its lines made only where a bucket is used, and __d_lookup walking a bucket's
// chain (newest first) up to the dentry it looks for; and objects packed in and freed to slabs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/kernel/emitter.hpp"
#include "models/kernel/test_support.hpp"
#include "models/kernel/vfs.hpp"

namespace walksim::kernel {
namespace {

TEST(DentryHash, ItsSizeComesFromTheMachinesMemoryAndItsPagesAlternateNodes) {
  machine::Machine m(machine::load_machine("westmere-ep-2s12c", testing::machine_dirs()));  // 24 GiB, 2 nodes
  const KernelSpec k = load_kernel("linux-2.6.35", testing::kernel_dirs());
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, k);
  EXPECT_EQ(vfs.hash_buckets(), 1u << 22);
  const std::size_t before = mem.line_count();
  // 512 buckets of 8 bytes fill a 4 KiB page: bucket 0 and 511 share page 0, bucket 512 is on page 1.
  const LineId a = vfs.hash_bucket(0).line, b = vfs.hash_bucket(511).line, c = vfs.hash_bucket(512).line;
  EXPECT_EQ(vfs.hash_bucket(7).line, a);  // 8 buckets per line
  EXPECT_NE(a, b);
  EXPECT_EQ(mem.line_count(), before + 3);  // only the lines asked for
  EXPECT_EQ(mem.line(a).home, 0u);
  EXPECT_EQ(mem.line(b).home, 0u);
  EXPECT_EQ(mem.line(c).home, 1u);
  EXPECT_EQ(vfs.label(c).object, "dentry_hashtable");
  EXPECT_NE(vfs.hash_bucket(0).word, vfs.hash_bucket(1).word);
}

TEST(DentryHash, ALookupWalksTheNewerDentriesOfItsBucketFirst) {
  machine::Machine m(machine::load_machine("westmere-ep-2s12c", testing::machine_dirs()));
  const KernelSpec k = load_kernel("linux-2.6.35", testing::kernel_dirs());
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, k);
  const DentryId dir = vfs.mkpath("/d", false, 0u);
  // Find three names of `dir` that share a bucket.
  std::vector<std::string> same;
  const std::uint32_t target = vfs.bucket_of(dir, "n0");
  for (int i = 0; same.size() < 3 && i < 50'000'000; ++i) {
    const std::string n = "n" + std::to_string(i);
    if (vfs.bucket_of(dir, n) == target) same.push_back(n);
  }
  ASSERT_EQ(same.size(), 3u);
  const DentryId first = vfs.add_dentry(dir, same[0], false, false, 0u);
  const DentryId second = vfs.add_dentry(dir, same[1], false, false, 0u);
  const DentryId third = vfs.add_dentry(dir, same[2], false, false, 0u);
  EXPECT_EQ(vfs.chain_head(target), third);
  std::vector<KOp> ops;
  Emitter e(vfs, ops, 0, 1.0);
  e.hash_chain(target, first);
  // The head, then d_hash and d_name of the third and the second dentry.
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[1].line, vfs.field(vfs.dentry(third).obj, "d_hash").line);
  EXPECT_EQ(ops[3].line, vfs.field(vfs.dentry(second).obj, "d_hash").line);
  // Unlinked, the second leaves the chain; a missing name walks what is left.
  vfs.remove_dentry(second);
  ops.clear();
  e.hash_chain(target, std::nullopt);
  EXPECT_EQ(ops.size(), 5u);  // head, third, first
  EXPECT_EQ(ops[3].line, vfs.field(vfs.dentry(first).obj, "d_hash").line);
}

// What a cached expansion depends on: the dentries, directory listings and hash chains it read,
// and nothing else. A lookup of a name depends on the name's bucket, not on the directory's other
// names.
TEST(DentryHash, RecordedReadsChangeWithWhatWasReadAndOnlyWithIt) {
  machine::Machine m(machine::load_machine("westmere-ep-2s12c", testing::machine_dirs()));
  const KernelSpec k = load_kernel("linux-2.6.35", testing::kernel_dirs());
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, k);
  const DentryId a = vfs.mkpath("/a", false, 0u), b = vfs.mkpath("/b", false, 0u);
  const DentryId f = vfs.add_dentry(a, "f", false, false, 0u);
  std::vector<Vfs::TreeRead> lookup, listing;
  const auto record_lookup = [&] {  // what a lookup of a/f reads
    lookup.clear();
    vfs.record_reads(&lookup);
    ASSERT_EQ(vfs.child(a, "f"), f);
    (void)vfs.hash_chain(vfs.bucket_of(a, "f"));  // the same bucket: noted once
    (void)vfs.dentry(f).negative;
    (void)vfs.dentry(f).negative;  // noted once
    vfs.record_reads(nullptr);
  };
  const auto record_listing = [&] {  // what a readdir of a reads
    listing.clear();
    vfs.record_reads(&listing);
    (void)vfs.children(a).size();
    vfs.record_reads(nullptr);
  };
  record_lookup();
  record_listing();
  EXPECT_EQ(lookup.size(), 2u);  // the bucket of (a, "f"), f
  EXPECT_EQ(listing.size(), 1u);
  (void)vfs.dentry(b);  // not recording: not noted
  EXPECT_EQ(lookup.size(), 2u);
  vfs.add_dentry(b, "x", false, false, 0u);  // another directory, another bucket
  ASSERT_NE(vfs.bucket_of(b, "x"), vfs.bucket_of(a, "f"));
  EXPECT_TRUE(vfs.reads_unchanged(lookup));
  EXPECT_TRUE(vfs.reads_unchanged(listing));
  vfs.add_dentry(a, "g", false, false, 0u);  // another name of a: its listing changes, not the lookup
  ASSERT_NE(vfs.bucket_of(a, "g"), vfs.bucket_of(a, "f"));
  EXPECT_TRUE(vfs.reads_unchanged(lookup));
  EXPECT_FALSE(vfs.reads_unchanged(listing));
  // A name of another directory in the same bucket changes the chain the lookup walked.
  std::string same;
  for (int i = 0; same.empty() && i < 50'000'000; ++i) {
    if (vfs.bucket_of(b, "n" + std::to_string(i)) == vfs.bucket_of(a, "f")) same = "n" + std::to_string(i);
  }
  ASSERT_FALSE(same.empty());
  vfs.add_dentry(b, same, false, false, 0u);
  EXPECT_FALSE(vfs.reads_unchanged(lookup));
  record_lookup();
  vfs.move_dentry(vfs.add_dentry(b, "y", false, false, 0u), b, "z");  // b only
  EXPECT_TRUE(vfs.reads_unchanged(lookup));
  vfs.remove_dentry(f);
  EXPECT_FALSE(vfs.reads_unchanged(lookup));
  // A lookup of a name that is not there yet goes stale when it is made.
  lookup.clear();
  vfs.record_reads(&lookup);
  EXPECT_FALSE(vfs.child(a, "h"));
  vfs.record_reads(nullptr);
  vfs.add_dentry(a, "h", false, false, 0u);
  EXPECT_FALSE(vfs.reads_unchanged(lookup));
}

TEST(SlabFree, AFreedObjectIsTheNextOneItsCpuAllocatesAndNoOtherCpus) {
  machine::Machine m(machine::load_machine("westmere-ep-2s12c", testing::machine_dirs()));
  const KernelSpec k = load_kernel("linux-2.6.35", testing::kernel_dirs());
  coherence::MemorySystem mem(m, false);
  Vfs vfs(mem, k);
  const ObjId a = vfs.new_object("inode", "inode of 'a'", false, 0u, 3u);
  const ObjId b = vfs.new_object("inode", "inode of 'b'", false, 0u, 3u);
  // SLUB packs a CPU's objects in its own slab: b follows a, 592 bytes on.
  EXPECT_EQ((vfs.object(b).first_line - vfs.object(a).first_line) * 64 + vfs.object(b).start - vfs.object(a).start,
            592u);
  vfs.free_object(a, 3);
  vfs.free_object(a, 3);                                                 // a call expanded twice frees once
  EXPECT_NE(vfs.new_object("inode", "inode of 'c'", false, 0u, 4u), a);  // another CPU's slab
  const ObjId d = vfs.new_object("inode", "inode of 'd'", false, 0u, 3u);
  EXPECT_EQ(d, a);
  EXPECT_EQ(vfs.object(d).name, "inode of 'd'");
  EXPECT_NE(vfs.new_object("inode", "inode of 'e'", false, 0u, 3u), a);
  // A type laid out by lines is not slab-packed and never reused here.
  const ObjId f = vfs.new_object("file", "file", false, 0u, 3u);
  vfs.free_object(f, 3);
  EXPECT_NE(vfs.new_object("file", "file 2", false, 0u, 3u), f);
}

}  // namespace
}  // namespace walksim::kernel

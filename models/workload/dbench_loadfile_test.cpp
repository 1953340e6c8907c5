// The synthetic dbench loadfile: the netbench operation mix of client_plain.txt to within a
// rounding, a pass that leaves the client's tree as it found it (so it can loop), handle
// operations only on open handles, and dbench's stat-first system calls for each operation.
#include "models/workload/dbench_loadfile.hpp"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <set>

#include "models/workload/dbench_census.hpp"

namespace walksim::workload::dbench {
namespace {

std::array<std::uint64_t, kOpKinds> tally(const std::vector<LoadOp>& ops) {
  std::array<std::uint64_t, kOpKinds> n{};
  for (const auto& o : ops) ++n[static_cast<std::size_t>(o.kind)];
  return n;
}

std::uint64_t of(const std::array<std::uint64_t, kOpKinds>& n, OpKind k) { return n[static_cast<std::size_t>(k)]; }

struct Generated {
  ClientTree tree;
  std::vector<LoadOp> ops;
};

Generated generate(const LoadfileParams& p, std::uint64_t seed = 7) {
  sim::Rng rng(seed);
  Generated g;
  g.tree = make_client_tree(p.files_per_dir, rng);
  g.ops = make_loadfile(g.tree, p, rng);
  return g;
}

TEST(DbenchLoadfile, HasTheNetbenchOperationMix) {
  const auto g = generate({});
  const auto n = tally(g.ops);
  const double total = static_cast<double>(g.ops.size());
  const Mix m;
  const double mt = m.total();
  EXPECT_NEAR(total, 20000, 20);
  auto share = [&](OpKind k) { return 100.0 * static_cast<double>(of(n, k)) / total; };
  EXPECT_NEAR(share(OpKind::kReadX), 100 * m.read / mt, 0.05);  // 53.7%
  EXPECT_NEAR(share(OpKind::kWriteX), 100 * m.write / mt, 0.05);
  EXPECT_NEAR(share(OpKind::kOpenExisting) + share(OpKind::kOpenMissing) + share(OpKind::kCreate) +
                  share(OpKind::kMkdir) + share(OpKind::kOpenIf),
              10.0, 0.05);
  EXPECT_NEAR(share(OpKind::kClose), 8.2, 0.05);
  EXPECT_NEAR(share(OpKind::kQueryFileInfo), 5.8, 0.05);
  EXPECT_NEAR(share(OpKind::kQueryPathInfo), 5.1, 0.05);
  EXPECT_NEAR(share(OpKind::kFindFirst), 2.4, 0.05);
  EXPECT_NEAR(share(OpKind::kUnlink), 1.4, 0.05);
  EXPECT_NEAR(share(OpKind::kQueryFsInfo), 1.1, 0.05);
  EXPECT_NEAR(share(OpKind::kFlush), 0.5, 0.05);
  EXPECT_NEAR(share(OpKind::kRename), 0.3, 0.05);
  EXPECT_LE(of(n, OpKind::kRmdir), 2u);
  EXPECT_EQ(of(n, OpKind::kRmdir), of(n, OpKind::kMkdir));
  EXPECT_EQ(of(n, OpKind::kUnlink), of(n, OpKind::kCreate));
  EXPECT_EQ(of(n, OpKind::kClose),
            of(n, OpKind::kOpenExisting) + of(n, OpKind::kCreate) + of(n, OpKind::kMkdir) + of(n, OpKind::kOpenIf));
  for (const auto& o : g.ops) {
    if (o.kind == OpKind::kReadX || o.kind == OpKind::kWriteX) {
      EXPECT_EQ(o.bytes, 2048u);
    }
  }
}

// Replays `ops` against the tree's state, failing on any operation that would not do what the
// loadfile says; returns whether the state at the end equals the state at the start.
void replay(const ClientTree& tree, const std::vector<LoadOp>& ops, std::uint32_t max_open) {
  std::set<std::string> files(tree.files.begin(), tree.files.end()), dirs(tree.dirs.begin(), tree.dirs.end());
  const auto files0 = files, dirs0 = dirs;
  std::map<std::string, int> open;
  int open_now = 0;
  auto exists = [&](const std::string& p) { return files.count(p) || dirs.count(p); };
  auto is_open = [&](const std::string& p) { return open.count(p) && open[p] > 0; };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const LoadOp& o = ops[i];
    SCOPED_TRACE(std::to_string(i) + ": " + op_name(o.kind) + " " + o.path);
    switch (o.kind) {
      case OpKind::kOpenExisting:
      case OpKind::kOpenIf:
        ASSERT_TRUE(files.count(o.path));
        ++open[o.path], ++open_now;
        break;
      case OpKind::kOpenMissing:
        ASSERT_FALSE(exists(o.path));
        ASSERT_TRUE(dirs.count(parent_of(o.path)));
        break;
      case OpKind::kCreate:
        ASSERT_FALSE(exists(o.path));
        files.insert(o.path);
        ++open[o.path], ++open_now;
        break;
      case OpKind::kMkdir:
        ASSERT_FALSE(exists(o.path));
        dirs.insert(o.path);
        ++open[o.path], ++open_now;
        break;
      case OpKind::kClose:
        ASSERT_TRUE(is_open(o.path));
        --open[o.path], --open_now;
        break;
      case OpKind::kReadX:
      case OpKind::kWriteX:
      case OpKind::kQueryFileInfo:
      case OpKind::kFlush:
      case OpKind::kSetFileInfo:
      case OpKind::kLockX:
      case OpKind::kUnlockX:
        ASSERT_TRUE(is_open(o.path));
        ASSERT_TRUE(files.count(o.path));
        break;
      case OpKind::kQueryPathInfo:
        ASSERT_EQ(exists(o.path), o.exists);
        break;
      case OpKind::kQueryFsInfo:
        break;
      case OpKind::kFindFirst:
        ASSERT_FALSE(exists(o.path));
        ASSERT_TRUE(dirs.count(parent_of(o.path)));
        break;
      case OpKind::kUnlink:
        ASSERT_TRUE(files.count(o.path));
        ASSERT_FALSE(is_open(o.path));
        files.erase(o.path);
        break;
      case OpKind::kRename:
        ASSERT_TRUE(files.count(o.path));
        ASSERT_FALSE(is_open(o.path));
        ASSERT_FALSE(exists(o.path2));
        ASSERT_EQ(parent_of(o.path), parent_of(o.path2));
        files.erase(o.path);
        files.insert(o.path2);
        break;
      case OpKind::kRmdir:
        ASSERT_TRUE(dirs.count(o.path));
        ASSERT_FALSE(is_open(o.path));
        dirs.erase(o.path);
        break;
    }
    ASSERT_LE(open_now, static_cast<int>(max_open));
  }
  EXPECT_EQ(open_now, 0);
  EXPECT_EQ(files, files0);
  EXPECT_EQ(dirs, dirs0);
}

TEST(DbenchLoadfile, APassLeavesTheTreeAsItFoundItAndOnlyUsesOpenHandles) {
  LoadfileParams p;
  p.ops = 30000;
  p.mix.set_file_info = 500;
  p.mix.lock = 300;
  const auto g = generate(p);
  replay(g.tree, g.ops, p.max_open);
  // Twice in a row, as a client replays it.
  std::vector<LoadOp> twice = g.ops;
  twice.insert(twice.end(), g.ops.begin(), g.ops.end());
  replay(g.tree, twice, p.max_open);
}

TEST(DbenchLoadfile, WithoutStatfsOnlyTheFsQueriesGo) {
  LoadfileParams with, without;
  without.statfs = false;
  const auto a = tally(generate(with).ops), b = tally(generate(without).ops);
  EXPECT_GT(of(a, OpKind::kQueryFsInfo), 0u);
  EXPECT_EQ(of(b, OpKind::kQueryFsInfo), 0u);
  for (std::size_t k = 0; k < kOpKinds; ++k) {
    if (static_cast<OpKind>(k) != OpKind::kQueryFsInfo) {
      EXPECT_EQ(a[k], b[k]) << op_name(static_cast<OpKind>(k));
    }
  }
}

TEST(DbenchLoadfile, IsDeterministicForASeed) {
  const auto a = generate({}, 3), b = generate({}, 3), c = generate({}, 4);
  ASSERT_EQ(a.ops.size(), b.ops.size());
  bool same = true, differs = a.ops.size() != c.ops.size();
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    same &= a.ops[i].path == b.ops[i].path && a.ops[i].kind == b.ops[i].kind;
    if (i < c.ops.size()) differs |= a.ops[i].path != c.ops[i].path;
  }
  EXPECT_TRUE(same);
  EXPECT_TRUE(differs);
}

TEST(DbenchLoadfile, TheClientTreeHasTheNineNetbenchDirectories) {
  sim::Rng rng(1);
  const auto t = make_client_tree(5, rng);
  EXPECT_EQ(t.dirs.size(), 10u);  // ~dmtmp and nine below it
  EXPECT_EQ(t.files.size(), 45u);
  EXPECT_EQ(t.dirs[1], "~dmtmp/PARADOX");
  for (const auto& f : t.files) EXPECT_EQ(std::count(f.begin(), f.end(), '/'), 2) << f;
  // Unset, each directory holds what it holds on average in client_plain.txt.
  const auto census = make_client_tree(std::nullopt, rng);
  std::map<std::string, int> per_dir;
  for (const auto& f : census.files) ++per_dir[parent_of(f)];
  EXPECT_EQ(per_dir["~dmtmp/PARADOX"], 24);
  EXPECT_EQ(per_dir["~dmtmp/COREL"], 11);
  EXPECT_EQ(per_dir["~dmtmp/EXCEL"], 2);
  EXPECT_EQ(census.files.size(), 24u + 3 + 11 + 9 + 6 + 4 + 2 + 3 + 3);
}

TEST(Apportion, SplitsATotalByLargestRemaindersAtLeastMinEachAndKeepsItExactly) {
  EXPECT_EQ(apportion(10, {1, 1, 1}), (std::vector<std::uint64_t>{4, 3, 3}));  // a tie: the lower index
  EXPECT_EQ(apportion(7, {0, 2, 5}), (std::vector<std::uint64_t>{0, 2, 5}));
  EXPECT_EQ(apportion(3, {2844, 15, 15}), (std::vector<std::uint64_t>{3, 0, 0}));
  EXPECT_EQ(apportion(0, {1, 2}), (std::vector<std::uint64_t>{0, 0}));
  EXPECT_EQ(apportion(7, {1, 3}, 2), (std::vector<std::uint64_t>{3, 4}));  // 2 each, the 3 left: 0.75 and 2.25
  EXPECT_THROW(apportion(3, {1, 1}, 2), std::invalid_argument);
  sim::Rng rng(3);
  const auto order = shuffled_indices({2, 0, 3}, rng);
  EXPECT_EQ(std::count(order.begin(), order.end(), 0u), 2);
  EXPECT_EQ(std::count(order.begin(), order.end(), 2u), 3);
  EXPECT_EQ(order.size(), 5u);
}

// The entries the pass's directory listings read (resolve_name's listing after every name that
// does not resolve, and FIND_FIRST's own), per operation and by directory, replaying the pass.
struct Listings {
  double per_op = 0, entries_per_op = 0;
  std::map<std::string, double> share;  // of the listings, by directory
};
Listings listings(const Generated& g) {
  std::map<std::string, std::set<std::string>> in;  // directory -> names
  for (const auto& d : g.tree.dirs) {
    if (d.find('/') != std::string::npos) in[parent_of(d)].insert(d);
  }
  for (const auto& f : g.tree.files) in[parent_of(f)].insert(f);
  double count = 0, entries = 0;
  std::map<std::string, double> by_dir;
  auto list = [&](const std::string& p, int times) {
    count += times;
    entries += times * static_cast<double>(in[parent_of(p)].size());
    by_dir[parent_of(p)] += times;
  };
  for (const LoadOp& o : g.ops) {
    switch (o.kind) {
      case OpKind::kOpenMissing:
        list(o.path, 1);
        break;
      case OpKind::kCreate:
      case OpKind::kMkdir:
        list(o.path, 1);
        in[parent_of(o.path)].insert(o.path);
        break;
      case OpKind::kQueryPathInfo:
        if (!o.exists) list(o.path, 1);
        break;
      case OpKind::kFindFirst:
        list(o.path, 2);
        break;
      case OpKind::kUnlink:
      case OpKind::kRmdir:
        in[parent_of(o.path)].erase(o.path);
        break;
      case OpKind::kRename:
        list(o.path2, 1);
        in[parent_of(o.path)].erase(o.path);
        in[parent_of(o.path2)].insert(o.path2);
        break;
      default:
        break;
    }
  }
  Listings l;
  l.per_op = count / static_cast<double>(g.ops.size());
  l.entries_per_op = entries / static_cast<double>(g.ops.size());
  for (const auto& [d, n] : by_dir) l.share[d] = n / count;
  return l;
}

// client_plain.txt, counted by scripts/dbench-census.py: 12,827 listings of the tree in 122,877
// operations, reading 0.974 entries per operation; 45% of them of ~dmtmp (FIND_FIRST's), 14% of PM
// (its failing opens), 13% of PARADOX (the biggest directory).
TEST(DbenchLoadfile, ListsAsManyEntriesAsClientPlainTxtDoes) {
  LoadfileParams p;
  p.ops = 122877;
  for (const std::uint64_t seed : {1, 2}) {
    const auto l = listings(generate(p, seed));
    EXPECT_NEAR(l.per_op, 12827.0 / 122877, 0.05 * 12827 / 122877);
    EXPECT_NEAR(l.entries_per_op, kCensusEntriesListedPerOp, 0.05 * kCensusEntriesListedPerOp);
    EXPECT_NEAR(l.share.at("~dmtmp"), 5842.0 / 12827, 0.03);
    EXPECT_NEAR(l.share.at("~dmtmp/PM"), 1827.0 / 12827, 0.03);
    EXPECT_NEAR(l.share.at("~dmtmp/PARADOX"), 1618.0 / 12827, 0.03);
  }
  // Sixteen files in every directory, as before the census, read about half as much again.
  p.files_per_dir = 16;
  EXPECT_GT(listings(generate(p)).entries_per_op, 1.3 * kCensusEntriesListedPerOp);
}

TEST(DbenchLoadfile, ACreateResolvesTheNameFirstThenListsTheDirectoryOpensAndStats) {
  LoadOp create;
  create.kind = OpKind::kCreate;
  create.path = "~dmtmp/WORD/NEW.DOC";
  std::vector<kernel::Syscall> calls;
  EXPECT_EQ(to_syscalls(create, "./clients/client1/", calls), 1u);
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(kernel::to_string(calls[0]), "stat ./clients/client1/~dmtmp/WORD/NEW.DOC");
  EXPECT_EQ(kernel::to_string(calls[1]), "readdir ./clients/client1/~dmtmp/WORD");
  EXPECT_EQ(kernel::to_string(calls[2]), "open ./clients/client1/~dmtmp/WORD/NEW.DOC O_WRONLY|O_CREAT");
  EXPECT_EQ(kernel::to_string(calls[3]), "fstat ./clients/client1/~dmtmp/WORD/NEW.DOC");
  LoadOp find;
  find.kind = OpKind::kFindFirst;
  find.path = "~dmtmp/<.JNK";
  calls.clear();
  EXPECT_EQ(to_syscalls(find, "./clients/client2/", calls), 1u);
  ASSERT_EQ(calls.size(), 3u);  // the failing stat of resolve_name, its listing, the search's listing
  EXPECT_EQ(calls[1].sys, kernel::Sys::kReaddir);
  EXPECT_EQ(calls[2].path, "./clients/client2/~dmtmp");
  LoadOp fs;
  fs.kind = OpKind::kQueryFsInfo;
  calls.clear();
  to_syscalls(fs, "./clients/client2/", calls);
  EXPECT_EQ(kernel::to_string(calls[0]), "statfs .");
}

// The replay writes each op's calls over the previous op's (their strings keep their storage): every
// field must come out as a fresh expansion makes it, whatever the element held before (a rename's
// new name, a create's flags, a read's size, the op's end mark).
TEST(DbenchLoadfile, ReusingTheCallsOfThePreviousOpGivesTheCallsAFreshListGives) {
  LoadfileParams p;
  p.statfs = true;
  const auto g = generate(p);
  std::vector<kernel::Syscall> reused;
  std::size_t count = 0;
  std::array<std::uint64_t, kOpKinds> kinds{};
  for (const LoadOp& op : g.ops) {
    std::vector<kernel::Syscall> fresh;
    const auto failing = to_syscalls(op, "./clients/client7/", fresh);
    if (!reused.empty()) reused.back().ends_op = true;  // marks the consumer sets on what it was given
    EXPECT_EQ(to_syscalls_reusing(op, "./clients/client7/", reused, count), failing);
    ASSERT_EQ(count, fresh.size());
    for (std::size_t i = 0; i < count; ++i) {
      const kernel::Syscall &a = reused[i], &b = fresh[i];
      EXPECT_EQ(kernel::to_string(a), kernel::to_string(b));
      EXPECT_TRUE(a.sys == b.sys && a.path == b.path && a.path2 == b.path2 && a.create == b.create &&
                  a.write == b.write && a.directory == b.directory && a.bytes == b.bytes &&
                  a.user_before == b.user_before && a.ends_op == b.ends_op)
          << kernel::to_string(b) << " (call " << i << " of op kind " << static_cast<int>(op.kind) << ")";
    }
    ++kinds[static_cast<std::size_t>(op.kind)];
  }
  EXPECT_GT(of(kinds, OpKind::kRename), 0u);  // the cases that leave fields behind were exercised
  EXPECT_GT(of(kinds, OpKind::kQueryFsInfo), 0u);
  EXPECT_GT(of(kinds, OpKind::kCreate), 0u);
}

}  // namespace
}  // namespace walksim::workload::dbench

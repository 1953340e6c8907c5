// The errors of the name-space calls that a trace can provoke: ELOOP from symlink loops and chains
// (with the 2.6.35/2.6.38 limits), and rename's EINVAL, ENOTEMPTY, EISDIR and ENOTDIR. Each is a
// failed call, counted as ENOENT is, that leaves the tree as it was and holds no lock.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/coherence/memory_system.hpp"
#include "models/kernel/process_program.hpp"
#include "models/kernel/test_support.hpp"
#include "sim/simulation.hpp"

namespace walksim::kernel {
namespace {

const std::vector<std::string> kKernels{"linux-2.6.35", "linux-2.6.38"};

// Feeds calls in order and records whether each failed.
class Recorder final : public SyscallSource {
 public:
  explicit Recorder(const std::vector<std::string>& calls) {
    for (const auto& c : calls) calls_.push_back(parse_syscall(c));
  }
  bool next(Syscall& out) override {
    if (i_ >= calls_.size()) return false;
    out = calls_[i_++];
    return true;
  }
  void completed(const Syscall&, bool failed, sim::Picos) override { failed_.push_back(failed); }
  const std::vector<bool>& failed() const { return failed_; }

 private:
  std::vector<Syscall> calls_;
  std::size_t i_ = 0;
  std::vector<bool> failed_;
};

// A tree under /w (the process's cwd) and one process that runs calls on it to completion.
struct World {
  machine::Machine m;
  KernelSpec k;
  coherence::MemorySystem mem;
  Vfs vfs;
  DentryId cwd;
  explicit World(const std::string& kernel)
      : m(machine::load_machine("nehalem-ep-2s8c", testing::machine_dirs())),
        k(load_kernel(kernel, testing::kernel_dirs())),
        mem(m, true),
        vfs(mem, k),
        cwd(vfs.mkpath("/w", true, 0u)) {}

  DentryId dir(const std::string& path) { return vfs.mkpath(path, true, 0u); }
  DentryId file(DentryId parent, const std::string& name) { return vfs.add_dentry(parent, name, false, true, 0u); }
  void link(DentryId parent, const std::string& name, const std::string& target) {
    const DentryId d = file(parent, name);
    vfs.dentry(d).symlink = true;
    vfs.dentry(d).link_target = target;
  }
  // Whether `path` (absolute, no links) names a dentry.
  bool exists(const std::string& path) {
    bool abs = false;
    DentryId d = vfs.root();
    for (const auto& part : split_path(path, &abs)) {
      const auto c = vfs.child(d, part);
      if (!c) return false;
      d = *c;
    }
    return true;
  }

  // Runs the calls; returns which failed. Throws (failing the test) if a call ends holding a lock.
  std::vector<bool> run(const std::vector<std::string>& calls) {
    Process& p = vfs.new_process(0, cwd);
    KernelRuntime rt(vfs, {});
    Recorder src(calls);
    ProcessProgram prog(rt, p, src);
    sim::Simulation sim(1);
    exec::Executor ex(sim, mem);
    ex.start(p.cpu, prog);
    ex.run();
    mem.check_all();
    EXPECT_EQ(prog.stats().failed,
              static_cast<std::uint64_t>(std::count(src.failed().begin(), src.failed().end(), true)));
    return src.failed();
  }
};

// How many links `call` followed, from its trace (`walksim trace`), with the links made first.
struct Traced {
  bool failed;
  int follows;
};
Traced trace_with_links(const std::string& kernel, const std::string& call,
                        const std::vector<std::pair<std::string, std::string>>& links,
                        const std::vector<std::string>& files = {}) {
  machine::Machine m(machine::load_machine("barcelona-2s8c", testing::machine_dirs()));
  const KernelSpec k = load_kernel(kernel, testing::kernel_dirs());
  TraceRequest req;
  req.syscall = call;
  req.symlinks = links;
  req.files = files;
  const TraceResult t = trace_syscall(m, k, req);
  int follows = 0;
  for (const auto& op : t.ops) follows += op.op == "compute" && op.field == "follow_link";
  return {t.failed, follows};
}

// l1 -> l2 -> ... -> lN -> f: each link is the last component of the one before.
std::vector<std::pair<std::string, std::string>> chain(int n) {
  std::vector<std::pair<std::string, std::string>> links;
  for (int i = 1; i <= n; ++i) {
    links.emplace_back("./l" + std::to_string(i), i == n ? "f" : "l" + std::to_string(i + 1));
  }
  return links;
}

TEST(Eloop, ASymlinkLoopFailsTheCallInsteadOfAbortingTheRun) {
  for (const auto& kernel : kKernels) {
    World w(kernel);
    const DentryId ram = w.dir("/mnt/ram");
    w.link(ram, "l1", "/mnt/ram/l2");
    w.link(ram, "l2", "/mnt/ram/l1");
    w.link(ram, "self", "self");
    w.file(ram, "f");
    w.cwd = ram;
    const auto failed = w.run({"stat ./l1", "lstat ./l1", "open ./l2 O_RDONLY", "stat ./self", "stat ./l1/x",
                               "unlink ./l1/x", "mkdir ./l2/d", "rename ./l1/a ./b", "readdir ./l1", "stat ./f"});
    EXPECT_EQ(failed, (std::vector<bool>{true, false, true, true, true, true, true, true, true, false})) << kernel;
  }
}

TEST(Eloop, StatFollowsEightNestedLinksAndRefusesTheNinth) {
  for (const auto& kernel : kKernels) {
    const auto eight = trace_with_links(kernel, "stat ./l1", chain(8), {"./f"});
    EXPECT_FALSE(eight.failed) << kernel;
    EXPECT_EQ(eight.follows, 8) << kernel;
    const auto nine = trace_with_links(kernel, "stat ./l1", chain(9), {"./f"});
    EXPECT_TRUE(nine.failed) << kernel;
    EXPECT_EQ(nine.follows, 8) << kernel;  // MAX_NESTED_LINKS
  }
}

TEST(Eloop, OpenFollowsThirtyTwoTrailingLinksInItsOwnLoop) {
  for (const auto& kernel : kKernels) {
    const auto ok = trace_with_links(kernel, "open ./l1 O_RDONLY", chain(32), {"./f"});
    EXPECT_FALSE(ok.failed) << kernel;
    EXPECT_EQ(ok.follows, 32) << kernel;
    const auto refused = trace_with_links(kernel, "open ./l1 O_RDONLY", chain(33), {"./f"});
    EXPECT_TRUE(refused.failed) << kernel;
    EXPECT_EQ(refused.follows, 32) << kernel;
  }
}

TEST(Eloop, FortyLinksInSequenceAreFollowedAndTheFortyFirstIsRefused) {
  // s -> "." is followed and done with before the next component: nesting never grows, only the
  // walk's total_link_count.
  auto path = [](int links) {
    std::string p = ".";
    for (int i = 0; i < links; ++i) p += "/s";
    return p + "/f";
  };
  for (const auto& kernel : kKernels) {
    const auto forty = trace_with_links(kernel, "stat " + path(40), {{"./s", "."}}, {"./f"});
    EXPECT_FALSE(forty.failed) << kernel;
    EXPECT_EQ(forty.follows, 40) << kernel;
    const auto more = trace_with_links(kernel, "stat " + path(41), {{"./s", "."}}, {"./f"});
    EXPECT_TRUE(more.failed) << kernel;
    EXPECT_EQ(more.follows, 40) << kernel;
  }
}

TEST(Rename, ADirectoryIntoItsOwnSubtreeIsEinvalAndChangesNothing) {
  for (const auto& kernel : kKernels) {
    World w(kernel);
    w.dir("/w/a/b");
    const auto failed = w.run({"rename /w/a /w/a/b/c", "rename ./a ./a/x", "stat /w/a", "stat /w/a/b"});
    EXPECT_EQ(failed, (std::vector<bool>{true, true, false, false})) << kernel;
    EXPECT_TRUE(w.exists("/w/a/b")) << kernel;
    EXPECT_FALSE(w.exists("/w/a/b/c")) << kernel;
  }
}

TEST(Rename, OntoAnAncestorOfTheSourceIsEnotempty) {
  for (const auto& kernel : kKernels) {
    World w(kernel);
    w.dir("/w/a/b/c");
    EXPECT_EQ(w.run({"rename ./a/b/c ./a"}), std::vector<bool>{true}) << kernel;
    EXPECT_TRUE(w.exists("/w/a/b/c")) << kernel;
  }
}

TEST(Rename, OntoANonEmptyDirectoryIsEnotemptyAndOntoAnEmptyOneReplacesIt) {
  for (const auto& kernel : kKernels) {
    World w(kernel);
    w.dir("/w/d");
    w.file(w.dir("/w/full"), "x");
    w.dir("/w/empty");
    const auto failed = w.run({"rename ./d ./full", "rename ./d ./empty"});
    EXPECT_EQ(failed, (std::vector<bool>{true, false})) << kernel;
    EXPECT_TRUE(w.exists("/w/full/x")) << kernel;
    EXPECT_FALSE(w.exists("/w/d")) << kernel;
    EXPECT_TRUE(w.exists("/w/empty")) << kernel;
  }
}

TEST(Rename, AFileOntoADirectoryIsEisdirAndADirectoryOntoAFileEnotdir) {
  for (const auto& kernel : kKernels) {
    World w(kernel);
    const DentryId d = w.dir("/w/d");
    w.file(w.cwd, "f");
    w.link(w.cwd, "l", "d");  // a symlink to a directory is not a directory
    const auto failed = w.run({"rename ./f ./d", "rename ./d ./f", "rename ./d ./l", "stat ./f", "stat ./d"});
    EXPECT_EQ(failed, (std::vector<bool>{true, true, true, false, false})) << kernel;
    EXPECT_TRUE(w.vfs.dentry(d).dir);
    EXPECT_EQ(w.vfs.dentry(d).parent, w.cwd);
  }
}

TEST(Rename, ANameOntoItselfSucceedsAndOntoAnotherFileReplacesIt) {
  for (const auto& kernel : kKernels) {
    World w(kernel);
    w.file(w.cwd, "f");
    w.file(w.cwd, "g");
    const auto failed = w.run({"rename ./f ./f", "rename ./f ./g", "stat ./g", "stat ./f"});
    EXPECT_EQ(failed, (std::vector<bool>{false, false, false, true})) << kernel;
  }
}

}  // namespace
}  // namespace walksim::kernel

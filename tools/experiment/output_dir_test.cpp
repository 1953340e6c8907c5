// The results directory never touches what walksim did not write (robustness review, defects 2,
// 12 and 17): it refuses files, devices, links and other people's directories, replaces only its
// own results, handles "DIR/" and the working directory, and leaves nothing behind when a run fails.
#include "tools/experiment/output_dir.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace walksim::experiment {
namespace {

namespace fs = std::filesystem;

class OutputDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("walksim-outdir-" + std::to_string(getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    old_cwd_ = fs::current_path();
  }
  void TearDown() override {
    fs::current_path(old_cwd_);
    fs::remove_all(root_);
  }
  static void put(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  static std::string get(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  // A complete run into `target`: one results file, committed.
  static void write_results(const fs::path& target, const std::string& text, bool force = false) {
    OutputDir d(target.string(), force);
    write_checked(d.file("results.json"), text);
    d.commit();
  }
  std::vector<std::string> leftovers(const fs::path& dir) const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
      const auto n = e.path().filename().string();
      if (n.find(".walksim-tmp-") != std::string::npos || n.find(".walksim-old-") != std::string::npos)
        out.push_back(n);
    }
    return out;
  }
  fs::path root_, old_cwd_;
};

TEST_F(OutputDirTest, ANewDirectoryAppearsOnlyAtCommitWithAMarkerListingItsFiles) {
  const auto target = root_ / "a" / "b" / "out";
  {
    OutputDir d(target.string(), false);
    write_checked(d.file("results.json"), "{}");
    EXPECT_FALSE(fs::exists(target));
    d.commit();
  }
  EXPECT_EQ(get(target / "results.json"), "{}");
  bool ours = false;
  EXPECT_EQ(files_walksim_wrote(target.string(), ours), std::vector<std::string>{"results.json"});
  EXPECT_TRUE(ours);
  EXPECT_TRUE(leftovers(target.parent_path()).empty());
}

TEST_F(OutputDirTest, AFailedRunLeavesNeitherItsTemporaryDirectoryNorTheParentsItMade) {
  const auto target = root_ / "a" / "b" / "c" / "out";
  {
    OutputDir d(target.string(), false);
    write_checked(d.file("results.json"), "{}");
  }  // never committed
  EXPECT_FALSE(fs::exists(root_ / "a"));
}

TEST_F(OutputDirTest, AnExistingFileIsRefusedAndLeftAsItWas) {
  put(root_ / "notes.txt", "precious");
  EXPECT_THROW(OutputDir((root_ / "notes.txt").string(), false), OutputError);
  EXPECT_THROW(OutputDir((root_ / "notes.txt").string(), true), OutputError);  // not even with --force
  EXPECT_EQ(get(root_ / "notes.txt"), "precious");
}

TEST_F(OutputDirTest, ADeviceIsRefused) {
  EXPECT_THROW(OutputDir("/dev/null", true), OutputError);
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST_F(OutputDirTest, ASymbolicLinkIsRefusedAndItsTargetKept) {
  put(root_ / "real" / "keep.txt", "keep");
  fs::create_directory_symlink(root_ / "real", root_ / "link");
  EXPECT_THROW(OutputDir((root_ / "link").string(), false), OutputError);
  EXPECT_EQ(get(root_ / "real" / "keep.txt"), "keep");
}

TEST_F(OutputDirTest, ADirectoryOfSomeoneElsesFilesIsRefusedWithTheirNames) {
  put(root_ / "mydata" / "thesis.tex", "thesis");
  try {
    OutputDir d((root_ / "mydata").string(), false);
    FAIL() << "accepted";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("thesis.tex"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos) << e.what();
  }
  EXPECT_EQ(get(root_ / "mydata" / "thesis.tex"), "thesis");
}

TEST_F(OutputDirTest, ForceAddsTheResultsBesideSomeoneElsesFilesAndTouchesNothingElse) {
  put(root_ / "mydata" / "thesis.tex", "thesis");
  write_results(root_ / "mydata", "{\"run\": 1}", true);
  EXPECT_EQ(get(root_ / "mydata" / "thesis.tex"), "thesis");
  EXPECT_EQ(get(root_ / "mydata" / "results.json"), "{\"run\": 1}");
  write_results(root_ / "mydata", "{\"run\": 2}", true);  // again: replaces only its own file
  EXPECT_EQ(get(root_ / "mydata" / "results.json"), "{\"run\": 2}");
  EXPECT_EQ(get(root_ / "mydata" / "thesis.tex"), "thesis");
  EXPECT_TRUE(leftovers(root_ / "mydata").empty());
}

TEST_F(OutputDirTest, ItsOwnPreviousResultsAreReplacedWhole) {
  const auto target = root_ / "out";
  {
    OutputDir d(target.string(), false);
    write_checked(d.file("results.json"), "old");
    write_checked(d.file("scaling.svg"), "old plot");
    d.commit();
  }
  write_results(target, "new");
  EXPECT_EQ(get(target / "results.json"), "new");
  EXPECT_FALSE(fs::exists(target / "scaling.svg"));  // a file this run did not make is gone with the old results
  EXPECT_TRUE(leftovers(root_).empty());
}

TEST_F(OutputDirTest, AFileAddedToOldResultsStopsTheReplacement) {
  const auto target = root_ / "out";
  write_results(target, "old");
  put(target / "my-notes.md", "notes");
  EXPECT_THROW(OutputDir(target.string(), false), OutputError);
  EXPECT_EQ(get(target / "my-notes.md"), "notes");
}

TEST_F(OutputDirTest, AnEmptyDirectoryIsUsed) {
  fs::create_directories(root_ / "empty");
  write_results(root_ / "empty", "x");
  EXPECT_EQ(get(root_ / "empty" / "results.json"), "x");
}

TEST_F(OutputDirTest, ATrailingSlashNamesTheSameDirectory) {
  write_results((root_ / "new").string() + "/", "1");
  EXPECT_EQ(get(root_ / "new" / "results.json"), "1");
  write_results((root_ / "new").string() + "//", "2");
  EXPECT_EQ(get(root_ / "new" / "results.json"), "2");
  EXPECT_TRUE(leftovers(root_).empty());
  EXPECT_TRUE(leftovers(root_ / "new").empty());
}

TEST_F(OutputDirTest, TheWorkingDirectoryIsWrittenIntoNotRenamed) {
  fs::create_directories(root_ / "work");
  fs::current_path(root_ / "work");
  put(root_ / "work" / "experiment.yaml", "mine");
  EXPECT_THROW(OutputDir(".", false), OutputError);  // it holds the user's file
  write_results(".", "here", true);
  EXPECT_EQ(get(root_ / "work" / "results.json"), "here");
  EXPECT_EQ(get(root_ / "work" / "experiment.yaml"), "mine");
  EXPECT_TRUE(fs::equivalent(fs::current_path(), root_ / "work"));
  write_results(".", "again", true);
  EXPECT_EQ(get(root_ / "work" / "results.json"), "again");
  EXPECT_TRUE(leftovers(root_ / "work").empty());
}

TEST_F(OutputDirTest, TheRootDirectoryIsRefused) { EXPECT_THROW(OutputDir("/", true), OutputError); }

TEST_F(OutputDirTest, TemporaryDirectoriesOfDeadRunsAreSweptAndLiveOnesKept) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  std::string h;
  for (const char* c = host; *c; ++c) h += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' ? *c : '_';
  // pid 2^22 + 1 is above Linux's largest pid: that run is gone. Our own pid is alive.
  const auto dead = root_ / (".out.walksim-tmp-" + h + "-4194305-0000abcd");
  const auto alive = root_ / (".out.walksim-tmp-" + h + "-" + std::to_string(getpid()) + "-0000abcd");
  put(dead / "results.json", "half");
  put(alive / "results.json", "running");
  write_results(root_ / "out", "x");
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive));
}

TEST_F(OutputDirTest, ResultsOfTheVersionBeforeMarkersAreRecognisedAsWalksims) {
  put(root_ / "old" / "results.json", "{}");
  put(root_ / "old" / "meta.json", "{\"walksim_version\": \"0.1.0\"}");
  put(root_ / "old" / "scaling.svg", "<svg/>");
  write_results(root_ / "old", "new");
  EXPECT_EQ(get(root_ / "old" / "results.json"), "new");
  EXPECT_FALSE(fs::exists(root_ / "old" / "scaling.svg"));
}

TEST_F(OutputDirTest, ASingleFileIsReplacedThroughATemporaryOneAndADirectoryRefused) {
  replace_file((root_ / "validation.md").string(), "one", "--doc");
  replace_file((root_ / "validation.md").string(), "two", "--doc");
  EXPECT_EQ(get(root_ / "validation.md"), "two");
  fs::create_directories(root_ / "adir");
  EXPECT_THROW(replace_file((root_ / "adir").string(), "x", "--doc"), OutputError);
  EXPECT_FALSE(fs::exists(root_ / ("adir.walksim-tmp-" + std::to_string(getpid()))));
}

}  // namespace
}  // namespace walksim::experiment

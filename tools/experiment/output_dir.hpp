// Where a command writes its results, and the promise that it never touches what it did not
// write. Files are written into a temporary directory beside the target and moved into place by
// commit(): a failed or interrupted run leaves the previous results as they were and no
// temporary directory. Every directory walksim fills carries a marker (kMarker) listing its files;
// only such a directory is replaced, and only the files it lists are ever removed.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace walksim::experiment {

// A results directory that cannot be used (named by the user's --out); exit code 2.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class OutputDir {
 public:
  static constexpr const char* kMarker = ".walksim-results";

  // Checks `target` now, before anything is simulated, and makes the temporary directory:
  // - a missing target (and its missing parents) is created at commit;
  // - an empty directory, or one that only holds what walksim wrote there, is replaced;
  // - a directory holding anything else is refused unless `force`, and then walksim's files are
  //   moved in one by one beside the others, which are left alone;
  // - the current directory (or one of its parents) is never renamed: files go in one by one;
  // - anything that is not a directory (a file, a device, a symbolic link) is refused.
  // `flag` names the option in messages ("--out"). Throws OutputError.
  OutputDir(const std::string& target, bool force, const std::string& flag = "--out");
  ~OutputDir();
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  const std::string& tmp() const { return tmp_; }
  const std::string& target() const { return shown_; }
  std::string file(const std::string& name) const { return tmp_ + "/" + name; }
  // Flushes every file to disk and moves the results into place. Throws OutputError.
  void commit();

 private:
  enum class Mode { kCreate, kReplace, kMerge };
  void commit_whole();
  void commit_file_by_file();

  std::string shown_;  // as the user wrote it, for messages
  std::string final_;  // absolute, normalised
  std::string tmp_;
  std::string flag_;
  Mode mode_ = Mode::kCreate;
  std::vector<std::string> made_parents_;  // created here, deepest first; removed if never committed
  bool committed_ = false;
};

// The files a walksim results directory lists in its marker, or nothing when `dir` is not one.
// A directory written by walksim 0.1 (no marker; meta.json naming walksim and only the files that
// version wrote) counts as one.
std::vector<std::string> files_walksim_wrote(const std::string& dir, bool& is_walksim);

// Writes `text` to `path` and checks every step, close included (a full disk shows at close).
// Throws OutputError naming the file.
void write_checked(const std::string& path, const std::string& text);

// Writes a single file (validate --doc) through a temporary file beside it and a rename; refuses
// a directory. Throws OutputError.
void replace_file(const std::string& path, const std::string& text, const std::string& flag);

}  // namespace walksim::experiment

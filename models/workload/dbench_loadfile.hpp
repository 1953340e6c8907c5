// A synthetic dbench loadfile. The dbench-3/4 netbench loadfile (client.txt) could not be
// retrieved, so one is generated deterministically with the operation mix counted from the
// dbench-2 netbench loadfile client_plain.txt (pathwalk.md §9), over a client's private tree
// "~dmtmp/{PARADOX,PM,...}/FILE", and kept consistent so that it can be replayed in a loop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/kernel/syscall.hpp"
#include "sim/rng.hpp"

namespace walksim::workload::dbench {

// The netbench operations, with NTCreateX split by what it does.
enum class OpKind : std::uint8_t {
  kOpenExisting,  // NTCreateX FILE_OPEN of an existing file
  kOpenMissing,   // NTCreateX FILE_OPEN of a name that does not exist (expected to fail)
  kCreate,        // NTCreateX FILE_CREATE of a new file
  kMkdir,         // NTCreateX FILE_CREATE with FILE_DIRECTORY_FILE
  kOpenIf,        // the "other" NTCreateX dispositions: O_RDWR|O_CREAT of an existing file
  kClose,
  kReadX,
  kWriteX,
  kQueryPathInfo,
  kQueryFileInfo,
  kQueryFsInfo,
  kFindFirst,
  kUnlink,
  kRename,
  kFlush,
  kRmdir,
  kSetFileInfo,
  kLockX,
  kUnlockX,
};
constexpr std::size_t kOpKinds = static_cast<std::size_t>(OpKind::kUnlockX) + 1;
const char* op_name(OpKind k);

// One loadfile line. Paths are relative to the client's directory ("~dmtmp/WORD/CHAP10.DOC").
struct LoadOp {
  OpKind kind = OpKind::kReadX;
  std::string path;
  std::string path2;        // Rename's new name (same directory)
  std::uint32_t bytes = 0;  // ReadX / WriteX size
  bool exists = true;       // QueryPathInfo: whether the name resolves (a miss stats, then reads the directory)
};

// Operations per pass of client_plain.txt (122,877 ops), pathwalk.md §9. SetFileInfo and
// LockX/UnlockX do not occur in it; they are supported with a count of 0 by default.
struct Mix {
  double read = 65933, write = 14074;
  double open_existing = 7929, open_missing = 2190, create = 1739, mkdir = 11, open_if = 388;
  double query_file = 7183, query_path = 6269, find_first = 2981, query_fs = 1405, flush = 598, rename = 358;
  double set_file_info = 0, lock = 0;  // lock: LockX/UnlockX pairs
  // Close, Unlink and Rmdir follow from the above: one Close per successful NTCreateX, one Unlink
  // per created file, one Rmdir per made directory (client_plain.txt: 10,067 / 1,740 / 11).
  double total() const;  // ops of one pass at these counts, closes/unlinks/rmdirs included
};

struct LoadfileParams {
  std::uint32_t ops = 20000;  // approximate length of one pass (scaled from the mix)
  // Persistent files in each of the nine ~dmtmp directories; unset: each as many as it holds on
  // average in client_plain.txt (dbench_census.hpp: PARADOX 24, COREL 11, ..., EXCEL 2).
  std::optional<std::uint32_t> files_per_dir;
  std::uint32_t io_size = 2048;  // bytes per ReadX / WriteX
  bool statfs = true;            // false: QUERY_FS_INFORMATION removed (the published V-dbench run)
  std::uint32_t max_open = 3;    // handles a client keeps open at once
  Mix mix;
};

// The client's persistent tree, relative to its directory: directories (parents first) and files.
struct ClientTree {
  std::vector<std::string> dirs;
  std::vector<std::string> files;
};

// ~dmtmp and the nine netbench directories under it, each with `files_per_dir` files with 8.3
// names, or, unset, as many as the census of client_plain.txt gives it.
ClientTree make_client_tree(std::optional<std::uint32_t> files_per_dir, sim::Rng& rng);

// One pass. Replaying it from the tree's state leaves the tree in that state again: every
// created file is unlinked (after an optional rename within its directory), every made directory
// removed, and every handle closed. Handle operations only name files open at that point.
std::vector<LoadOp> make_loadfile(const ClientTree& tree, const LoadfileParams& p, sim::Rng& rng);

// Appends the system calls dbench's fileio backend makes for `op` (dbench-4 fileio.c: every name
// is first resolved with stat(), and a failed stat lists the parent directory), for the client
// whose directory is `prefix` ("./clients/client3/"). Returns how many of them are designed to
// fail (the stat of a name that does not exist, the open of a missing file).
std::uint32_t to_syscalls(const LoadOp& op, const std::string& prefix, std::vector<kernel::Syscall>& out);
// The same calls written over out[0..), reusing the elements' storage (their path strings keep
// their capacity, so a client replaying its loadfile allocates nothing); `count` is set to how many.
std::uint32_t to_syscalls_reusing(const LoadOp& op, const std::string& prefix, std::vector<kernel::Syscall>& out,
                                  std::size_t& count);

// The directory part of a loadfile path ("~dmtmp/WORD" for "~dmtmp/WORD/X.DOC").
std::string parent_of(const std::string& path);

}  // namespace walksim::workload::dbench

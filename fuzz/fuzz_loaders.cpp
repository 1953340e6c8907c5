// libFuzzer targets for every parser of user input. A ConfigError (or, for the syscall language,
// std::invalid_argument) is the expected answer to bad input; anything else that escapes — another
// exception, a crash, a sanitizer report — is a bug. One source, one target per FUZZ_TARGET value.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "models/config/config_error.hpp"
#include "models/kernel/kernel_check.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/kernel/syscall.hpp"
#include "models/layout/btf_import.hpp"
#include "models/machine/machine_loader.hpp"
#include "models/workload/trace_replay.hpp"
#include "tools/experiment/experiment_spec.hpp"

namespace {

const std::string kRoot = std::string(WALKSIM_SOURCE_DIR) + "/configs";

// The loaders read files (extends: and names resolve beside them), so the input goes to a file in
// a directory of this process's own (mkdtemp: a random name, mode 0700, so nothing in the shared
// temporary directory is followed), removed again when the input has been tried.
class InputFile {
 public:
  InputFile(const uint8_t* data, size_t size, const char* ext) : path_(directory() + "/input" + ext) {
    std::ofstream(path_, std::ios::binary)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  // Made at the first input and removed when the fuzzer exits.
  static const std::string& directory() {
    struct Dir {
      std::string path = (std::filesystem::temp_directory_path() / "walksim-fuzz-XXXXXX").string();
      Dir() {
        if (!mkdtemp(path.data())) std::abort();  // no input could be tried
      }
      ~Dir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
      }
    };
    static const Dir dir;
    return dir.path;
  }
  std::string path_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace walksim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
#if FUZZ_TARGET == 1
    const InputFile in(data, size, ".yaml");
    machine::Machine m(machine::load_machine(in.path(), {kRoot + "/machines"}));
    (void)m;
#elif FUZZ_TARGET == 2
    const InputFile in(data, size, ".yaml");
    kernel::load_kernel(in.path(), {kRoot + "/kernels"});
#elif FUZZ_TARGET == 3
    const InputFile in(data, size, ".yaml");
    experiment::load_experiment(in.path(), kRoot);
#elif FUZZ_TARGET == 4
    workload::parse_trace(text, "fuzz.trace");
#elif FUZZ_TARGET == 5
    try {
      kernel::parse_syscall(text);
    } catch (const std::invalid_argument&) {
    }
#elif FUZZ_TARGET == 6
    // Raw BTF: libbpf checks the sections' bounds, the reader every type id and name it follows;
    // the importer then looks up every struct and member the model needs.
    static const kernel::KernelSpec base = kernel::load_kernel("linux-6.x", {kRoot + "/kernels"});
    static const kernel::FieldsUsed used = kernel::fields_used(base);
    try {
      const layout::BtfFile btf = layout::BtfFile::from_bytes(data, size, "fuzz.btf");
      layout::ImportOptions options;
      options.kernel = "fuzz";
      (void)layout::import_layouts(btf, base, used, options);
    } catch (const layout::LayoutError&) {
    }
#endif
  } catch (const config::ConfigError&) {
  }
  return 0;
}

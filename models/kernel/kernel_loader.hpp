// Loads a kernel variant YAML (configs/kernels/NAME.yaml or a path) into a KernelSpec: strict keys,
// the locking switches as enumerations, the object layouts (each field on exactly one line), and
// private CPU costs each with a `source:` or a `calibrated:` note. Mistakes throw ConfigError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/config/named_config.hpp"
#include "models/kernel/kernel_spec.hpp"

namespace walksim::kernel {

KernelSpec load_kernel(const std::string& name_or_path, const std::vector<std::string>& search_dirs,
                       const std::vector<config::Override>& overrides = {});
std::vector<std::string> list_kernels(const std::vector<std::string>& search_dirs);

// Limits of a kernel file, checked by load_kernel with the key (docs/kernels.md).
// A step's private cost: 1e9 cycles is a third of a second at 3 GHz, far above any path-walk step.
inline constexpr double kMaxStepCycles = 1e9;
// 64-byte lines per object layout (4 KiB): every object of the type gets that many simulated lines,
// and a run makes one dentry and inode per file.
inline constexpr std::size_t kMaxLayoutLines = 64;

// The parts of a kernel that depend on the machine it runs on, which load_kernel cannot see:
// `placement.boot_objects_node` must be one of the machine's `nodes`. Throws ConfigError at the
// key's position in the kernel file, naming the machine (`machine`, if given) and its node count.
// Call it when an experiment pairs a kernel with a machine; Vfs calls it too.
void check_kernel_fits_machine(const KernelSpec& kernel, std::uint32_t nodes, std::string_view machine = {});

}  // namespace walksim::kernel

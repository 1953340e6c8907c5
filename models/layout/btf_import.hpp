// `walksim layout import`: a kernel variant's layouts read from a kernel's BTF. Every field the
// base variant places is looked up through the rename table (kernel_structs.hpp); each lands at its
// compiler offset with its size, and each object type gets the stride its slab cache gives it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/kernel/kernel_check.hpp"
#include "models/kernel/kernel_spec.hpp"
#include "models/layout/btf_file.hpp"
#include "models/layout/kernel_structs.hpp"

namespace walksim::layout {

struct ImportedField {
  std::string field;   // the model's name
  std::string member;  // the BTF member path it was found at ("d_lockref.count")
  std::string since;   // the rename table's release for that path
  Part part = Part::kWhole;
  bool in_anonymous = false;
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

struct ImportedType {
  std::string type;                                           // the model's object type
  std::string struct_name;                                    // the BTF struct it was read from
  std::uint32_t size = 0;                                     // sizeof
  std::uint32_t stride = 0;                                   // the slab cache's object size
  std::string stride_source;                                  // /proc/slabinfo, or the cache's flags and SLUB's rule
  std::vector<ImportedField> fields;                          // by offset
  std::vector<std::pair<std::string, std::string>> left_out;  // field, why (not in this kernel, unused)
};

struct ImportedKernel {
  std::string btf_path;
  std::string kernel;  // "Linux version 6.1.0-57-amd64 (...) ..." or what --kernel-version said
  std::string base;    // the variant it extends
  std::vector<ImportedType> types;
};

// objsize by cache name, from a /proc/slabinfo text (version 2.1). Throws LayoutError naming the line.
std::map<std::string, std::uint32_t> parse_slabinfo(const std::string& text, const std::string& what);

struct ImportOptions {
  std::string kernel;  // the kernel the BTF describes; required when the file carries no banner
  std::optional<std::map<std::string, std::uint32_t>> slabinfo;  // the cache sizes of that kernel, booted
  std::vector<std::string> only;  // import these object types alone (the others stay the base's); empty: all
};

// Throws LayoutError listing every field the base needs that the BTF lacks (with did-you-mean
// against the struct's members), a struct that is missing, or fields whose bytes overlap.
ImportedKernel import_layouts(const BtfFile& btf, const kernel::KernelSpec& base, const kernel::FieldsUsed& used,
                              const ImportOptions& options);

// The stride SLUB gives an object of `size` bytes under `rule` (64-byte lines).
std::uint32_t stride_by_rule(std::uint32_t size, StrideRule rule);

}  // namespace walksim::layout

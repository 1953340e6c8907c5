// Where each object type and field the kernel model knows is found in a kernel's own structs, for
// every kernel since 2.6.20: one table of struct names, member paths and the renames between them,
// with the release that made each (docs/kernels.md, "Importing a layout from BTF").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace walksim::layout {

// Which bytes of the member a model field stands for. The model reads a dentry's inline name as
// two fields: its first word (d_iname, beside d_name on the walk's line) and the rest (d_iname_tail).
enum class Part : std::uint8_t { kWhole, kFirstWord, kAfterFirstWord };

struct MemberCandidate {
  std::string path;   // dotted member path from the struct ("d_lockref.count")
  std::string since;  // the release (and change) that made this the member's name or place
  Part part = Part::kWhole;
};

struct FieldInStructs {
  std::string field;                        // the model's name (models/kernel/object_fields.cpp)
  std::vector<MemberCandidate> candidates;  // tried in order (oldest first unless a newer one is more precise)
};

// How the object's slab cache sizes each object (its stride) when no /proc/slabinfo says.
enum class StrideRule : std::uint8_t {
  kAlign8,        // KMEM_CACHE without constructor: SLUB keeps the free pointer inside the object
  kAlign8Ctor,    // a constructor: SLUB puts the free pointer after the object (+8)
  kHwcacheAlign,  // SLAB_HWCACHE_ALIGN: rounded up to the 64-byte line
  kKmalloc,       // kzalloc: the next kmalloc size class
};

struct StructOfType {
  std::string type;                      // the model's object type
  std::vector<MemberCandidate> structs;  // the struct holding it, oldest first (path = struct name)
  std::string cache;                     // the slab cache's name in /proc/slabinfo
  StrideRule stride;
  std::string stride_source;  // where the cache's flags come from
  std::vector<FieldInStructs> fields;
};

// The object types that are kernel structs (globals, percpu and page are not imported).
const std::vector<StructOfType>& kernel_structs();
const StructOfType* struct_of_type(const std::string& type);

}  // namespace walksim::layout

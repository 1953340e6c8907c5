// The importer on the look-alike structs: every field where the BTF says, the renames of each
// era taken, a field the base needs and the BTF lacks named with a did-you-mean, and the kernel
// YAML it writes loading with the same offsets.
#include "models/layout/btf_import.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "models/kernel/kernel_loader.hpp"
#include "models/layout/layout_yaml.hpp"

namespace walksim::layout {
namespace {

std::string fixture(const std::string& f) { return std::string(WALKSIM_BTF_FIXTURES) + "/" + f; }
std::vector<std::string> kernel_dirs() { return {std::string(WALKSIM_SOURCE_DIR) + "/configs/kernels"}; }

struct Base {
  kernel::KernelSpec spec = kernel::load_kernel("linux-6.x", kernel_dirs());
  kernel::FieldsUsed used = kernel::fields_used(spec);
};
const Base& base() {
  static const Base b;
  return b;
}

ImportedKernel import(const std::string& file, ImportOptions o = {}) {
  if (o.kernel.empty()) o.kernel = "look-alike 1.0";
  return import_layouts(BtfFile::open(fixture(file)), base().spec, base().used, o);
}

const ImportedType& type_of(const ImportedKernel& k, const std::string& t) {
  for (const auto& x : k.types) {
    if (x.type == t) return x;
  }
  throw std::runtime_error("no type " + t);
}
const ImportedField& field_of(const ImportedType& t, const std::string& f) {
  for (const auto& x : t.fields) {
    if (x.field == f) return x;
  }
  throw std::runtime_error("no field " + f);
}

TEST(BtfImport, EveryFieldLandsWhereTheBtfPutsItsMember) {
  const BtfFile btf = BtfFile::open(fixture("lookalike.o"));
  const ImportedKernel k = import("lookalike.o");
  ASSERT_EQ(k.types.size(), 8u);
  for (const auto& t : k.types) {
    const auto id = btf.find_struct(t.struct_name);
    ASSERT_TRUE(id) << t.struct_name;
    EXPECT_EQ(t.size, btf.struct_size(*id));
    for (const auto& f : t.fields) {
      const auto m = btf.member(*id, f.member);
      ASSERT_TRUE(m) << t.type << "." << f.field << " from " << f.member;
      const std::uint32_t skip = f.part == Part::kAfterFirstWord ? 8 : 0;
      EXPECT_EQ(f.offset, m->offset + skip) << t.type << "." << f.field;
      if (f.part == Part::kWhole) {
        EXPECT_EQ(f.size, m->size) << t.type << "." << f.field;
      }
    }
  }
}

TEST(BtfImport, TheNamesOfNewerKernelsAreFoundThroughTheRenameTable) {
  const ImportedKernel k = import("lookalike.o");
  const auto& d = type_of(k, "dentry");
  EXPECT_EQ(field_of(d, "d_child").member, "d_sib");
  EXPECT_EQ(field_of(d, "d_subdirs").member, "d_children");
  EXPECT_EQ(field_of(d, "d_alias").member, "d_u.d_alias");
  EXPECT_EQ(field_of(d, "d_iname").member, "d_shortname");
  EXPECT_EQ(field_of(d, "d_iname").size, 8u);  // its first word
  EXPECT_EQ(field_of(d, "d_iname_tail").offset, field_of(d, "d_iname").offset + 8);
  EXPECT_EQ(field_of(d, "d_iname_tail").size, 32u);  // the other 32 of 40 bytes
  EXPECT_TRUE(field_of(d, "d_name").in_anonymous);
  EXPECT_EQ(field_of(type_of(k, "inode"), "i_mutex").member, "i_rwsem");
  EXPECT_EQ(field_of(type_of(k, "inode"), "i_nrpages").member, "i_data.nrpages");
  const auto& m = type_of(k, "vfsmount");
  EXPECT_EQ(m.struct_name, "mount") << "3.3+ kernels have both; the model's object is struct mount";
  EXPECT_EQ(field_of(m, "mnt_root").member, "mnt.mnt_root");
  EXPECT_EQ(field_of(m, "mnt_longterm").member, "mnt_ns");
  const auto& fs = type_of(k, "fs_struct");
  EXPECT_EQ(field_of(fs, "lock").member, "seq.lock");
  EXPECT_EQ(field_of(fs, "seq").member, "seq.seqcount");
  EXPECT_EQ(field_of(fs, "in_exec").size, 1u) << "a 1-bit bitfield touches one byte";
}

TEST(BtfImport, AFieldTheBaseUsesAndTheBtfLacksIsAnErrorWithDidYouMean) {
  try {
    (void)import("misspelt.o");
    FAIL() << "imported a dentry without d_lockref";
  } catch (const LayoutError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("dentry.d_lockref"), std::string::npos) << w;
    EXPECT_NE(w.find("linux-6.x uses it"), std::string::npos) << w;
    EXPECT_NE(w.find("did you mean 'd_lokref'"), std::string::npos) << w;
  }
}

TEST(BtfImport, AFieldTheBaseDoesNotUseIsLeftOutAndSaysWhy) {
  const ImportedKernel k = import("lookalike.o");
  const auto& inode = type_of(k, "inode");
  ASSERT_EQ(inode.left_out.size(), 1u);
  EXPECT_EQ(inode.left_out[0].first, "i_list");
  EXPECT_NE(inode.left_out[0].second.find("does not use it"), std::string::npos);
}

TEST(BtfImport, ABtfWithoutAStructTheModelNeedsIsAnError) {
  try {
    (void)import("no-dentry.o");
    FAIL();
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("no struct dentry"), std::string::npos) << e.what();
  }
}

TEST(BtfImport, WithoutABannerTheKernelMustBeNamed) {
  EXPECT_THROW((void)import_layouts(BtfFile::open(fixture("lookalike.btf")), base().spec, base().used, {}),
               LayoutError);
}

TEST(BtfImport, StridesComeFromSlabinfoWhenGivenAndFromTheCachesFlagsOtherwise) {
  const ImportedKernel rule = import("lookalike.o");
  EXPECT_EQ(type_of(rule, "inode").stride, (type_of(rule, "inode").size + 7) / 8 * 8 + 8) << "a constructor";
  EXPECT_EQ(type_of(rule, "fs_struct").stride % 64, 0u) << "SLAB_HWCACHE_ALIGN";
  EXPECT_EQ(type_of(rule, "super_block").stride, 512u) << "kzalloc of " << type_of(rule, "super_block").size;
  ImportOptions o;
  o.slabinfo = parse_slabinfo(
      "slabinfo - version: 2.1\n# name <active_objs> <num_objs> <objsize> ...\n"
      "dentry 10 21 200 21 1 : tunables 0 0 0 : slabdata 1 1 0\n",
      "test-slabinfo");
  const ImportedKernel measured = import("lookalike.o", o);
  EXPECT_EQ(type_of(measured, "dentry").stride, 200u);
  EXPECT_NE(type_of(measured, "dentry").stride_source.find("/proc/slabinfo"), std::string::npos);
  EXPECT_THROW(parse_slabinfo("not slabinfo\n", "x"), LayoutError);
  EXPECT_THROW(parse_slabinfo("slabinfo - version: 2.1\ndentry ten\n", "x"), LayoutError);
}

TEST(BtfImport, TheWrittenKernelLoadsWithTheImportedOffsetsAndSizes) {
  const ImportedKernel k = import("lookalike.o");
  const auto dir = std::filesystem::temp_directory_path() / ("walksim-import-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "look-alike.yaml";
  std::ofstream(file) << imported_kernel_yaml(k, "look-alike", "walksim layout import (test)");
  const kernel::KernelSpec spec = kernel::load_kernel(file.string(), kernel_dirs());
  for (const auto& t : k.types) {
    const auto& l = spec.layouts.at(t.type);
    EXPECT_EQ(l.size, t.size);
    EXPECT_EQ(l.stride, t.stride);
    EXPECT_EQ(l.offsets.size(), t.fields.size()) << t.type;
    for (const auto& f : t.fields) {
      EXPECT_EQ(l.offsets.at(f.field), f.offset) << t.type << "." << f.field;
      EXPECT_EQ(l.sizes.at(f.field), f.size) << t.type << "." << f.field;
    }
  }
  EXPECT_EQ(spec.layouts.at("globals").lines, base().spec.layouts.at("globals").lines) << "only struct layouts change";
  std::filesystem::remove_all(dir);
}

// The old names (d_count, d_lock, d_u.d_child, i_mutex, i_list, i_flock) on 2.6.35's and 2.6.38's own
// structs: the importer gives exactly the layouts shipped for them, which were computed apart (the
// same structs printed with offsetof, docs/reference/slab-hash-layouts.md), strides included.
class OldKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(OldKernels, ImportingTheirStructsGivesTheShippedLayouts) {
  const std::string name = GetParam();
  const kernel::KernelSpec shipped = kernel::load_kernel(name, kernel_dirs());
  ImportOptions o;
  o.kernel = name + " (rebuilt structs)";
  o.only = {"dentry", "inode"};
  const ImportedKernel k =
      import_layouts(BtfFile::open(fixture(name + ".o")), shipped, kernel::fields_used(shipped), o);
  ASSERT_EQ(k.types.size(), 2u);
  for (const auto& t : k.types) {
    const auto& l = shipped.layouts.at(t.type);
    EXPECT_EQ(t.size, l.size) << name << " " << t.type;
    EXPECT_EQ(t.stride, l.stride) << name << " " << t.type;
    EXPECT_EQ(t.fields.size(), l.offsets.size()) << name << " " << t.type;
    for (const auto& f : t.fields)
      EXPECT_EQ(f.offset, l.offsets.at(f.field)) << name << " " << t.type << "." << f.field;
  }
}

std::string kernel_test_name(const ::testing::TestParamInfo<std::string>& p) {
  std::string n = p.param;
  std::replace(n.begin(), n.end(), '.', '_');
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(Shipped, OldKernels, ::testing::Values("linux-2.6.35", "linux-2.6.38"), kernel_test_name);

}  // namespace
}  // namespace walksim::layout

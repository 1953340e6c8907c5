// The layout commands. A file they write is first written and loaded in a scratch directory beside
// it (so a kernel that would not load is never left behind), then moved into place.
#include "tools/walksim/layout_command.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "models/config/config_error.hpp"
#include "models/config/strict_yaml.hpp"
#include "models/kernel/kernel_check.hpp"
#include "models/kernel/kernel_loader.hpp"
#include "models/layout/btf_import.hpp"
#include "models/layout/layout_move.hpp"
#include "models/layout/layout_text.hpp"
#include "models/layout/layout_yaml.hpp"
#include "tools/experiment/output_dir.hpp"
#include "tools/walksim/config_paths.hpp"
#include "tools/walksim/global_options.hpp"

namespace walksim::cli {
namespace {

namespace fs = std::filesystem;

kernel::KernelSpec load(const std::string& name_or_path, const std::string& root,
                        const std::vector<std::string>& extra_dirs = {}) {
  std::vector<std::string> dirs = extra_dirs;
  dirs.push_back(root + "/kernels");
  return kernel::load_kernel(name_or_path, dirs);
}

std::string stem_of_out(const std::string& out) {
  const fs::path p(out);
  if (p.extension() != ".yaml") {
    throw config::ConfigError({}, "--out", out + ": a kernel file must end in .yaml (its name is the file's stem)");
  }
  return p.stem().string();
}

// Writes `text` as kernel `out` after checking, in a scratch directory beside it, that it loads
// (its `extends:` resolved beside `out`, then in configs/kernels); or, without `out`, prints it.
void write_checked_kernel(const std::string& out, const std::string& name, const std::string& text,
                          const std::string& root) {
  const fs::path target = out.empty() ? fs::temp_directory_path() / (name + ".yaml") : fs::absolute(out);
  const fs::path dir = target.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw experiment::OutputError("--out " + out + ": no directory " + dir.string());
  // A directory no one else can have made or linked: mkdtemp creates it, mode 0700, under a name
  // drawn at random. (A name from the pid alone, as before, could be made in advance in a shared
  // directory such as /tmp, holding a symlink the check's write would have followed.)
  std::string tmpl = (dir / ".walksim-layout-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    throw experiment::OutputError("--out " + out + ": cannot write in " + dir.string() + ": " + std::strerror(errno));
  }
  const fs::path scratch(tmpl);
  try {
    const fs::path file = scratch / (name + ".yaml");
    {
      std::ofstream f(file);
      f << text;
      if (!f.flush()) throw experiment::OutputError("--out " + out + ": cannot write " + file.string());
    }
    try {
      (void)load(file.string(), root, {dir.string()});
    } catch (const config::ConfigError& e) {
      throw config::ConfigError({}, "",
                                "the kernel written would not load (nothing was written): " + std::string(e.what()));
    }
  } catch (...) {
    fs::remove_all(scratch, ec);
    throw;
  }
  fs::remove_all(scratch, ec);
  if (out.empty()) {
    std::cout << text;
  } else {
    experiment::replace_file(target.string(), text, "--out");
  }
}

// One argument as a shell would need it quoted, for the command recorded in a written file.
std::string shell_word(const std::string& w) {
  if (!w.empty() && w.find_first_of(" \t'\"\\$`|&;<>()*?[]#~") == std::string::npos) return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// One word of a recorded command line: a flag with its value (left out when the value is empty),
// a positional argument (no flag), or a flag that takes no value (`set`).
struct Arg {
  std::string flag;
  std::string value;
  bool set = false;
};

// "walksim layout SUB ARGS...", as the user could type it again.
std::string command_line(const std::vector<Arg>& args, const std::string& sub) {
  std::string s = "walksim layout " + sub;
  for (const Arg& a : args) {
    if (a.set) {
      s += " " + a.flag;
      continue;
    }
    if (a.value.empty()) continue;
    if (!a.flag.empty()) s += " " + a.flag;
    s += " " + shell_word(a.value);
  }
  return s;
}

struct ImportOpts {
  std::string btf, base = "linux-6.x", out, name, version, slabinfo;
  std::vector<std::string> only;
};

void run_import(const ImportOpts& o, const GlobalOptions& global) {
  const std::string root = resolve_config_root(global.configs);
  const kernel::KernelSpec base = load(o.base, root);
  const kernel::FieldsUsed used = kernel::fields_used(base);
  const layout::BtfFile btf = layout::BtfFile::open(o.btf);
  layout::ImportOptions options;
  options.kernel = o.version;
  options.only = o.only;
  std::string slab_path = o.slabinfo;
  std::error_code ec;
  if (slab_path.empty() && fs::equivalent(o.btf, "/sys/kernel/btf/vmlinux", ec) && fs::exists("/proc/slabinfo", ec)) {
    slab_path = "/proc/slabinfo";  // the running kernel's own caches
  }
  if (!slab_path.empty()) {
    std::ifstream in(slab_path);
    if (!in) throw config::ConfigError({}, "--slabinfo", slab_path + ": cannot be read");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    options.slabinfo = layout::parse_slabinfo(text, slab_path);
  }
  const layout::ImportedKernel k = layout::import_layouts(btf, base, used, options);
  std::string name = o.name;
  if (!o.out.empty()) {
    name = stem_of_out(o.out);
    if (!o.name.empty() && o.name != name) {
      throw config::ConfigError({}, "--name", "'" + o.name + "' differs from the --out file's stem '" + name + "'");
    }
  }
  if (name.empty()) {
    std::string v = k.kernel.rfind("Linux version ", 0) == 0 ? k.kernel.substr(14) : k.kernel;
    v = v.substr(0, v.find(' '));
    name = "linux-" + v;
  }
  const std::string cmd = command_line({{"--btf", o.btf},
                                        {"--kernel-base", o.base},
                                        {"--kernel-version", o.version},
                                        {"--slabinfo", o.slabinfo},
                                        {"--out", o.out}},
                                       "import");
  write_checked_kernel(o.out, name, layout::imported_kernel_yaml(k, name, cmd), root);
  if (!o.out.empty()) {
    std::cerr << "wrote " << o.out << " (kernel '" << name << "', extends " << base.name << "): " << k.kernel << "\n";
    for (const auto& t : k.types) {
      std::cerr << fmt::format("  {:<13} struct {:<12} {:>4} bytes, stride {:>4}, {} fields{}\n", t.type, t.struct_name,
                               t.size, t.stride, t.fields.size(),
                               t.left_out.empty() ? "" : fmt::format(" ({} left out)", t.left_out.size()));
    }
  }
}

const kernel::ObjectLayout& layout_of(const kernel::KernelSpec& k, const std::string& type, const std::string& flag) {
  const auto it = k.layouts.find(type);
  if (it == k.layouts.end()) {
    std::vector<std::string> types;
    for (const auto& [t, l] : k.layouts) types.push_back(t);
    throw config::ConfigError(
        {}, flag,
        "no object type '" + type + "'" + config::did_you_mean(type, types) + "; types: " + config::quoted_list(types));
  }
  return it->second;
}

void add_import_command(CLI::App& layout, const GlobalOptions& global) {
  auto io = std::make_shared<ImportOpts>();
  auto* imp = layout.add_subcommand(
      "import", "Read struct layouts from a kernel's BTF and write a kernel YAML that extends a shipped variant");
  imp->add_option("--btf", io->btf, "BTF file: /sys/kernel/btf/vmlinux, a vmlinux, or an object with a .BTF section")
      ->required();
  imp->add_option("--kernel-base", io->base, "The variant whose model the layouts are put on")->capture_default_str();
  imp->add_option("--out,-o", io->out, "The kernel YAML to write (its stem is the variant's name); default: stdout");
  imp->add_option("--name", io->name, "The variant's name when printing to stdout");
  imp->add_option("--kernel-version", io->version,
                  "Which kernel the BTF describes, when the file has no 'Linux version' banner (raw BTF)");
  imp->add_option("--slabinfo", io->slabinfo,
                  "That kernel's /proc/slabinfo, for each cache's object size (default: /proc/slabinfo when the BTF "
                  "is the running kernel's; otherwise SLUB's rule from the cache's flags)");
  imp->add_option("--struct", io->only,
                  "Import only these object types (dentry,inode,...); the others stay the base's (a BTF of a few "
                  "structs, such as one made from a header)")
      ->delimiter(',');
  imp->callback([io, &global] { run_import(*io, global); });
}

void add_show_command(CLI::App& layout, const GlobalOptions& global) {
  auto show_kernel = std::make_shared<std::string>();
  auto show_type = std::make_shared<std::string>();
  auto* show = layout.add_subcommand("show", "A variant's layouts as 64-byte lines and the fields on each");
  show->add_option("kernel", *show_kernel, "Kernel variant name or YAML path")->required();
  show->add_option("--struct", *show_type, "One object type (dentry, inode, vfsmount, ...)");
  show->callback([show_kernel, show_type, &global] {
    const kernel::KernelSpec k = load(*show_kernel, resolve_config_root(global.configs));
    std::cout << "/* " << k.name << ": " << k.description << " */\n";
    if (!show_type->empty()) {
      std::cout << layout::show_layout(layout_of(k, *show_type, "--struct"));
      return;
    }
    for (const auto& [t, l] : k.layouts) std::cout << layout::show_layout(l) << "\n";
  });
}

void add_diff_command(CLI::App& layout, const GlobalOptions& global) {
  auto diff_a = std::make_shared<std::string>();
  auto diff_b = std::make_shared<std::string>();
  auto diff_type = std::make_shared<std::string>();
  auto* diff = layout.add_subcommand("diff", "Which fields two variants put on different lines");
  diff->add_option("a", *diff_a, "Kernel variant name or YAML path")->required();
  diff->add_option("b", *diff_b, "Kernel variant name or YAML path")->required();
  diff->add_option("--struct", *diff_type, "One object type");
  diff->callback([diff_a, diff_b, diff_type, &global] {
    const std::string root = resolve_config_root(global.configs);
    const kernel::KernelSpec a = load(*diff_a, root);
    const kernel::KernelSpec b = load(*diff_b, root);
    std::optional<std::string> type;
    if (!diff_type->empty()) {
      (void)layout_of(a, *diff_type, "--struct");
      type = *diff_type;
    }
    std::cout << layout::show_diff(layout::diff_layouts(a, b, type), a.name, b.name);
  });
}

struct MoveOpts {
  std::string kernel, field, out, swap;
  std::uint32_t line = 0;
  std::optional<std::uint32_t> stride;
  bool grow = false;
};

// The fields --swap-with names, each with or without its type ("dentry.d_op" or "d_op").
std::vector<std::string> swap_partners(const std::string& swap, const std::string& type) {
  std::vector<std::string> with;
  std::size_t start = 0;
  while (start <= swap.size()) {
    const std::size_t comma = swap.find(',', start);
    std::string g = swap.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (g.rfind(type + ".", 0) == 0) g = g.substr(type.size() + 1);  // dentry.d_op or d_op
    with.push_back(g);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return with;
}

// The type's layout with `field` swapped or moved as the options say. A refusal names the flag it
// is about: the one the layout code gives, else the flag that chose the way of moving.
kernel::ObjectLayout moved_layout(const kernel::KernelSpec& k, const MoveOpts& o, const std::string& type,
                                  const std::string& field, bool swapping, layout::Move& done) {
  try {
    const kernel::ObjectLayout& from = layout_of(k, type, "--field");
    if (!from.derived_from.empty()) {
      throw config::ConfigError({}, "--field",
                                "'" + type + "' is laid out from '" + from.derived_from +
                                    "' (the kernel's `filesystems:`); move the field in '" + from.derived_from +
                                    "' instead");
    }
    if (swapping) return layout::swap_fields(from, field, swap_partners(o.swap, type), done);
    return layout::move_field(from, field, o.line, o.grow, o.stride, done);
  } catch (const layout::LayoutError& e) {
    throw config::ConfigError({}, !e.flag().empty() ? e.flag() : swapping ? "--swap-with" : "--to-line", e.what());
  }
}

// `line_given` and `swapping`: whether --to-line and --swap-with were on the command line.
void run_move(const MoveOpts& o, bool line_given, bool swapping, const GlobalOptions& global) {
  const std::string root = resolve_config_root(global.configs);
  if (!line_given && !swapping) {
    throw config::ConfigError({}, "--to-line", "say where the field goes: --to-line N, or --swap-with FIELD[,FIELD]");
  }
  const kernel::KernelSpec k = load(o.kernel, root);
  const std::size_t dot = o.field.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == o.field.size()) {
    throw config::ConfigError({}, "--field", "'" + o.field + "': expected TYPE.FIELD, e.g. dentry.d_name");
  }
  const std::string type = o.field.substr(0, dot);
  const std::string name = stem_of_out(o.out);
  layout::Move done;
  const kernel::ObjectLayout moved = moved_layout(k, o, type, o.field.substr(dot + 1), swapping, done);
  const std::string cmd = command_line({{"", o.kernel},
                                        {"--field", o.field},
                                        {"--to-line", line_given ? std::to_string(o.line) : ""},
                                        {"--grow", "", o.grow},
                                        {"--stride", o.stride ? std::to_string(*o.stride) : ""},
                                        {"--swap-with", o.swap},
                                        {"--out", o.out}},
                                       "move");
  write_checked_kernel(o.out, name, layout::moved_kernel_yaml(k.name, moved, done, name, cmd), root);
  std::cerr << "wrote " << o.out << " (kernel '" << name << "', extends " << k.name << "): " << type << "."
            << done.summary() << "\n";
}

void add_move_command(CLI::App& layout, const GlobalOptions& global) {
  auto mo = std::make_shared<MoveOpts>();
  auto* move = layout.add_subcommand("move", "Write a what-if variant with one field moved to another line");
  move->add_option("kernel", mo->kernel, "Kernel variant name or YAML path")->required();
  move->add_option("--field", mo->field, "TYPE.FIELD, e.g. dentry.d_name")->required();
  auto* to_line = move->add_option("--to-line", mo->line, "The 64-byte line (0 is the object's first)");
  auto* grow = move->add_flag("--grow", mo->grow,
                              "With --to-line, when the line is full: insert the field there and move every byte "
                              "after it down (the struct grows)");
  auto* swap = move->add_option("--swap-with", mo->swap,
                                "Fields of one line that together have the field's size (d_op,d_sb): they change "
                                "places with it");
  auto* stride = move->add_option("--stride", mo->stride,
                                  "With --grow: the slab cache's object size for the grown struct (default: the "
                                  "rule the present stride shows)");
  grow->needs(to_line);
  stride->needs(grow);
  swap->excludes(to_line);
  move->add_option("--out,-o", mo->out, "The kernel YAML to write (its stem is the variant's name)")->required();
  move->callback([mo, to_line, swap, &global] { run_move(*mo, to_line->count() != 0, swap->count() != 0, global); });
}

}  // namespace

void add_layout_command(CLI::App& app, const GlobalOptions& global) {
  auto* layout = app.add_subcommand("layout", "Kernel struct layouts: import from BTF, show, diff, move a field");
  layout->require_subcommand(1);
  add_import_command(*layout, global);
  add_show_command(*layout, global);
  add_diff_command(*layout, global);
  add_move_command(*layout, global);
}

}  // namespace walksim::cli

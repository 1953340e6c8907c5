// gnuplot data, script and process.
#include "tools/experiment/plots.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tools/experiment/output_dir.hpp"

extern char** environ;

namespace walksim::experiment {
namespace fs = std::filesystem;

namespace {

struct Plot {
  const char* file;
  const char* metric;  // the spread's name
  int column;          // of the mean in plot.dat; the standard deviation follows it
  bool log_y;
};
constexpr Plot kPlots[] = {
    {"throughput", "throughput", 2, true}, {"scaling", "scaling_pct", 4, false}, {"ns_per_op", "ns_per_op", 6, true}};
constexpr const char* kTerms[] = {"svg", "png"};

bool any_repeats(const ExperimentResult& r) {
  for (const auto& row : r.rows) {
    if (row.spread("throughput").n > 1) return true;
  }
  return false;
}

// A plot gnuplot finished writing: an SVG ends with its closing tag, a PNG with its IEND chunk.
// (On a full disk gnuplot exits 0 and leaves files cut at a block boundary.)
bool complete(const fs::path& p, const std::string& term) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  const std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (term == "svg") return all.find("</svg>", all.size() > 64 ? all.size() - 64 : 0) != std::string::npos;
  static const std::string iend("IEND\xae\x42\x60\x82", 8);
  return all.size() >= iend.size() && all.compare(all.size() - iend.size(), iend.size(), iend) == 0;
}

// The kernel entries of a varied experiment, in order, each with the series of its combinations
// (the loader expands entries outermost, combinations in order inside).
std::vector<std::pair<std::string, std::vector<std::size_t>>> entries(const ExperimentResult& r) {
  std::vector<std::pair<std::string, std::vector<std::size_t>>> out;
  const auto& s = r.spec;
  for (std::size_t k = 0; k < s.kernels.size(); ++k) {
    if (out.empty() || out.back().first != s.entry_labels[k]) out.push_back({s.entry_labels[k], {}});
    out.back().second.push_back(k);
  }
  return out;
}

const Row* row_of(const ExperimentResult& r, const std::string& label, std::uint32_t threads) {
  for (const auto& row : r.rows) {
    if (row.kernel == label && row.threads == threads) return &row;
  }
  return nullptr;
}

// A file name made of an entry's label: characters other than [A-Za-z0-9._-] become '_'.
std::string file_safe(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ? c : '_';
  return out;
}

}  // namespace

std::string gnuplot_safe(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    const bool special = c == '\'' || c == '"' || c == '`' || c == '\\' || c == '@' || c < 0x20 || c == 0x7f;
    out += special ? '?' : static_cast<char>(c);
  }
  return out;
}

std::string plot_data(const ExperimentResult& r) {
  std::string data =
      "# threads throughput sd scaling_pct sd ns_per_op sd (mean and sample standard deviation over "
      "the repeats)\n";
  for (const auto& k : r.spec.kernels) {
    data += "# " + gnuplot_safe(k) + "\n";
    for (const auto& row : r.rows) {
      if (row.kernel != k) continue;
      const auto& t = row.spread("throughput");
      const auto it = row.metrics.find("scaling_pct");
      const Spread sc = it == row.metrics.end() ? Spread{} : it->second;
      const auto& ns = row.spread("ns_per_op");
      data += fmt::format("{} {} {} {} {} {} {}\n", row.threads, t.mean, t.sd, sc.mean, sc.sd, ns.mean, ns.sd);
    }
    data += "\n\n";
  }
  return data;
}

std::string heat_data(const ExperimentResult& r) {
  const auto& s = r.spec;
  if (s.axes.empty()) return "";
  std::string data =
      s.axes.size() == 1
          ? "# per kernel entry: thread index, value index of " + gnuplot_safe(s.axes[0].key) + ", throughput\n"
          : "# per kernel entry, at the largest thread count: value index of " + gnuplot_safe(s.axes[0].key) + ", of " +
                gnuplot_safe(s.axes[1].key) + ", throughput (the other axes at their first value)\n";
  const std::uint32_t most = *std::max_element(s.threads.begin(), s.threads.end());
  for (const auto& [entry, series] : entries(r)) {
    data += "# " + gnuplot_safe(entry) + "\n";
    if (s.axes.size() == 1) {
      for (std::size_t j = 0; j < series.size(); ++j) {
        for (std::size_t i = 0; i < s.threads.size(); ++i) {
          const Row* row = row_of(r, s.kernels[series[j]], s.threads[i]);
          data += fmt::format("{} {} {}\n", i, j, row ? row->value("throughput") : 0.0);
        }
        data += "\n";
      }
    } else {
      // Combinations run with the first axis slowest: the series at (a, b, 0, ...) is a * stride + b * stride2.
      std::size_t stride1 = 1;
      for (std::size_t i = 2; i < s.axes.size(); ++i) stride1 *= s.axes[i].values.size();
      const std::size_t stride0 = stride1 * s.axes[1].values.size();
      for (std::size_t b = 0; b < s.axes[1].values.size(); ++b) {
        for (std::size_t a = 0; a < s.axes[0].values.size(); ++a) {
          const Row* row = row_of(r, s.kernels[series[a * stride0 + b * stride1]], most);
          data += fmt::format("{} {} {}\n", a, b, row ? row->value("throughput") : 0.0);
        }
        data += "\n";
      }
    }
    data += "\n";
  }
  return data;
}

std::vector<std::string> plot_files(const ExperimentResult& r) {
  std::vector<std::string> out;
  for (const Plot& p : kPlots) out.emplace_back(p.file);
  if (!r.spec.axes.empty()) {
    for (const auto& [entry, series] : entries(r)) out.push_back("heatmap-" + file_safe(entry));
  }
  return out;
}

namespace {

// gnuplot tics naming positions 0, 1, ... with `labels`.
std::string tics(const std::vector<std::string>& labels) {
  std::string t = "(";
  for (std::size_t i = 0; i < labels.size(); ++i)
    t += fmt::format("{}'{}' {}", i ? ", " : "", gnuplot_safe(labels[i]), i);
  return t + ")";
}

std::string heat_script(const ExperimentResult& r, const std::string& set_term, const char* term) {
  const auto& s = r.spec;
  std::vector<std::string> thread_labels, a0, a1;
  for (std::uint32_t t : s.threads) thread_labels.push_back(std::to_string(t));
  for (const auto& v : s.axes[0].values) a0.push_back(v.label);
  if (s.axes.size() > 1) {
    for (const auto& v : s.axes[1].values) a1.push_back(v.label);
  }
  const std::string unit = r.rows.empty() ? "" : r.rows.front().throughput_unit;
  const std::uint32_t most = *std::max_element(s.threads.begin(), s.threads.end());
  std::string script;
  std::size_t index = 0;
  for (const auto& [entry, series] : entries(r)) {
    script += set_term + "\n";
    script += fmt::format("set output 'heatmap-{}.{}'\n", file_safe(entry), term);
    if (s.axes.size() == 1) {
      script += fmt::format("set title '{}: throughput ({}) by threads and {}' noenhanced\n", gnuplot_safe(entry),
                            gnuplot_safe(unit), gnuplot_safe(s.axes[0].key));
      script += "set xlabel 'threads'\nset xtics " + tics(thread_labels) + "\n";
      script += fmt::format("set ylabel '{}' noenhanced\nset ytics {}\n", gnuplot_safe(s.axes[0].key), tics(a0));
    } else {
      script += fmt::format("set title '{}: throughput ({}) at {} threads' noenhanced\n", gnuplot_safe(entry),
                            gnuplot_safe(unit), most);
      script += fmt::format("set xlabel '{}' noenhanced\nset xtics {}\n", gnuplot_safe(s.axes[0].key), tics(a0));
      script += fmt::format("set ylabel '{}' noenhanced\nset ytics {}\n", gnuplot_safe(s.axes[1].key), tics(a1));
    }
    // A light palette, so that the values printed on the cells stay readable.
    script +=
        "unset logscale x\nunset logscale y\nunset grid\nset logscale cb\nset cblabel 'throughput' noenhanced\n"
        "set palette defined (0 '#ffffff', 1 '#3d7cc9')\n"
        "set offsets 0, 0, 0, 0\nset autoscale xfix\nset autoscale yfix\nunset key\n";
    script += fmt::format(
        "plot 'heat.dat' index {} using 1:2:3 with image, '' index {} using 1:2:(sprintf('%.4g', $3)) "
        "with labels\n",
        index, index);
    script +=
        "unset output\nunset logscale cb\nunset cblabel\nunset xtics\nunset ytics\nset xtics\nset ytics\n"
        "set palette defined\n";
    ++index;
  }
  return script;
}

}  // namespace

std::string plot_script(const ExperimentResult& r) {
  const std::string unit = r.rows.empty() ? "" : r.rows.front().throughput_unit;
  const bool bars = any_repeats(r);
  const std::string title =
      gnuplot_safe(fmt::format("{} on {} ({})", r.spec.name, r.spec.machine, r.spec.workload)) +
      (bars ? gnuplot_safe(fmt::format(", mean and standard deviation of {} repeats", r.spec.repeats)) : "");
  std::string script = "# Re-run in this directory with: gnuplot plot.gp\n";
  for (const char* term : kTerms) {
    const std::string set_term = std::string(term) == "svg" ? "set terminal svg size 800,500 dynamic noenhanced"
                                                            : "set terminal pngcairo size 800,500 noenhanced";
    for (const Plot& p : kPlots) {
      const std::string ylabel = std::string(p.file) == "throughput" ? "throughput (" + gnuplot_safe(unit) + ")"
                                 : std::string(p.file) == "scaling"  ? "scaling % (throughput(N) / (N x throughput(1)))"
                                                                     : "ns per operation";
      script += set_term + "\n";
      script += fmt::format("set output '{}.{}'\n", p.file, term);
      script += fmt::format("set title '{}' noenhanced\n", title);
      // Offsets keep the first and last points (and their error bars) off the frame.
      script +=
          "set xlabel 'threads'\nset key left top noenhanced\nset grid\nset logscale x 2\n"
          "set offsets graph 0.03, graph 0.03, 0, 0\n";
      script += p.log_y ? "set logscale y\n" : "unset logscale y\n";
      script += fmt::format("set ylabel '{}' noenhanced\n", ylabel);
      script += "plot ";
      for (std::size_t k = 0; k < r.spec.kernels.size(); ++k) {
        script += fmt::format("{}'plot.dat' index {} using 1:{}{} with {} title '{}'", k ? ", " : "", k, p.column,
                              bars ? fmt::format(":{}", p.column + 1) : "", bars ? "yerrorlines" : "linespoints",
                              gnuplot_safe(r.spec.kernels[k]));
      }
      script += "\nunset output\n";
    }
    if (!r.spec.axes.empty()) script += heat_script(r, set_term, term);
  }
  return script;
}

std::string run_gnuplot(const std::string& dir, const std::vector<std::string>& files) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  char arg0[] = "gnuplot", arg1[] = "plot.gp";
  char* argv[] = {arg0, arg1, nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == ENOENT) {
    std::error_code ec;
    fs::remove(fs::path(dir) / "gnuplot.log", ec);
    return "gnuplot is not installed: plots skipped (apt-get install gnuplot-nox); plot.gp and plot.dat are written";
  }
  if (rc != 0) return std::string("gnuplot could not be started (") + std::strerror(rc) + "): plots skipped";
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::error_code ec;
    for (const auto& p : files) {
      for (const char* term : kTerms) fs::remove(fs::path(dir) / fmt::format("{}.{}", p, term), ec);
    }
    return "gnuplot failed: plots skipped (see gnuplot.log); the data is in plot.dat";
  }
  for (const auto& p : files) {
    for (const char* term : kTerms) {
      const fs::path f = fs::path(dir) / fmt::format("{}.{}", p, term);
      if (!complete(f, term)) {
        throw OutputError("cannot write the plot " + f.filename().string() +
                          ": gnuplot left it incomplete (disk full?)");
      }
    }
  }
  std::error_code ec;
  if (fs::file_size(fs::path(dir) / "gnuplot.log", ec) == 0 && !ec) fs::remove(fs::path(dir) / "gnuplot.log", ec);
  return files.size() > 3 ? "plots: throughput, scaling, ns_per_op and " + std::to_string(files.size() - 3) +
                                " heat map(s) (.svg and .png)"
                          : "plots: throughput, scaling and ns_per_op (.svg and .png)";
}

}  // namespace walksim::experiment

// What the output layer writes can be trusted (robustness review, defects 1, 10, 19): CSV fields
// are quoted, gnuplot sees no string it could run, every write is checked (close included), an
// incomplete plot is an error, and a negative or non-finite number never reaches results.json.
#include "tools/experiment/writers.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/experiment/experiment_spec.hpp"
#include "tools/experiment/plots.hpp"
#include "tools/experiment/validation_plot.hpp"

namespace walksim::experiment {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = std::string(WALKSIM_SOURCE_DIR) + "/configs";

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Splits one CSV record as RFC 4180 reads it.
std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out{""};
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

ExperimentResult small_result(const std::string& label) {
  auto spec = load_experiment(std::string(WALKSIM_SOURCE_DIR) + "/tools/experiment/testdata/small.yaml", kRoot);
  spec.kernels[0] = label;
  return run_experiment(spec, kRoot, 2);
}

struct TempDir {
  fs::path path;
  TempDir() : path(fs::temp_directory_path() / ("walksim-writers-" + std::to_string(getpid()))) {
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(Writers, ALabelWithACommaAQuoteAndALineBreakStaysOneCsvField) {
  const std::string label = "2.6.38, \"prefetch\"\nsecond line";
  const auto r = small_result(label);
  TempDir t;
  OutputDir out(t.path.string(), false);
  write_outputs(r, out, "test", "test");
  out.commit();
  std::istringstream csv(read(t.path / "results.csv"));
  std::string record, line;
  std::size_t rows = 0;
  std::getline(csv, line);
  const std::size_t columns = csv_split(line).size();
  bool open = false;
  while (std::getline(csv, line)) {
    record = open ? record + "\n" + line : line;
    open = std::count(record.begin(), record.end(), '"') % 2 == 1;
    if (open) continue;
    const auto fields = csv_split(record);
    EXPECT_EQ(fields.size(), columns) << record;
    if (fields[2] == "throughput" && fields[1] == "1") {
      EXPECT_TRUE(fields[0] == label || fields[0] == "linux-2.6.38") << fields[0];
    }
    ++rows;
  }
  EXPECT_GT(rows, 10u);
}

TEST(Writers, NoQuoteBackquoteMacroOrLineBreakOfALabelReachesTheGnuplotScript) {
  const std::string label = "a' ; system 'touch PWNED' ; `id` @macro \\ \"q\"\nplot";
  EXPECT_EQ(gnuplot_safe(label), "a? ; system ?touch PWNED? ; ?id? ?macro ? ?q??plot");
  ExperimentResult r = small_result(label);
  const std::string script = plot_script(r);
  EXPECT_NE(script.find("title 'a? ; system ?touch PWNED? ; ?id? ?macro ? ?q??plot'"), std::string::npos) << script;
  std::istringstream lines(script);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_EQ(std::count(line.begin(), line.end(), '\'') % 2, 0) << line;  // every string closed on its line
    EXPECT_EQ(line.find('`'), std::string::npos) << line;
  }
  EXPECT_EQ(plot_data(r).find('\''), std::string::npos);
}

TEST(Writers, AWriteThatFailsAtCloseIsAnError) {
  EXPECT_THROW(write_checked("/dev/full", std::string(1 << 16, 'x')), OutputError);
}

// A stand-in for gnuplot on PATH (posix_spawnp finds it), to see what walksim does with its output.
struct FakeGnuplot {
  fs::path dir = fs::temp_directory_path() / ("walksim-fake-gnuplot-" + std::to_string(getpid()));
  std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  explicit FakeGnuplot(const std::string& body) {
    fs::create_directories(dir);
    std::ofstream(dir / "gnuplot") << "#!/bin/sh\n" << body << "\n";
    fs::permissions(dir / "gnuplot", fs::perms::owner_all);
    setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  }
  ~FakeGnuplot() {
    setenv("PATH", old_path.c_str(), 1);
    fs::remove_all(dir);
  }
};

TEST(Writers, APlotThatGnuplotLeftIncompleteIsAnErrorNotAResult) {
  // gnuplot on a full disk: exit 0, files cut at a block boundary.
  FakeGnuplot fake(
      "for f in throughput scaling ns_per_op; do printf '<svg>' > $f.svg; printf 'PNG' > $f.png; done; exit 0");
  const auto r = small_result("k");
  TempDir t;
  OutputDir out(t.path.string(), false);
  EXPECT_THROW(write_outputs(r, out, "test", "test"), OutputError);
}

TEST(Writers, AFailingGnuplotSkipsThePlotsAndSaysSo) {
  FakeGnuplot fake("echo 'no font' >&2; printf 'half' > throughput.svg; exit 1");
  const auto r = small_result("k");
  TempDir t;
  OutputDir out(t.path.string(), false);
  const std::string note = write_outputs(r, out, "test", "test");
  EXPECT_NE(note.find("gnuplot failed"), std::string::npos) << note;
  EXPECT_FALSE(fs::exists(fs::path(out.tmp()) / "throughput.svg"));
  EXPECT_NE(read(fs::path(out.tmp()) / "gnuplot.log").find("no font"), std::string::npos);
}

// One name per quantity: every metric of the table that a row carries is in results.json's row
// under its name, in its spread when it has one, and in results.csv's metric column.
TEST(Writers, EveryMetricOfTheTableReachesResultsJsonAndResultsCsvUnderItsName) {
  const auto r = small_result("k");
  const auto j = results_json(r, "t");
  TempDir tmp;
  OutputDir dir(tmp.path.string(), false);
  write_outputs(r, dir, "t", "test");
  const std::string csv = read(fs::path(dir.tmp()) / "results.csv");
  std::size_t carried = 0;
  for (const auto& m : metric_defs()) {
    if (m.carried != Carried::kAlways) {
      EXPECT_FALSE(j["rows"][0].contains(m.name)) << m.name << " without a calibration";
      continue;
    }
    ++carried;
    EXPECT_TRUE(j["rows"][0].contains(m.name)) << m.name;
    if (m.aggregate == Aggregate::kMean) {
      EXPECT_TRUE(j["rows"][0]["spread"].contains(m.name)) << m.name;
    }
    EXPECT_NE(csv.find(std::string(",") + m.name + ","), std::string::npos) << m.name;
  }
  EXPECT_GE(carried, 20u);
  for (const auto& f : kernel::kWalkStatsFields) {
    EXPECT_TRUE(j["rows"][0].contains(f.name)) << f.name;
    EXPECT_NE(csv.find(std::string(",") + f.name + ","), std::string::npos) << f.name;
  }
}

TEST(Writers, ANegativeOrNonFiniteNumberNeverReachesResultsJson) {
  ExperimentResult r = small_result("k");
  r.rows[0].metrics["cpu_s"].mean = -8.4e6;  // what an overflowed time gave before the checks
  EXPECT_THROW(results_json(r, "test"), std::logic_error);
  r = small_result("k");
  r.rows[0].metrics["ns_per_op"].mean = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(results_json(r, "test"), std::logic_error);
}

TEST(Writers, TheSummaryShowsTheSpreadOfEveryPointAndSaysWhyItIsZero) {
  const auto r = small_result("k");
  std::ostringstream out;
  print_summary(r, out);
  EXPECT_NE(out.str().find("±0%"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("stat-loop never draws a random number"), std::string::npos) << out.str();
}

TEST(Writers, AByteScalingAbove100PercentIsMarkedWithItsPerOperationScaling) {
  ExperimentResult r = small_result("k");
  for (auto& x : r.rows) {
    x.throughput_unit = "MB/s";
    if (x.threads == 2) {
      x.metrics["scaling_pct"].mean = 111.5;
      x.metrics["op_scaling_pct"].mean = 99.2;
    }
  }
  std::ostringstream out;
  print_summary(r, out);
  EXPECT_NE(out.str().find(" b\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("per operation it is k x2 99.2%"), std::string::npos) << out.str();
}

TEST(Writers, SmtPointsAreMarked) {
  ExperimentResult r = small_result("k");
  r.rows.back().metrics["smt_cores"].mean = 4;
  std::ostringstream out;
  print_summary(r, out);
  EXPECT_NE(out.str().find(" S\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("smt_throughput"), std::string::npos) << out.str();
  EXPECT_EQ(results_json(r, "t")["rows"].back()["smt_cores"], 4);
}

}  // namespace
}  // namespace walksim::experiment

namespace walksim::experiment {
namespace {

TEST(WritersVary, EachAxisIsAColumnOfResultsCsvAndAKeyOfEveryRowAndTheHeatMapsAreWritten) {
  const auto path = fs::temp_directory_path() / ("walksim-writers-vary-" + std::to_string(getpid()) + ".yaml");
  {
    std::ifstream in(std::string(WALKSIM_SOURCE_DIR) + "/tools/experiment/testdata/small.yaml");
    std::stringstream text;
    text << in.rdbuf();
    std::ofstream(path) << text.str() << "vary:\n  machine.memory.dram_access: [40ns, 80ns]\n";
  }
  const auto spec = load_experiment(path.string(), kRoot);
  fs::remove(path);
  const auto r = run_experiment(spec, kRoot, 2);
  const auto j = results_json(r, "t");
  ASSERT_EQ(j["config"]["vary"].size(), 1u);
  EXPECT_EQ(j["config"]["vary"][0]["key"], "machine.memory.dram_access");
  EXPECT_EQ(j["rows"][0]["axes"]["machine.memory.dram_access"], "40ns");
  EXPECT_EQ(j["rows"].back()["axes"]["machine.memory.dram_access"], "80ns");
  TempDir tmp;
  OutputDir dir(tmp.path.string(), false);
  write_outputs(r, dir, "t", "test");
  const std::string csv = read(fs::path(dir.tmp()) / "results.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header, "kernel,machine.memory.dram_access,threads,metric,value,unit,sd,min,max,n");
  const std::string first = csv.substr(header.size() + 1, csv.find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_EQ(csv_split(first)[1], "40ns");
  EXPECT_EQ(plot_files(r).size(), 3u + 2u);  // two kernel entries: a heat map each
  EXPECT_NE(heat_data(r).find("# "), std::string::npos);
}

}  // namespace
}  // namespace walksim::experiment

namespace walksim::experiment {
namespace {

TEST(ValidationPlot, PredictionsInAndOutOfToleranceAndCalibrationsAreThreeBlocksAndNothingUnsafeReachesTheScript) {
  ValidationReport r;
  ValidationRow a;
  a.id = "v-'x`";
  a.published = 100;
  a.predicted = 110;
  a.role = "prediction";
  a.pass = true;
  ValidationRow b = a;
  b.id = "v-b";
  b.predicted = 300;
  b.pass = false;
  ValidationRow c = a;
  c.id = "v-c";
  c.role = "calibration";
  ValidationRow d = a;
  d.id = "v-d";
  d.predicted = std::nan("");  // no prediction: left out, and said so
  r.rows = {a, b, c, d};
  const std::string data = validation_plot_data(r);
  const auto first = data.find("\n\n\n");
  ASSERT_NE(first, std::string::npos);
  EXPECT_NE(data.substr(0, first).find("100 110 \"v-?x?\""), std::string::npos) << data;
  const auto second = data.find("\n\n\n", first + 3);
  EXPECT_NE(data.substr(first, second - first).find("100 300 \"v-b\""), std::string::npos) << data;
  EXPECT_NE(data.substr(second).find("\"v-c\""), std::string::npos) << data;
  EXPECT_EQ(data.find("v-d"), std::string::npos);
  const std::string script = validation_plot_script(r);
  EXPECT_NE(script.find("1 of 2 predictions within tolerance (1 figure(s) without a positive prediction left out)"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("set logscale xy"), std::string::npos);
  EXPECT_NE(script.find("set output 'validation.png'"), std::string::npos);
}

// A stat loop's processes start together and run at one speed, so nearly all of their measured
// stats fall in the common window and no row is marked; a row whose share is low is marked `w`
// and the note says what it means.
TEST(Writers, AThroughputCountedOverAShortCommonWindowIsMarked) {
  ExperimentResult r = small_result("k");
  std::ostringstream plain;
  print_summary(r, plain);
  for (const auto& x : r.rows) EXPECT_GT(x.value("window_share"), 0.9) << x.kernel << " x" << x.threads;
  EXPECT_EQ(plain.str().find("window in which every process was measuring"), std::string::npos) << plain.str();
  r.rows.back().metrics["window_share"].mean = 0.12;
  std::ostringstream out;
  print_summary(r, out);
  EXPECT_NE(out.str().find(" w\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("lengthen the run"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace walksim::experiment

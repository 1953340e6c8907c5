#include "tools/experiment/validation_plot.hpp"

#include <fmt/core.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tools/experiment/output_dir.hpp"
#include "tools/experiment/plots.hpp"

namespace walksim::experiment {
namespace fs = std::filesystem;

namespace {

bool drawable(const ValidationRow& x) { return std::isfinite(x.predicted) && x.predicted > 0 && x.published > 0; }

}  // namespace

std::string validation_plot_data(const ValidationReport& r) {
  std::string data =
      "# published predicted id (blocks: predictions within tolerance, outside it, calibration inputs)\n";
  for (int block = 0; block < 3; ++block) {
    data += block == 0 ? "# within tolerance\n" : block == 1 ? "# outside tolerance\n" : "# calibration inputs\n";
    bool any = false;
    for (const auto& x : r.rows) {
      const int b = x.role == "calibration" ? 2 : (x.pass ? 0 : 1);
      if (b != block || !drawable(x)) continue;
      data += fmt::format("{:.6g} {:.6g} \"{}\"\n", x.published, x.predicted, gnuplot_safe(x.id));
      any = true;
    }
    // gnuplot needs something in every block it is told to plot: a point off the axes.
    if (!any) data += "NaN NaN \"\"\n";
    data += "\n\n";
  }
  return data;
}

std::string validation_plot_script(const ValidationReport& r) {
  double lo = 1e300, hi = 0;
  std::size_t pass = 0, predictions = 0, left_out = 0;
  for (const auto& x : r.rows) {
    if (!drawable(x)) {
      ++left_out;
      continue;
    }
    lo = std::min({lo, x.published, x.predicted});
    hi = std::max({hi, x.published, x.predicted});
    if (x.role != "calibration") {
      ++predictions;
      pass += x.pass;
    }
  }
  if (hi <= 0) lo = 1, hi = 10;
  lo /= 2;
  hi *= 2;
  const std::string title =
      fmt::format("walksim validate: {} of {} predictions within tolerance{}", pass, predictions,
                  left_out ? fmt::format(" ({} figure(s) without a positive prediction left out)", left_out) : "");
  std::string s = "# gnuplot plot.gp, beside validation.dat\n";
  for (const char* term : {"svg", "png"}) {
    s += std::string(term) == "svg" ? "set terminal svg size 1000,800 dynamic noenhanced font 'sans,11'\n"
                                    : "set terminal pngcairo size 1000,800 noenhanced font 'sans,10'\n";
    s += fmt::format("set output 'validation.{}'\n", term);
    s += fmt::format("set title '{}' noenhanced\n", gnuplot_safe(title));
    s += "set xlabel 'published (its own unit: ns, s, MB/s, operations/s, %)'\nset ylabel 'predicted (same unit)'\n";
    s += "set logscale xy\nset grid\nset key left top\nset size square\n";
    s += fmt::format("set xrange [{:.6g}:{:.6g}]\nset yrange [{:.6g}:{:.6g}]\n", lo, hi, lo, hi);
    s += "set samples 200\n";
    s += "plot '+' using 1:($1*0.75):($1*1.25) with filledcurves lc rgb '#dce8f5' title 'within 25% (scaling rows: 5 "
         "points)', "
         "x with lines lc rgb '#4a6f9c' title 'predicted = published', "
         "'validation.dat' index 0 using 1:2 with points pt 7 ps 0.8 lc rgb '#2a8a3a' title 'prediction within "
         "tolerance', "
         "'' index 1 using 1:2 with points pt 5 ps 0.8 lc rgb '#c0392b' title 'prediction outside tolerance', "
         "'' index 2 using 1:2 with points pt 6 ps 1.2 lc rgb '#000000' title 'calibration input (fitted)', "
         "'' index 0 using 1:2:3 with labels font ',6' offset char 0.6,0.4 left tc rgb '#555555' notitle, "
         "'' index 1 using 1:2:3 with labels font ',6' offset char 0.6,0.4 left tc rgb '#555555' notitle, "
         "'' index 2 using 1:2:3 with labels font ',6' offset char 0.6,0.4 left tc rgb '#555555' notitle\n";
    s += "unset output\n";
  }
  return s;
}

std::string write_validation_plot(const ValidationReport& r, const std::string& doc) {
  std::string tmpl = (fs::temp_directory_path() / "walksim-validation-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw OutputError("cannot make a temporary directory for the validation picture");
  const fs::path tmp(tmpl);
  struct Remove {
    fs::path p;
    ~Remove() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{tmp};
  write_checked((tmp / "validation.dat").string(), validation_plot_data(r));
  write_checked((tmp / "plot.gp").string(), validation_plot_script(r));
  std::string note = run_gnuplot(tmp.string(), {"validation"});
  if (!fs::exists(tmp / "validation.svg")) return note;  // no gnuplot, or it failed: the note says which
  const fs::path dir = fs::path(doc).parent_path();
  for (const char* ext : {"svg", "png"}) {
    std::ifstream in(tmp / fmt::format("validation.{}", ext), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    replace_file((dir / fmt::format("validation.{}", ext)).string(), bytes, "--doc");
  }
  return "wrote " + (dir / "validation.svg").string() + " and validation.png";
}

}  // namespace walksim::experiment

// The plots of an experiment: plot.dat (one block per kernel, with each metric's spread over the
// repeats), plot.gp (a gnuplot script with relative names, so it can be re-run in the results
// directory), and gnuplot itself, started without a shell. No string from an experiment file
// reaches the script unescaped: labels and titles are reduced to characters gnuplot gives no
// meaning to inside single quotes, so that opening someone's experiment cannot run their commands.
#pragma once

#include <string>
#include <vector>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

// `s` as gnuplot may show it inside single quotes: quotes, backquotes, backslashes, '@' (macros)
// and control characters become '?'.
std::string gnuplot_safe(const std::string& s);

std::string plot_data(const ExperimentResult& r);
// With vary: heat.dat, one block per kernel entry: throughput over (thread count x the axis's
// values) with one axis, over (first axis x second axis) at the largest thread count with more.
// Empty without axes.
std::string heat_data(const ExperimentResult& r);
std::string plot_script(const ExperimentResult& r);
// The names of the files plot.gp makes (without .svg/.png): throughput, scaling, ns_per_op, and a
// heatmap-<entry> per kernel entry with vary:.
std::vector<std::string> plot_files(const ExperimentResult& r);

// Runs `gnuplot plot.gp` in `dir` (execvp through posix_spawn; no shell), stderr to gnuplot.log,
// and checks that every plot of `files` (as plot_files names them) is there and complete. Returns
// a note for the user: the plots written, or why not.
std::string run_gnuplot(const std::string& dir, const std::vector<std::string>& files);

}  // namespace walksim::experiment

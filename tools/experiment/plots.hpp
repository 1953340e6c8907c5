// The plots of an experiment: plot.dat (one block per kernel, with each metric's spread over the
// repeats), plot.gp (a gnuplot script with relative names, so it can be re-run in the results
// directory), and gnuplot itself, started without a shell. No string from an experiment file
// reaches the script unescaped: labels and titles are reduced to characters gnuplot gives no
// meaning to inside single quotes, so that opening someone's experiment cannot run their commands.
#pragma once

#include <string>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

// `s` as gnuplot may show it inside single quotes: quotes, backquotes, backslashes, '@' (macros)
// and control characters become '?'.
std::string gnuplot_safe(const std::string& s);

std::string plot_data(const ExperimentResult& r);
std::string plot_script(const ExperimentResult& r);

// Runs `gnuplot plot.gp` in `dir` (execvp through posix_spawn; no shell), stderr to gnuplot.log,
// and checks that every plot it should have made is there and not empty. Returns a note for the
// user: the plots written, or why not.
std::string run_gnuplot(const std::string& dir);

}  // namespace walksim::experiment

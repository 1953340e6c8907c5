// The validation picture: every published figure's prediction against its measurement, on log-log
// axes, with the 25% tolerance band around predicted = published, predictions inside and outside
// their tolerance and the calibration inputs drawn apart, each point labelled by its experiment.
#pragma once

#include <string>

#include "tools/experiment/validation.hpp"

namespace walksim::experiment {

// validation.dat: three blocks (predictions within tolerance, outside it, calibration inputs):
// published, predicted, the experiment's name. Figures with no positive prediction are left out.
std::string validation_plot_data(const ValidationReport& r);
// validation.gp: writes validation.svg and validation.png beside itself.
std::string validation_plot_script(const ValidationReport& r);
// Draws the picture and puts validation.svg and validation.png beside `doc` (docs/validation.md),
// each replacing the old one whole. Returns a note: what was written, or why not (no gnuplot).
std::string write_validation_plot(const ValidationReport& r, const std::string& doc);

}  // namespace walksim::experiment

// Where dbench's netbench loadfile puts its names and what it lists, per directory of the client's
// tree: the census of client_plain.txt (sahlberg/dbench @52233eed, 122,877 lines) that
// scripts/dbench-census.py prints. The synthetic loadfile takes its directory sizes and the
// directories its operations name from it, so that its listings read as many entries as dbench's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/workload/apportion.hpp"
#include "sim/rng.hpp"

namespace walksim::workload::dbench {

struct CensusDir {
  const char* name;            // below the client's directory; the first is ~dmtmp, then its nine
  double avg_entries;          // entries, averaged over the pass's operations
  double open;                 // opens of an existing file in it
  double create;               // successful FILE_CREATEs of a file
  double rename;               // renames within it
  double open_missing;         // failing FILE_OPENs
  double open_before_create;   // of those, the ones the create of the same name follows
  double qpath_missing;        // QUERY_PATH_INFORMATION of a name not there
  double qpath_before_create;  // of those, the ones the create of the same name follows
  double find_first;           // FIND_FIRST listings of it
};

// ~dmtmp, then the nine netbench directories in the order of ClientTree::dirs. Fourteen of the pass's
// 12,841 listings (of the client's own directory) and 13 queries below a directory that never
// exists (EXCEL/XLSTART, which list nothing) are left out.
inline constexpr std::array<CensusDir, 10> kCensus = {{
    {"~dmtmp", 8.97, 0, 0, 0, 105, 0, 40, 0, 2844},
    {"PARADOX", 23.75, 5474, 258, 14, 504, 154, 812, 126, 15},
    {"PM", 3.03, 273, 484, 0, 1014, 26, 299, 13, 15},
    {"COREL", 11.49, 588, 165, 56, 84, 84, 294, 196, 15},
    {"WORDPRO", 8.75, 280, 213, 70, 210, 210, 294, 98, 15},
    {"PWRPNT", 5.65, 812, 173, 56, 84, 84, 84, 28, 15},
    {"WORD", 4.31, 364, 129, 84, 0, 0, 336, 56, 15},
    {"EXCEL", 2.44, 208, 210, 78, 104, 104, 364, 130, 15},
    {"ACCESS", 2.51, 28, 99, 0, 84, 84, 56, 42, 15},
    {"SEED", 2.98, 288, 3, 0, 0, 0, 0, 0, 15},
}};

// QUERY_PATH_INFORMATIONs of the pass, and of the ones that find their name, those naming a
// directory (the census' qpath_dir column: 345 of 3,679).
inline constexpr double kCensusQueryPaths = 6269;
inline constexpr double kCensusQueryPathHits = 3679;
inline constexpr double kCensusQueryPathDirs = 345;
// Entries the pass's directory listings read, per operation (the census' last line).
inline constexpr double kCensusEntriesListedPerOp = 0.974;

// A column of the census as weights over the tree's directories (~dmtmp, then the nine); the
// second form, one column less another (the failing opens that do not lead up to a create).
std::vector<double> weights(double CensusDir::*column);
std::vector<double> weights_without(double CensusDir::*all, double CensusDir::*part);
// The column's sum over the directories.
double census_sum(double CensusDir::*column);

// The indices 0..counts.size() each repeated counts[i] times, in random order.
std::vector<std::size_t> shuffled_indices(const std::vector<std::uint64_t>& counts, sim::Rng& rng);

}  // namespace walksim::workload::dbench

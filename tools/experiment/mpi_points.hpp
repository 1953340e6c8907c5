// walksim under mpirun: rank 0 runs the experiment and hands its points out to the other ranks,
// one at a time to whichever frees up; the other ranks simulate what they are given. Messages are
// the points' text (runner.hpp's RemotePoints and PointServer); nothing else crosses. MPI is used
// only when mpirun started the process (its environment says so): the same binary runs alone
// without it. docs/experiments.md, "Many hosts".
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "tools/experiment/runner.hpp"

namespace walksim::experiment {

struct MpiLaunch {
  int rank = 0;
  int size = 1;
};
// The rank and size mpirun gave this process (OMPI_COMM_WORLD_* or PMI_*), or nullopt when it was
// not started by mpirun. Reads the environment only.
std::optional<MpiLaunch> mpi_launch();

// Whether this walksim was built with Open MPI.
bool mpi_built();

// MPI_Init on construction, MPI_Finalize on destruction (unless abandon() was called: after a rank
// died, finalising could wait for it forever).
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank 0, once the run is over (or failed): every other rank's server returns.
  void stop_workers();
  void abandon() { finalize_ = false; }
  std::unique_ptr<RemotePoints> remote_points();  // rank 0
  std::unique_ptr<PointServer> point_server();    // ranks 1..

 private:
  int rank_ = 0, size_ = 1;
  bool finalize_ = true;
  bool stopped_ = false;
};

}  // namespace walksim::experiment

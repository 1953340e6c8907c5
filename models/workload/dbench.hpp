// dbench's workload, declared here so that tests can read the loadfile a client replays; the
// experiment layer knows it only as a Workload made from kDbenchKind.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "models/workload/dbench_loadfile.hpp"
#include "models/workload/workload.hpp"

namespace walksim::workload::dbench {

struct DbenchParams {
  LoadfileParams loadfile;
  Picos user = 0;                   // user-space time per loadfile operation
  bool acl = false;                 // a cached POSIX ACL on every directory of the tree
  bool distinct_loadfiles = false;  // each client its own loadfile (dbench: all clients replay one)
  std::string cwd = "/mnt/ram";
};

class Dbench final : public PerProcessWorkload {
 public:
  explicit Dbench(DbenchParams p) : p_(std::move(p)) {}

  void build(kernel::Vfs& vfs, const std::vector<CpuId>& cpus, const RunControl& control, sim::Rng& rng) override;
  std::string op_unit() const override { return "dbench op"; }
  bool set_user_time(Picos t) override {
    p_.user = t;
    return true;
  }
  bool reports_bytes() const override { return true; }
  std::string check_run(std::uint32_t threads, std::uint32_t nodes, std::uint32_t cpus) const override;
  ResolvedParams params() const override;

  // The loadfile client `client` replays, once built; nullptr for a client it does not have.
  const std::vector<LoadOp>* loadfile(std::size_t client) const {
    return client < client_loadfile_.size() ? &loadfiles_[client_loadfile_[client]] : nullptr;
  }

 private:
  DbenchParams p_;
  std::vector<ClientTree> trees_;
  std::deque<std::vector<LoadOp>> loadfiles_;  // a deque: sources keep references
  std::vector<std::size_t> client_loadfile_;
};

}  // namespace walksim::workload::dbench

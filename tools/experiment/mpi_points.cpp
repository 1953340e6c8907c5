#include "tools/experiment/mpi_points.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#ifdef WALKSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace walksim::experiment {

namespace {

std::optional<int> env_int(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  try {
    return std::stoi(v);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

#ifdef WALKSIM_HAVE_MPI
constexpr int kJob = 1, kResult = 2, kStop = 3;

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Waits for a message matching (source, tag) without spinning a core: idle ranks would otherwise
// take the CPU from the ranks simulating on an oversubscribed host. False when `stop` was set first.
bool wait_for(int source, int tag, MPI_Status& st, const std::atomic<bool>* stop) {
  for (int idle = 0;; ++idle) {
    int flag = 0;
    check(MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st), "MPI_Iprobe");
    if (flag) return true;
    if (stop && stop->load()) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(idle < 100 ? 50 : 1000));
  }
}

std::string receive_text(const MPI_Status& st) {
  int n = 0;
  check(MPI_Get_count(&st, MPI_CHAR, &n), "MPI_Get_count");
  std::string text(static_cast<std::size_t>(n), '\0');
  check(MPI_Recv(text.data(), n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
  return text;
}

void send_text(int dest, int tag, const std::string& text) {
  check(MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, dest, tag, MPI_COMM_WORLD), "MPI_Send");
}

class MpiRemote final : public RemotePoints {
 public:
  explicit MpiRemote(int size) : size_(size) {}
  unsigned workers() const override { return static_cast<unsigned>(size_ - 1); }
  std::string worker_name(unsigned w) const override { return "rank " + std::to_string(w + 1); }
  void send(unsigned w, const std::string& job) override { send_text(static_cast<int>(w) + 1, kJob, job); }
  std::optional<std::pair<unsigned, std::string>> receive(const std::atomic<bool>& stop) override {
    MPI_Status st;
    if (!wait_for(MPI_ANY_SOURCE, kResult, st, &stop)) return std::nullopt;
    const std::string text = receive_text(st);
    return std::make_pair(static_cast<unsigned>(st.MPI_SOURCE - 1), text);
  }

 private:
  int size_;
};

class MpiServer final : public PointServer {
 public:
  std::optional<std::string> next_job() override {
    MPI_Status st;
    wait_for(0, MPI_ANY_TAG, st, nullptr);
    const std::string text = receive_text(st);
    if (st.MPI_TAG == kStop) return std::nullopt;
    return text;
  }
  void reply(const std::string& result) override { send_text(0, kResult, result); }
};
#endif

}  // namespace

std::optional<MpiLaunch> mpi_launch() {
  auto size = env_int("OMPI_COMM_WORLD_SIZE");
  auto rank = env_int("OMPI_COMM_WORLD_RANK");
  if (!size) size = env_int("PMI_SIZE"), rank = env_int("PMI_RANK");
  if (!size || !rank) return std::nullopt;
  return MpiLaunch{*rank, *size};
}

#ifdef WALKSIM_HAVE_MPI
bool mpi_built() { return true; }

MpiSession::MpiSession() {
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (finalize_) MPI_Finalize();
}

void MpiSession::stop_workers() {
  if (rank_ != 0 || stopped_) return;
  stopped_ = true;
  for (int r = 1; r < size_; ++r) send_text(r, kStop, "");
}

std::unique_ptr<RemotePoints> MpiSession::remote_points() { return std::make_unique<MpiRemote>(size_); }
std::unique_ptr<PointServer> MpiSession::point_server() { return std::make_unique<MpiServer>(); }
#else
bool mpi_built() { return false; }
MpiSession::MpiSession() { throw std::runtime_error("this walksim was built without MPI (libopenmpi-dev)"); }
MpiSession::~MpiSession() = default;
void MpiSession::stop_workers() {}
std::unique_ptr<RemotePoints> MpiSession::remote_points() { return nullptr; }
std::unique_ptr<PointServer> MpiSession::point_server() { return nullptr; }
#endif

}  // namespace walksim::experiment

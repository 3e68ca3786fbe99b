// USE_C10D_GLOO unlocks ProcessGroupGloo's declarations; it is defined here rather than on the
// target so that the precompiled torch headers stay valid for every other file.
#define USE_C10D_GLOO 1
#include "training/collective_data_parallel.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <deque>
#include <limits>
#include <string>
#include <thread>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <utility>

#include "core/error.hpp"

namespace surrox::training {
namespace {

// The MPI type that sums this tensor's elements, or MPI_DATATYPE_NULL when MPI cannot: device
// memory (Open MPI is not assumed CUDA-aware) and types without a standard MPI sum.
MPI_Datatype mpi_sum_type(const torch::Tensor& t) {
  if (!t.device().is_cpu()) return MPI_DATATYPE_NULL;
  switch (t.scalar_type()) {
    case torch::kFloat:
      return MPI_FLOAT;
    case torch::kDouble:
      return MPI_DOUBLE;
    default:
      return MPI_DATATYPE_NULL;
  }
}

// Waits for MPI requests without holding a core for long. Open MPI polls while it waits: in a
// blocking allreduce, the rank that finished its share of the batch first spins at full speed
// until the other arrives, CPU that other processes on a shared node need. MPI_Testall drives
// the progress instead, at full speed for the first 300 µs (the allreduce of the airfoil MLP's
// 0.8 MB takes about 0.2 ms on an idle node), then with 20 µs naps.
void wait_politely(std::vector<MPI_Request>& requests) {
  const auto start = std::chrono::steady_clock::now();
  int done = 0;
  while (
      MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE),
      !done) {
    if (std::chrono::steady_clock::now() - start > std::chrono::microseconds(300))
      std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

// True when the tensors are contiguous and lie back to back in one storage, so that the
// bucket can be summed in place (gradients that are views of one flat buffer).
bool back_to_back(const std::vector<torch::Tensor>& tensors) {
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i].is_contiguous()) return false;
    if (i > 0 &&
        (!tensors[i].storage().is_alias_of(tensors[0].storage()) ||
         static_cast<const char*>(tensors[i].data_ptr()) !=
             static_cast<const char*>(tensors[i - 1].data_ptr()) + tensors[i - 1].nbytes()))
      return false;
  }
  return true;
}

class CollectiveDataParallel final : public DataParallel {
 public:
  CollectiveDataParallel(MPI_Comm comm, DataParallelOptions options)
      : comm_(comm), options_(options) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void sum_gradients(std::vector<torch::Tensor>& gradients) override {
    // Buckets of consecutive gradients of one dtype and device, at most bucket_bytes each
    // unless one gradient is larger. Every rank forms the same buckets.
    std::vector<std::vector<torch::Tensor>> buckets;
    std::size_t bytes = 0;
    for (const auto& g : gradients) {
      const bool fits = !buckets.empty() && bytes + g.nbytes() <= options_.bucket_bytes &&
                        buckets.back().front().dtype() == g.dtype() &&
                        buckets.back().front().device() == g.device();
      if (!fits) {
        buckets.emplace_back();
        bytes = 0;
      }
      buckets.back().push_back(g);
      bytes += g.nbytes();
    }
    if (buffers_.size() < buckets.size()) buffers_.resize(buckets.size());

    // The process-group buckets go first, all in flight while MPI sums the host ones.
    std::vector<std::size_t> waiting;
    std::vector<std::vector<torch::Tensor>> in_flight;
    std::vector<c10::intrusive_ptr<c10d::Work>> work;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      if (through_mpi(buckets[b].front())) continue;
      in_flight.push_back({flatten(b, buckets[b])});
      work.push_back(process_group().allreduce(in_flight.back()));
      waiting.push_back(b);
    }
    // The host buckets: one nonblocking allreduce each (in chunks: MPI counts are int), in place.
    std::vector<MPI_Request> requests;
    std::vector<std::pair<torch::Tensor, std::size_t>> summed;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      if (!through_mpi(buckets[b].front())) continue;
      const torch::Tensor flat = flatten(b, buckets[b]);
      const MPI_Datatype type = mpi_sum_type(flat);
      const std::int64_t chunk = std::int64_t{1} << 30;
      for (std::int64_t offset = 0; offset < flat.numel(); offset += chunk) {
        requests.emplace_back();
        MPI_Iallreduce(MPI_IN_PLACE,
                       static_cast<char*>(flat.data_ptr()) + offset * flat.element_size(),
                       static_cast<int>(std::min(chunk, flat.numel() - offset)), type, MPI_SUM,
                       comm_, &requests.back());
      }
      summed.emplace_back(flat, b);
    }
    if (!requests.empty()) wait_politely(requests);
    for (const auto& [flat, b] : summed) unflatten(flat, buckets[b]);
    for (std::size_t w = 0; w < work.size(); ++w) {
      work[w]->wait();
      unflatten(in_flight[w][0], buckets[waiting[w]]);
    }
  }

  double sum(double value) override {
    double total = 0;
    MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, comm_);
    return total;
  }

  void start_sum(const torch::Tensor& flat) override {
    if (!through_mpi(flat)) return DataParallel::start_sum(flat);
    const std::int64_t chunk = std::int64_t{1} << 30;  // MPI counts are int
    for (std::int64_t offset = 0; offset < flat.numel(); offset += chunk) {
      pending_.emplace_back();
      MPI_Iallreduce(MPI_IN_PLACE,
                     static_cast<char*>(flat.data_ptr()) + offset * flat.element_size(),
                     static_cast<int>(std::min(chunk, flat.numel() - offset)), mpi_sum_type(flat),
                     MPI_SUM, comm_, &pending_.back());
    }
  }

  void start_reduce_scatter(const torch::Tensor& flat, const torch::Tensor& part) override {
    if (!through_mpi(flat)) return DataParallel::start_reduce_scatter(flat, part);
    const auto& [counts, offsets] = layout(flat);
    pending_.emplace_back();
    MPI_Ireduce_scatter(flat.data_ptr(), part.data_ptr(), counts.data(), mpi_sum_type(flat),
                        MPI_SUM, comm_, &pending_.back());
  }

  void start_all_gather(const torch::Tensor& flat) override {
    if (!through_mpi(flat)) return DataParallel::start_all_gather(flat);
    const auto& [counts, offsets] = layout(flat);
    pending_.emplace_back();
    MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, flat.data_ptr(), counts.data(),
                    offsets.data(), mpi_sum_type(flat), comm_, &pending_.back());
  }

  void progress() override {
    int done = 0;
    if (!pending_.empty())
      MPI_Testall(static_cast<int>(pending_.size()), pending_.data(), &done, MPI_STATUSES_IGNORE);
  }

  void wait() override {
    if (!pending_.empty()) wait_politely(pending_);
    pending_.clear();
    layouts_.clear();
  }

  std::vector<std::string> gather_to_root(const std::string& bytes) override {
    const int mine = static_cast<int>(bytes.size());
    std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(counts.size());
    MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
    std::string all;
    if (rank_ == 0) {
      std::int64_t total = 0;
      for (std::size_t r = 0; r < counts.size(); ++r) {
        offsets[r] = static_cast<int>(total);
        total += counts[r];
      }
      if (total > std::numeric_limits<int>::max())
        throw Error("the sharded optimizer state exceeds 2 GiB: too large to gather");
      all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(bytes.data(), mine, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE,
                0, comm_);
    std::vector<std::string> parts;
    if (rank_ == 0)
      for (std::size_t r = 0; r < counts.size(); ++r)
        parts.push_back(
            all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(counts[r])));
    return parts;
  }

 private:
  bool through_mpi(const torch::Tensor& t) const {
    return options_.host_transport == HostTransport::kMpi && mpi_sum_type(t) != MPI_DATATYPE_NULL;
  }

  // Every rank's element count and offset in a tensor of flat's size (part_range), kept until
  // wait(): MPI reads a nonblocking collective's arrays until it completes.
  const std::pair<std::vector<int>, std::vector<int>>& layout(const torch::Tensor& flat) {
    if (!flat.is_contiguous() || flat.dim() != 1)
      throw Error("data-parallel collectives take contiguous 1-D tensors");
    if (flat.numel() > std::numeric_limits<int>::max())
      throw Error("a gradient bucket of more than 2^31 elements: lower bucket_kib");
    auto& [counts, offsets] = layouts_.emplace_back();
    for (int r = 0; r < size_; ++r) {
      const auto [begin, end] = part_range(flat.numel(), r, size_);
      counts.push_back(static_cast<int>(end - begin));
      offsets.push_back(static_cast<int>(begin));
    }
    return layouts_.back();
  }

  // One tensor over the bucket's elements: the gradients' own memory when they lie back to
  // back, otherwise bucket b's reused buffer holding a copy.
  torch::Tensor flatten(std::size_t b, const std::vector<torch::Tensor>& bucket) {
    std::int64_t numel = 0;
    for (const auto& g : bucket) numel += g.numel();
    if (back_to_back(bucket))
      return torch::from_blob(bucket.front().data_ptr(), {numel}, bucket.front().options());
    torch::Tensor& buffer = buffers_[b];
    if (!buffer.defined() || buffer.numel() != numel || buffer.dtype() != bucket.front().dtype() ||
        buffer.device() != bucket.front().device())
      buffer = torch::empty({numel}, bucket.front().options());
    std::int64_t offset = 0;
    for (const auto& g : bucket) {
      buffer.slice(0, offset, offset + g.numel()).view_as(g).copy_(g);
      offset += g.numel();
    }
    return buffer;
  }

  static void unflatten(const torch::Tensor& flat, std::vector<torch::Tensor>& bucket) {
    if (bucket.front().data_ptr() == flat.data_ptr()) return;  // summed in place
    std::int64_t offset = 0;
    for (auto& g : bucket) {
      g.copy_(flat.slice(0, offset, offset + g.numel()).view_as(g));
      offset += g.numel();
    }
  }

  // Created on first use, collectively: every rank reaches it with the same buckets.
  c10d::ProcessGroupGloo& process_group() {
    if (group_) return *group_;
    // All ranks on one node talk over loopback; otherwise through rank 0's host name.
    MPI_Comm node;
    MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    int on_node = 0;
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    std::array<char, 256> host{};
    if (on_node == size_) {
      std::snprintf(host.data(), host.size(), "127.0.0.1");
    } else {
      gethostname(host.data(), host.size() - 1);
    }
    MPI_Bcast(host.data(), static_cast<int>(host.size()), MPI_CHAR, 0, comm_);

    c10d::TCPStoreOptions options;
    options.isServer = rank_ == 0;
    options.numWorkers = size_;
    options.waitWorkers = false;
    options.port = 0;  // rank 0: any free port, then tell the others
    int port = 0;
    try {
      if (rank_ == 0) {
        store_ = c10::make_intrusive<c10d::TCPStore>(host.data(), options);
        port = store_->getPort();
      }
      MPI_Bcast(&port, 1, MPI_INT, 0, comm_);
      if (rank_ != 0) {
        options.port = static_cast<std::uint16_t>(port);
        store_ = c10::make_intrusive<c10d::TCPStore>(host.data(), options);
      }
      auto gloo = c10d::ProcessGroupGloo::Options::create();
      gloo->devices.push_back(on_node == size_
                                  ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                  : c10d::ProcessGroupGloo::createDefaultDevice());
      group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, rank_, size_, gloo);
    } catch (const c10::Error& e) {
      throw Error(std::string("cannot start the Gloo process group for data-parallel training: ") +
                  e.what_without_backtrace());
    }
    return *group_;
  }

  MPI_Comm comm_;
  DataParallelOptions options_;
  int rank_ = 0, size_ = 1;
  std::vector<torch::Tensor> buffers_;  // per bucket, reused from step to step
  std::vector<MPI_Request> pending_;    // started by start_*, completed by wait()
  std::deque<std::pair<std::vector<int>, std::vector<int>>> layouts_;
  c10::intrusive_ptr<c10d::TCPStore> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

}  // namespace

std::unique_ptr<DataParallel> collective_data_parallel(MPI_Comm comm, DataParallelOptions options) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size == 1) return single_process();
  return std::make_unique<CollectiveDataParallel>(comm, options);
}

}  // namespace surrox::training

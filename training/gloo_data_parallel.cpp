// USE_C10D_GLOO unlocks ProcessGroupGloo's declarations; it is defined here rather than on the
// target so that the precompiled torch headers stay valid for every other file.
#define USE_C10D_GLOO 1
#include "training/gloo_data_parallel.hpp"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <unistd.h>

#include <array>
#include <string>

#include "core/error.hpp"

namespace surrox::training {
namespace {

class GlooDataParallel final : public DataParallel {
 public:
  GlooDataParallel(MPI_Comm comm, std::size_t bucket_bytes) : comm_(comm), bucket_bytes_(bucket_bytes) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    // All ranks on one node talk over loopback; otherwise through rank 0's host name.
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    int on_node = 0;
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    std::array<char, 256> host{};
    if (on_node == size_) {
      std::snprintf(host.data(), host.size(), "127.0.0.1");
    } else {
      gethostname(host.data(), host.size() - 1);
    }
    MPI_Bcast(host.data(), static_cast<int>(host.size()), MPI_CHAR, 0, comm);

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
      MPI_Bcast(&port, 1, MPI_INT, 0, comm);
      if (rank_ != 0) {
        options.port = static_cast<std::uint16_t>(port);
        store_ = c10::make_intrusive<c10d::TCPStore>(host.data(), options);
      }
      auto gloo = c10d::ProcessGroupGloo::Options::create();
      gloo->devices.push_back(on_node == size_ ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                               : c10d::ProcessGroupGloo::createDefaultDevice());
      group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, rank_, size_, gloo);
    } catch (const c10::Error& e) {
      throw Error(std::string("cannot start the Gloo process group for data-parallel training: ") + e.what_without_backtrace());
    }
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void sum_gradients(std::vector<torch::Tensor>& gradients) override {
    // Buckets of consecutive gradients of one dtype and device, each flattened into one tensor.
    std::vector<std::vector<std::size_t>> buckets;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < gradients.size(); ++i) {
      const auto& g = gradients[i];
      const bool fits = !buckets.empty() && bytes + g.nbytes() <= bucket_bytes_ &&
                        gradients[buckets.back().front()].dtype() == g.dtype() &&
                        gradients[buckets.back().front()].device() == g.device();
      if (!fits) {
        buckets.emplace_back();
        bytes = 0;
      }
      buckets.back().push_back(i);
      bytes += g.nbytes();
    }
    std::vector<std::vector<torch::Tensor>> flat(buckets.size());
    std::vector<c10::intrusive_ptr<c10d::Work>> work;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      std::vector<torch::Tensor> parts;
      for (std::size_t i : buckets[b]) parts.push_back(gradients[i].reshape(-1));
      flat[b] = {torch::cat(parts)};
      work.push_back(group_->allreduce(flat[b]));
    }
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      work[b]->wait();
      std::int64_t offset = 0;
      for (std::size_t i : buckets[b]) {
        auto& g = gradients[i];
        g.copy_(flat[b][0].slice(0, offset, offset + g.numel()).view_as(g));
        offset += g.numel();
      }
    }
  }

  double sum(double value) override {
    double total = 0;
    MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, comm_);
    return total;
  }

 private:
  MPI_Comm comm_;
  std::size_t bucket_bytes_;
  int rank_ = 0, size_ = 1;
  c10::intrusive_ptr<c10d::TCPStore> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

}  // namespace

std::unique_ptr<DataParallel> gloo_data_parallel(MPI_Comm comm, std::size_t bucket_bytes) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size == 1) return single_process();
  return std::make_unique<GlooDataParallel>(comm, bucket_bytes);
}

}  // namespace surrox::training

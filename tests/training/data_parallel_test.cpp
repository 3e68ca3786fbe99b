// ctest-labels: mpi unit
// ctest-ranks: 2
// ctest-libraries: surrox_training surrox_io
// ctest-pch: torch
// Data parallelism, with host buckets summed by MPI and by the c10d Gloo process group: bucketed
// gradient sums, in-place sums of gradients that share one buffer, and the same global batch
// trained on 2 ranks giving the 1-rank result within floating-point tolerance.
#include <gtest/gtest.h>

#include "core/runtime.hpp"
#include "io/case_file.hpp"
#include "support/test_paths.hpp"
#include "training/collective_data_parallel.hpp"
#include "training/trainer.hpp"
#include "training_section.hpp"

namespace surrox::training {
namespace {

struct DataParallelMlp final : surrogates::Network {
  torch::nn::Sequential net{nullptr};
  DataParallelMlp() {
    net = register_module("net", torch::nn::Sequential(torch::nn::Linear(3, 24), torch::nn::Tanh(),
                                                       torch::nn::Linear(24, 2)));
    to(torch::kFloat64);
  }
  torch::Tensor forward(const torch::Tensor& x) override { return net->forward(x); }
};

DataParallelOptions through(HostTransport transport,
                            std::size_t bucket_bytes = kDefaultBucketBytes) {
  DataParallelOptions options;
  options.host_transport = transport;
  options.bucket_bytes = bucket_bytes;
  return options;
}

// Passes everything on to `inner` and counts the gradient sums whose gradients did not lie back
// to back in one buffer (which the trainer arranges so that they are summed in place).
struct CountingCopies final : DataParallel {
  std::unique_ptr<DataParallel> inner;
  int* scattered;
  CountingCopies(std::unique_ptr<DataParallel> inner, int* scattered)
      : inner(std::move(inner)), scattered(scattered) {}
  int rank() const override { return inner->rank(); }
  int size() const override { return inner->size(); }
  double sum(double value) override { return inner->sum(value); }
  void sum_gradients(std::vector<torch::Tensor>& gradients) override {
    for (std::size_t i = 1; i < gradients.size(); ++i)
      if (gradients[i].data_ptr() !=
          static_cast<char*>(gradients[i - 1].data_ptr()) + gradients[i - 1].nbytes()) {
        ++*scattered;
        break;
      }
    inner->sum_gradients(gradients);
  }
};

class DataParallelTransport : public ::testing::TestWithParam<HostTransport> {};

TEST_P(DataParallelTransport, BucketedSumOverRanks) {
  Runtime& runtime = surrox::testing::runtime();
  ASSERT_EQ(runtime.size(), 2);
  // 64-byte buckets: every tensor below lands in its own or a shared small bucket.
  auto parallel = collective_data_parallel(runtime.comm(), through(GetParam(), 64));
  ASSERT_EQ(parallel->size(), 2);
  const double r = runtime.rank() + 1;
  std::vector<torch::Tensor> grads;
  for (long n : {1, 5, 7, 3, 16}) grads.push_back(torch::full({n}, r, torch::kFloat64));
  grads.push_back(torch::arange(12, torch::kFloat32).reshape({3, 4}) * r);
  // Half precision has no MPI sum: it goes through the process group whatever the transport.
  grads.push_back(torch::full({6}, r, torch::kHalf));
  // A non-contiguous gradient is copied into the bucket and back.
  grads.push_back(torch::full({4, 3}, r, torch::kFloat64).t());
  parallel->sum_gradients(grads);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_TRUE(torch::all(grads[i] == 3.0).item<bool>()) << i;
  EXPECT_TRUE(torch::equal(grads[5], torch::arange(12, torch::kFloat32).reshape({3, 4}) * 3));
  EXPECT_TRUE(torch::all(grads[6] == 3.0).item<bool>());
  EXPECT_TRUE(torch::all(grads[7] == 3.0).item<bool>());
  EXPECT_DOUBLE_EQ(parallel->sum(0.5 + runtime.rank()), 2.0);
}

TEST_P(DataParallelTransport, ViewsOfOneBufferAreSummedInPlace) {
  Runtime& runtime = surrox::testing::runtime();
  auto parallel = collective_data_parallel(runtime.comm(), through(GetParam()));
  // Gradients lying back to back in one buffer: one bucket over the buffer's own memory.
  auto flat = torch::arange(20, torch::kFloat64) * (runtime.rank() + 1);
  std::vector<torch::Tensor> grads = {flat.slice(0, 0, 8).view({2, 4}), flat.slice(0, 8, 20)};
  const void* memory = grads[0].data_ptr();
  parallel->sum_gradients(grads);
  EXPECT_EQ(grads[0].data_ptr(), memory);
  EXPECT_TRUE(torch::equal(flat, torch::arange(20, torch::kFloat64) * 3));
}

TEST_P(DataParallelTransport, TwoRanksTrainLikeOne) {
  Runtime& runtime = surrox::testing::runtime();
  const std::vector<std::string> config = {"training.epochs=4", "training.batch_size=50",
                                           "training.optimizer={type: adam, lr: 1e-2}",
                                           "training.loss={type: area_weighted_mse}"};
  torch::manual_seed(11);
  auto x = torch::rand({300, 3}, torch::kFloat64);
  auto y = torch::stack({x.sum(1).sin(), x.prod(1)}, 1);
  const TensorSet train{x, y, torch::rand({300}, torch::kFloat64) + 0.5};
  const TensorSet valid = train.slice(0, 60);

  // One rank's run, computed on each rank alone.
  torch::manual_seed(5);
  DataParallelMlp one;
  const auto dir = surrox::testing::scratch_dir();
  const TrainResult alone =
      Trainer(training_section(config), single_process())
          .fit(one, train, valid, dir / ("one" + std::to_string(runtime.rank())));
  // The same global batches split over the two ranks.
  torch::manual_seed(5);
  DataParallelMlp two;
  int scattered = 0;
  const TrainResult split =
      Trainer(training_section(config),
              std::make_unique<CountingCopies>(
                  collective_data_parallel(runtime.comm(), through(GetParam())), &scattered))
          .fit(two, train, valid, dir / "two");
  ASSERT_EQ(split.history.size(), alone.history.size());
  for (std::size_t e = 0; e < alone.history.size(); ++e) {
    EXPECT_NEAR(split.history[e].train_loss, alone.history[e].train_loss,
                1e-12 * alone.history[e].train_loss);
    EXPECT_NEAR(split.history[e].validation_loss, alone.history[e].validation_loss,
                1e-12 * alone.history[e].validation_loss);
  }
  auto a = one.parameters(), b = two.parameters();
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_LT((a[i] - b[i]).abs().max().item<double>(), 1e-10) << "parameter " << i;
  // In every step the gradients were views of one buffer, summed in place; after training each
  // has its own memory again, so an optimizer can zero them as on one process.
  EXPECT_EQ(scattered, 0);
  torch::optim::SGD sgd(b, 0.1);
  EXPECT_NO_THROW(sgd.zero_grad());
}

INSTANTIATE_TEST_SUITE_P(Transports, DataParallelTransport,
                         ::testing::Values(HostTransport::kMpi, HostTransport::kProcessGroup),
                         [](const ::testing::TestParamInfo<HostTransport>& info) {
                           return info.param == HostTransport::kMpi ? "Mpi" : "Gloo";
                         });

}  // namespace
}  // namespace surrox::training

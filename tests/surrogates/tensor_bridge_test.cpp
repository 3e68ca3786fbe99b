// ctest-labels: unit
// ctest-libraries: surrox_surrogates
// ctest-pch: torch
#include "surrogates/tensor_bridge.hpp"

#include <gtest/gtest.h>

namespace surrox::surrogates {
namespace {

using Matrix = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

Matrix numbered(int rows, int cols) {
  Matrix m("numbered", rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = 10.0 * i + j;
  return m;
}

TEST(TensorBridge, SharesTheViewsMemory) {
  Matrix m = numbered(4, 3);
  torch::Tensor t = as_tensor(m);
  EXPECT_EQ(t.data_ptr(), static_cast<void*>(m.data()));
  EXPECT_EQ(t.sizes(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(t.dtype(), torch::kFloat64);
  EXPECT_EQ(t.device(), torch::Device(torch::kCPU));
  // A write through either handle shows in the other.
  m(2, 1) = -7;
  EXPECT_DOUBLE_EQ(t[2][1].item<double>(), -7.0);
  t[0][0] = 42.0;
  EXPECT_DOUBLE_EQ(m(0, 0), 42.0);
}

TEST(TensorBridge, TensorKeepsTheMemoryAliveAfterTheViewIsDropped) {
  torch::Tensor t;
  const double* address = nullptr;
  {
    Matrix m = numbered(64, 64);
    address = m.data();
    t = as_tensor(m);
    EXPECT_EQ(m.use_count(), 2);  // the tensor's deleter holds the second reference
  }
  // The only reference left is the tensor's: the values must still be there.
  EXPECT_EQ(t.data_ptr(), static_cast<const void*>(address));
  EXPECT_DOUBLE_EQ(t[63][5].item<double>(), 635.0);
  EXPECT_DOUBLE_EQ(t.sum().item<double>(), 64 * 64 * (10.0 * 63 / 2 + 63.0 / 2));
}

TEST(TensorBridge, ReleasesTheViewWithTheTensor) {
  Matrix m = numbered(2, 2);
  {
    torch::Tensor t = as_tensor(m);
    EXPECT_EQ(m.use_count(), 2);
  }
  EXPECT_EQ(m.use_count(), 1);
}

TEST(TensorBridge, StridedSubviewsKeepTheirStrides) {
  Matrix m = numbered(5, 4);
  auto column = Kokkos::subview(m, Kokkos::ALL, 2);  // LayoutStride, stride 4
  torch::Tensor t = as_tensor(column);
  EXPECT_EQ(t.sizes(), (std::vector<int64_t>{5}));
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{4}));
  EXPECT_EQ(t.data_ptr(), static_cast<void*>(&m(0, 2)));
  for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(t[i].item<double>(), 10.0 * i + 2);

  auto block = Kokkos::subview(m, std::make_pair(1, 4), std::make_pair(1, 3));
  torch::Tensor b = as_tensor(block);
  EXPECT_EQ(b.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(b.strides(), (std::vector<int64_t>{4, 1}));
  EXPECT_DOUBLE_EQ(b[2][1].item<double>(), 32.0);
}

TEST(TensorBridge, ConvertsDtypeOnlyWhenAsked) {
  Matrix m = numbered(3, 3);
  torch::Tensor f = as_tensor(m, torch::kFloat32);
  EXPECT_EQ(f.dtype(), torch::kFloat32);
  EXPECT_NE(f.data_ptr(), static_cast<void*>(m.data()));
  EXPECT_FLOAT_EQ(f[2][2].item<float>(), 22.0f);

  Kokkos::View<float*, Kokkos::HostSpace> single("single", 3);
  EXPECT_EQ(as_tensor(single).dtype(), torch::kFloat32);
  Kokkos::View<int64_t*, Kokkos::HostSpace> ids("ids", 3);
  EXPECT_EQ(as_tensor(ids).dtype(), torch::kInt64);
}

TEST(TensorBridge, CopiesTensorsBackIntoViews) {
  Matrix m("target", 2, 3);
  copy_into(torch::arange(6, torch::kFloat32).reshape({2, 3}), m);
  EXPECT_DOUBLE_EQ(m(1, 2), 5.0);
  // Into a strided subview: only that column changes.
  Matrix n = numbered(3, 3);
  copy_into(torch::full({3}, -1.0), Kokkos::subview(n, Kokkos::ALL, 1));
  EXPECT_DOUBLE_EQ(n(2, 1), -1.0);
  EXPECT_DOUBLE_EQ(n(2, 2), 22.0);
  EXPECT_THROW(copy_into(torch::zeros({3, 2}), m), Error);
}

TEST(TensorBridge, ConstViewsAreReadable) {
  Matrix m = numbered(2, 2);
  Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace> c = m;
  EXPECT_DOUBLE_EQ(as_tensor(c)[1][1].item<double>(), 11.0);
}

}  // namespace
}  // namespace surrox::surrogates

#pragma once
// The one bridge between Kokkos Views and LibTorch tensors.
//
// as_tensor(view) wraps the View's memory with torch::from_blob — no copy — on the device
// that matches the View's memory space, with the View's extents and strides (so strided
// subviews work). The tensor's deleter owns a copy of the View, so the memory stays alive for
// as long as the tensor does, even after every other handle to the View is gone.
// as_tensor(view, dtype) converts explicitly (that one copies). copy_into(tensor, view) writes
// a tensor back into a View, converting dtype, device and layout as needed.
#include <torch/torch.h>

#include <Kokkos_Core.hpp>
#include <type_traits>
#include <vector>

#include "core/error.hpp"

namespace surrox::surrogates {

// The torch device that addresses a Kokkos memory space: the CPU for host memory, the
// current GPU for device memory. A space torch cannot address fails to compile.
template <class MemorySpace>
struct TorchDeviceOf {
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible,
                "as_tensor: no torch device for this Kokkos memory space");
  static torch::Device get() { return torch::Device(torch::kCPU); }
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct TorchDeviceOf<Kokkos::CudaSpace> {
  static torch::Device get() { return torch::Device(torch::kCUDA, Kokkos::Cuda().cuda_device()); }
};
template <>
struct TorchDeviceOf<Kokkos::CudaUVMSpace> : TorchDeviceOf<Kokkos::CudaSpace> {};
#endif

template <class View>
torch::Tensor as_tensor(const View& view) {
  static_assert(Kokkos::is_view<View>::value, "as_tensor takes a Kokkos::View");
  using Value = std::remove_const_t<typename View::value_type>;
  std::vector<int64_t> sizes(View::rank), strides(View::rank);
  std::size_t stride_buffer[View::rank + 1];
  view.stride(stride_buffer);
  for (std::size_t d = 0; d < View::rank; ++d) {
    sizes[d] = static_cast<int64_t>(view.extent(d));
    strides[d] = static_cast<int64_t>(stride_buffer[d]);
  }
  auto* keep_alive = new View(view);
  const auto options = torch::TensorOptions()
                           .dtype(c10::CppTypeToScalarType<Value>::value)
                           .device(TorchDeviceOf<typename View::memory_space>::get());
  return torch::from_blob(
      const_cast<Value*>(view.data()), sizes, strides, [keep_alive](void*) { delete keep_alive; },
      options);
}

// An explicit conversion: a new tensor of `dtype` (a copy unless dtype already matches).
template <class View>
torch::Tensor as_tensor(const View& view, torch::ScalarType dtype) {
  return as_tensor(view).to(dtype);
}

// Writes `tensor` into `view`: shapes must match; dtype, device and strides may differ.
template <class View>
void copy_into(const torch::Tensor& tensor, const View& view) {
  torch::Tensor target = as_tensor(view);
  if (tensor.sizes() != target.sizes()) {
    throw Error("copy_into: tensor of shape " + c10::str(tensor.sizes()) +
                " does not fit a View of shape " + c10::str(target.sizes()));
  }
  torch::NoGradGuard no_grad;
  target.copy_(tensor);
  Kokkos::fence();
}

}  // namespace surrox::surrogates

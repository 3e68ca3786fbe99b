#include "surrogates/super_resolution/unet3d.hpp"

#include <algorithm>

namespace surrox::surrogates::super_resolution {
namespace {

torch::nn::Conv3d unet_conv(long in, long out, long kernel) {
  return torch::nn::Conv3d(torch::nn::Conv3dOptions(in, out, kernel).padding(kernel / 2));
}

bool unet_power_of_two(long n) { return n >= 1 && (n & (n - 1)) == 0; }

}  // namespace

ResBlock3dImpl::ResBlock3dImpl(long in, long neck, long out, bool final_relu)
    : conv1_(register_module("conv1", unet_conv(in, neck, 1))),
      conv2_(register_module("conv2", unet_conv(neck, neck, 3))),
      conv3_(register_module("conv3", unet_conv(neck, out, 1))),
      shortcut_(register_module("shortcut", unet_conv(in, out, 1))),
      final_relu_(final_relu) {}

torch::Tensor ResBlock3dImpl::forward(const torch::Tensor& x) {
  torch::Tensor y = torch::relu(conv1_(x));
  y = torch::relu(conv2_(y));
  y = conv3_(y) + shortcut_(x);
  return final_relu_ ? torch::relu(y) : y;
}

UNet3dImpl::UNet3dImpl(long in, long out, std::array<long, 3> grid, long filters, long max_filters)
    : grid_(grid) {
  for (long n : grid)
    TORCH_CHECK(unet_power_of_two(n), "U-Net grid sizes must be powers of two, got ", n);
  const long largest = *std::max_element(grid.begin(), grid.end());
  long levels = 0;
  while ((1L << levels) < largest) ++levels;
  TORCH_CHECK(levels >= 2, "the U-Net needs a grid of 4 or more along some axis");
  // Pooling kernels, as the reference's _get_pool_kernel_size.
  std::array<long, 3> dims = grid;
  for (long l = 0; l < levels; ++l) {
    const long smallest = *std::min_element(dims.begin(), dims.end());
    const bool equal = dims[0] == smallest && dims[1] == smallest && dims[2] == smallest;
    std::vector<long> kernel(3);
    for (int d = 0; d < 3; ++d) {
      kernel[d] = (equal || dims[d] != smallest) ? 2 : 1;
      dims[d] /= kernel[d];
    }
    pools_.push_back(kernel);
  }
  std::vector<long> down_out(levels), down_in(levels);
  for (long l = 0; l < levels; ++l) {
    down_out[l] = std::min(filters << (l + 1), max_filters);
    down_in[l] = l == 0 ? filters : down_out[l - 1];
  }
  conv_in_ = register_module("conv_in", ResBlock3d(in, filters, filters));
  for (long l = 0; l < levels; ++l)
    down_->push_back(ResBlock3d(down_in[l], down_out[l] / 2, down_out[l]));
  conv_mid_ = register_module(
      "conv_mid", ResBlock3d(down_out[levels - 1], down_out[levels - 2], down_out[levels - 2]));
  // Upward path: level l (from the coarsest) takes the concatenation of the path and the skip.
  for (long l = levels - 1; l >= 1; --l)
    up_->push_back(ResBlock3d(2 * down_in[l], down_in[l - 1], down_in[l - 1]));
  conv_out_ = register_module("conv_out", ResBlock3d(2 * filters, 2 * filters, out, false));
  register_module("down", down_);
  register_module("up", up_);
}

torch::Tensor UNet3dImpl::forward(const torch::Tensor& input) {
  TORCH_CHECK(input.dim() == 5 && input.size(2) == grid_[0] && input.size(3) == grid_[1] &&
                  input.size(4) == grid_[2],
              "the U-Net expects [B, C, ", grid_[0], ", ", grid_[1], ", ", grid_[2], "], got ",
              input.sizes());
  const long levels = static_cast<long>(pools_.size());
  std::vector<torch::Tensor> skips = {conv_in_(input)};
  for (long l = 0; l < levels; ++l)
    skips.push_back(
        torch::max_pool3d(down_[l]->as<ResBlock3d>()->forward(skips.back()), pools_[l]));
  auto upsample = [&](const torch::Tensor& x, long level) {
    const auto& k = pools_[level];
    return x.repeat_interleave(k[0], 2).repeat_interleave(k[1], 3).repeat_interleave(k[2], 4);
  };
  torch::Tensor x = conv_mid_(upsample(skips[levels], levels - 1));
  for (long l = levels - 1, i = 0; l >= 1; --l, ++i) {
    x = up_[i]->as<ResBlock3d>()->forward(torch::cat({x, skips[l]}, 1));
    x = upsample(x, l - 1);
  }
  return conv_out_(torch::cat({x, skips[0]}, 1));
}

}  // namespace surrox::surrogates::super_resolution

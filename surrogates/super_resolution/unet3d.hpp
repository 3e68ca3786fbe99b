#pragma once
// The 3D U-Net encoder of MeshfreeFlowNet (maxjiang93/space_time_pde, src/unet3d.py, UNet3d with
// ogres = igres): residual bottleneck blocks, max-pooling by 2 along the axes that are not yet the
// smallest (all three once they are equal) down to one cell, nearest-neighbour upsampling back,
// skip connections by concatenation. Maps [B, in, Nt, Nz, Nx] to [B, out, Nt, Nz, Nx]; every N
// a power of two.
//
// Unlike the reference, the blocks have no batch normalisation: batch statistics would make a
// batch split over data-parallel ranks train differently from the same batch on one rank.
#include <torch/torch.h>

#include <array>

namespace surrox::surrogates::super_resolution {

// conv 1³ → ReLU → conv 3³ → ReLU → conv 1³, plus a 1³ shortcut; ReLU after the sum if
// final_relu. Keeps the grid size.
class ResBlock3dImpl : public torch::nn::Module {
 public:
  ResBlock3dImpl(long in, long neck, long out, bool final_relu = true);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Conv3d conv1_{nullptr}, conv2_{nullptr}, conv3_{nullptr}, shortcut_{nullptr};
  bool final_relu_;
};
TORCH_MODULE(ResBlock3d);

class UNet3dImpl : public torch::nn::Module {
 public:
  // filters: the first level's width (the paper's nf = 16); widths double per level up to
  // max_filters (the paper's mf).
  UNet3dImpl(long in, long out, std::array<long, 3> grid, long filters, long max_filters);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  std::array<long, 3> grid_;
  std::vector<std::vector<long>> pools_;  // pooling kernel of each level
  ResBlock3d conv_in_{nullptr}, conv_mid_{nullptr}, conv_out_{nullptr};
  torch::nn::ModuleList down_, up_;
};
TORCH_MODULE(UNet3d);

}  // namespace surrox::surrogates::super_resolution

#pragma once
// MeshfreeFlowNet (Jiang et al., SC20): a 3D U-Net turns a low-resolution space-time crop
// [B, channels, Nt, Nz, Nx] into a latent grid of the same size [B, latent, Nt, Nz, Nx]; ImNet
// decodes the latent codes of the 8 nodes around any continuous query point (t, z, x) ∈ [0, 1]³
// of the crop, blended with trilinear weights (local_implicit_grid.hpp). Both sides are in
// normalised channel units.
#include <torch/torch.h>

#include <array>
#include <nlohmann/json.hpp>
#include <string>

#include "surrogates/super_resolution/imnet.hpp"
#include "surrogates/super_resolution/unet3d.hpp"

namespace surrox::surrogates::super_resolution {

struct MeshfreeFlowNetOptions {
  long channels = 4;                  // p, b, u, w
  std::array<long, 3> grid{4, 8, 8};  // low-res crop nodes (t, z, x), powers of two
  long latent = 16;                   // latent channels (paper: 32)
  long unet_filters = 8;              // U-Net base width (paper: 16)
  long unet_max_filters = 256;        // U-Net width cap (paper: 256)
  long imnet_filters = 8;             // ImNet's narrowest width (paper: 32)
  std::string activation = "softplus";

  nlohmann::json to_json() const;
  static MeshfreeFlowNetOptions from_json(const nlohmann::json& j);
  // The paper's widths (latent 32, U-Net 16/256, ImNet 32).
  static MeshfreeFlowNetOptions paper();
};

class MeshfreeFlowNetImpl : public torch::nn::Module {
 public:
  explicit MeshfreeFlowNetImpl(const MeshfreeFlowNetOptions& options);
  // [B, channels, Nt, Nz, Nx] → [B, latent, Nt, Nz, Nx]
  torch::Tensor encode(const torch::Tensor& lowres);
  // latent grid, points [B, P, 3] in [0, 1] → [B, P, channels]
  torch::Tensor decode(const torch::Tensor& latent, const torch::Tensor& points);
  torch::Tensor forward(const torch::Tensor& lowres, const torch::Tensor& points) {
    return decode(encode(lowres), points);
  }
  const MeshfreeFlowNetOptions& options() const { return options_; }
  ImNet& imnet() { return imnet_; }

 private:
  MeshfreeFlowNetOptions options_;
  UNet3d unet_{nullptr};
  ImNet imnet_{nullptr};
};
TORCH_MODULE(MeshfreeFlowNet);

}  // namespace surrox::surrogates::super_resolution

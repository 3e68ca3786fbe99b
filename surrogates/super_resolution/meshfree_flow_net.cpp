#include "surrogates/super_resolution/meshfree_flow_net.hpp"

#include "surrogates/super_resolution/local_implicit_grid.hpp"

namespace surrox::surrogates::super_resolution {

nlohmann::json MeshfreeFlowNetOptions::to_json() const {
  return {{"channels", channels},
          {"grid", grid},
          {"latent", latent},
          {"unet_filters", unet_filters},
          {"unet_max_filters", unet_max_filters},
          {"imnet_filters", imnet_filters},
          {"activation", activation}};
}

MeshfreeFlowNetOptions MeshfreeFlowNetOptions::from_json(const nlohmann::json& j) {
  MeshfreeFlowNetOptions o;
  o.channels = j.at("channels").get<long>();
  o.grid = j.at("grid").get<std::array<long, 3>>();
  o.latent = j.at("latent").get<long>();
  o.unet_filters = j.at("unet_filters").get<long>();
  o.unet_max_filters = j.at("unet_max_filters").get<long>();
  o.imnet_filters = j.at("imnet_filters").get<long>();
  o.activation = j.at("activation").get<std::string>();
  return o;
}

MeshfreeFlowNetOptions MeshfreeFlowNetOptions::paper() {
  MeshfreeFlowNetOptions o;
  o.grid = {4, 16, 16};
  o.latent = 32;
  o.unet_filters = 16;
  o.unet_max_filters = 256;
  o.imnet_filters = 32;
  return o;
}

MeshfreeFlowNetImpl::MeshfreeFlowNetImpl(const MeshfreeFlowNetOptions& options)
    : options_(options),
      unet_(register_module("unet", UNet3d(options.channels, options.latent, options.grid,
                                           options.unet_filters, options.unet_max_filters))),
      imnet_(register_module("imnet", ImNet(3 + options.latent, options.channels,
                                            options.imnet_filters, options.activation))) {}

torch::Tensor MeshfreeFlowNetImpl::encode(const torch::Tensor& lowres) { return unet_(lowres); }

torch::Tensor MeshfreeFlowNetImpl::decode(const torch::Tensor& latent,
                                          const torch::Tensor& points) {
  return query_local_implicit_grid([this](const torch::Tensor& x) { return imnet_(x); }, latent,
                                   points);
}

}  // namespace surrox::surrogates::super_resolution

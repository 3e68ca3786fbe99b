#include "surrogates/super_resolution/boussinesq_residual.hpp"

#include <cmath>

namespace surrox::surrogates::super_resolution {
namespace {

// ∂value/∂(t, z, x) in physical units: [..., 3].
torch::Tensor boussinesq_gradient(const torch::Tensor& value, const torch::Tensor& points,
                                  const torch::Tensor& inverse_span, bool create_graph) {
  const auto g = torch::autograd::grad({value.sum()}, {points}, {}, /*retain_graph=*/true,
                                       create_graph, /*allow_unused=*/true)[0];
  return g.defined() ? g * inverse_span : torch::zeros_like(points);
}

}  // namespace

torch::Tensor boussinesq_residual(const torch::Tensor& field, const torch::Tensor& points,
                                  const BoussinesqScales& s, bool create_graph) {
  TORCH_CHECK(field.size(-1) == 4 && points.size(-1) == 3, "field [..., 4], points [..., 3]");
  TORCH_CHECK(points.requires_grad(), "the query points must require grad");
  const auto options = field.options();
  const torch::Tensor mean = torch::tensor({s.mean[0], s.mean[1], s.mean[2], s.mean[3]}, options);
  const torch::Tensor stdev = torch::tensor({s.std[0], s.std[1], s.std[2], s.std[3]}, options);
  const torch::Tensor inverse_span =
      torch::tensor({1 / s.span[0], 1 / s.span[1], 1 / s.span[2]}, points.options());
  const torch::Tensor physical = field * stdev + mean;
  const torch::Tensor p = physical.select(-1, 0), b = physical.select(-1, 1),
                      u = physical.select(-1, 2), w = physical.select(-1, 3);
  // Second derivatives need the first ones' graph whatever create_graph says.
  const torch::Tensor dp = boussinesq_gradient(p, points, inverse_span, create_graph);
  const torch::Tensor db = boussinesq_gradient(b, points, inverse_span, true);
  const torch::Tensor du = boussinesq_gradient(u, points, inverse_span, true);
  const torch::Tensor dw = boussinesq_gradient(w, points, inverse_span, true);
  auto laplacian = [&](const torch::Tensor& d) {  // ∂zz + ∂xx of the field whose gradient is d
    const torch::Tensor dzz =
        boussinesq_gradient(d.select(-1, 1), points, inverse_span, create_graph).select(-1, 1);
    const torch::Tensor dxx =
        boussinesq_gradient(d.select(-1, 2), points, inverse_span, create_graph).select(-1, 2);
    return dzz + dxx;
  };
  const double nu = std::sqrt(s.prandtl / s.rayleigh),
               kappa = 1 / std::sqrt(s.rayleigh * s.prandtl);
  auto t_ = [](const torch::Tensor& d) { return d.select(-1, 0); };
  auto z_ = [](const torch::Tensor& d) { return d.select(-1, 1); };
  auto x_ = [](const torch::Tensor& d) { return d.select(-1, 2); };
  const torch::Tensor continuity = x_(du) + z_(dw);
  const torch::Tensor momentum_x = t_(du) + u * x_(du) + w * z_(du) + x_(dp) - nu * laplacian(du);
  const torch::Tensor momentum_z =
      t_(dw) + u * x_(dw) + w * z_(dw) + z_(dp) - nu * laplacian(dw) - b;
  const torch::Tensor buoyancy = t_(db) + u * x_(db) + w * z_(db) - kappa * laplacian(db);
  torch::Tensor r = torch::stack({continuity, momentum_x, momentum_z, buoyancy}, -1);
  return create_graph ? r : r.detach();
}

}  // namespace surrox::surrogates::super_resolution

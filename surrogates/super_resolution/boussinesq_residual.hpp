#pragma once
// The residual of the 2D Boussinesq equations in free-fall units (the Rayleigh–Bénard solver's,
// solvers/rayleigh_benard/rb_solver.hpp) of a field given as a differentiable function of its
// query coordinates, with every derivative taken by autograd (MeshfreeFlowNet's PDE layer,
// maxjiang93/space_time_pde src/pde.py with experiments/rb2d/physics.py):
//   continuity  u_x + w_z
//   x-momentum  u_t + u u_x + w u_z + p_x − ν (u_xx + u_zz)
//   z-momentum  w_t + u w_x + w w_z + p_z − ν (w_xx + w_zz) − b
//   buoyancy    b_t + u b_x + w b_z − κ (b_xx + b_zz),     ν = (Pr/Ra)^½, κ = (Ra Pr)^−½.
// The coordinates are normalised (t, z, x) ∈ [0, 1]³ over a crop of physical extent `span`,
// and the field is in normalised channel units (value = mean + std · field), so the chain rule
// scales each derivative. (The reference's physics.py leaves ∂p/∂x and ∂p/∂z unscaled by the
// crop size; here every term is in physical units.)
#include <torch/torch.h>

#include <array>

namespace surrox::surrogates::super_resolution {

struct BoussinesqScales {
  double rayleigh = 1e6, prandtl = 1;
  std::array<double, 3> span{1, 1, 1};  // physical extent of the crop along t, z, x
  std::array<double, 4> mean{0, 0, 0, 0}, std{1, 1, 1, 1};  // p, b, u, w
};

// field [..., 4] (p, b, u, w), computed from points [..., 3] which require grad, each output
// point depending only on its own coordinates. Returns [..., 4]: continuity, x-momentum,
// z-momentum, buoyancy. create_graph keeps the residual differentiable in the parameters.
torch::Tensor boussinesq_residual(const torch::Tensor& field, const torch::Tensor& points,
                                  const BoussinesqScales& scales, bool create_graph);

}  // namespace surrox::surrogates::super_resolution

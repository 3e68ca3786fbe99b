// ctest-labels: unit
// ctest-libraries: surrox_super_resolution
// ctest-pch: torch
// MeshfreeFlowNet's pieces: the local implicit grid blends exactly, the network answers any
// query points, queries at latent nodes decode that node alone, and the autograd Boussinesq
// residual of an analytic field equals the residual derived by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "surrogates/super_resolution/boussinesq_residual.hpp"
#include "surrogates/super_resolution/local_implicit_grid.hpp"
#include "surrogates/super_resolution/meshfree_flow_net.hpp"

namespace sr = surrox::surrogates::super_resolution;

namespace {

// Node coordinates of a grid [Nt, Nz, Nx] in [0, 1]: [3, Nt, Nz, Nx].
torch::Tensor node_coordinates(long nt, long nz, long nx) {
  auto o = torch::TensorOptions().dtype(torch::kFloat64);
  auto grids = torch::meshgrid(
      {torch::linspace(0, 1, nt, o), torch::linspace(0, 1, nz, o), torch::linspace(0, 1, nx, o)},
      "ij");
  return torch::stack(grids, 0);
}

}  // namespace

TEST(LocalImplicitGrid, IdentityDecoderReproducesATrilinearFieldExactly) {
  torch::manual_seed(3);
  const auto c = node_coordinates(3, 5, 4);
  // A trilinear function of (t, z, x) is what trilinear interpolation reproduces exactly.
  auto f = [](const torch::Tensor& t, const torch::Tensor& z, const torch::Tensor& x) {
    return 0.3 + 1.5 * t - 2 * z + 0.7 * x + 0.9 * t * z - 1.1 * z * x + 0.4 * t * z * x;
  };
  const auto grid = f(c[0], c[1], c[2]).reshape({1, 1, 3, 5, 4});
  const auto points = torch::rand({1, 200, 3}, torch::kFloat64);
  const auto exact = f(points.select(2, 0), points.select(2, 1), points.select(2, 2));
  const auto blended = sr::query_local_implicit_grid(
      [](const torch::Tensor& x) { return x.slice(1, 3, 4); }, grid, points);
  EXPECT_LT((blended.squeeze(-1) - exact).abs().max().item<double>(), 1e-13);
  EXPECT_LT((sr::trilinear(grid, points).squeeze(-1) - exact).abs().max().item<double>(), 1e-13);
  // A non-trilinear function is not reproduced: the test can fail.
  const auto curved = (c[1] * c[1]).reshape({1, 1, 3, 5, 4});
  const auto error = sr::trilinear(curved, points).squeeze(-1) - points.select(2, 1).square();
  EXPECT_GT(error.abs().max().item<double>(), 1e-3);
}

TEST(LocalImplicitGrid, LinearDecoderOfALinearLatentGridDecodesToTheLinearField) {
  // Each node carries f(node) and f's gradient times the cell widths; a decoder that extrapolates
  // linearly with the relative coordinate is exact from every corner, so the blend is exact.
  torch::manual_seed(4);
  const long nt = 4, nz = 3, nx = 6;
  const double a = 0.2, gt = -1.3, gz = 2.1, gx = 0.6;
  const auto c = node_coordinates(nt, nz, nx);
  const auto value = a + gt * c[0] + gz * c[1] + gx * c[2];
  const auto grid =
      torch::stack({value, torch::full_like(value, gt / (nt - 1)),
                    torch::full_like(value, gz / (nz - 1)), torch::full_like(value, gx / (nx - 1))},
                   0)
          .unsqueeze(0);
  const auto points = torch::rand({2, 300, 3}, torch::kFloat64);
  const auto decoder = [](const torch::Tensor& x) {  // x = (relative[3], code[4])
    return x.slice(1, 3, 4) + (x.slice(1, 0, 3) * x.slice(1, 4, 7)).sum(1, true);
  };
  const auto out = sr::query_local_implicit_grid(decoder, grid.expand({2, 4, nt, nz, nx}), points);
  const auto exact =
      a + gt * points.select(2, 0) + gz * points.select(2, 1) + gx * points.select(2, 2);
  EXPECT_LT((out.squeeze(-1) - exact).abs().max().item<double>(), 1e-13);
}

TEST(LocalImplicitGrid, WeightsSumToOneAndRelativeCoordinatesAreWithinACell) {
  torch::manual_seed(5);
  const auto grid = torch::randn({3, 2, 4, 4, 8});
  const auto points = torch::rand({3, 50, 3});
  const auto c = sr::grid_corners(grid, points);
  EXPECT_EQ(c.values.sizes(), (std::vector<long>{3, 50, 8, 2}));
  EXPECT_LT((c.weights.sum(-1) - 1).abs().max().item<double>(), 1e-6);
  EXPECT_LE(c.relative.abs().max().item<double>(), 1.0 + 1e-6);
  EXPECT_GE(c.weights.min().item<double>(), -1e-7);
  // A grid holding its own node coordinates: every corner's coordinate plus its relative
  // coordinate times the cell width is the query point (gathered codes and offsets agree).
  const auto nodes = node_coordinates(4, 4, 8).unsqueeze(0).expand({3, 3, 4, 4, 8});
  const auto d = sr::grid_corners(nodes, points.to(torch::kFloat64));
  const auto width = torch::tensor({1.0 / 3, 1.0 / 3, 1.0 / 7}, torch::kFloat64);
  const auto rebuilt = d.values + d.relative * width;
  EXPECT_LT((rebuilt - points.to(torch::kFloat64).unsqueeze(2)).abs().max().item<double>(), 1e-6);
}

TEST(MeshfreeFlowNet, AnswersAnyNumberOfQueryPoints) {
  torch::manual_seed(6);
  sr::MeshfreeFlowNetOptions o;
  o.grid = {4, 8, 8};
  o.latent = 6;
  o.unet_filters = 4;
  o.imnet_filters = 2;
  sr::MeshfreeFlowNet net(o);
  const auto lowres = torch::randn({2, 4, 4, 8, 8});
  for (long p : {1L, 17L, 1000L})
    EXPECT_EQ(net->forward(lowres, torch::rand({2, p, 3})).sizes(), (std::vector<long>{2, p, 4}));
  EXPECT_EQ(net->encode(lowres).sizes(), (std::vector<long>{2, 6, 4, 8, 8}));
  // A crop of the wrong size is refused with its shape in the message.
  EXPECT_THROW(net->encode(torch::randn({1, 4, 4, 8, 16})), c10::Error);
  // The paper configuration builds with its widths.
  sr::MeshfreeFlowNet paper(sr::MeshfreeFlowNetOptions::paper());
  long parameters = 0;
  for (const auto& p : paper->parameters()) parameters += p.numel();
  EXPECT_GT(parameters, 1000000);
}

TEST(MeshfreeFlowNet, QueriesAtLatentNodesDecodeThatNodeAlone) {
  torch::manual_seed(7);
  sr::MeshfreeFlowNetOptions o;
  o.grid = {2, 4, 4};
  o.latent = 5;
  o.unet_filters = 4;
  o.imnet_filters = 2;
  sr::MeshfreeFlowNet net(o);
  torch::NoGradGuard no_grad;
  const auto latent = net->encode(torch::randn({1, 4, 2, 4, 4}));
  const auto nodes =
      node_coordinates(2, 4, 4).to(torch::kFloat32).reshape({3, -1}).t().unsqueeze(0);
  const auto at_nodes = net->decode(latent, nodes);  // [1, 32, 4]
  // The same decoder applied to each node's code with a zero relative coordinate.
  const auto codes = latent.reshape({5, -1}).t();  // [32, 5], nodes in (t, z, x) order
  const auto zero = torch::zeros({codes.size(0), 3});
  const auto direct = net->imnet()->forward(torch::cat({zero, codes}, 1));
  EXPECT_LT((at_nodes[0] - direct).abs().max().item<double>(), 1e-5);
}

namespace {

// The cellular flow ψ = A(t) sin(kx) sin(mz), A = A0 e^{−ν(k²+m²)t}, is an exact solution of the
// 2D Navier–Stokes equations with p = A²/4 (m² cos 2kx + k² cos 2mz); the buoyancy
// b = ½ − z + β(t) sin(kx) sin(mz), β = β0 e^{−κ(k²+m²)t}, is advected without change by it (its
// Jacobian with ψ vanishes), so with the hydrostatic pressure z/2 − z²/2 added the exact
// residuals are continuity 0, x-momentum 0, z-momentum −β sin(kx) sin(mz) (the part of b no
// pressure balances) and buoyancy −w = A k cos(kx) sin(mz) (the conduction profile advected).
struct CellularFlow {
  double k = 2 * M_PI / 2.0, m = M_PI, a0 = 0.3, b0 = 0.2, ra = 1e4, pr = 1;
  double nu() const { return std::sqrt(pr / ra); }
  double kappa() const { return 1 / std::sqrt(ra * pr); }
  // t, z, x physical → [..., 4] physical p, b, u, w
  torch::Tensor field(const torch::Tensor& t, const torch::Tensor& z, const torch::Tensor& x,
                      double pressure_factor = 1) const {
    const auto a = a0 * torch::exp(-nu() * (k * k + m * m) * t);
    const auto beta = b0 * torch::exp(-kappa() * (k * k + m * m) * t);
    const auto u = a * m * torch::sin(k * x) * torch::cos(m * z);
    const auto w = -a * k * torch::cos(k * x) * torch::sin(m * z);
    const auto p = pressure_factor * a * a / 4 *
                       (m * m * torch::cos(2 * k * x) + k * k * torch::cos(2 * m * z)) +
                   z / 2 - z * z / 2;
    const auto b = 0.5 - z + beta * torch::sin(k * x) * torch::sin(m * z);
    return torch::stack({p, b, u, w}, -1);
  }
};

}  // namespace

TEST(BoussinesqResidual, AutogradResidualOfAnAnalyticFieldMatchesTheExactOne) {
  const CellularFlow flow;
  sr::BoussinesqScales s;
  s.rayleigh = flow.ra;
  s.prandtl = flow.pr;
  s.span = {0.75, 0.5, 1.25};  // crop extent in t, z, x
  const std::array<double, 3> origin = {2.0, 0.25, 0.5};
  s.mean = {0.1, -0.05, 0.02, 0.0};
  s.std = {0.3, 0.25, 0.4, 0.5};
  torch::manual_seed(8);
  const auto points = torch::rand({2, 64, 3}, torch::kFloat64).requires_grad_(true);
  const auto t = origin[0] + s.span[0] * points.select(-1, 0);
  const auto z = origin[1] + s.span[1] * points.select(-1, 1);
  const auto x = origin[2] + s.span[2] * points.select(-1, 2);
  const auto mean = torch::tensor({s.mean[0], s.mean[1], s.mean[2], s.mean[3]}, torch::kFloat64);
  const auto stdev = torch::tensor({s.std[0], s.std[1], s.std[2], s.std[3]}, torch::kFloat64);
  const auto normalised = (flow.field(t, z, x) - mean) / stdev;
  const auto r = sr::boussinesq_residual(normalised, points, s, false);

  torch::NoGradGuard no_grad;
  const double e2 = (flow.k * flow.k + flow.m * flow.m);
  const auto a = flow.a0 * torch::exp(-flow.nu() * e2 * t);
  const auto beta = flow.b0 * torch::exp(-flow.kappa() * e2 * t);
  const auto exact_z = -beta * torch::sin(flow.k * x) * torch::sin(flow.m * z);
  const auto exact_b = a * flow.k * torch::cos(flow.k * x) * torch::sin(flow.m * z);
  EXPECT_LT(r.select(-1, 0).abs().max().item<double>(), 1e-12);
  EXPECT_LT(r.select(-1, 1).abs().max().item<double>(), 1e-12);
  EXPECT_LT((r.select(-1, 2) - exact_z).abs().max().item<double>(), 1e-12);
  EXPECT_LT((r.select(-1, 3) - exact_b).abs().max().item<double>(), 1e-12);
  EXPECT_GT(exact_z.abs().max().item<double>(), 0.05);
  EXPECT_GT(exact_b.abs().max().item<double>(), 0.05);
}

TEST(BoussinesqResidual, AWrongPressureLeavesAMomentumResidual) {
  const CellularFlow flow;
  sr::BoussinesqScales s;
  s.rayleigh = flow.ra;
  s.prandtl = flow.pr;
  torch::manual_seed(9);
  const auto points = torch::rand({1, 64, 3}, torch::kFloat64).requires_grad_(true);
  const auto field =
      flow.field(points.select(-1, 0), points.select(-1, 1), points.select(-1, 2), 1.5);
  const auto r = sr::boussinesq_residual(field, points, s, false);
  EXPECT_LT(r.select(-1, 0).abs().max().item<double>(), 1e-12);  // still divergence-free
  EXPECT_GT(r.select(-1, 1).abs().max().item<double>(), 1e-3);
}

TEST(BoussinesqResidual, IsDifferentiableInTheNetworkParameters) {
  torch::manual_seed(10);
  sr::MeshfreeFlowNetOptions o;
  o.grid = {2, 4, 4};
  o.latent = 4;
  o.unet_filters = 4;
  o.imnet_filters = 2;
  sr::MeshfreeFlowNet net(o);
  const auto points = torch::rand({1, 16, 3}).requires_grad_(true);
  const auto out = net->forward(torch::randn({1, 4, 2, 4, 4}), points);
  const auto r = sr::boussinesq_residual(out, points, {}, true);
  r.abs().mean().backward();
  double norm = 0;
  for (const auto& p : net->parameters())
    if (p.grad().defined()) norm += p.grad().square().sum().item<double>();
  EXPECT_GT(norm, 0);
  EXPECT_TRUE(std::isfinite(norm));
}

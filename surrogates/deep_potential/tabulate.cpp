#include "surrogates/deep_potential/tabulate.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace surrox::surrogates::deep_potential {

nlohmann::json TableParams::to_json() const {
  return {{"lower", lower},
          {"upper", upper},
          {"stride", stride},
          {"extrapolate", extrapolate},
          {"intervals", intervals()}};
}

TableParams TableParams::from_json(const nlohmann::json& j) {
  TableParams p;
  p.lower = j.at("lower");
  p.upper = j.at("upper");
  p.stride = j.at("stride");
  p.extrapolate = j.at("extrapolate");
  return p;
}

long TableParams::fine_intervals() const {
  return std::max(1L, static_cast<long>(std::ceil((upper - lower) / stride - 1e-9)));
}

long TableParams::intervals() const {
  const double fine_end = lower + fine_intervals() * stride;
  const long coarse = end() > fine_end
                          ? static_cast<long>(std::ceil((end() - fine_end) / (10 * stride) - 1e-9))
                          : 0;
  return fine_intervals() + coarse;
}

double TableParams::node(long k) const {
  const long fine = fine_intervals();
  if (k <= fine) return lower + k * stride;
  return lower + fine * stride + (k - fine) * 10 * stride;
}

torch::Tensor tabulate_embedding(const std::function<torch::Tensor(const torch::Tensor&)>& net,
                                 const TableParams& p) {
  if (!(p.stride > 0) || !(p.upper > p.lower) || !(p.extrapolate >= 1))
    throw InputError(fmt::format(
        "compression table: need stride > 0, upper > lower and extrapolate ≥ 1 (stride {}, "
        "lower {}, upper {}, extrapolate {})",
        p.stride, p.lower, p.upper, p.extrapolate));
  const long n = p.intervals();
  std::vector<double> nodes(n + 1);
  for (long k = 0; k <= n; ++k) nodes[k] = p.node(k);
  const torch::Tensor x = torch::tensor(nodes, torch::kFloat64).unsqueeze(1);
  torch::Tensor y, d1, d2;
  {
    torch::AutoGradMode grad(true);
    const long m1 = net(x.narrow(0, 0, 1)).size(1);
    // One copy of the nodes per output column m; summing column m of copy m makes the
    // gradient with respect to copy m's inputs G_m'(x_k) (nodes are independent rows), so two
    // backward passes give every first and second derivative.
    const torch::Tensor xs = x.repeat({m1, 1}).requires_grad_(true);  // (m1·(n+1), 1)
    const torch::Tensor out = net(xs).view({m1, n + 1, m1});
    const torch::Tensor mine = out.diagonal(0, 0, 2);  // (n+1, m1): copy m, column m
    const torch::Tensor g = torch::autograd::grad({mine.sum()}, {xs}, {}, true, true)[0];
    const torch::Tensor gg = torch::autograd::grad({g.sum()}, {xs}, {}, false, false)[0];
    y = mine.detach().contiguous();
    d1 = g.detach().view({m1, n + 1}).t().contiguous();
    d2 = gg.detach().view({m1, n + 1}).t().contiguous();
  }
  // Quintic Hermite on [x_k, x_k + h], t = x − x_k: p = Σ a_i tⁱ with p, p', p'' matching
  // (y0, y0', y0'') at t = 0 and (y1, y1', y1'') at t = h.
  const torch::Tensor h = (x.detach().narrow(0, 1, n) - x.detach().narrow(0, 0, n));  // (n, 1)
  const auto lo = [&](const torch::Tensor& t) { return t.narrow(0, 0, n); };
  const auto hi = [&](const torch::Tensor& t) { return t.narrow(0, 1, n); };
  const torch::Tensor y0 = lo(y), y1 = hi(y), p0 = lo(d1), p1 = hi(d1), q0 = lo(d2), q1 = hi(d2);
  const torch::Tensor h2 = h * h, h3 = h2 * h, h4 = h3 * h, h5 = h4 * h;
  const torch::Tensor a3 =
      (20 * (y1 - y0) - (8 * p1 + 12 * p0) * h - (3 * q0 - q1) * h2) / (2 * h3);
  const torch::Tensor a4 =
      (30 * (y0 - y1) + (14 * p1 + 16 * p0) * h + (3 * q0 - 2 * q1) * h2) / (2 * h4);
  const torch::Tensor a5 = (12 * (y1 - y0) - 6 * (p1 + p0) * h - (q0 - q1) * h2) / (2 * h5);
  // (n, 6, M1): the coefficients of one power contiguous over the neurons (vectorises).
  return torch::stack({y0, p0, q0 / 2, a3, a4, a5}, 1).contiguous();
}

namespace {

// Interval and offset of x in the table, DeePMD-kit's locate_xx: below `lower` → the first
// node; beyond the end → the last node with slope 0 (returns false).
bool locate(double x, const TableParams& p, long fine, long n, double& t, long& k) {
  if (x < p.lower) {
    k = 0;
    t = 0;
    return true;
  }
  const double fine_end = p.lower + fine * p.stride;
  if (x < fine_end) {
    k = std::min(fine - 1, static_cast<long>((x - p.lower) / p.stride));
  } else {
    k = fine + static_cast<long>((x - fine_end) / (10 * p.stride));
    if (k >= n) {
      k = n - 1;
      t = p.node(n) - p.node(n - 1);
      return false;
    }
  }
  t = x - p.node(k);
  return true;
}

void note_overflow(long outside, const TableParams& p, long n, TableOverflow& overflow) {
  if (outside == 0) return;
  overflow.points += outside;
  if (!overflow.warned.exchange(true))
    spdlog::warn(
        "compressed deep potential: {} neighbour(s) closer than the table covers (normalised "
        "s beyond {:.4g}, the table's end: ~{}× {:.4g}, the data's range); their embedding is "
        "held at the table's last value with zero slope, as DeePMD-kit does. Compress with a "
        "smaller --min-distance or a larger --extrapolate, or use the uncompressed model",
        outside, p.node(n), p.extrapolate, p.upper);
}

// G_m(t) and (when `slope`) G_m'(t) of one interval's coefficients c (6, M1), by Horner.
void polynomial(const double* c, long m1, double t, double* value, double* slope) {
  if (t == 0) {  // a node, e.g. every padded slot (x = lower): no Horner needed
    std::copy(c, c + m1, value);
    if (slope) std::copy(c + m1, c + 2 * m1, slope);
    return;
  }
  const double *c0 = c, *c1 = c + m1, *c2 = c + 2 * m1, *c3 = c + 3 * m1, *c4 = c + 4 * m1,
               *c5 = c + 5 * m1;
  for (long m = 0; m < m1; ++m)
    value[m] = c0[m] + t * (c1[m] + t * (c2[m] + t * (c3[m] + t * (c4[m] + t * c5[m]))));
  if (slope)
    for (long m = 0; m < m1; ++m)
      slope[m] = c1[m] + t * (2 * c2[m] + t * (3 * c3[m] + t * (4 * c4[m] + t * 5 * c5[m])));
}

class TableFunction : public torch::autograd::Function<TableFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                               const torch::Tensor& coefficients, const TableParams* params,
                               TableOverflow* overflow) {
    const TableParams& p = *params;
    const torch::Tensor xc = x.contiguous();
    const long points = xc.numel(), m1 = coefficients.size(2), n = coefficients.size(0);
    const long fine = p.fine_intervals();
    auto sizes = x.sizes().vec();
    sizes.back() = m1;
    torch::Tensor g = torch::empty(sizes, x.options());
    torch::Tensor dg = torch::empty(sizes, x.options());
    const double* px = xc.data_ptr<double>();
    const double* pc = coefficients.data_ptr<double>();
    double* pg = g.data_ptr<double>();
    double* pd = dg.data_ptr<double>();
    long outside = 0;
    for (long i = 0; i < points; ++i) {
      double t;
      long k;
      const bool inside = locate(px[i], p, fine, n, t, k);
      outside += !inside;
      const double* c = pc + k * 6 * m1;
      double* gi = pg + i * m1;
      double* di = pd + i * m1;
      polynomial(c, m1, t, gi, inside ? di : nullptr);
      if (!inside) std::fill(di, di + m1, 0.0);
    }
    note_overflow(outside, p, n, *overflow);
    ctx->save_for_backward({dg});
    return g;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad) {
    const torch::Tensor dg = ctx->get_saved_variables()[0];
    // Analytic: ∂L/∂x = Σ_m ∂L/∂G_m · dG_m/dx (first order only; compressed models infer).
    return {(grad[0] * dg).sum(-1, true), torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

class FusedTableFunction : public torch::autograd::Function<FusedTableFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& r,
                               const torch::Tensor& coefficients, const TableParams* params,
                               TableOverflow* overflow) {
    const TableParams& p = *params;
    const torch::Tensor rc = r.contiguous();
    const long rows = rc.size(0), slots = rc.size(1), m1 = coefficients.size(2);
    const long n = coefficients.size(0), fine = p.fine_intervals();
    torch::Tensor out = torch::zeros({rows, 4, m1}, r.options());
    const double* pr = rc.data_ptr<double>();
    const double* pc = coefficients.data_ptr<double>();
    double* po = out.data_ptr<double>();
    std::vector<double> g(m1);
    long outside = 0;
    for (long a = 0; a < rows; ++a) {
      double* o = po + a * 4 * m1;
      for (long j = 0; j < slots; ++j) {
        const double* rj = pr + (a * slots + j) * 4;
        double t;
        long k;
        outside += !locate(rj[0], p, fine, n, t, k);
        polynomial(pc + k * 6 * m1, m1, t, g.data(), nullptr);
        for (int q = 0; q < 4; ++q)
          for (long m = 0; m < m1; ++m) o[q * m1 + m] += rj[q] * g[m];
      }
    }
    note_overflow(outside, p, n, *overflow);
    ctx->save_for_backward({rc, coefficients});
    ctx->saved_data["params"] = reinterpret_cast<std::int64_t>(params);
    return out;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad) {
    const auto saved = ctx->get_saved_variables();
    const torch::Tensor& rc = saved[0];
    const torch::Tensor& coefficients = saved[1];
    const auto& p = *reinterpret_cast<const TableParams*>(ctx->saved_data["params"].toInt());
    const torch::Tensor go = grad[0].contiguous();
    const long rows = rc.size(0), slots = rc.size(1), m1 = coefficients.size(2);
    const long n = coefficients.size(0), fine = p.fine_intervals();
    torch::Tensor gr = torch::empty_like(rc);
    const double* pr = rc.data_ptr<double>();
    const double* pc = coefficients.data_ptr<double>();
    const double* pg = go.data_ptr<double>();
    double* pd = gr.data_ptr<double>();
    std::vector<double> g(m1), slope(m1);
    for (long a = 0; a < rows; ++a) {
      const double* ga = pg + a * 4 * m1;  // ∂L/∂out[a] (4, M1)
      for (long j = 0; j < slots; ++j) {
        const double* rj = pr + (a * slots + j) * 4;
        double* dj = pd + (a * slots + j) * 4;
        double t;
        long k;
        const bool inside = locate(rj[0], p, fine, n, t, k);
        polynomial(pc + k * 6 * m1, m1, t, g.data(), slope.data());
        // ∂L/∂R̃_jq = Σ_m ∂L/∂out_qm G_m; ∂L/∂x_j += Σ_m (Σ_q ∂L/∂out_qm R̃_jq) G'_m.
        double d[4] = {0, 0, 0, 0}, dx = 0;
        for (int q = 0; q < 4; ++q) {
          const double* gq = ga + q * m1;
          double dq = 0, xq = 0;
          for (long m = 0; m < m1; ++m) {
            dq += gq[m] * g[m];
            xq += gq[m] * slope[m];
          }
          d[q] = dq;
          dx += rj[q] * xq;
        }
        dj[0] = d[0] + (inside ? dx : 0.0);
        for (int q = 1; q < 4; ++q) dj[q] = d[q];
      }
    }
    return {gr, torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

torch::Tensor fused_table_product(const torch::Tensor& r, const torch::Tensor& coefficients,
                                  const TableParams& params, TableOverflow& overflow) {
  if (r.scalar_type() != torch::kFloat64 || r.size(-1) != 4)
    throw Error("fused_table_product: float64 (n, slots, 4) only");
  return FusedTableFunction::apply(r, coefficients.contiguous(), &params, &overflow);
}

torch::Tensor evaluate_table(const torch::Tensor& x, const torch::Tensor& coefficients,
                             const TableParams& params, TableOverflow& overflow) {
  if (x.scalar_type() != torch::kFloat64 || coefficients.scalar_type() != torch::kFloat64)
    throw Error("evaluate_table: float64 only");
  return TableFunction::apply(x, coefficients.contiguous(), &params, &overflow);
}

}  // namespace surrox::surrogates::deep_potential

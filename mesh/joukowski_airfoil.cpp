// The Joukowski airfoil: its surface from the conformal map and its exact potential flow.
#include <cmath>
#include <complex>
#include <iomanip>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "mesh/airfoil_geometry.hpp"
#include "mesh/airfoil_geometry_detail.hpp"

namespace surrox::mesh {
namespace {

using detail::kPi;

}  // namespace

JoukowskiAirfoil::JoukowskiAirfoil(double center_x, double center_y)
    : cx_(center_x), cy_(center_y) {
  if (!(center_x < 0) || !std::isfinite(center_y) || center_x < -1)
    throw InputError("Joukowski circle centre x must lie in [-1, 0) (got " +
                     std::to_string(center_x) + "): the circle must enclose ζ = −1");
  radius_ = std::hypot(1 - cx_, cy_);
  beta_ = std::atan2(cy_, 1 - cx_);
  // Leading edge: the surface point farthest from the trailing edge z = 2.
  le_x_ = 2;
  le_y_ = 0;
  double best = -1, best_t = 0;
  auto z_of = [&](double t, double& zx, double& zy) {
    const std::complex<double> zeta(cx_ + radius_ * std::cos(t), cy_ + radius_ * std::sin(t));
    const std::complex<double> z = zeta + 1.0 / zeta;
    zx = z.real();
    zy = z.imag();
  };
  const int samples = 20000;
  for (int k = 0; k < samples; ++k) {
    const double t = -beta_ + 2 * kPi * k / samples;
    double zx, zy;
    z_of(t, zx, zy);
    const double d = std::hypot(zx - 2, zy);
    if (d > best) best = d, best_t = t;
  }
  double lo = best_t - 2 * kPi / samples, hi = best_t + 2 * kPi / samples;
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  auto dist = [&](double t) {
    double zx, zy;
    z_of(t, zx, zy);
    return std::hypot(zx - 2, zy);
  };
  for (int it = 0; it < 80; ++it) {
    const double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
    if (dist(c) > dist(d))
      hi = d;
    else
      lo = c;
  }
  z_of(0.5 * (lo + hi), le_x_, le_y_);
  chord_ = std::hypot(2 - le_x_, le_y_);
}

void JoukowskiAirfoil::surface_point(double theta, double& x, double& y) const {
  const std::complex<double> zeta(cx_ + radius_ * std::cos(theta), cy_ + radius_ * std::sin(theta));
  const std::complex<double> z = zeta + 1.0 / zeta;
  x = (z.real() - le_x_) / chord_;
  y = (z.imag() - le_y_) / chord_;
}

double JoukowskiAirfoil::lift_coefficient(double alpha) const {
  return 8 * kPi * radius_ / chord_ * std::sin(alpha + beta_);
}

double JoukowskiAirfoil::theta_of(double x, double y) const {
  const std::complex<double> z(x * chord_ + le_x_, y * chord_ + le_y_), mu(cx_, cy_);
  const std::complex<double> root = std::sqrt(z * z - 4.0);
  const std::complex<double> a = 0.5 * (z + root), b = 0.5 * (z - root);
  const std::complex<double> zeta =
      std::abs(std::abs(a - mu) - radius_) <= std::abs(std::abs(b - mu) - radius_) ? a : b;
  return std::arg(zeta - mu);
}

double JoukowskiAirfoil::pressure_coefficient(double theta, double alpha) const {
  // Circle: |dw/dζ| = 2U |sin(θ − α) + sin(α + β)| (Kutta condition at θ = −β); the map divides
  // it by |dz/dζ| = |1 − 1/ζ²|. At the trailing edge both vanish: the limit is U cos(α + β) / R.
  const double d = std::remainder(theta + beta_, 2 * kPi);
  double speed;
  if (std::abs(d) < 1e-7) {
    speed = std::cos(alpha + beta_) / radius_;
  } else {
    const std::complex<double> zeta(cx_ + radius_ * std::cos(theta),
                                    cy_ + radius_ * std::sin(theta));
    const double q = 2 * (std::sin(theta - alpha) + std::sin(alpha + beta_));
    speed = std::abs(q) / std::abs(1.0 - 1.0 / (zeta * zeta));
  }
  return 1 - speed * speed;
}

AirfoilShape JoukowskiAirfoil::shape(int points) const {
  if (points < 16) throw InputError("Joukowski airfoil needs at least 16 points");
  AirfoilShape s;
  std::ostringstream name;
  name << "Joukowski airfoil, circle centre (" << cx_ << ", " << cy_
       << "), R = " << std::setprecision(12) << radius_ << ", beta = " << beta_ << " rad";
  s.name = name.str();
  s.source = "joukowski (" + std::to_string(cx_) + ", " + std::to_string(cy_) + ")";
  for (int k = 0; k < points; ++k) {
    double x, y;
    surface_point(-beta_ - 2 * kPi * k / points, x,
                  y);  // clockwise from the TE: lower surface first
    s.x.push_back(x);
    s.y.push_back(y);
  }
  s.corners = {0};
  validate_airfoil(s);
  return s;
}

}  // namespace surrox::mesh

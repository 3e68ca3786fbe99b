#include "solvers/md/md_system.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "solvers/md/atom_packing.hpp"

namespace surrox::solvers::md {

Units Units::from_name(const std::string& name) {
  Units u;
  u.name = name;
  if (name == "lj") return u;
  if (name == "metal") {
    u.boltz = 8.617343e-5;
    u.mvv2e = 1.0364269e-4;
    u.ftm2v = 1.0 / 1.0364269e-4;
    u.nktv2p = 1.6021765e6;
    u.normalize = false;
    return u;
  }
  throw InputError("unknown units '" + name + "'; known: lj, metal");
}

void System::reserve(long capacity) {
  if (static_cast<long>(x.extent(0)) >= capacity) return;
  const long n =
      std::max<long>(capacity, static_cast<long>(1.2 * static_cast<double>(x.extent(0))));
  Kokkos::resize(x, n);
  Kokkos::resize(f, n);
  Kokkos::resize(type, n);
  Kokkos::resize(tag, n);
}

void System::load(const AtomData& data) {
  box = data.box;
  ntypes = data.ntypes;
  nlocal = nall = data.natoms();
  x = Vec3View("md::x", nlocal);
  v = Vec3View("md::v", nlocal);
  f = Vec3View("md::f", nlocal);
  type = IntView("md::type", nlocal);
  tag = TagView("md::tag", nlocal);
  image = Kokkos::View<int* [3], Kokkos::LayoutRight>("md::image", nlocal);
  mass = RealView("md::mass", ntypes + 1);
  auto hx = Kokkos::create_mirror_view(x);
  auto hv = Kokkos::create_mirror_view(v);
  auto ht = Kokkos::create_mirror_view(type);
  auto hg = Kokkos::create_mirror_view(tag);
  auto hi = Kokkos::create_mirror_view(image);
  auto hm = Kokkos::create_mirror_view(mass);
  for (long i = 0; i < nlocal; ++i) {
    for (int d = 0; d < 3; ++d) {
      hx(i, d) = data.x[i][d];
      hv(i, d) = data.has_velocities ? data.v[i][d] : 0.0;
      hi(i, d) = data.image.empty() ? 0 : data.image[i][d];
    }
    ht(i) = data.type[i];
    hg(i) = data.tag[i];
  }
  for (int t = 0; t <= ntypes; ++t)
    hm(t) = t < static_cast<int>(data.mass.size()) ? data.mass[t] : 0.0;
  Kokkos::deep_copy(x, hx);
  Kokkos::deep_copy(v, hv);
  Kokkos::deep_copy(type, ht);
  Kokkos::deep_copy(tag, hg);
  Kokkos::deep_copy(image, hi);
  Kokkos::deep_copy(mass, hm);
}

AtomData System::owned_atoms() const {
  AtomData data;
  data.box = box;
  data.ntypes = ntypes;
  data.has_velocities = true;
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), type);
  auto hg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tag);
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), image);
  auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mass);
  data.mass.assign(hm.data(), hm.data() + hm.extent(0));
  for (long i = 0; i < nlocal; ++i) {
    data.tag.push_back(hg(i));
    data.type.push_back(ht(i));
    data.x.push_back({hx(i, 0), hx(i, 1), hx(i, 2)});
    data.v.push_back({hv(i, 0), hv(i, 1), hv(i, 2)});
    data.image.push_back({hi(i, 0), hi(i, 1), hi(i, 2)});
  }
  return data;
}

AtomData System::to_host() const {
  // Non-finite positions would never wrap: the callers (output) run after the step checks.
  const AtomData owned = owned_atoms();
  std::vector<long> order(nlocal);
  std::iota(order.begin(), order.end(), 0L);
  std::sort(order.begin(), order.end(),
            [&](long a, long b) { return owned.tag[a] < owned.tag[b]; });
  AtomData data = without_atoms(owned);
  for (long i : order) {
    append_atom(owned, i, data);
    // Atoms drift out of the box between list builds: wrap them, keeping the image flags.
    auto& x = data.x.back();
    auto& image = data.image.back();
    for (int d = 0; d < 3; ++d) {
      const double L = box.length(d);
      if (!std::isfinite(x[d])) continue;
      while (x[d] < box.lo[d]) x[d] += L, --image[d];
      while (x[d] >= box.hi[d]) x[d] -= L, ++image[d];
      if (x[d] < box.lo[d]) x[d] = box.lo[d];  // x = lo − tiny rounds to hi: keep it in [lo, hi)
    }
  }
  return data;
}

}  // namespace surrox::solvers::md

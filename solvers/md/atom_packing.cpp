#include "solvers/md/atom_packing.hpp"

namespace surrox::solvers::md {

void pack_atom(const AtomData& from, long i, std::vector<double>& out) {
  const auto& x = from.x[i];
  const auto& v = from.v[i];
  const auto& m = from.image[i];
  out.insert(out.end(), {static_cast<double>(from.tag[i]), static_cast<double>(from.type[i]), x[0],
                         x[1], x[2], v[0], v[1], v[2], static_cast<double>(m[0]),
                         static_cast<double>(m[1]), static_cast<double>(m[2])});
}

void unpack_atom(const double* in, AtomData& to) {
  to.tag.push_back(static_cast<long>(in[0]));
  to.type.push_back(static_cast<int>(in[1]));
  to.x.push_back({in[2], in[3], in[4]});
  to.v.push_back({in[5], in[6], in[7]});
  to.image.push_back({static_cast<int>(in[8]), static_cast<int>(in[9]), static_cast<int>(in[10])});
}

void append_atom(const AtomData& from, long i, AtomData& to) {
  to.tag.push_back(from.tag[i]);
  to.type.push_back(from.type[i]);
  to.x.push_back(from.x[i]);
  to.v.push_back(from.v.empty() ? std::array<double, 3>{0, 0, 0} : from.v[i]);
  to.image.push_back(from.image.empty() ? std::array<int, 3>{0, 0, 0} : from.image[i]);
}

AtomData without_atoms(const AtomData& data) {
  AtomData out;
  out.box = data.box;
  out.ntypes = data.ntypes;
  out.mass = data.mass;
  out.has_velocities = data.has_velocities;
  return out;
}

}  // namespace surrox::solvers::md

#include "families/builtin_families.hpp"

#include <mutex>

namespace surrox::families {

void register_builtin_families() {
  static std::once_flag once;
  std::call_once(once, [] {
    FamilyRegistrar registrar;
    register_field(registrar);
    register_super_resolution(registrar);
    register_deep_potential(registrar);
    register_pod_lstm(registrar);
    register_neural_step(registrar);
  });
}

}  // namespace surrox::families

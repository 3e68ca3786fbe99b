#pragma once
// LAMMPS's headers (Debian's liblammps-dev, 7 Jan 2022) include "fmt/format.h" and were written
// for the {fmt} 7 that liblammps bundles inside itself (namespace fmt::v7_lmp) but does not
// ship. Debian's own {fmt} is 9, which dropped make_args_checked; this header, first on the
// LAMMPS targets' include path, adds it back so that the headers parse. Calling one of LAMMPS's
// {fmt}-templated functions (Error::all with a format and arguments, utils::logmesg with
// arguments) would still fail to link (v9 symbols), so surrox passes LAMMPS whole std::strings.
#include_next <fmt/format.h>

namespace fmt {
template <typename... Args, typename S>
inline auto make_args_checked(const S&, const Args&... args) {
  return fmt::make_format_args(args...);
}
}  // namespace fmt

#pragma once
// `surrox ARGS` run in this process on the test's runtime, as the executable runs it: the
// built-in surrogate families registered, the command line parsed, the command run (summary.json
// written on the root). A test that uses it links surrox_families (ctest-libraries).
//
// On several ranks every rank calls it with the same arguments, and it returns after a barrier:
// the files the root wrote are complete when any rank reads them (a --resume reads its
// checkpoint on every rank). A command that fails on several ranks ends the job (MPI_Abort,
// with the message on stderr), so a run that must fail runs on one rank, inside a
// CommunicatorScope on MPI_COMM_SELF.
#include <mpi.h>

#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "apps/command_line.hpp"
#include "core/runtime.hpp"
#include "families/builtin_families.hpp"
#include "support/test_paths.hpp"

namespace surrox::testing {

// The exit code. With `output`, what the command writes on std::cout and std::cerr (the error
// message of a failure included) goes there instead of the terminal. --threads applies to this
// command only: the runtime's LibTorch thread count is put back afterwards.
inline int run_surrox_in_process(const std::vector<std::string>& args,
                                 std::string* output = nullptr) {
  families::register_builtin_families();  // idempotent
  Runtime& on = runtime();
  std::vector<std::string> argv = {"surrox"};
  argv.insert(argv.end(), args.begin(), args.end());

  // While alive, `stream` writes into `to`; the destructor puts its own buffer back.
  class Redirect {
   public:
    Redirect(std::ostream& stream, std::streambuf* to)
        : stream_(stream), before_(stream.rdbuf(to)) {}
    ~Redirect() { stream_.rdbuf(before_); }
    Redirect(const Redirect&) = delete;
    Redirect& operator=(const Redirect&) = delete;

   private:
    std::ostream& stream_;
    std::streambuf* before_;
  };
  std::ostringstream captured;
  std::optional<Redirect> to_out, to_err;
  if (output) {
    to_out.emplace(std::cout, captured.rdbuf());
    to_err.emplace(std::cerr, captured.rdbuf());
  }

  const int threads = on.torch_threads();
  int code = 0;
  {
    apps::CommandLine command_line;
    const std::optional<int> ended = command_line.parse(argv);
    code = ended ? *ended : command_line.run(on);
  }
  if (on.torch_threads() != threads) on.set_torch_threads(threads);

  to_err.reset();
  to_out.reset();
  if (output) *output = captured.str();
  if (on.size() > 1) MPI_Barrier(on.comm());
  return code;
}

}  // namespace surrox::testing

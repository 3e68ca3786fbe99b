#include "io/contained_read.hpp"

#include <mpi.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace surrox::io {

namespace {
bool containment_on = true;
}  // namespace

void contain_library_crashes(bool on) { containment_on = on; }

void probe_in_child(const std::function<void()>& read, const std::string& file,
                    const std::string& library) {
  if (!containment_on) return;
  int initialized = 0, ranks = 1;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > 1) return;
  const pid_t child = ::fork();
  if (child < 0) return;  // no fork: read directly
  if (child == 0) {
    // The library's crash must kill the child: a handler inherited from the parent would not
    // (PETSc's turns SIGSEGV into MPI_Abort, which waits forever for a runtime this child is
    // not part of; found by fuzz/regressions/h5/attribute_iterate_segv).
    for (const int fatal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(fatal, SIG_DFL);
    try {
      read();
    } catch (...) {
    }
    ::_exit(0);  // no atexit handlers, no MPI finalisation in the child
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0))
    throw InputError(
        "the file is corrupt: reading it made " + library + " crash (" +
            (WIFSIGNALED(status) ? std::string(::strsignal(WTERMSIG(status)))
                                 : "exit code " + std::to_string(WEXITSTATUS(status))) +
            ")",
        {file});
}

}  // namespace surrox::io

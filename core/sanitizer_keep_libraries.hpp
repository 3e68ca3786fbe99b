#pragma once
// Include in the one file that defines main() of an executable (apps/main.cpp, the test main).
// In a build with AddressSanitizer (the `debug` preset) it gives the executable its own
// dlclose() that keeps every library loaded: Open MPI unloads its components (mca_*.so) in
// MPI_Finalize, and LeakSanitizer then sees their allocations as "<unknown module>" frames that
// no suppression can name (tests/sanitizers/lsan.supp). Libraries are unloaded at exit anyway.
// Nothing in other builds.
#if defined(__SANITIZE_ADDRESS__)
extern "C" int dlclose(void* /*handle*/) { return 0; }
#endif

#pragma once
// Containment of crashes inside third-party readers (HDF5 has a history of CVEs on malformed
// files; fuzzing found a use-after-free in HDF5 1.10.8's attribute code, fuzz/open/h5): a read
// runs once in a forked child first, so that a file which makes the library crash kills only
// the child and becomes an InputError naming the file (exit code 2); when the child survives,
// the caller reads the file itself. Skipped (the read runs directly) inside an MPI job of
// several ranks, where fork() is unsafe with some transports.
#include <functional>
#include <string>

namespace surrox::io {

// Throws InputError when `read` dies of a signal in the child; returns otherwise (whatever
// the child's read threw: the caller's own read will throw it again).
void probe_in_child(const std::function<void()>& read, const std::string& file,
                    const std::string& library);

// The usual use: probe `read` in a child, then run it here and return its result.
template <class Read>
auto read_contained(const std::string& file, const std::string& library, const Read& read) {
  probe_in_child([&] { read(); }, file, library);
  return read();
}

// On by default. The fuzz target (fuzz/reader_fuzz.cpp) turns it off: a crash or sanitizer
// report inside the child would otherwise be hidden from the fuzzer as a clean InputError.
void contain_library_crashes(bool on);

}  // namespace surrox::io

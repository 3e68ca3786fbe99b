#pragma once
// Internal to surrox_io_vtk. VTK reports problems by printing through vtkOutputWindow and by
// firing ErrorEvent/WarningEvent on the object at fault; it does not throw. VtkErrorCapture
// collects both for the duration of one read or write, so that the caller can turn them into
// a surrox exception, and keeps them off stderr (output window and vtkLogger) meanwhile. Not
// thread-safe: the output window is process-wide.
#include <string>
#include <vector>

class vtkObject;
class vtkCallbackCommand;

namespace surrox::io::detail {

class VtkErrorCapture {
 public:
  VtkErrorCapture();
  ~VtkErrorCapture();  // detaches every observer and restores the output window's mode
  VtkErrorCapture(const VtkErrorCapture&) = delete;
  VtkErrorCapture& operator=(const VtkErrorCapture&) = delete;

  // Also listen on this object's own events (a reader or writer, whose errors bypass the
  // output window once an observer is attached). The capture holds a reference to it, so the
  // object may be declared after the capture and still be alive when the capture detaches.
  void watch(vtkObject* object);

  bool has_errors() const { return !errors_.empty(); }
  const std::vector<std::string>& errors() const { return errors_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The first few errors on one line, without VTK's "vtkXMLReader (0x...): " prefixes.
  std::string summary() const;

 private:
  static void on_event(vtkObject* caller, unsigned long event, void* self, void* message);

  vtkCallbackCommand* command_ = nullptr;  // owned (reference counted)
  std::vector<std::pair<vtkObject*, unsigned long>>
      observers_;  // each object referenced once per entry
  std::vector<std::string> errors_, warnings_;
  int saved_display_mode_ = 0;
  int saved_log_verbosity_ = 0;
};

}  // namespace surrox::io::detail

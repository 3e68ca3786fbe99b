#include "io/vtk_error_capture.hpp"

#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkLogger.h>
#include <vtkObject.h>
#include <vtkOutputWindow.h>

#include <algorithm>
#include <regex>

namespace surrox::io::detail {

VtkErrorCapture::VtkErrorCapture() : command_(vtkCallbackCommand::New()) {
  command_->SetCallback(&VtkErrorCapture::on_event);
  command_->SetClientData(this);
  auto* window = vtkOutputWindow::GetInstance();
  saved_display_mode_ = window->GetDisplayMode();
  window->SetDisplayModeToNever();
  // Errors that reach the output window also go through vtkLogger, which prints on its own.
  // Its stderr level cannot be read back; the verbosity cutoff equals it unless someone added
  // log files or callbacks to vtkLogger, which surrox does not.
  saved_log_verbosity_ = vtkLogger::GetCurrentVerbosityCutoff();
  vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
  watch(window);
}

VtkErrorCapture::~VtkErrorCapture() {
  for (auto& [object, tag] : observers_) {
    object->RemoveObserver(tag);
    object->UnRegister(nullptr);
  }
  vtkOutputWindow::GetInstance()->SetDisplayMode(saved_display_mode_);
  vtkLogger::SetStderrVerbosity(static_cast<vtkLogger::Verbosity>(saved_log_verbosity_));
  command_->Delete();
}

void VtkErrorCapture::watch(vtkObject* object) {
  // One reference per observer entry: the destructor releases one per entry it detaches.
  object->Register(nullptr);
  observers_.emplace_back(object, object->AddObserver(vtkCommand::ErrorEvent, command_));
  object->Register(nullptr);
  observers_.emplace_back(object, object->AddObserver(vtkCommand::WarningEvent, command_));
}

void VtkErrorCapture::on_event(vtkObject*, unsigned long event, void* self, void* message) {
  auto* capture = static_cast<VtkErrorCapture*>(self);
  std::string text = message ? static_cast<const char*>(message) : "unknown VTK error";
  (event == vtkCommand::ErrorEvent ? capture->errors_ : capture->warnings_)
      .push_back(std::move(text));
}

std::string VtkErrorCapture::summary() const {
  // VTK prefixes "ERROR: In <source>, line N\nvtkClass (0x55..): "; keep only the message.
  // The executive's "Algorithm X returned failure for request: <vtkInformation dump>" only
  // repeats that the reader failed; show it only when there is nothing more telling.
  static const std::regex prefix(R"(^(ERROR|Warning): In [^\n]*\n|vtk\w+ \(0x[0-9a-f]+\): )");
  std::vector<std::string> telling;
  for (const auto& e : errors_)
    if (e.find("returned failure for request") == std::string::npos &&
        std::find(telling.begin(), telling.end(), e) == telling.end())
      telling.push_back(e);
  if (telling.empty()) telling = errors_;
  std::string out;
  const std::size_t shown = std::min<std::size_t>(telling.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) {
    std::string message = std::regex_replace(telling[i], prefix, "");
    message = message.substr(0, message.find("vtkInformation ("));
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    for (char& c : message)
      if (c == '\n') c = ' ';
    if (!out.empty()) out += "; ";
    out += message;
  }
  if (telling.size() > shown) out += " (and " + std::to_string(telling.size() - shown) + " more)";
  return out;
}

}  // namespace surrox::io::detail

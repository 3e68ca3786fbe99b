#include "io/vtk_series.hpp"

#include <vtkNew.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>

#include <cstdlib>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/series_time.hpp"
#include "io/vtk_error_capture.hpp"
#include "io/xml_text.hpp"

namespace surrox::io {
namespace {

PvdDataSet parse_entry(vtkXMLDataElement* element, const ErrorContext& context) {
  PvdDataSet entry;
  const char* file = element->GetAttribute("file");
  if (!file || !*file) throw InputError("a DataSet entry has no 'file' attribute", context);
  entry.file = file;
  if (const char* time = element->GetAttribute("timestep")) {
    char* end = nullptr;
    entry.time = std::strtod(time, &end);
    if (end == time || *end)
      throw InputError(std::string("timestep '") + time + "' is not a number", context);
  }
  if (const char* part = element->GetAttribute("part")) entry.part = std::atoi(part);
  return entry;
}

}  // namespace

std::vector<PvdDataSet> read_pvd_index(const std::filesystem::path& pvd_path) {
  const ErrorContext context{pvd_path.string()};
  std::error_code error;
  if (!std::filesystem::is_regular_file(pvd_path, error)) throw InputError("no such file", context);
  if (std::filesystem::file_size(pvd_path, error) == 0) throw InputError("file is empty", context);

  detail::VtkErrorCapture capture;
  vtkNew<vtkXMLDataParser> parser;
  capture.watch(parser);
  parser->SetFileName(pvd_path.c_str());
  if (!parser->Parse() || capture.has_errors() || !parser->GetRootElement())
    throw InputError("not well-formed XML (truncated?): " + capture.summary(), context);

  vtkXMLDataElement* root = parser->GetRootElement();
  const char* type = root->GetAttribute("type");
  if (std::string(root->GetName()) != "VTKFile" || !type || std::string(type) != "Collection")
    throw InputError("not a ParaView collection (expected <VTKFile type=\"Collection\">)", context);
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  if (!collection) throw InputError("no <Collection> element", context);

  std::vector<PvdDataSet> entries;
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* element = collection->GetNestedElement(i);
    if (std::string(element->GetName()) == "DataSet")
      entries.push_back(parse_entry(element, context));
  }
  return entries;
}

PvdSeries::PvdSeries(std::filesystem::path pvd_path) : path_(std::move(pvd_path)) {}

void PvdSeries::add(double time, const std::filesystem::path& dataset_file, int part) {
  // Lexical, not canonical: symlinks stay as the caller named them.
  const auto folder = std::filesystem::absolute(path_).parent_path().lexically_normal();
  const auto file = std::filesystem::absolute(dataset_file).lexically_normal();
  auto relative = file.lexically_relative(folder);
  entries_.push_back({time, part, relative.empty() ? file : relative});
  write();
}

void PvdSeries::keep_entries_before(double time) {
  entries_.clear();
  if (!std::filesystem::exists(path_)) return;
  for (const PvdDataSet& entry : read_pvd_index(path_))
    if (earlier_than(entry.time, time)) entries_.push_back(entry);
}

void PvdSeries::write() const {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\" "
         "header_type=\"UInt64\">\n"
         "  <Collection>\n";
  for (const auto& entry : entries_)
    xml << "    <DataSet timestep=\"" << detail::exact_number(entry.time) << "\" part=\""
        << entry.part << "\" file=\"" << detail::xml_escaped(entry.file.generic_string())
        << "\"/>\n";
  xml << "  </Collection>\n</VTKFile>\n";
  try {
    write_text_atomically(path_, xml.str());
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error(e.what(), {path_.string()});
  }
}

}  // namespace surrox::io

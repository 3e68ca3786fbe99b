#pragma once
// Internal to the io libraries: text pieces for the small XML files surrox writes itself (.pvd
// collections, partitioned VTK summaries, XDMF sidecars).
#include <charconv>
#include <string>

namespace surrox::io::detail {

// Shortest text that reads back as the same double, so times and origins survive a round trip.
inline std::string exact_number(double value) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

// Text for an XML attribute value or element content: the five predefined entities.
inline std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace surrox::io::detail

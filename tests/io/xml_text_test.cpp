// ctest-labels: unit
// ctest-libraries: surrox_io
// The one XML escape of the files surrox writes by hand (.pvd, partitioned VTK summaries, XDMF):
// names with markup characters stay well-formed, and shortest numbers read back exactly.
#include "io/xml_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace surrox::io {
namespace {

TEST(XmlText, EscapesTheFivePredefinedEntities) {
  EXPECT_EQ(detail::xml_escaped(R"(a<b>&"c'd)"), "a&lt;b&gt;&amp;&quot;c&apos;d");
  EXPECT_EQ(detail::xml_escaped("fields_0001.vts"), "fields_0001.vts");
  EXPECT_EQ(detail::xml_escaped(""), "");
}

TEST(XmlText, ShortestNumbersReadBackExactly) {
  for (double value : {0.1, 1.0 / 3.0, 1e-300, -2.5e17})
    EXPECT_EQ(std::stod(detail::exact_number(value)), value);
  EXPECT_EQ(detail::exact_number(0.5), "0.5");
}

}  // namespace
}  // namespace surrox::io

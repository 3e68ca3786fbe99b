// ctest-labels: unit
#include "core/registry.hpp"

#include <gtest/gtest.h>

namespace surrox {
namespace {

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Square : Shape {
  explicit Square(double s) : side(s) {}
  double area() const override { return side * side; }
  double side;
};

TEST(Registry, CreatesRegisteredTypes) {
  Registry<Shape, double> shapes("shape");
  shapes.add("square",
             {[](double s) { return std::make_unique<Square>(s); }, Schema(), "a square"});
  EXPECT_DOUBLE_EQ(shapes.create("square", 3.0)->area(), 9.0);
  EXPECT_EQ(shapes.names(), std::vector<std::string>{"square"});
}

TEST(Registry, UnknownNameListsKnownNamesAndClosest) {
  Registry<Shape, double> shapes("shape");
  shapes.add("square", {[](double s) { return std::make_unique<Square>(s); }, Schema(), ""});
  shapes.add("circle", {[](double s) { return std::make_unique<Square>(s); }, Schema(), ""});
  try {
    shapes.create("sqare", 1.0);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown shape 'sqare'"), std::string::npos) << what;
    EXPECT_NE(what.find("did you mean 'square'"), std::string::npos) << what;
    EXPECT_NE(what.find("circle, square"), std::string::npos) << what;
    EXPECT_EQ(e.exit_code(), ExitCode::kBadInput);
  }
}

TEST(Registry, RejectsDoubleRegistration) {
  Registry<Shape, double> shapes("shape");
  shapes.add("square", {[](double s) { return std::make_unique<Square>(s); }, Schema(), ""});
  EXPECT_THROW(shapes.add("square", {nullptr, Schema(), ""}), Error);
}

}  // namespace
}  // namespace surrox

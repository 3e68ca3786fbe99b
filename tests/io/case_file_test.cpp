// ctest-labels: unit
// ctest-libraries: surrox_io
#include "io/case_file.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "core/registry.hpp"
#include "support/test_paths.hpp"

namespace surrox::io {
namespace {

struct Widget {
  virtual ~Widget() = default;
};

// A schema shaped like a real case: a section, a {type: ...} component, lists, paths.
const Registry<Widget>& widgets() {
  static const Registry<Widget> registry = [] {
    Registry<Widget> r("widget");
    Schema gear("A gear.");
    gear.integer("teeth", "number of teeth").at_least(3).fallback("12");
    gear.real("ratio", "gear ratio").above(0).at_most(10).fallback("1.5");
    r.add("gear", {[] { return std::make_unique<Widget>(); }, gear, "a gear"});
    Schema spring("A spring.");
    spring.real("stiffness", "stiffness").above(0).units("N/m");
    r.add("spring", {[] { return std::make_unique<Widget>(); }, spring, "a spring"});
    return r;
  }();
  return registry;
}

const Schema& schema() {
  static const Schema s = [] {
    Schema root("test case");
    Schema run("run settings");
    run.real("end_time", "end time").above(0).units("s").fallback("1.0");
    run.integer("steps", "step count").at_least(1).at_most(1000);
    run.boolean("verbose", "talk more").fallback("false");
    run.choice("scheme", {"euler", "rk2", "rk4"}, "time scheme").fallback("rk2");
    run.reals("box", "box size").sized(2).above(0).fallback("[1, 1]");
    root.section("run", run, "run settings");
    root.component("widget", widgets(), "the widget");
    Schema files("files");
    files.input_path("mesh", "mesh file").optional();
    files.output_path("log", "log file").fallback("log.txt");
    root.section("files", files, "files");
    return root;
  }();
  return s;
}

const char* kValid = R"(# a valid case
run:
  steps: 10
  scheme: rk4
widget:
  type: gear
  teeth: 20
)";

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    load_case_text(text, "case.yaml", schema(), overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "expected '" << part << "' in:\n" << text;
}

TEST(CaseFile, LoadsAndFillsDefaults) {
  const CaseFile c = load_case_text(kValid, "case.yaml", schema());
  const CaseNode run = c.root.section("run");
  EXPECT_EQ(run.integer("steps"), 10);
  EXPECT_DOUBLE_EQ(run.real("end_time"), 1.0);
  EXPECT_EQ(run.string("scheme"), "rk4");
  EXPECT_FALSE(run.boolean("verbose"));
  EXPECT_EQ(run.reals("box"), (std::vector<double>{1, 1}));
  EXPECT_DOUBLE_EQ(c.root.section("widget").real("ratio"), 1.5);
  const std::string resolved = c.resolved_yaml();
  expect_contains(resolved, "end_time: 1.0");
  expect_contains(resolved, "ratio: 1.5");
  // The resolved case is itself a valid case that resolves to the same text.
  EXPECT_EQ(load_case_text(resolved, "resolved.yaml", schema()).resolved_yaml(), resolved);
}

// Assigning one section to another rebinds it; the case it came from keeps its values
// (yaml-cpp's own Node assignment would overwrite the referenced YAML).
TEST(CaseFile, AssigningASectionLeavesTheCaseAlone) {
  const CaseFile c = load_case_text(kValid, "case.yaml", schema());
  CaseNode section = c.root.section("run");
  section = c.root.section("widget");
  EXPECT_DOUBLE_EQ(section.real("ratio"), 1.5);
  EXPECT_EQ(section.path(), "widget");
  EXPECT_EQ(c.root.section("run").integer("steps"), 10);
  EXPECT_FALSE(c.root.section("run").has("ratio"));
}

TEST(CaseFile, UnknownKeyNamesFileLineKeyPathAndClosestKey) {
  const std::string e = error_of("run:\n  steps: 10\n  end_tme: 2\nwidget: {type: gear}\n");
  expect_contains(e,
                  "case.yaml:3:3: run.end_tme: unknown key 'end_tme' (did you mean 'end_time'?)");
  expect_contains(e, "valid keys: end_time, steps, verbose, scheme, box");
}

TEST(CaseFile, WrongTypeIsReported) {
  expect_contains(error_of("run:\n  steps: ten\nwidget: {type: gear}\n"),
                  "case.yaml:2:10: run.steps: expected an integer, got 'ten'");
  expect_contains(error_of("run:\n  steps: 1.5\nwidget: {type: gear}\n"),
                  "run.steps: expected an integer");
  expect_contains(error_of("run: {steps: 1, verbose: maybe}\nwidget: {type: gear}\n"),
                  "run.verbose: expected true or false");
  expect_contains(error_of("run: [1, 2]\nwidget: {type: gear}\n"), "run: expected a section");
  expect_contains(error_of("run: {steps: 1, box: 3}\nwidget: {type: gear}\n"),
                  "run.box: expected a list");
}

TEST(CaseFile, OutOfRangeValuesNameTheAllowedRange) {
  expect_contains(error_of("run: {steps: 0}\nwidget: {type: gear}\n"),
                  "run.steps: value 0 out of range; allowed: [1, 1000]");
  expect_contains(error_of("run: {steps: 1, end_time: -1}\nwidget: {type: gear}\n"),
                  "run.end_time: value -1 out of range; allowed: > 0");
  expect_contains(error_of("run: {steps: 1, end_time: .nan}\nwidget: {type: gear}\n"),
                  "must be finite");
  expect_contains(error_of("run: {steps: 1, box: [1, 0]}\nwidget: {type: gear}\n"),
                  "run.box: value 0");
  expect_contains(error_of("run: {steps: 1, box: [1, 2, 3]}\nwidget: {type: gear}\n"),
                  "run.box: expected 2 entries, got 3");
}

TEST(CaseFile, BadChoiceListsChoices) {
  expect_contains(error_of("run: {steps: 1, scheme: rk44}\nwidget: {type: gear}\n"),
                  "case.yaml:1:25: run.scheme: 'rk44' is not a valid choice (did you mean 'rk4'?); "
                  "valid: euler, rk2, rk4");
}

TEST(CaseFile, MissingRequiredKeysAndSections) {
  expect_contains(error_of("run: {}\nwidget: {type: gear}\n"), "missing required key 'steps'");
  expect_contains(error_of("run: {steps: 1}\n"), "missing required section 'widget'");
  expect_contains(error_of("run: {steps: 1}\nwidget: {type: spring}\n"),
                  "widget: missing required key 'stiffness'");
  expect_contains(error_of("run: {steps: 1}\nwidget: {teeth: 3}\n"),
                  "missing 'type'; choose one of: gear, spring");
}

TEST(CaseFile, UnknownComponentTypeListsKnownTypes) {
  expect_contains(
      error_of("run: {steps: 1}\nwidget:\n  type: gaer\n"),
      "case.yaml:3:9: widget.type: unknown widget type 'gaer' (did you mean 'gear'?); known: gear, spring");
  // Keys of one type are not valid for another.
  expect_contains(error_of("run: {steps: 1}\nwidget: {type: spring, stiffness: 1, teeth: 4}\n"),
                  "widget.teeth: unknown key 'teeth'");
}

TEST(CaseFile, SyntaxErrorsGiveTheLine) {
  expect_contains(error_of("run:\n  steps: 1\n widget: [\n"), "case.yaml:3");
  expect_contains(error_of("run: {steps: 1\n"), "YAML syntax error");
  expect_contains(error_of("- a\n- b\n"), "must be a map of sections");
  expect_contains(error_of("just text\n"), "must be a map of sections");
}

TEST(CaseFile, DuplicateKeysAreErrors) {
  expect_contains(error_of("run:\n  steps: 1\n  steps: 2\nwidget: {type: gear}\n"),
                  "case.yaml:3:3: run.steps: duplicate key 'steps' (first given on line 2)");
  expect_contains(error_of("run: {steps: 1}\nwidget: {type: gear}\nrun: {steps: 2}\n"),
                  "duplicate key 'run'");
}

TEST(CaseFile, EmptyAndBinaryFilesAreErrors) {
  expect_contains(error_of(""), "empty case file");
  expect_contains(error_of("  \n\n# only a comment\n"), "must be a map");
  expect_contains(error_of(std::string("run: {steps: 1}\n\0\x01\x02", 19)), "binary data");
  expect_contains(error_of("run: {steps: 1}\nwidget: {type: \xff\xfe}\n"), "invalid UTF-8");
}

TEST(CaseFile, AliasesAndDeepNestingNeitherCrashNorHang) {
  // A "billion laughs": each level doubles the expanded size. Validation must not expand it.
  std::string bomb = "a0: &a0 [x, x]\n";
  for (int i = 1; i < 60; ++i)
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) +
            ", *a" + std::to_string(i - 1) + "]\n";
  bomb += "run: {steps: 1, box: *a59}\nwidget: {type: gear}\n";
  expect_contains(error_of(bomb), "unknown key 'a0'");
  const std::string bomb_in_value = "run: {steps: 1, box: &b [[*b]]}\nwidget: {type: gear}\n";
  EXPECT_NE(error_of(bomb_in_value), "no error");
  expect_contains(error_of(std::string(100000, '[')), "case.yaml");
  std::string deep;
  for (int i = 0; i < 50000; ++i) deep += "{a: ";
  expect_contains(error_of(deep), "case.yaml");
  // Aliases that fit the schema are fine.
  const CaseFile ok =
      load_case_text("run: &r {steps: 3}\nwidget: {type: gear, teeth: 7}\n", "c.yaml", schema());
  EXPECT_EQ(ok.root.section("run").integer("steps"), 3);
}

TEST(CaseFile, OverridesApplyAfterTheFileAndAreNamedInErrors) {
  const CaseFile c = load_case_text(kValid, "case.yaml", schema(),
                                    {"run.steps=42", "widget.ratio=2.5", "run.box=[2, 3]"});
  EXPECT_EQ(c.root.section("run").integer("steps"), 42);
  EXPECT_DOUBLE_EQ(c.root.section("widget").real("ratio"), 2.5);
  EXPECT_EQ(c.root.section("run").reals("box"), (std::vector<double>{2, 3}));
  expect_contains(error_of(kValid, {"run.steps=0"}),
                  "--set run.steps=0: run.steps: value 0 out of range");
  expect_contains(error_of(kValid, {"run.stepz=3"}),
                  "--set run.stepz=3: run.stepz: unknown key 'stepz'");
  expect_contains(error_of(kValid, {"run.steps"}), "expected KEY.PATH=VALUE");
  expect_contains(error_of(kValid, {"run.steps.x=1"}), "'run.steps' is not a section");
  expect_contains(error_of(kValid, {"run..steps=1"}), "empty key");
  expect_contains(error_of(kValid, {"widget.type=spring", "widget.stiffness=2", "widget.teeth=3"}),
                  "unknown key 'teeth'");
}

TEST(CaseFile, TypedOverridesGiveTheCaseTheirTextWouldGive) {
  // A real as its "{:.17g}" text (exact), a section replaced, strings that stay strings.
  const std::vector<std::string> texts = {"run.end_time=0.10000000000000001",
                                          "widget={type: spring}", "widget.stiffness=3",
                                          "files.log='true'", "run.verbose=true"};
  CaseOverrides typed;
  typed.real("run.end_time", 0.1)
      .section("widget")
      .string("widget.type", "spring")
      .integer("widget.stiffness", 3)
      .string("files.log", "true")
      .boolean("run.verbose", true);
  const CaseFile a = load_case_text(kValid, "case.yaml", schema(), texts);
  const CaseFile b = load_case_text(kValid, "case.yaml", schema(), typed);
  EXPECT_EQ(b.resolved_yaml(), a.resolved_yaml());
  EXPECT_EQ(b.root.section("run").real("end_time"), 0.1);
  // The overrides are not changed by loading (validation fills the case's copy).
  EXPECT_EQ(load_case_text(kValid, "case.yaml", schema(), typed).resolved_yaml(),
            a.resolved_yaml());
  // A bad typed value is the schema's error, naming its source and the key.
  CaseOverrides bad;
  bad.source("test run").integer("run.steps", 0);
  try {
    load_case_text(kValid, "case.yaml", schema(), bad);
    FAIL();
  } catch (const InputError& e) {
    expect_contains(e.what(), "test run: run.steps=0: run.steps: value 0 out of range");
  }
}

TEST(CaseFile, SemanticChecksPointAtTheLine) {
  const CaseFile c = load_case_text(kValid, "case.yaml", schema());
  try {
    c.root.section("widget").fail("teeth", "too many teeth for this ratio");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "case.yaml:7:10: widget.teeth: too many teeth for this ratio");
  }
}

TEST(CaseFile, PathsResolveAgainstTheCaseFolderAndMustExist) {
  const auto dir = surrox::testing::scratch_dir();
  std::ofstream(dir / "mesh.dat") << "x";
  std::ofstream(dir / "case.yaml") << kValid << "files: {mesh: mesh.dat}\n";
  const CaseFile c = load_case(dir / "case.yaml", schema());
  EXPECT_EQ(c.root.section("files").string("mesh"), (dir / "mesh.dat").string());
  EXPECT_EQ(c.root.section("files").string("log"), (dir / "log.txt").string());
  std::ofstream(dir / "bad.yaml") << kValid << "files: {mesh: nothing.dat}\n";
  try {
    load_case(dir / "bad.yaml", schema());
    FAIL();
  } catch (const InputError& e) {
    expect_contains(e.what(), "bad.yaml:8:15: files.mesh: no such file or folder");
  }
  EXPECT_THROW(load_case(dir / "missing.yaml", schema()), InputError);
  EXPECT_THROW(load_case(dir, schema()), InputError);  // a folder is not a case file
}

TEST(CaseFile, ReportsEveryProblemAtOnce) {
  const std::string e =
      error_of("run:\n  steps: 0\n  scheme: rk9\n  colour: red\nwidget: {type: gear}\n");
  expect_contains(e, "run.steps: value 0");
  expect_contains(e, "rk9");
  expect_contains(e, "colour");
}

}  // namespace
}  // namespace surrox::io

namespace surrox::io {
namespace {

// Schema::defaults_by: a choice key's value selects defaults for keys below the section, through
// sections and components; what the case gives wins; a component without the key is skipped.
const Schema& schema_with_defaults_by() {
  static const Schema s = [] {
    Schema root("test case with defaults by mode");
    root.choice("mode", {"slow", "fast"}, "how fast").fallback("slow");
    root.integer("steps", "step count").fallback("10");
    Schema run("run settings");
    run.real("end_time", "end time").fallback("1.0");
    root.section("run", run, "run settings");
    root.component("widget", widgets(), "the widget").default_type("gear");
    root.defaults_by("mode", {{"fast",
                               {{"steps", "100"},
                                {"run.end_time", "0.1"},
                                {"widget.teeth", "40"},
                                {"widget.no_such_key", "1"}}}});
    return root;
  }();
  return s;
}

TEST(CaseFileDefaultsBy, TheChoicesRowFillsWhatTheCaseLeavesOut) {
  const auto load = [](const std::string& text, const std::vector<std::string>& set = {}) {
    return load_case_text(text, "case.yaml", schema_with_defaults_by(), set);
  };
  const CaseFile slow = load("mode: slow\n");
  EXPECT_EQ(slow.root.integer("steps"), 10);
  EXPECT_EQ(slow.root.section("run").real("end_time"), 1.0);
  EXPECT_EQ(slow.root.section("widget").integer("teeth"), 12);
  EXPECT_EQ(load("{}").root.integer("steps"), 10);  // the choice's own default selects its row

  const CaseFile fast = load("mode: fast\n");
  EXPECT_EQ(fast.root.integer("steps"), 100);
  EXPECT_EQ(fast.root.section("run").real("end_time"), 0.1);
  EXPECT_EQ(fast.root.section("widget").type(), "gear");
  EXPECT_EQ(fast.root.section("widget").integer("teeth"), 40);
  EXPECT_FALSE(fast.root.section("widget").has("no_such_key"));
  // What the case (or --set) gives wins over the row.
  const CaseFile given = load("mode: fast\nsteps: 7\nwidget: {teeth: 5}\n", {"run.end_time=2"});
  EXPECT_EQ(given.root.integer("steps"), 7);
  EXPECT_EQ(given.root.section("widget").integer("teeth"), 5);
  EXPECT_EQ(given.root.section("run").real("end_time"), 2.0);
  EXPECT_EQ(load("mode: slow\n", {"mode=fast"}).root.integer("steps"), 100);
  // A component type without the key gets nothing from the row; a bad mode is still an error.
  const CaseFile spring = load("mode: fast\nwidget: {type: spring, stiffness: 3}\n");
  EXPECT_FALSE(spring.root.section("widget").has("teeth"));
  EXPECT_THROW(load("mode: faster\n"), InputError);
  EXPECT_THROW(load("mode: fast\nwidget: 3\n"), InputError);
  // The resolved case records the row's values, so a reload gives the same case.
  EXPECT_EQ(load(fast.resolved_yaml()).resolved_yaml(), fast.resolved_yaml());
}

TEST(CaseFileDefaultsBy, ARowMustNameAChoiceOfADeclaredKey) {
  Schema s("bad");
  s.integer("n", "a number").fallback("1");
  EXPECT_THROW(s.defaults_by("n", {}), Error);
  s.choice("mode", {"a", "b"}, "mode").fallback("a");
  EXPECT_THROW(s.defaults_by("mode", {{"c", {{"n", "2"}}}}), Error);
  EXPECT_NO_THROW(s.defaults_by("mode", {{"b", {{"n", "2"}}}}));
}

}  // namespace
}  // namespace surrox::io

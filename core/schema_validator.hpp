#pragma once
// Checks a case-file tree against a schema: unknown, duplicate, missing and mistyped keys,
// values out of range, unknown component types and paths that do not exist. Fills in
// defaults and resolves relative paths in place, so the tree afterwards is the resolved case.
#include "core/case_node.hpp"
#include "core/schema.hpp"

namespace surrox {

// Throws one InputError listing every problem found (the first one's location as context).
void validate_case(const Schema& schema, CaseNode& root);

}  // namespace surrox

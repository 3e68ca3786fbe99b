#pragma once
// Renders schemas as Markdown tables: the source of docs/case-reference.md, so the reference
// can never drift from what the code accepts (a test regenerates and compares it).
#include <string>

#include "core/schema.hpp"

namespace surrox {

// One "## title" chapter: the keys of `schema`, with nested sections and every registered
// type of each component section expanded below it.
std::string schema_markdown(const std::string& title, const Schema& schema);

}  // namespace surrox

#pragma once
// The schema of a case file for `surrox run`: the top-level sections and their keys.
#include "core/schema.hpp"

namespace surrox::apps {

const Schema& run_case_schema();

}  // namespace surrox::apps

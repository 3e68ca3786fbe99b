#pragma once
// The schema of a training config for `surrox train` (defined in command_train.cpp).
#include "core/schema.hpp"

namespace surrox::apps {

const Schema& train_config_schema();

}  // namespace surrox::apps

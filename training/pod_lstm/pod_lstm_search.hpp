#pragma once
// The pod_lstm family's architecture search (the config's `search` section): aging evolution
// over SC20's stacked-LSTM space, each candidate trained briefly by the family and scored by
// its validation mean R²; a generation's candidates are shared out over the MPI ranks (rank r
// takes candidates r, r + size, ...) and the scores summed back, so every rank holds the same
// history. Writes search.csv and search.png into the output folder (rank 0).
#include <mpi.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "training/architecture_search.hpp"

namespace surrox::training::pod_lstm {

Schema search_schema();

// Whether the section asks for a search (budget > 0).
bool search_requested(const CaseNode& search);

// Runs the search; `score` trains candidate `c` (this rank only) and returns its validation
// mean R². Returns the best candidate; `report` receives the summary.json entry.
Candidate search_architecture(const CaseNode& search, MPI_Comm comm,
                              const std::filesystem::path& output_dir,
                              const std::function<double(const Candidate&)>& score,
                              nlohmann::json& report);

}  // namespace surrox::training::pod_lstm

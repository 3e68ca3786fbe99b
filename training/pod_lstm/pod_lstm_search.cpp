#include "training/pod_lstm/pod_lstm_search.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "core/error.hpp"

namespace surrox::training::pod_lstm {

Schema search_schema() {
  Schema s(
      "Architecture search by aging evolution (Real et al. 2019, as SC20): candidates trained "
      "for `epochs` epochs each and scored by their validation mean R²; the best is then trained "
      "with the `training` section and saved. Off while budget is 0.");
  s.integer("budget", "candidates evaluated in all (0: no search, `network.layers` is used)")
      .at_least(0)
      .fallback("0");
  s.integer("population", "P: the most recent candidates that stay alive; the first P are random")
      .fallback("8");
  s.integer("sample", "S: members drawn from the population; the best of them is mutated")
      .fallback("3");
  s.integer("batch", "candidates proposed per generation after the first (evaluated in parallel)")
      .fallback("4");
  s.integer("seed", "seeds the proposals and each candidate's weights (with its id)").fallback("1");
  s.integer("epochs", "training epochs per candidate").at_least(1).fallback("30");
  s.integer("min_layers", "fewest stacked LSTM layers").fallback("1");
  s.integer("max_layers", "most stacked LSTM layers (SC20: 5)").fallback("5");
  s.integers("units", "the layer widths to choose from (SC20: 16 to 96)")
      .fallback("[16, 32, 48, 64, 80, 96]");
  s.boolean("skips", "search SC20's skip connections from layer l − 2, per layer").fallback("true");
  return s;
}

bool search_requested(const CaseNode& search) { return search.integer("budget") > 0; }

Candidate search_architecture(const CaseNode& search, MPI_Comm comm,
                              const std::filesystem::path& output_dir,
                              const std::function<double(const Candidate&)>& score,
                              nlohmann::json& report) {
  SearchSpace space;
  space.min_layers = search.integer("min_layers");
  space.max_layers = search.integer("max_layers");
  space.units.clear();
  for (const auto u : search.integers("units")) space.units.push_back(static_cast<long>(u));
  space.skips = search.boolean("skips");
  SearchOptions options;
  options.population = search.integer("population");
  options.sample = search.integer("sample");
  options.budget = search.integer("budget");
  options.batch = search.integer("batch");
  options.seed = static_cast<std::uint64_t>(search.integer("seed"));
  if (const auto [key, message] = search_problem(space, options); !key.empty())
    search.fail(key, message);

  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  AgingEvolution evolution(space, options);
  run_aging_evolution(evolution, [&](std::vector<Candidate>& generation) {
    // Rank r scores candidates r, r + size, ...; the others' entries stay 0 and the sum
    // gathers every score exactly.
    const std::size_t n = generation.size();
    std::vector<double> values(2 * n, 0.0);
    for (std::size_t k = static_cast<std::size_t>(rank); k < n;
         k += static_cast<std::size_t>(size)) {
      const auto start = std::chrono::steady_clock::now();
      values[k] = score(generation[k]);
      values[n + k] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM,
                  comm);
    for (std::size_t k = 0; k < n; ++k) {
      generation[k].score = values[k];
      generation[k].seconds = values[n + k];
      spdlog::info("search: candidate {} (generation {}, parent {}) {}: validation R² {:.4f}",
                   generation[k].id, generation[k].generation, generation[k].parent,
                   generation[k].architecture.to_string(), generation[k].score);
    }
  });
  const Candidate* best = evolution.best();
  if (!best)
    throw Error(fmt::format("{}: no candidate of the search trained to a finite validation R²",
                            search.path()));
  report = {{"best", best->architecture.to_json()},
            {"best_candidate", best->id},
            {"best_validation_r2", best->score},
            {"candidates", evolution.history().size()},
            {"population", options.population},
            {"sample", options.sample},
            {"batch", options.batch},
            {"seed", options.seed},
            {"epochs_per_candidate", search.integer("epochs")},
            {"ranks", size}};
  if (rank == 0) {
    const auto csv = output_dir / "search.csv", png = output_dir / "search.png";
    write_search_csv(csv, evolution.history());
    report["csv"] = csv.string();
    const std::string why = plot_search(csv, png);
    if (why.empty())
      report["png"] = png.string();
    else
      report["png_missing"] = why;
  }
  spdlog::info("search: best of {} candidates: {} (candidate {}), validation R² {:.4f}",
               evolution.history().size(), best->architecture.to_string(), best->id, best->score);
  return *best;
}

}  // namespace surrox::training::pod_lstm

#pragma once
// The POD-LSTM ensemble's members as jobs of the workflow job runner (workflows/job_runner.hpp):
// member k trains from seed training.seed + k (weights and batch order) in OUTDIR (k = 0) or
// OUTDIR/member_k, leaving its weights (member.pt) and its record (member.json) there. By
// default a member's group is every rank (members one after another, each data-parallel over all
// ranks, as without the runner); ensemble.ranks_per_member trains them side by side on groups of
// ranks. With --resume a member whose record is finished is read back instead of trained; a
// member stopped by --max-epochs ends the invocation (it and the ones after it continue on the
// next --resume); a failed member is recorded and the others go on.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "surrogates/pod/stacked_lstm.hpp"
#include "training/surrogate_family.hpp"
#include "training/tensor_set.hpp"

namespace surrox::training::pod_lstm {

// A fresh member network of `options` from `seed` (the highway started from the linear fit).
using PodNetworkFactory = std::function<std::shared_ptr<surrogates::pod::StackedLstm>(
    const surrogates::pod::StackedLstmOptions&, std::uint64_t)>;

struct PodMembers {
  // The members that trained, in member order (failed ones left out), in eval mode.
  std::vector<std::shared_ptr<surrogates::pod::StackedLstm>> networks;
  // Member 0's (or the first trained member's) figures: epochs, best_epoch,
  // best_validation_loss, final_train_loss, samples_per_second.
  nlohmann::json first = nlohmann::json::object();
  nlohmann::json reports = nlohmann::json::array();  // per trained member: seed, epochs, ...
  nlohmann::json failed = nlohmann::json::array();   // per failed member: member, seed, error
  bool finished = true;  // every member trained to its end (none interrupted, none failed)
};

// Trains (or reads back) the ensemble of r.config's network.ensemble members of `options` on
// the scaled windows. Collective over r.runtime; every rank gets every member. Throws Error when
// every member failed.
PodMembers train_pod_members(const TrainRequest& r,
                             const surrogates::pod::StackedLstmOptions& options,
                             const TensorSet& train, const TensorSet& validation,
                             const PodNetworkFactory& new_network);

}  // namespace surrox::training::pod_lstm

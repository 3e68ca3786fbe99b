#pragma once
// The `pod_lstm` surrogate family: an emulator of a time series of fields (the QG double gyre's
// ψ) as POD coefficients forecast by a stacked LSTM, 8 snapshots in and 8 out (Maulik et al.,
// SC20; Rahman et al. 2019), evaluated against persistence, climatology and a linear model on
// the same held-out windows (docs/validation/qg.md).
#include "core/schema.hpp"
#include "training/surrogate_family.hpp"

namespace surrox::training {

namespace pod_lstm {
Schema pod_lstm_schema();
}

// Its training registry entry (families/pod_lstm.cpp registers it).
FamilyRegistry::Entry pod_lstm_family_entry();

}  // namespace surrox::training

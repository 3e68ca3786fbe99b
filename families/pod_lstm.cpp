// The `pod_lstm` family: POD-LSTM emulators of a field's time series with their baselines
// (training/pod_lstm/pod_lstm_family.hpp). It has no coupler yet.
#include "families/builtin_families.hpp"
#include "training/pod_lstm/pod_lstm_family.hpp"
#include "training/pod_lstm/pod_lstm_model.hpp"
#include "training/pod_lstm/pod_lstm_surrogate_model.hpp"

namespace surrox::families {

void register_pod_lstm(FamilyRegistrar& registrar) {
  registrar.training(training::pod_lstm::kFamilyName, training::pod_lstm_family_entry());
  registrar.model(training::pod_lstm::kFamilyName, training::pod_lstm::pod_lstm_model_loader());
}

}  // namespace surrox::families

// ctest-labels: unit
// ctest-libraries: surrox_surrogates
// ctest-pch: torch
// The MLP's random Fourier features: [x, sin 2πx_cB, cos 2πx_cB] of the first fourier_inputs
// channels x_c, checked against the formula through a network with no hidden layer (one linear
// map of the features); B is N(0, σ²) from its seed, saved and restored with the model; the
// other channels reach the first layer unchanged.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "core/schema_validator.hpp"
#include "support/test_paths.hpp"
#include "surrogates/networks.hpp"
#include "surrogates/surrogate.hpp"

namespace surrox::surrogates {
namespace {

std::shared_ptr<Network> make_mlp(const std::string& yaml, long in, long out) {
  auto origin = std::make_shared<CaseOrigin>();
  origin->file = "net.yaml";
  CaseNode section(YAML::Load(yaml), origin);
  validate_case(networks().schema_of("mlp"), section);
  return std::shared_ptr<Network>(networks().at("mlp").make(section, in, out));
}

torch::Tensor named(const torch::OrderedDict<std::string, torch::Tensor>& d, const std::string& k) {
  const torch::Tensor* t = d.find(k);
  EXPECT_NE(t, nullptr) << k;
  return t ? *t : torch::Tensor();
}

TEST(FourierFeatures, FirstLayerSeesXAndTheSinesAndCosinesOfTheCoordinates) {
  const std::string yaml =
      "{hidden: [], fourier_features: 4, fourier_inputs: 2, fourier_scale: 0.5, fourier_seed: 9}";
  auto net = make_mlp(yaml, 3, 1);
  net->to(torch::kFloat64);
  const auto b = named(net->named_buffers(), "fourier");
  ASSERT_EQ(b.sizes(), (std::vector<long>{2, 4}));  // only the first two channels
  torch::Generator g = at::detail::createCPUGenerator(9);
  EXPECT_TRUE(torch::allclose(b, torch::randn({2, 4}, g, torch::kFloat32).to(torch::kFloat64) * 0.5,
                              0, 1e-7));
  const auto w = named(net->named_parameters(), "layers.0.weight");
  const auto bias = named(net->named_parameters(), "layers.0.bias");
  ASSERT_EQ(w.sizes(), (std::vector<long>{1, 3 + 8}));
  const auto x = torch::tensor({{0.3, -0.7, 2.0}, {1.1, 0.2, -0.4}}, torch::kFloat64);
  torch::NoGradGuard no_grad;
  const auto y = net->forward(x);
  for (long r = 0; r < 2; ++r) {
    std::vector<double> features = {x[r][0].item<double>(), x[r][1].item<double>(),
                                    x[r][2].item<double>()};
    std::vector<double> sines, cosines;
    for (long k = 0; k < 4; ++k) {
      const double phase = 2 * M_PI *
                           (x[r][0].item<double>() * b[0][k].item<double>() +
                            x[r][1].item<double>() * b[1][k].item<double>());
      sines.push_back(std::sin(phase));
      cosines.push_back(std::cos(phase));
    }
    features.insert(features.end(), sines.begin(), sines.end());
    features.insert(features.end(), cosines.begin(), cosines.end());
    double expected = bias[0].item<double>();
    for (long k = 0; k < 11; ++k) expected += w[0][k].item<double>() * features[k];
    EXPECT_NEAR(y[r][0].item<double>(), expected, 1e-12) << r;
  }
}

TEST(FourierFeatures, SavedAndRestoredWithTheModel) {
  const auto dir = surrox::testing::scratch_dir();
  SurrogateMetadata m;
  m.network = "mlp";
  m.network_yaml = "{hidden: [8], fourier_features: 16, fourier_inputs: 2, fourier_seed: 3}";
  m.input_domains = {{"points", PointInputs{2}}};
  m.inputs = {{"x", "y", "Re"}, {0, 0, 0}, {1, 1, 1}};
  m.outputs = {{"u"}, {0}, {1}};
  Surrogate original(make_mlp(m.network_yaml, 3, 1), m);
  original.save(dir / "model.pt");
  const auto loaded = Surrogate::load(dir / "model.pt");
  const auto x = torch::rand({5, 3});
  EXPECT_TRUE(torch::equal(original.predict(x), loaded->predict(x)));
  // Without features the default network is the plain MLP (no buffer).
  EXPECT_EQ(make_mlp("{hidden: [8]}", 3, 1)->named_buffers().size(), 0u);
}

}  // namespace
}  // namespace surrox::surrogates

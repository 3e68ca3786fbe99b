#include "surrogates/networks.hpp"

#include <map>

namespace surrox::surrogates {
namespace {

torch::nn::AnyModule activation(const std::string& name) {
  static const std::map<std::string, std::function<torch::nn::AnyModule()>> table = {
      {"relu", [] { return torch::nn::AnyModule(torch::nn::ReLU()); }},
      {"gelu", [] { return torch::nn::AnyModule(torch::nn::GELU()); }},
      {"silu", [] { return torch::nn::AnyModule(torch::nn::SiLU()); }},
      {"tanh", [] { return torch::nn::AnyModule(torch::nn::Tanh()); }},
  };
  return table.at(name)();
}

const std::vector<std::string> kActivations = {"gelu", "relu", "silu", "tanh"};

class Mlp final : public Network {
 public:
  Mlp(const CaseNode& c, long in, long out) {
    torch::nn::Sequential layers;
    long width = in;
    // Random Fourier features (Tancik et al. 2020): [x, sin 2πxB, cos 2πxB] with B ~ N(0, σ²)
    // drawn once from a fixed seed and saved as a buffer, so that the network can represent
    // boundary layers and wakes that a plain coordinate MLP smooths away (spectral bias).
    // Only the first `fourier_inputs` channels (the coordinates, which the data sections list
    // before the parameters): features of the parameters would overfit the training cases.
    if (const long m = c.integer("fourier_features"); m > 0) {
      const long asked = c.integer("fourier_inputs");
      fourier_inputs_ = asked > 0 ? std::min(in, asked) : in;
      torch::Generator generator = at::detail::createCPUGenerator(c.integer("fourier_seed"));
      fourier_ = register_buffer(
          "fourier",
          torch::randn({fourier_inputs_, m}, generator, torch::kFloat32) * c.real("fourier_scale"));
      width = in + 2 * m;
    }
    for (long hidden : c.integers("hidden")) {
      layers->push_back(torch::nn::Linear(width, hidden));
      layers->push_back(activation(c.string("activation")));
      width = hidden;
    }
    layers->push_back(torch::nn::Linear(width, out));
    layers_ = register_module("layers", layers);
  }
  torch::Tensor forward(const torch::Tensor& x) override {
    if (!fourier_.defined()) return layers_->forward(x);
    const torch::Tensor phase =
        2 * M_PI * torch::matmul(x.slice(-1, 0, fourier_inputs_), fourier_.to(x.dtype()));
    return layers_->forward(torch::cat({x, torch::sin(phase), torch::cos(phase)}, -1));
  }

 private:
  torch::nn::Sequential layers_{nullptr};
  torch::Tensor fourier_;
  long fourier_inputs_ = 0;
};

// 3×3 convolution on the O-grid: circular padding along i (the last axis), replicated along j.
class GridConv final : public torch::nn::Module {
 public:
  GridConv(long in, long out) {
    conv_ = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3)));
  }
  torch::Tensor forward(torch::Tensor x) {
    namespace F = torch::nn::functional;
    x = F::pad(x, F::PadFuncOptions({1, 1, 0, 0}).mode(torch::kCircular));
    x = F::pad(x, F::PadFuncOptions({0, 0, 1, 1}).mode(torch::kReplicate));
    return conv_->forward(x);
  }

 private:
  torch::nn::Conv2d conv_{nullptr};
};

class UNet final : public Network {
 public:
  UNet(const CaseNode& c, long in, long out)
      : depth_(c.integer("depth")), act_(c.string("activation")) {
    long width = c.integer("base_channels"), previous = in;
    for (long level = 0; level <= depth_; ++level) {
      down_.push_back(block("down" + std::to_string(level), previous, width));
      widths_.push_back(width);
      previous = width;
      width *= 2;
    }
    for (long level = depth_ - 1; level >= 0; --level) {
      up_.push_back(block("up" + std::to_string(level), previous + widths_[level], widths_[level]));
      previous = widths_[level];
    }
    head_ = register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(previous, out, 1)));
  }

  torch::Tensor forward(const torch::Tensor& input) override {
    namespace F = torch::nn::functional;
    // Pad both axes to multiples of 2^depth (circularly in i, by replication in j), crop at the
    // end.
    const long multiple = 1L << depth_;
    const long nj = input.size(2), ni = input.size(3);
    const long pj = (multiple - nj % multiple) % multiple,
               pi = (multiple - ni % multiple) % multiple;
    torch::Tensor x = input;
    if (pi) x = F::pad(x, F::PadFuncOptions({0, pi, 0, 0}).mode(torch::kCircular));
    if (pj) x = F::pad(x, F::PadFuncOptions({0, 0, 0, pj}).mode(torch::kReplicate));
    std::vector<torch::Tensor> skips;
    for (long level = 0; level <= depth_; ++level) {
      x = run(down_[level], x);
      if (level < depth_) {
        skips.push_back(x);
        x = F::avg_pool2d(x, F::AvgPool2dFuncOptions(2));
      }
    }
    for (long k = 0; k < depth_; ++k) {
      const torch::Tensor& skip = skips[depth_ - 1 - k];
      x = F::interpolate(x, F::InterpolateFuncOptions()
                                .size(std::vector<int64_t>{skip.size(2), skip.size(3)})
                                .mode(torch::kNearest));
      x = run(up_[k], torch::cat({x, skip}, 1));
    }
    return head_->forward(x).slice(2, 0, nj).slice(3, 0, ni);
  }

 private:
  struct Block {
    std::shared_ptr<GridConv> first, second;
    torch::nn::AnyModule act1, act2;
  };
  Block block(const std::string& name, long in, long out) {
    Block b{register_module(name + "_a", std::make_shared<GridConv>(in, out)),
            register_module(name + "_b", std::make_shared<GridConv>(out, out)), activation(act_),
            activation(act_)};
    return b;
  }
  torch::Tensor run(Block& b, const torch::Tensor& x) {
    return b.act2.forward(b.second->forward(b.act1.forward(b.first->forward(x))));
  }

  long depth_;
  std::string act_;
  std::vector<long> widths_;
  std::vector<Block> down_, up_;
  torch::nn::Conv2d head_{nullptr};
};

// The registry and, next to each network, how it takes its samples from a grid.
struct BuiltIns {
  NetworkRegistry registry{"network"};
  std::map<std::string, GridSamples> samples;

  void add(const std::string& name, GridSamples taken, NetworkRegistry::Entry entry) {
    registry.add(name, std::move(entry));
    samples.emplace(name, taken);
  }
};

const BuiltIns& built_ins() {
  static const BuiltIns b = [] {
    BuiltIns r;
    Schema mlp(
        "per-point multilayer perceptron (arXiv:2106.01775): a grid cell's inputs → its outputs");
    mlp.integers("hidden", "widths of the hidden layers")
        .at_least(1)
        .fallback("[256, 256, 256, 256]");
    mlp.choice("activation", kActivations, "activation after each hidden layer").fallback("gelu");
    mlp.integer("fourier_features",
                "random Fourier features of the normalised inputs ([x, sin 2πxB, cos 2πxB], B "
                "Gaussian): their number, 0 for none")
        .at_least(0)
        .fallback("0");
    mlp.real("fourier_scale", "standard deviation σ of B's entries (higher: finer features)")
        .above(0)
        .fallback("1.0");
    mlp.integer("fourier_inputs",
                "how many of the first input channels get Fourier features (the coordinates "
                "and wall distance; parameters come after them); 0: all")
        .at_least(0)
        .fallback("0");
    mlp.integer("fourier_seed", "seeds B (saved with the model)").at_least(0).fallback("0");
    r.add("mlp", GridSamples::kRowPerCell,
          {[](const CaseNode& c, long in, long out) { return std::make_unique<Mlp>(c, in, out); },
           mlp, mlp.doc()});
    Schema unet(
        "U-Net on the structured grid, periodic in i: all channels on the grid → all outputs");
    unet.integer("base_channels", "channels of the first level (doubling per level)")
        .at_least(1)
        .fallback("32");
    unet.integer("depth", "number of down-sampling levels").at_least(1).at_most(6).fallback("3");
    unet.choice("activation", kActivations, "activation after each convolution").fallback("gelu");
    r.add("unet", GridSamples::kWholeGrid,
          {[](const CaseNode& c, long in, long out) { return std::make_unique<UNet>(c, in, out); },
           unet, unet.doc()});
    return r;
  }();
  return b;
}

}  // namespace

const NetworkRegistry& networks() { return built_ins().registry; }

GridSamples grid_samples_of(const std::string& network, const ErrorContext& where) {
  built_ins().registry.at(network, where);  // an unknown name lists the networks
  return built_ins().samples.at(network);
}

}  // namespace surrox::surrogates

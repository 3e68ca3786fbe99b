#include "training/optimizer.hpp"

namespace surrox::training {
namespace {

Schema common(const std::string& doc, const std::string& weight_decay) {
  Schema s(doc);
  s.real("lr", "base learning rate (the schedule scales it per epoch)").above(0).fallback("1e-3");
  s.real("weight_decay", "L2 penalty (adam, sgd) or decoupled weight decay (adamw)")
      .at_least(0)
      .fallback(weight_decay);
  return s;
}

Schema adam_schema(const std::string& doc, const std::string& weight_decay) {
  Schema s = common(doc, weight_decay);
  s.reals("betas", "exponential decay rates of the moment estimates")
      .sized(2)
      .fallback("[0.9, 0.999]");
  s.real("eps", "denominator guard").above(0).fallback("1e-8");
  return s;
}

template <class Options>
Options adam_options(const CaseNode& c) {
  const auto betas = c.reals("betas");
  return Options(c.real("lr"))
      .betas(std::make_tuple(betas[0], betas[1]))
      .eps(c.real("eps"))
      .weight_decay(c.real("weight_decay"));
}

}  // namespace

const OptimizerRegistry& optimizers() {
  static const OptimizerRegistry registry = [] {
    OptimizerRegistry r("optimizer");
    r.add("adam", {[](std::vector<torch::Tensor> p,
                      const CaseNode& c) -> std::unique_ptr<torch::optim::Optimizer> {
                     return std::make_unique<torch::optim::Adam>(
                         p, adam_options<torch::optim::AdamOptions>(c));
                   },
                   adam_schema("Adam (Kingma & Ba)", "0"), "Adam (Kingma & Ba)"});
    r.add("adamw",
          {[](std::vector<torch::Tensor> p,
              const CaseNode& c) -> std::unique_ptr<torch::optim::Optimizer> {
             return std::make_unique<torch::optim::AdamW>(
                 p, adam_options<torch::optim::AdamWOptions>(c));
           },
           adam_schema("AdamW: Adam with decoupled weight decay (Loshchilov & Hutter)", "1e-2"),
           "AdamW: Adam with decoupled weight decay"});
    Schema sgd = common("stochastic gradient descent with optional (Nesterov) momentum", "0");
    sgd.real("momentum", "momentum factor").at_least(0).below(1).fallback("0.9");
    sgd.boolean("nesterov", "Nesterov momentum").fallback("false");
    r.add("sgd", {[](std::vector<torch::Tensor> p,
                     const CaseNode& c) -> std::unique_ptr<torch::optim::Optimizer> {
                    return std::make_unique<torch::optim::SGD>(
                        p, torch::optim::SGDOptions(c.real("lr"))
                               .momentum(c.real("momentum"))
                               .nesterov(c.boolean("nesterov"))
                               .weight_decay(c.real("weight_decay")));
                  },
                  sgd, sgd.doc()});
    return r;
  }();
  return registry;
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double rate) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(rate);
}

}  // namespace surrox::training

#pragma once
// Agents as the extension holds them: an agent built from a spec string (agents/registry.h), or a
// Python callable playing through the Agent<G> interface, so that matches and tournaments treat
// both alike.

#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "agents/registry.h"
#include "python/core.h"

namespace sling::python {

// The first Python exception raised by a callable agent during a match, kept to be raised again
// once the match has stopped (a Python bug should stop the script, not lose a game quietly).
struct CallableFailure {
  std::mutex mutex;
  std::exception_ptr error;
  void keep(std::exception_ptr e) {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!error) error = std::move(e);
  }
  bool failed() {
    const std::lock_guard<std::mutex> lock(mutex);
    return error != nullptr;
  }
  void rethrow() {
    if (error) std::rethrow_exception(std::exchange(error, nullptr));
  }
};

// Whether Python's `source` is an agent of its own: a callable state -> action, or an object with
// an act(state) method.
inline bool is_python_agent(const py::handle& source) {
  return !py::isinstance<py::str>(source) &&
         (py::hasattr(source, "act") || PyCallable_Check(source.ptr()));
}

// The name a Python agent goes by in specs, records and ratings ("python:NAME"): its `name`
// attribute when it is a string, else its __name__, else its class's name.
inline std::string python_agent_name(const py::handle& source) {
  if (py::hasattr(source, "name") && py::isinstance<py::str>(source.attr("name"))) {
    return source.attr("name").cast<std::string>();
  }
  if (py::hasattr(source, "__name__")) return py::str(source.attr("__name__"));
  return py::str(py::type::of(source).attr("__name__"));
}

// A Python agent through the Agent<G> interface: `source.act(state) -> action` when it has an act
// method, else `source(state) -> action`.  Optional methods, when it has them: `new_game(seed)`
// before each game and `observe(state, action)` after every decision and chance outcome.  Each
// call takes the GIL, so a match or tournament with a Python agent runs on one thread.
template <Game G>
class CallableAgent final : public Agent<G> {
 public:
  CallableAgent(std::shared_ptr<const G> game, py::object callable,
                std::shared_ptr<CallableFailure> failure)
      : game_(std::move(game)), callable_(std::move(callable)), failure_(std::move(failure)) {
    py::gil_scoped_acquire gil;  // built where the GIL may be released (a match's workers)
    has_new_game_ = py::hasattr(callable_, "new_game");
    has_observe_ = py::hasattr(callable_, "observe");
    has_act_ = py::hasattr(callable_, "act");
    name_ = python_agent_name(callable_);
  }
  ~CallableAgent() override {
    py::gil_scoped_acquire gil;
    callable_ = py::object();
  }

  void new_game(std::uint64_t seed) override {
    if (!has_new_game_) return;
    call([&] { callable_.attr("new_game")(seed); });
  }
  Action act(const typename G::State& state) override {
    Action action = kInvalidAction;
    call([&] {
      const py::object answer = has_act_ ? callable_.attr("act")(make_state(game_, state))
                                         : callable_(make_state(game_, state));
      action = answer.template cast<Action>();
    });
    return action;
  }
  void observe(const typename G::State& before, Action applied) override {
    if (!has_observe_) return;
    call([&] { callable_.attr("observe")(make_state(game_, before), applied); });
  }
  std::string spec() const override { return "python:" + name_; }

 private:
  template <class F>
  void call(F&& body) {
    py::gil_scoped_acquire gil;
    try {
      body();
    } catch (const std::exception& e) {
      // Kept for the caller to raise, and reported to play_game as this side's error.
      failure_->keep(std::current_exception());
      throw SlingError("python agent '" + name_ + "' raised: " + e.what());
    }
  }

  std::shared_ptr<const G> game_;
  py::object callable_;
  std::shared_ptr<CallableFailure> failure_;
  std::string name_;
  bool has_new_game_ = false;
  bool has_observe_ = false;
  bool has_act_ = false;
};

// An agent of either kind from Python's `source`: a spec string (or preset name) or a callable.
template <Game G>
AgentPtr<G> make_any_agent(const std::shared_ptr<const G>& game, const py::handle& source,
                           const std::shared_ptr<CallableFailure>& failure) {
  if (py::isinstance<py::str>(source)) {
    const std::string spec = source.cast<std::string>();
    py::gil_scoped_release release;  // building may load or solve a table
    return make_agent(*game, spec);
  }
  if (is_python_agent(source)) {
    return std::make_unique<CallableAgent<G>>(game, py::reinterpret_borrow<py::object>(source),
                                              failure);
  }
  throw py::type_error(
      "an agent is a spec string (e.g. 'mcts:iterations=200'), a callable state -> action or an "
      "object with act(state), not " +
      std::string(py::str(py::type::of(source).attr("__name__"))));
}

// The agents of a match or tournament given from Python, as the harness takes them: a spec string
// is its own spec; a Python agent goes by "python:NAME" and the factory builds it around the
// object.  Each python:NAME names one object (two different objects need two names).
class PythonAgentSources {
 public:
  explicit PythonAgentSources(const std::vector<py::object>& sources)
      : failure_(std::make_shared<CallableFailure>()) {
    for (const py::object& source : sources) {
      if (py::isinstance<py::str>(source)) {
        specs_.push_back(source.cast<std::string>());
        continue;
      }
      if (!is_python_agent(source)) {
        throw py::type_error(
            "an agent is a spec string (e.g. 'mcts:iterations=200'), a callable state -> action "
            "or an object with act(state), not " +
            std::string(py::str(py::type::of(source).attr("__name__"))));
      }
      const std::string spec = "python:" + python_agent_name(source);
      for (const auto& [name, object] : objects_) {
        if (name == spec && !object.is(source)) {
          throw py::value_error("two different Python agents are both called '" + spec +
                                "': give each a `name` attribute of its own");
        }
      }
      objects_.emplace_back(spec, source);
      specs_.push_back(spec);
    }
  }
  ~PythonAgentSources() {
    py::gil_scoped_acquire gil;
    objects_.clear();
  }

  const std::vector<std::string>& specs() const { return specs_; }
  bool any_python() const { return !objects_.empty(); }
  const std::shared_ptr<CallableFailure>& failure() const { return failure_; }

  // Builds python:NAME specs around their objects and the rest with make_agent; callable with or
  // without the GIL.
  template <Game G>
  AgentFactory<G> factory(std::shared_ptr<const G> game) const {
    return [this, game](const G& g, const std::string& spec) -> AgentPtr<G> {
      for (const auto& [name, object] : objects_) {
        if (name == spec) {
          py::gil_scoped_acquire gil;  // copying the object counts a reference
          return std::make_unique<CallableAgent<G>>(game, object, failure_);
        }
      }
      return make_agent(g, spec);
    };
  }

 private:
  std::vector<std::string> specs_;
  std::vector<std::pair<std::string, py::object>> objects_;
  std::shared_ptr<CallableFailure> failure_;
};

}  // namespace sling::python

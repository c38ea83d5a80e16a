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
  void rethrow() {
    if (error) std::rethrow_exception(std::exchange(error, nullptr));
  }
};

// A Python callable as an agent: `callable(state) -> action`.  Optional methods of the callable,
// when it has them: `new_game(seed)` before each game and `observe(state, action)` after every
// decision and chance outcome.  Each call takes the GIL, so a match with a callable agent runs on
// one thread.
template <Game G>
class CallableAgent final : public Agent<G> {
 public:
  CallableAgent(std::shared_ptr<const G> game, py::object callable,
                std::shared_ptr<CallableFailure> failure)
      : game_(std::move(game)), callable_(std::move(callable)), failure_(std::move(failure)) {
    has_new_game_ = py::hasattr(callable_, "new_game");
    has_observe_ = py::hasattr(callable_, "observe");
    name_ = py::hasattr(callable_, "__name__")
                ? std::string(py::str(callable_.attr("__name__")))
                : std::string(py::str(py::type::of(callable_).attr("__name__")));
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
    call([&] { action = callable_(make_state(game_, state)).template cast<Action>(); });
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
  if (PyCallable_Check(source.ptr())) {
    return std::make_unique<CallableAgent<G>>(game, py::reinterpret_borrow<py::object>(source),
                                              failure);
  }
  throw py::type_error(
      "an agent is a spec string (e.g. 'mcts:iterations=200') or a callable "
      "state -> action, not " +
      std::string(py::str(py::type::of(source).attr("__name__"))));
}

}  // namespace sling::python

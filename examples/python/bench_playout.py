#!/usr/bin/python3
"""What crossing into Python costs: a random playout driven from Python, ply by ply, against the
same playout in C++ (sling.random_playouts), and the cost of a value-slice query.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/bench_playout.py [--seconds 2]

Each figure is the best of three runs of about --seconds each (wall clock, one thread); the
figures in docs/python.md come from this script.
"""

import argparse
import random
import time

import sling


def python_playouts(game, games, seed):
    """Uniformly random playouts in Python over State.apply; returns the plies played."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal:
            if state.is_chance_node:
                outcomes = state.chance_outcomes()
                u, action = rng.random(), outcomes[-1][0]
                for outcome, p in outcomes:
                    if u < p:
                        action = outcome
                        break
                    u -= p
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
            plies += 1
    return plies


def timed(run, seconds):
    """Best time per unit of three runs, each repeated until it lasts `seconds` / 3."""
    best = float("inf")
    for _ in range(3):
        units, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            units += run()
        best = min(best, (time.perf_counter() - start) / units)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--pitch", type=int, default=3, help="duel lattice for the slice query")
    args = parser.parse_args()

    print(f"{'game':8} {'Python ns/ply':>14} {'C++ ns/ply':>11} {'ratio':>6}")
    for name, games in (("pig", 20), ("duel", 2), ("danelaw", 1)):
        game = sling.Game(name)
        python = timed(lambda: python_playouts(game, games, 1), args.seconds)
        native = timed(lambda: sling.random_playouts(game, games * 10, seed=1)["plies"],
                       args.seconds)
        print(f"{name:8} {python * 1e9:14.0f} {native * 1e9:11.0f} {python / native:6.0f}")

    solution = sling.duel.solve(pitch=args.pitch)
    gxs, gys = sling.duel.lattice(solution.game, "goliath")
    centre = (len(gxs) // 2, len(gys) // 2)
    table = solution.table
    dw, dh = table.shape[5], table.shape[4]

    def one_slice():
        solution.value_slice(centre)
        return 1

    def one_view():
        table[5, 2, centre[1], centre[0]].mean()
        return 1

    def one_value():
        state = sling.duel.declare_state(solution.game, (0, 0), centre)
        solution.value(state)
        return 1

    print(f"\nvalue slice of the {args.pitch} cm solution ({dh} x {dw} David points):")
    print(f"  value_slice (a copy, NaN where the bases overlap): "
          f"{timed(one_slice, args.seconds) * 1e6:8.1f} us")
    print(f"  table[...] view and its mean (no copy):            "
          f"{timed(one_view, args.seconds) * 1e6:8.1f} us")
    print(f"  one state: declare_state + value:                  "
          f"{timed(one_value, args.seconds) * 1e6:8.1f} us")


if __name__ == "__main__":
    main()

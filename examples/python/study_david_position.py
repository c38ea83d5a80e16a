#!/usr/bin/python3
"""Where should David stand against Goliath at the centre?  A worked study with `import sling`.

1. Load the exact solution of the duel on the 3 cm lattice (or solve it: about 5 s on 2 cores).
2. For Goliath at the centre of the board with shield and javelin, David to declare, plot David's
   optimal win probability at every point he may stand on: with and without his stone, with God
   still to invoke and without (four panels; docs/python/david_position.png).
3. Compare one choice of the optimal policy with the heuristic agent's: where David moves after
   a movement roll, from every point and for every die; plot the decision where the heuristic
   gives away most (docs/python/heuristic_choice.png).

Run from the repository root after ./sling-test:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/study_david_position.py \
        [--solution duel3.sol] [--out docs/python]
"""

import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Circle  # noqa: E402

import sling  # noqa: E402

DESTINATION = 0x1000  # a duel destination action: 0x1000 | x << 6 | y (engine/duel/duel.h)


def load_solution(path):
    if path:
        print(f"loading {path}")
        return sling.duel.load_solution(path)
    print("solving the duel on the 3 cm lattice (about 5 s on 2 cores)")
    return sling.duel.solve(pitch=3)


def extent(xs, ys, pitch):
    """imshow's extent for lattice centres xs, ys (cm): each cell spans one pitch."""
    half = pitch / 2
    return (xs[0] - half, xs[-1] + half, ys[-1] + half, ys[0] - half)


def draw_board(ax, game, goliath_xy_cm):
    board = game.rules["board_cm"]
    ax.set_xlim(0, board)
    ax.set_ylim(board, 0)
    ax.set_aspect("equal")
    radius = game.rules["goliath_base_mm"] / 20  # diameter in mm -> radius in cm
    ax.add_patch(Circle(goliath_xy_cm, radius, fill=False, color="black", lw=1.5))
    ax.plot(*goliath_xy_cm, marker="+", color="black", markersize=10)
    ax.set_xlabel("x (cm)")
    ax.set_ylabel("y (cm)")


def position_figure(solution, out):
    game = solution.game
    pitch = solution.pitch_cm
    dxs, dys = sling.duel.lattice(game, "david")
    gxs, gys = sling.duel.lattice(game, "goliath")
    centre = (len(gxs) // 2, len(gys) // 2)
    goliath_cm = (gxs[centre[0]], gys[centre[1]])
    panels = [(True, True), (False, True), (True, False), (False, False)]
    fig, axes = plt.subplots(2, 2, figsize=(10, 9.2), constrained_layout=True)
    summary = []
    slices = [solution.value_slice(centre, stone=stone, god=god) for stone, god in panels]
    low, high = min(np.nanmin(v) for v in slices), max(np.nanmax(v) for v in slices)
    for ax, (stone, god), values in zip(axes.flat, panels, slices):
        # values[y, x]: David's win probability at each of his lattice points; NaN where the
        # bases would overlap.
        image = ax.imshow(values, extent=extent(dxs, dys, pitch), vmin=low, vmax=high,
                          cmap="viridis", interpolation="nearest")
        draw_board(ax, game, goliath_cm)
        y, x = np.unravel_index(np.nanargmax(values), values.shape)
        ax.plot(dxs[x], dys[y], marker="*", color="red", markersize=14, markeredgecolor="white")
        title = f"{'with' if stone else 'no'} stone, God {'available' if god else 'spent'}"
        ax.set_title(f"{title}\nbest {np.nanmax(values):.3f}, mean {np.nanmean(values):.3f}, "
                     f"worst {np.nanmin(values):.3f}")
        summary.append((title, np.nanmax(values), np.nanmean(values), np.nanmin(values),
                        (dxs[x], dys[y])))
    fig.colorbar(image, ax=axes, shrink=0.8, label="David's win probability (optimal play)")
    fig.suptitle(f"David to declare, Goliath (shield and javelin) at the centre, "
                 f"{pitch} cm lattice")
    path = os.path.join(out, "david_position.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    print(f"wrote {path}")
    print(f"{'panel':34} {'best':>7} {'mean':>7} {'worst':>7}  best point (cm)")
    for title, best, mean, worst, at in summary:
        print(f"{title:34} {best:7.4f} {mean:7.4f} {worst:7.4f}  ({at[0]:.1f}, {at[1]:.1f})")
    return centre


def destination_state(game, david, centre, die):
    """David at `david` declares a move, throws `die` and accepts it: his destination choice."""
    state = sling.duel.declare_state(game, david, centre)
    state.apply(state.parse_action("move"))
    state.apply(die)  # the movement die: David may move 12 - die cm (a 6 trips him)
    while state.current_player == 0 and not any(a & DESTINATION for a in state.legal_actions()):
        state.apply(state.parse_action("accept"))  # God's prompt: keep the roll
    return state if any(a & DESTINATION for a in state.legal_actions()) else None


def destination_decisions(solution, centre):
    """Every destination decision of David (Goliath at the centre, full kit; stone and God in
    hand) after each movement die: the heuristic's choice against the optimal one."""
    game = solution.game
    heuristic = sling.Agent(game, "heuristic")
    dxs, dys = sling.duel.lattice(game, "david")
    decisions = []
    for y in range(len(dys)):
        for x in range(len(dxs)):
            for die in range(1, 6):
                try:
                    state = destination_state(game, (x, y), centre, die)
                except ValueError:  # the bases would overlap
                    break
                if state is None:
                    continue
                values = dict(solution.action_values(state))
                chosen = heuristic.act(state)
                best = max(values.values())
                decisions.append((best - values[chosen], (x, y), die, state, values, chosen))
    return decisions


def choice_figure(solution, centre, out):
    game = solution.game
    pitch = solution.pitch_cm
    dxs, dys = sling.duel.lattice(game, "david")
    gxs, gys = sling.duel.lattice(game, "goliath")
    decisions = destination_decisions(solution, centre)
    regrets = np.array([d[0] for d in decisions])
    agree = np.mean(regrets < 1e-9)
    print(f"{len(decisions)} destination decisions: the heuristic's is optimal in {agree:.0%}, "
          f"gives away {regrets.mean():.5f} on average and {regrets.max():.4f} at most")
    regret, start, die, state, values, heuristic = max(decisions, key=lambda d: d[0])
    grid = np.full((len(dys), len(dxs)), np.nan)
    for action, p in values.items():
        if action & DESTINATION:
            grid[action & 63, (action >> 6) & 63] = p
    best = max(values, key=values.get)
    fig, ax = plt.subplots(figsize=(7, 6.2), constrained_layout=True)
    image = ax.imshow(grid, extent=extent(dxs, dys, pitch), cmap="magma",
                      interpolation="nearest")
    draw_board(ax, game, (gxs[centre[0]], gys[centre[1]]))
    ax.plot(dxs[start[0]], dys[start[1]], marker="o", markersize=24, markerfacecolor="none",
            markeredgecolor="deepskyblue", markeredgewidth=2.5, linestyle="none", zorder=5,
            label=f"David now ({dxs[start[0]]:.2f}, {dys[start[1]]:.2f})")
    for action, marker, colour, who in ((best, "*", "cyan", "optimal"),
                                        (heuristic, "X", "red", "heuristic")):
        x, y = (action >> 6) & 63, action & 63
        ax.plot(dxs[x], dys[y], marker=marker, color=colour, markersize=15,
                markeredgecolor="black", linestyle="none",
                label=f"{who}: {state.action_to_string(action)} (p = {values[action]:.4f})")
    ax.legend(loc="lower right", fontsize=8, framealpha=0.9, markerscale=0.6)
    fig.colorbar(image, ax=ax, shrink=0.8, label="David's win probability after the move")
    ax.set_title(f"The heuristic's worst destination: David rolled {die} ({12 - die} cm to move)\n"
                 f"it gives away {regret:.4f}; over all {len(decisions)} such decisions it is "
                 f"optimal in {agree:.0%}", fontsize=10)
    path = os.path.join(out, "heuristic_choice.png")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    print(f"wrote {path}")
    print(f"worst case: David at {state.action_to_string(best)!r} would be optimal "
          f"({values[best]:.4f}); the heuristic moves {state.action_to_string(heuristic)!r} "
          f"({values[heuristic]:.4f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solution", help="a 3 cm solution file (sling solve duel --pitch 3 "
                        "--out duel3.sol); solved here when left out")
    parser.add_argument("--out", default="docs/python", help="folder for the figures")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    solution = load_solution(args.solution)
    s = solution.summary
    print(f"David's win probability from the start: {s['david_win_probability']:.6f} "
          f"(without God {s['david_win_probability_without_god']:.6f})")
    centre = position_figure(solution, args.out)
    choice_figure(solution, centre, args.out)


if __name__ == "__main__":
    main()

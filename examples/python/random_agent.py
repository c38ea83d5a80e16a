#!/usr/bin/env python3
"""A uniformly random agent for any Sling game: the smallest complete agent program.

    ./sling tournament pig --agent random \
        --agent "external:cmd='python3 examples/python/random_agent.py'"
"""

import random

from sling_client import Agent, Message, run


class RandomAgent(Agent):
    name = "python-random"

    def new_game(self, info: Message) -> None:
        # Seeded by the game: the same seed plays the same game again.
        self.rng = random.Random(info["seed"])

    def act(self, request: Message) -> int:
        return self.rng.choice(request["legal"])["id"]


if __name__ == "__main__":
    run(RandomAgent())

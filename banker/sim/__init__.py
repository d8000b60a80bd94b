"""Self-play: bots with simple strategies play whole games through the engine's public actions.

The engine knows no positions; :mod:`banker.sim.movement` is the small model of dice, tokens, jail
and the cards that move a token, which turns a roll into the actions a table would submit.
"""

from banker.sim.cli import register
from banker.sim.game import GameResult, play_game

__all__ = ["GameResult", "play_game", "register"]

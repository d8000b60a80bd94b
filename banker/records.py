"""The family's records across every saved game: who won each game, the richest moment, the longest game,
the deeds landed on most.

Each game is replayed through the engine (:func:`game_record`); what an undo took back does not count, as
the engine's own undo chain tells. :func:`family_records` puts the games together. Only
:func:`saved_games` reads the journal; the rest is pure.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from banker.actions import Action, Undo, parse_action
from banker.chronicle import Chronicle
from banker.engine import apply
from banker.errors import BankerError
from banker.ledger import Event
from banker.scores import final_scores
from banker.state import GameState, History
from banker.worth import net_worth

if TYPE_CHECKING:
    from banker.journal import GameInfo, Journal

LANDED_SHOWN = 5
"""How many of the most-landed deeds the records name."""
SUMMARY_FORMAT = 1


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One game of the journal: its rows as actions with the time each was written."""

    id: int
    name: str
    created: float
    rows: tuple[tuple[Action, float], ...]


@dataclass(frozen=True, slots=True)
class Moment:
    """A player's net worth (§10.2) at one moment of one game."""

    player: str
    amount: int
    game: int
    game_name: str
    edition: str
    at: float


@dataclass(frozen=True, slots=True)
class Landing:
    """How often rent was charged on a deed (the landings the table knows of)."""

    edition: str
    property: str
    count: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game, as the records read it."""

    id: int
    name: str
    edition: str
    players: tuple[str, ...]
    started: float
    last: float
    """When its last action that counts was made."""
    ended: bool
    winner: str | None
    """The winner of a game that has ended; None while it goes on."""
    leader: str | None
    """Who is first by net worth now (the winner if it ended now)."""
    actions: int
    """Actions that count: not the new game, not an undo, not what an undo took back."""
    turns: int
    """Turns the table was told about: the first one and every time the turn passed."""
    richest: Moment
    landings: tuple[tuple[str, int], ...]
    """Deed id and how often its rent was charged, in board order."""
    hidden: bool = False
    """Played under hidden balances: while it goes on, its figures tell the players' net worth."""

    @property
    def seconds(self) -> float:
        return max(0.0, self.last - self.started)

    def to_json(self) -> str:
        """The record as the journal keeps it (a per-game summary)."""
        richest = self.richest
        return json.dumps({"format": SUMMARY_FORMAT, "id": self.id, "name": self.name, "edition": self.edition,
                           "players": list(self.players), "started": self.started, "last": self.last,
                           "ended": self.ended, "winner": self.winner, "leader": self.leader,
                           "actions": self.actions, "turns": self.turns,
                           "richest": [richest.player, richest.amount, richest.game, richest.game_name,
                                       richest.edition, richest.at],
                           "landings": [list(item) for item in self.landings], "hidden": self.hidden},
                          ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """A record :meth:`to_json` wrote. Raises ``ValueError`` on one it cannot read."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
                raise ValueError("unknown summary format")
            player, amount, game, game_name, edition, at = data["richest"]
            return cls(id=int(data["id"]), name=str(data["name"]), edition=str(data["edition"]),
                       players=tuple(str(p) for p in data["players"]), started=float(data["started"]),
                       last=float(data["last"]), ended=bool(data["ended"]),
                       winner=None if data["winner"] is None else str(data["winner"]),
                       leader=None if data["leader"] is None else str(data["leader"]),
                       actions=int(data["actions"]), turns=int(data["turns"]),
                       richest=Moment(str(player), int(amount), int(game), str(game_name), str(edition), float(at)),
                       landings=tuple((str(deed), int(count)) for deed, count in data["landings"]),
                       hidden=bool(data["hidden"]))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"unreadable summary: {error}") from error


@dataclass(frozen=True, slots=True)
class Records:
    games: tuple[GameRecord, ...]
    """Newest first."""
    wins: tuple[tuple[str, int], ...]
    """Each player who won a game and how many, most first (ties by name)."""
    richest: Moment | None
    longest: GameRecord | None
    """The game with the most actions."""
    longest_time: GameRecord | None
    """The game that lasted longest from its first to its last action."""
    landed: tuple[Landing, ...]
    """The deeds landed on most, most first (:data:`LANDED_SHOWN` of them)."""

    @property
    def finished(self) -> int:
        return sum(1 for g in self.games if g.ended)


def rent_landing(event: Event) -> str | None:
    """The deed whose rent ``event`` charged (paid, owed, or nothing on a mortgaged deed), else None."""
    prop = event.params.get("property")
    if not isinstance(prop, str):
        return None
    if event.kind == "no_rent" or (event.kind in ("paid", "debt") and event.params.get("reason") == "rent"):
        return prop
    return None


def game_record(game: SavedGame) -> GameRecord | None:
    """Replay ``game`` and read its record; None when not even its first action replays. A later row
    that does not replay (a damaged journal) ends the game there, as loading it would."""
    state: GameState | None = None
    done: dict[int, tuple[float, tuple[Event, ...]]] = {}
    """Keyed by the id of the undo chain's link an action made: when it was made and what it did."""
    first_at = game.rows[0][1] if game.rows else game.created
    for action, at in game.rows:
        try:
            state, events = apply(state, action)
        except BankerError:
            break
        if not isinstance(action, Undo) and state.history is not None:
            done[id(state.history)] = (at, events)
    if state is None:
        return None
    # The engine's undo chain, newest first: exactly the actions that count and the states they made.
    links: list[tuple[GameState, History]] = []
    after = state
    while after.history is not None:
        links.append((after, after.history))
        after = after.history.previous
    start = after
    links.reverse()
    seats = range(len(state.players))

    def best(moment_state: GameState, at: float) -> Moment:
        seat = max(seats, key=lambda s: (net_worth(moment_state, s), -s))
        return Moment(moment_state.players[seat].name, net_worth(moment_state, seat), game.id, game.name,
                      state.edition.id, at)

    richest = best(start, first_at)
    turns = 1
    last = first_at
    landings: Counter[str] = Counter()
    for after, link in links:
        at, events = done.get(id(link), (last, ()))
        last = at
        if after.turn != link.previous.turn:
            turns += 1
        for event in events:
            prop = rent_landing(event)
            if prop is not None:
                landings[prop] += 1
        moment = best(after, at)
        if moment.amount > richest.amount:
            richest = moment
    winner = state.winner if state.ended else None
    scores = final_scores(state)
    return GameRecord(
        id=game.id, name=game.name, edition=state.edition.id, players=tuple(p.name for p in state.players),
        started=first_at, last=last, ended=state.ended, winner=winner,
        leader=winner if state.ended else (scores[0].player if scores else None),
        actions=len(links), turns=turns, richest=richest,
        landings=tuple((p.id, landings[p.id]) for p in state.edition.properties if landings[p.id]),
        hidden=state.rules.hidden_balances != "off")


def chronicle_record(chronicle: Chronicle, state: GameState, game_id: int, name: str) -> GameRecord:
    """The record of the game ``game_id`` (called ``name``) from its kept figures: the same as
    :func:`game_record` reads from a replay of it, in time that does not depend on its length."""
    peak = chronicle.peak
    richest = Moment(state.players[peak.seat].name, peak.amount, game_id, name, state.edition.id, peak.at)
    winner = state.winner if state.ended else None
    scores = final_scores(state)
    return GameRecord(
        id=game_id, name=name, edition=state.edition.id, players=tuple(p.name for p in state.players),
        started=chronicle.started, last=chronicle.last, ended=state.ended, winner=winner,
        leader=winner if state.ended else (scores[0].player if scores else None),
        actions=chronicle.count, turns=chronicle.turns, richest=richest,
        landings=tuple((p.id, count) for p, count in zip(state.edition.properties, chronicle.landings, strict=True)
                       if count),
        hidden=state.rules.hidden_balances != "off")


def _order(game: GameRecord) -> tuple[float, int]:
    """The records' order of games: the newest first."""
    return (-game.started, -game.id)


@dataclass(frozen=True, slots=True)
class Tally:
    """The records over some games, kept so that one more game (the one being played) is put with them in time
    that does not depend on how many they are (:meth:`with_game`)."""

    games: tuple[GameRecord, ...]
    """Newest first."""
    wins: Counter[str]
    richest: GameRecord | None
    """The game of the richest moment."""
    longest: GameRecord | None
    longest_time: GameRecord | None
    landed: Counter[tuple[str, str]]
    """(edition, deed id) -> rents charged on it."""

    @classmethod
    def of(cls, games: Iterable[GameRecord]) -> Tally:
        ordered = tuple(sorted(games, key=_order))
        landed: Counter[tuple[str, str]] = Counter()
        for g in ordered:
            for prop, count in g.landings:
                landed[(g.edition, prop)] += count
        return cls(games=ordered, wins=Counter(g.winner for g in ordered if g.winner is not None),
                   richest=max(ordered, key=_richest_order, default=None),
                   longest=max(ordered, key=_longest_order, default=None),
                   longest_time=max(ordered, key=_longest_time_order, default=None), landed=landed)

    def records(self) -> Records:
        top = sorted(self.landed.items(), key=lambda item: (-item[1], item[0]))[:LANDED_SHOWN]
        return Records(
            games=self.games,
            wins=tuple(sorted(self.wins.items(), key=lambda item: (-item[1], item[0]))),
            richest=self.richest.richest if self.richest is not None else None,
            longest=self.longest, longest_time=self.longest_time,
            landed=tuple(Landing(edition, prop, count) for (edition, prop), count in top))

    def with_game(self, game: GameRecord | None) -> Records:
        """The records over these games and ``game`` (None: these alone)."""
        if game is None:
            return self.records()
        at = bisect.bisect_left(self.games, _order(game), key=_order)
        landed = self.landed.copy()
        for prop, count in game.landings:
            landed[(game.edition, prop)] += count
        wins = self.wins.copy()
        if game.winner is not None:
            wins[game.winner] += 1
        return Tally(games=self.games[:at] + (game,) + self.games[at:], wins=wins,
                     richest=_best(self.richest, game, _richest_order),
                     longest=_best(self.longest, game, _longest_order),
                     longest_time=_best(self.longest_time, game, _longest_time_order), landed=landed).records()


def _richest_order(game: GameRecord) -> tuple[float, float]:
    return (game.richest.amount, -game.richest.at)


def _longest_order(game: GameRecord) -> tuple[int, float]:
    return (game.actions, -game.started)


def _longest_time_order(game: GameRecord) -> tuple[float, float]:
    return (game.seconds, -game.started)


def _best(kept: GameRecord | None, new: GameRecord,
          order: Callable[[GameRecord], tuple[float, float]]) -> GameRecord:
    """``new`` where ``order`` puts it above ``kept``, a tie going to the game listed first (as ``max`` over the
    games in their order finds)."""
    if kept is None or order(new) > order(kept):
        return new
    if order(new) == order(kept) and _order(new) < _order(kept):
        return new
    return kept


def family_records(games: Iterable[GameRecord]) -> Records:
    """The records over ``games``."""
    return Tally.of(games).records()


def saved_games(journal: Journal) -> Iterator[SavedGame]:
    """Every game of ``journal``, oldest first (see :func:`saved_game`)."""
    for info in journal.games():
        yield saved_game(journal, info)


def saved_game(journal: Journal, info: GameInfo) -> SavedGame:
    """The game ``info`` of ``journal``, its rows read as actions (a row that cannot be read ends the game
    there)."""
    rows: list[tuple[Action, float]] = []
    for _seq, line, _events, at in journal.rows(info.id):
        try:
            rows.append((parse_action(line), float(at)))
        except BankerError:
            break
    return SavedGame(info.id, info.name, float(info.created), tuple(rows))

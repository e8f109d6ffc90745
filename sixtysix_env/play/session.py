"""A person against agents at one table: the game loop of terminal play.

The person's seat reads its view (``information_state``), is shown the legal moves and types one;
every other seat is an agent asked with its own view. Every action, anyone's, is announced as it
happens, with the public facts it produced (a trick won, the draw, a closing). The deals are
played through ``Match`` / ``TableMatch``, so a match scores, redeals and ends by the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ..cards import NUM_CARDS, card_symbol, cards_of
from ..engine import Deal, Decision
from ..match import Match
from ..table import FourDeal, TableMatch, ThreeDeal
from ..table.deal import TableDecision
from ..textplay import fit_lines, match_score_text, move_text, outcome_text, step_notes
from .moves import EntryError, keyed_moves, moves_text, parse_entry
from .view import Trick, prompt_text, table_text, trick_text

__all__ = ["Seats", "Session", "Ending", "help_text", "describe_seats"]

_PAD = " " * 33  # the column of the explanations in the help
_HELP_MOVES = {
    "two": f"C close · D draw · P pass / keep\n{_PAD}X exchange for the trump card\n{_PAD}G go out (claim 66)\n"
    f"{_PAD}MH or M♥ declare a marriage",
    "three": f"MH or M♥ declare a marriage\n{_PAD}=H or =♥ name trump · =? turn the card",
    "four": f"MH or M♥ declare (or show) a marriage\n{_PAD}P pass · G go out (claim 66)\n"
    f"{_PAD}=H or =♥ name trump · =? turn the card",
}


def help_text(game: str) -> str:
    """What the person may type, for this game (lines of at most 80 columns)."""
    return f"""\
How to answer:
  a key from the list            1, 2, 3 ...
  a card                         QH, 10H, TH, Q♥ (any case: qh)
  other moves                    {_HELP_MOVES[game]}
  show                           show the table again
  tricks                         every trick played so far
  quit                           stop here (the game so far is saved)
Cards rank 9 J Q K 10 A and count A 11, 10 10, K 4, Q 3, J 2, 9 0.
A marriage (K and Q of one suit, declared when leading) is worth 20, 40 in
trumps. 66 points win the deal."""


GAME_CLASSES: dict[str, type] = {"two": Deal, "three": ThreeDeal, "four": FourDeal}


@dataclass
class Seats:
    """Who sits where: ``agents[p]`` plays seat ``p`` (``None`` at the person's seat)."""

    game: str
    rules: Any
    human: int
    agents: list[Any]
    names: list[str]
    """Per seat, as shown and recorded (the person's name at ``human``)."""
    specs: list[str]
    """Per seat, the agent spec text (``"human"`` for the person), for the record."""


@dataclass
class Ending:
    """How a session ended: ``status`` is finished, quit, input ended, interrupted or agent failed
    (then ``message`` says which agent and how)."""

    status: str
    deals: list[Any] = field(default_factory=list)
    match: Any = None
    message: str = ""


class Session:
    """One deal or one match, played out on ``out`` with the person's entries read from ``inp``."""

    def __init__(
        self,
        seats: Seats,
        episode: str,
        seed: int,
        inp: IO[str],
        out: IO[str],
        recall: str = "perfect",
        echo: bool = False,
    ) -> None:
        self.seats = seats
        self.episode = episode
        self.recall = recall
        self.inp, self.out, self.echo = inp, out, echo
        master = random.Random(seed)
        self.deal_rng = random.Random(master.getrandbits(64))
        self.agent_rng = random.Random(master.getrandbits(64))
        # In the person's screens the person is "you"; announcements use the same names.
        self.names = list(seats.names)
        self.names[seats.human] = "you"
        self.failure = ""

    # ------------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        print(fit_lines(text), file=self.out)

    def _new_match(self) -> Match | TableMatch:
        s = self.seats
        if s.game == "two":
            return Match(s.rules, self.deal_rng)
        return TableMatch(GAME_CLASSES[s.game], s.rules, self.deal_rng)

    # ------------------------------------------------------------------ the game
    def run(self) -> Ending:
        """Play to the end; ``self.ending`` holds the game so far also if ``run`` is interrupted."""
        match = self._new_match()
        ending = self.ending = Ending("finished", [match.deal], match)
        number = 1
        while True:
            status = self._play_deal(match, number)
            if status != "finished":
                ending.status, ending.message = status, self.failure
                return ending
            deal = match.deal
            self.say(f"Result: {outcome_text(deal, self.names)}.")
            unit = "stakes" if self.seats.game == "three" else "game points"
            if self.episode == "deal":
                self.say(f"Score ({unit}): {match_score_text(match.scores, deal, self.names)}")
                return ending
            self.say(f"Match score ({unit}): {match_score_text(match.scores, deal, self.names)}")
            if match.is_over:
                return ending
            match.next_deal()
            ending.deals.append(match.deal)
            number += 1

    def _deal_header(self, deal: Any, match: Any, number: int) -> None:
        names = self.names
        head = f"Deal {number}" if self.episode == "match" else "The deal"
        score = f" · match {match_score_text(match.scores, deal, names)}" if self.episode == "match" else ""
        self.say()
        self.say(f"── {head} · {names[deal.dealer]} dealt{score} ──")

    def _play_deal(self, match: Any, number: int) -> str:
        deal = match.deal
        self.tricks: list[Trick] = []
        self._trick: list[tuple[int, int]] = []
        self._deal_header(deal, match, number)
        while not deal.is_over:
            p = deal.current_player
            if p == self.seats.human:
                asked = self._ask(deal)
                if isinstance(asked, str):
                    return asked
                action = asked
            else:
                moved = self._agent_move(deal, p)
                if moved is None:
                    return "agent failed"
                action = moved
            before = deal.clone()
            match.apply(action)
            self._announce(before, deal, p, action)
        return "finished"

    def _agent_move(self, deal: Any, p: int) -> int | None:
        agent = self.seats.agents[p]
        view = deal.information_state(p)
        try:
            action = agent.act(view, self.agent_rng)
        except Exception as e:  # a user's bot may raise anything: report it, end the game cleanly
            self.failure = f"{self.names[p]} ({self.seats.specs[p]}) raised {type(e).__name__}: {e}"
            self.say(f"  {self.failure}. The game stops here.")
            return None
        try:
            legal = deal.is_legal(int(action))
        except (TypeError, ValueError):
            legal = False
        if not legal:  # its legal moves are not listed: they would show its hand to the person
            self.failure = f"{self.names[p]} ({self.seats.specs[p]}) chose {action!r}, which is not legal here"
            self.say(f"  {self.failure}. The game stops here.")
            return None
        return int(action)

    def _follow_tricks(self, before: Any, after: Any, p: int, action: int) -> None:
        """Keep the finished tricks (public): the cards played in lead and follow decisions."""
        two = isinstance(after, Deal)
        plays = (Decision.LEAD, Decision.FOLLOW) if two else (TableDecision.LEAD, TableDecision.FOLLOW)
        if action < NUM_CARDS and before.decision in plays:
            self._trick.append((p, action))
        if after.trick_count > before.trick_count:
            self.tricks.append((self._trick, after.leader if two else after.last_winner))
            self._trick = []

    def _announce(self, before: Any, after: Any, p: int, action: int) -> None:
        self._follow_tricks(before, after, p, action)
        names = self.names
        notes = step_notes(before, after, names)
        me = self.seats.human
        if isinstance(after, Deal) and len(after.stock) < len(before.stock):
            drawn = after.hands[me] & ~before.hands[me]
            if drawn:
                notes.append(f"you draw {' '.join(card_symbol(c) for c in cards_of(drawn))}")
            face_up = before.stock[0]
            if not after.stock and not drawn >> face_up & 1:  # the last, face-up card: seen by both
                notes.append(f"{names[1 - me]} takes the face-up {card_symbol(face_up)}")
        text = f"  {names[p]}: {move_text(before, action, me)}"
        self.say(text + (" — " + "; ".join(notes) if notes else ""))

    # ------------------------------------------------------------------ the person
    def _show(self, deal: Any) -> None:
        view = deal.information_state(self.seats.human)
        self.say()
        self.say(table_text(view, self.names, self.recall, self.tricks))
        self.say(prompt_text(view, self.names))
        self.say(moves_text(keyed_moves(view)))

    def _ask(self, deal: Any) -> int | str:
        """The person's move, or ``"quit"`` / ``"input ended"``."""
        view = deal.information_state(self.seats.human)
        moves = keyed_moves(view)
        self._show(deal)
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                self.say("Input ended: the game stops here.")
                return "input ended"
            if self.echo:
                self.out.write(line if line.endswith("\n") else line + "\n")
            try:
                choice = parse_entry(line, view, moves)
            except EntryError as e:
                self.say(f"  {e}")
                continue
            if choice == "help":
                self.say(help_text(self.seats.game))
            elif choice == "show":
                self._show(deal)
            elif choice == "tricks":
                self._tricks()
            elif choice == "quit":
                self.say("You stopped the game.")
                return "quit"
            else:
                return int(choice)

    def _tricks(self) -> None:
        if self.recall == "human":
            self.say("  (human recall: only the last trick is shown, as at a real table)")
            return
        if not self.tricks:
            self.say("  no trick has been played yet")
        for i, trick in enumerate(self.tricks, start=1):
            self.say(f"  {i:>2}. {trick_text(trick, self.names)}")


def describe_seats(seats: Seats, names: Sequence[str]) -> str:
    """One line saying who plays whom (partners in the four-player game)."""
    me = seats.human
    others = [p for p in range(len(names)) if p != me]
    if seats.game == "four":
        partner = (me + 2) % 4
        them = [p for p in others if p != partner]
        return f"you (seat {me}) and your partner {names[partner]} (seat {partner}) against " + " and ".join(
            f"{names[p]} (seat {p})" for p in them
        )
    return f"you (seat {me}) against " + " and ".join(f"{names[p]} (seat {p})" for p in others)

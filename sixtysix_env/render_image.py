"""Pictures of a deal for ``render_mode="rgb_array"``: a spectator's frame with every hand face up.

The frames follow PettingZoo classic's convention (an ``(H, W, 3)`` ``uint8`` array, one size per
game, so ``gymnasium.wrappers.RecordVideo`` can stitch them into a video). They show what a
spectator at the table would see if every card were turned over: all hands, the trump card and
the stock (with its count), the trick on the table and the last one, points, tricks, marriages,
whose turn it is, and the result. They are for watching and recording, never for a player.

Drawn with Pillow (the optional ``render`` extra), at twice the size and scaled down for smooth
edges. Suit symbols are drawn as shapes rather than taken from a font, so the frames look the
same on every machine with only Pillow's built-in font.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .cards import NUM_CARDS, cards_of
from .render import describe_outcome

__all__ = ["deal_frame", "table_frame", "require_pillow", "DEAL_FRAME_SIZE", "TABLE_FRAME_SIZE"]

DEAL_FRAME_SIZE = (960, 640)
"""(width, height) of a two-player frame."""
TABLE_FRAME_SIZE = (1120, 800)
"""(width, height) of a three- or four-player frame."""

_S = 2  # drawing scale: everything is drawn at twice the size, then scaled down
_FELT = (24, 98, 60)
_FELT_DARK = (17, 74, 45)
_PANEL = (14, 58, 36)
_WHITE = (250, 250, 245)
_INK = (25, 25, 30)
_RED = (200, 30, 45)
_GOLD = (236, 190, 60)
_MUTED = (190, 215, 195)
_BACK = (40, 70, 150)
_SUITS = "♣♠♥♦"
_RANKS = ("9", "J", "Q", "K", "10", "A")
_CARD = (76, 108)
_SMALL = (54, 77)
_MEDIUM = (64, 90)


def require_pillow() -> Any:
    """Pillow's ``Image``, ``ImageDraw`` and ``ImageFont`` modules, or a clear error naming the extra."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as e:  # pragma: no cover - the render extra is installed in CI
        raise ImportError(
            'render_mode="rgb_array" draws with Pillow: pip install "sixtysix-env[render]" (or pip install pillow)'
        ) from e
    return Image, ImageDraw, ImageFont


class _Canvas:
    """One frame being drawn: coordinates are given at frame size and scaled here."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.Image, ImageDraw, self.ImageFont = require_pillow()
        self.size = size
        self.img = self.Image.new("RGB", (size[0] * _S, size[1] * _S), _FELT)
        self.draw = ImageDraw.Draw(self.img)
        self._fonts: dict[int, Any] = {}

    def font(self, size: int) -> Any:
        if size not in self._fonts:
            self._fonts[size] = self.ImageFont.load_default(size=size * _S)
        return self._fonts[size]

    def rect(self, box: Sequence[float], fill: Any, outline: Any = None, radius: float = 0, width: float = 1) -> None:
        x0, y0, x1, y1 = (v * _S for v in box)
        self.draw.rounded_rectangle((x0, y0, x1, y1), radius * _S, fill=fill, outline=outline, width=int(width * _S))

    def suit(self, cx: float, cy: float, size: float, suit: int, color: Any = None) -> None:
        """A suit symbol centred on (cx, cy), ``size`` high, drawn as shapes."""
        color = color or (_RED if suit in (2, 3) else _INK)
        d, s = self.draw, size * _S / 2
        x, y = cx * _S, cy * _S

        def disc(px: float, py: float, r: float) -> None:
            d.ellipse((px - r, py - r, px + r, py + r), fill=color)

        if suit == 3:  # diamond
            d.polygon([(x, y - s), (x + 0.72 * s, y), (x, y + s), (x - 0.72 * s, y)], fill=color)
        elif suit == 2:  # heart
            r = 0.5 * s
            disc(x - 0.48 * s, y - 0.38 * s, r)
            disc(x + 0.48 * s, y - 0.38 * s, r)
            d.polygon([(x - 0.96 * s, y - 0.22 * s), (x + 0.96 * s, y - 0.22 * s), (x, y + s)], fill=color)
        elif suit == 1:  # spade
            r = 0.46 * s
            disc(x - 0.44 * s, y + 0.2 * s, r)
            disc(x + 0.44 * s, y + 0.2 * s, r)
            d.polygon([(x - 0.9 * s, y + 0.08 * s), (x + 0.9 * s, y + 0.08 * s), (x, y - s)], fill=color)
            d.polygon([(x, y + 0.2 * s), (x - 0.34 * s, y + s), (x + 0.34 * s, y + s)], fill=color)
        else:  # club
            r = 0.38 * s
            disc(x, y - 0.5 * s, r)
            disc(x - 0.47 * s, y + 0.12 * s, r)
            disc(x + 0.47 * s, y + 0.12 * s, r)
            d.polygon([(x, y - 0.1 * s), (x - 0.34 * s, y + s), (x + 0.34 * s, y + s)], fill=color)

    def text(self, x: float, y: float, text: str, size: int = 15, color: Any = _WHITE, anchor: str = "l") -> float:
        """Text whose top is at ``y``, starting at ``x`` (``anchor="m"``: centred on ``x``); suit
        symbols in it are drawn as shapes in their colours. Returns the width."""
        font = self.font(size)
        parts: list[tuple[str, int]] = []  # (text, -1) or ("", suit)
        for ch in text:
            if ch in _SUITS:
                parts.append(("", _SUITS.index(ch)))
            elif parts and parts[-1][1] < 0:
                parts[-1] = (parts[-1][0] + ch, -1)
            else:
                parts.append((ch, -1))
        gap = size * 0.9
        widths = [font.getlength(t) / _S if s < 0 else gap for t, s in parts]
        total = sum(widths)
        cx = x - total / 2 if anchor == "m" else x
        for (t, s), w in zip(parts, widths, strict=True):
            if s < 0:
                self.draw.text((cx * _S, y * _S), t, font=font, fill=color)
            else:
                suit_color = None if color == _INK else (255, 110, 110) if s in (2, 3) else color
                self.suit(cx + w / 2, y + size * 0.62, size * 0.78, s, suit_color)
            cx += w
        return total

    def card(self, x: float, y: float, c: int, size: tuple[int, int] = _CARD, mark: Any = None) -> None:
        """A face-up card with its top-left corner at (x, y); ``mark`` outlines it (trump, legal)."""
        w, h = size
        rank, suit = _RANKS[c % 6], c // 6
        color = _RED if suit in (2, 3) else _INK
        self.rect((x + 2, y + 3, x + w + 2, y + h + 3), fill=(0, 0, 0, 60), radius=7)  # shadow
        self.rect((x, y, x + w, y + h), fill=_WHITE, outline=mark or (120, 120, 120), radius=7, width=3 if mark else 1)
        k = w / _CARD[0]
        self.text(x + 6 * k, y + 4 * k, rank, size=int(19 * k), color=color)
        self.suit(x + 13 * k, y + 37 * k, 15 * k, suit)
        self.suit(x + w * 0.58, y + h * 0.6, 36 * k, suit)

    def back(self, x: float, y: float, size: tuple[int, int] = _CARD) -> None:
        w, h = size
        self.rect((x, y, x + w, y + h), fill=_BACK, outline=_WHITE, radius=7, width=2)
        self.rect((x + 6, y + 6, x + w - 6, y + h - 6), fill=None, outline=(140, 165, 225), radius=5, width=1)

    def frame(self) -> np.ndarray:
        img = self.img.resize(self.size, self.Image.Resampling.LANCZOS)
        return np.asarray(img, dtype=np.uint8).copy()


def _sorted_hand(mask: int, trump: int) -> list[int]:
    """The cards in the order ``render.hand_text`` writes them: trumps first, colours alternating."""
    order = {s: i for i, s in enumerate((2, 1, 3, 0))}
    return sorted(cards_of(mask), key=lambda c: (c // 6 != trump, order[c // 6], -c))


# ---------------------------------------------------------------------- two players
def deal_frame(
    deal: Any,
    names: Sequence[str] = ("player_0", "player_1"),
    *,
    last: str | None = None,
    match_scores: Sequence[int] | None = None,
) -> np.ndarray:
    """A spectator's ``(640, 960, 3)`` frame of a two-player ``Deal`` (both hands face up).
    ``last`` is the last action in words; ``match_scores`` (match mode only) are shown in the title."""
    cv = _Canvas(DEAL_FRAME_SIZE)
    W, H = DEAL_FRAME_SIZE
    trump = deal.trump
    over = deal.outcome is not None
    to_act = -1 if over else deal.current
    legal = 0 if over else deal.legal_mask() & ((1 << NUM_CARDS) - 1)

    title = f"Sixty-Six · {deal.rules.name} · trump {_SUITS[trump]} · dealer {names[deal.dealer]}"
    if match_scores is not None:
        title += f" · match {match_scores[0]}-{match_scores[1]}"
    cv.rect((0, 0, W, 40), fill=_FELT_DARK)
    cv.text(16, 10, title, size=18)
    cv.text(W - 16 - 160, 13, "spectator view", size=13, color=_MUTED)

    # hands: player 1 on top, player 0 below
    for p, y in ((1, 62), (0, 470)):
        label_color = _GOLD if p == to_act else _WHITE
        cv.text(24, y - 2, names[p] + (" · to act" if p == to_act else ""), size=16, color=label_color)
        for i, c in enumerate(_sorted_hand(deal.hands[p], trump)):
            mark = _GOLD if p == to_act and legal >> c & 1 else None  # the legal cards stand out
            lift = (8 if p == 1 else -8) if mark else 0
            cv.card(24 + i * 86, y + 26 + lift, c, mark=mark)

    # the trump card, with the stock on it (face down and shifted, so the trump card shows)
    sx, sy = 24, 250
    stock = deal.stock
    if stock:
        if deal.closed_by >= 0:
            cv.back(sx, sy)
        else:
            cv.card(sx, sy, stock[0], mark=_GOLD)
        for k in range(min(len(stock) - 1, 4)):
            cv.back(sx + 52 + k * 3, sy - k * 3)
        closed = f", closed by {names[deal.closed_by]}" if deal.closed_by >= 0 else ""
        cv.text(sx, sy + _CARD[1] + 14, f"stock {len(stock)}{closed}", size=15)
    else:
        cv.text(sx, sy + 40, "stock exhausted", size=15, color=_MUTED)
    # the trick on the table, and the last one
    tx = 330
    cv.text(tx, sy - 28, "on the table", size=14, color=_MUTED)
    if deal.lead_card >= 0:
        cv.card(tx, sy, deal.lead_card)
        cv.text(tx, sy + _CARD[1] + 8, f"led by {names[deal.leader]}", size=13, color=_MUTED)
    last_trick = _last_trick(deal.history, deal.lead_card >= 0)
    if last_trick:
        lx = 470
        cv.text(lx, sy - 28, "last trick", size=14, color=_MUTED)
        for i, c in enumerate(last_trick):
            cv.card(lx + i * 60, sy + 10, c, size=_SMALL)

    # score panel
    px = 700
    cv.rect((px, 56, W - 16, H - 16), fill=_PANEL, radius=10)
    y = 70
    for p in (0, 1):
        color = _GOLD if p == to_act else _WHITE
        cv.text(px + 14, y, names[p], size=16, color=color)
        pending = f" (+{deal.pending[p]} pending)" if deal.pending[p] else ""
        cv.text(px + 14, y + 24, f"points {deal.points[p]}{pending}", size=15)
        cv.text(px + 14, y + 44, f"tricks {deal.tricks[p]}", size=15)
        marriages = " ".join(_SUITS[s] + ("40" if s == trump else "20") for s in range(4) if deal.marriages[p] >> s & 1)
        if marriages:
            cv.text(px + 14, y + 64, f"marriages {marriages}", size=15)
        y += 100
    y += 6
    if last:
        cv.text(px + 14, y, "last action", size=13, color=_MUTED)
        _wrapped(cv, px + 14, y + 18, last, W - 44 - px, 14)
        y += 60
    if over:
        cv.text(px + 14, y, "result", size=13, color=_MUTED)
        _wrapped(cv, px + 14, y + 18, describe_outcome(deal, (names[0], names[1])), W - 44 - px, 15, _GOLD)
    else:
        cv.text(px + 14, y, "to act", size=13, color=_MUTED)
        cv.text(px + 14, y + 18, f"{names[to_act]}: {deal.decision.name.lower().replace('_', ' ')}", size=15)
    return cv.frame()


def _last_trick(history: Sequence[int], trick_open: bool) -> list[int]:
    """The two cards of the last completed trick, from a two-player history (``player * 32 + action``)."""
    cards = [x % 32 for x in history if x % 32 < NUM_CARDS]
    if trick_open:
        cards = cards[:-1]
    return cards[-2:] if len(cards) >= 2 else []


def _wrapped(cv: _Canvas, x: float, y: float, text: str, width: float, size: int, color: Any = _WHITE) -> None:
    """Text broken into lines that fit ``width`` (callers leave the panel's 14 px margin on both sides)."""
    font = cv.font(size)
    line = ""
    words: list[str] = []
    for word in text.split():  # a word wider than the line is cut, so nothing runs past the margin
        while len(word) > 1 and font.getlength(word) / _S > width:
            k = len(word) - 1
            while k > 1 and font.getlength(word[:k]) / _S > width:
                k -= 1
            words.append(word[:k])
            word = word[k:]
        words.append(word)
    for word in words:
        trial = f"{line} {word}".strip()
        if line and font.getlength(trial) / _S > width:
            cv.text(x, y, line, size=size, color=color)
            y += size + 5
            line = word
        else:
            line = trial
    if line:
        cv.text(x, y, line, size=size, color=color)


# ---------------------------------------------------------------------- three and four players
def table_frame(
    deal: Any,
    names: Sequence[str],
    *,
    last: str | None = None,
    match_scores: Sequence[int] | None = None,
) -> np.ndarray:
    """A spectator's ``(800, 1120, 3)`` frame of a three- or four-player ``TableDeal`` (every hand
    face up). Seats go clockwise from the bottom: player 0 at the bottom, player 1 on the left."""
    cv = _Canvas(TABLE_FRAME_SIZE)
    W, H = TABLE_FRAME_SIZE
    n = deal.n_players
    over = deal.outcome is not None
    to_act = -1 if over else deal.current
    legal = 0 if over else deal.legal_mask() & ((1 << NUM_CARDS) - 1)
    trump = deal.trump

    trump_text = "not chosen yet" if trump < 0 else _SUITS[trump]
    title = f"Sixty-Six, {deal.game} ({deal.rules.name}) · trump {trump_text} · dealer {names[deal.dealer]}"
    if match_scores is not None:
        title += " · match " + "-".join(str(s) for s in match_scores)
    cv.rect((0, 0, W, 40), fill=_FELT_DARK)
    cv.text(16, 10, title, size=18)
    cv.text(W - 16 - 160, 13, "spectator view", size=13, color=_MUTED)

    area_w = _TABLE_W
    step = 40 if n == 3 else 46
    seats = _SEATS[n]
    centre = (area_w / 2, 360)
    trick_seats = _trick_seats(deal)
    for p, (cx, cy) in enumerate(seats):
        cards = _sorted_hand(deal.hands[p], trump)
        width = step * (max(len(cards), 1) - 1) + _MEDIUM[0]
        x0 = cx - width / 2
        color = _GOLD if p == to_act else _WHITE
        side = deal.side_of(p)
        label = names[p] + (f" · team {side}" if deal.n_sides == 2 and n == 4 else "")
        cv.text(cx, cy - 26, label + (" · to act" if p == to_act else ""), size=15, color=color, anchor="m")
        for i, c in enumerate(cards):
            mark = _GOLD if p == to_act and legal >> c & 1 else None
            cv.card(x0 + i * step, cy - (6 if mark else 0), c, size=_MEDIUM, mark=mark)
        if not cards:
            cv.text(cx, cy + 20, "no cards", size=13, color=_MUTED, anchor="m")
    # the trick, each card towards its player
    for i, c in enumerate(deal.trick):
        p = trick_seats[i]
        sx, sy = seats[p]
        fx = centre[0] + (sx - centre[0]) * 0.3 - _CARD[0] / 2
        fy = centre[1] + (sy + _MEDIUM[1] / 2 - centre[1]) * 0.3 - _CARD[1] / 2
        cv.card(fx, fy, c)
        cv.text(fx + _CARD[0] / 2, fy + _CARD[1] + 4, names[p], size=12, color=_MUTED, anchor="m")
    # score panel
    px = area_w + 20
    cv.rect((px, 56, W - 16, H - 16), fill=_PANEL, radius=10)
    y = 70
    if deal.trump_card >= 0:
        turned = f"{_RANKS[deal.trump_card % 6]}{_SUITS[deal.trump_card // 6]}"
        cv.text(px + 14, y, f"trump card {turned}, turned up", size=14, color=_MUTED)
        y += 28
    for s in range(deal.n_sides):
        members = [p for p in range(n) if deal.side_of(p) == s]
        head = f"team {s}" if deal.n_sides == 2 and n == 4 else names[members[0]]
        cv.text(px + 14, y, head, size=16, color=_GOLD if to_act in members else _WHITE)
        pending = f" (+{deal.pending[s]})" if deal.pending[s] else ""
        cv.text(px + 14, y + 22, f"points {deal.points[s]}{pending}", size=14)
        tricks = sum(deal.tricks_won[p] for p in members)
        cv.text(px + 14, y + 40, f"tricks {tricks}", size=14)
        y += 70
    marriages = [f"{names[p]} {_SUITS[m]}" for p in range(n) for m in range(4) if deal.marriages[p] >> m & 1]
    if getattr(deal, "last_winner", -1) >= 0 and not deal.trick:
        cv.text(px + 14, y, f"last trick won by {names[deal.last_winner]}", size=14, color=_MUTED)
        y += 28
    if marriages:
        cv.text(px + 14, y, "marriages", size=13, color=_MUTED)
        _wrapped(cv, px + 14, y + 18, ", ".join(marriages), W - 44 - px, 14)
        y += 58
    if last:
        cv.text(px + 14, y, "last action", size=13, color=_MUTED)
        _wrapped(cv, px + 14, y + 18, last, W - 44 - px, 14)
        y += 60
    if over:
        cv.text(px + 14, y, "result", size=13, color=_MUTED)
        _wrapped(cv, px + 14, y + 18, table_result_text(deal, names), W - 44 - px, 15, _GOLD)
    else:
        cv.text(px + 14, y, "to act", size=13, color=_MUTED)
        cv.text(px + 14, y + 18, f"{names[to_act]}: {deal.decision.name.lower().replace('_', ' ')}", size=15)
    return cv.frame()


_TABLE_W = 820
"""Width of the table in a table frame; the score panel is on its right."""
_SEATS = {
    3: ((_TABLE_W / 2, 620), (200, 330), (_TABLE_W - 210, 80)),
    4: ((_TABLE_W / 2, 620), (180, 340), (_TABLE_W / 2, 80), (_TABLE_W - 180, 340)),
}
"""Where each seat's hand is centred, clockwise from the bottom (player 0)."""


def _trick_seats(deal: Any) -> list[int]:
    """The players of the current trick's cards, leader first."""
    seats = getattr(deal, "trick_seats", None)
    if callable(seats):
        return list(seats())
    return [(deal.leader + i) % deal.n_players for i in range(len(deal.trick))]


def table_result_text(deal: Any, names: Sequence[str]) -> str:
    """How a finished three- or four-player deal ended, in words."""
    out = deal.outcome
    if out is None:
        return "deal in progress"
    if out.winner < 0:
        return "drawn deal: the most points are shared, nobody pays"
    who = f"team {out.winner}" if deal.n_sides == 2 and deal.n_players == 4 else names[out.winner]
    how = out.termination.name.lower().replace("_", " ")
    return f"{who} wins ({how}): payoffs {list(out.payoffs)}"

"""Card pictures as SVG text, drawn by the project (no image files, no fonts needed for suits).

Suits are vector paths, so they look the same in every browser; ranks are text. Nines and tens
show their pips as on a French-suited card, aces one large pip, and jacks, queens and kings a
framed portrait panel with the rank letter (the king and queen crowned).
"""

from __future__ import annotations

from ..cards import NUM_CARDS, Rank, card_str, rank_of, suit_of

__all__ = ["CARD_H", "CARD_W", "back_svg", "card_svg", "all_cards"]

CARD_W = 200
"""Width of a card picture in SVG units."""
CARD_H = 280
"""Height of a card picture in SVG units."""

# Suit shapes in a 100 x 100 box: clubs, spades, hearts, diamonds.
_SUIT_PATHS = (
    "M50 8a20 20 0 0 1 19 26a20 20 0 1 1-8 36q2 14 11 26h-44q9-12 11-26a20 20 0 1 1-8-36a20 20 0 0 1 19-26z",
    "M50 4c18 22 44 36 44 58c0 15-11 24-23 24c-8 0-14-4-17-9c1 9 5 15 12 19h-32c7-4 11-10 12-19"
    "c-3 5-9 9-17 9c-12 0-23-9-23-24c0-22 26-36 44-58z",
    "M50 92C26 72 5 56 5 32C5 17 16 7 29 7c10 0 17 6 21 14c4-8 11-14 21-14c13 0 24 10 24 25c0 24-21 40-45 60z",
    "M50 3Q66 28 88 50Q66 72 50 97Q34 72 12 50Q34 28 50 3z",
)
RED, BLACK = "#c62828", "#1f1f1f"
_RANK_TEXT = {Rank.NINE: "9", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.TEN: "10", Rank.ACE: "A"}
_RANK_NAME = dict(zip(Rank, ("nine", "jack", "queen", "king", "ten", "ace"), strict=True))
_SUIT_NAME = ("clubs", "spades", "hearts", "diamonds")
_FONT = "font-family=\"Georgia,'DejaVu Serif','Times New Roman',serif\" font-weight=\"bold\""

# Pip centres (x, y) on the 200 x 280 card; pips below the middle are drawn upside down.
_PIPS = {
    Rank.NINE: [(66, 66), (134, 66), (66, 116), (134, 116), (100, 140), (66, 164), (134, 164), (66, 214), (134, 214)],
    Rank.TEN: [
        (66, 62),
        (134, 62),
        (100, 92),
        (66, 112),
        (134, 112),
        (66, 168),
        (134, 168),
        (100, 188),
        (66, 218),
        (134, 218),
    ],
}


def _colour(suit: int) -> str:
    return RED if suit in (2, 3) else BLACK


def _pip(suit: int, x: float, y: float, size: float, flip: bool = False) -> str:
    s = size / 100
    rot = f" rotate(180 {x:g} {y:g})" if flip else ""
    return (
        f'<path d="{_SUIT_PATHS[suit]}" fill="{_colour(suit)}" '
        f'transform="{rot.strip()} translate({x - size / 2:g} {y - size / 2:g}) scale({s:g})"/>'
    )


def _corner(rank: int, suit: int) -> str:
    text = _RANK_TEXT[Rank(rank)]
    size = 34 if len(text) == 1 else 30
    return (
        f'<text x="22" y="42" text-anchor="middle" font-size="{size}" {_FONT} fill="{_colour(suit)}"'
        f' letter-spacing="-2">{text}</text>{_pip(suit, 22, 62, 24)}'
    )


def _crown(x: float, y: float, colour: str, queen: bool) -> str:
    """A small crown (five points for a king, three rounded ones for a queen) centred at x, top y."""
    if queen:
        d = f"M{x - 24} {y + 22}l4-18l10 10l10-14l10 14l10-10l4 18z"
    else:
        d = f"M{x - 26} {y + 24}l-2-22l12 10l8-14l8 14l8-14l8 14l12-10l-2 22z"
    return f'<path d="{d}" fill="#f2c14e" stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"/>'


def _face(rank: int, suit: int) -> str:
    colour = _colour(suit)
    tint = "#fdecea" if colour == RED else "#eceff4"
    letter = _RANK_TEXT[Rank(rank)]
    parts = [
        f'<rect x="44" y="40" width="112" height="200" rx="10" fill="{tint}" stroke="{colour}" stroke-width="3"/>',
        f'<rect x="52" y="48" width="96" height="184" rx="6" fill="none" stroke="{colour}" stroke-width="1" '
        'stroke-dasharray="4 4" opacity="0.6"/>',
    ]
    if rank in (Rank.KING, Rank.QUEEN):
        parts.append(_crown(100, 60, colour, rank == Rank.QUEEN))
    parts.append(
        f'<text x="100" y="{168 if rank != Rank.JACK else 172}" text-anchor="middle" font-size="84" {_FONT} '
        f'fill="{colour}">{letter}</text>'
    )
    parts.append(_pip(suit, 100, 204 if rank != Rank.JACK else 78, 40))
    if rank == Rank.JACK:
        parts.append(_pip(suit, 100, 208, 40, flip=True))
    return "".join(parts)


def card_svg(card: int) -> str:
    """One card face as an ``<svg>`` element (class ``card-svg``, ``data-card`` its name, "QH")."""
    if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id {card!r} out of range: allowed 0..{NUM_CARDS - 1}")
    rank, suit = rank_of(card), suit_of(card)
    title = f"{_RANK_NAME[Rank(rank)]} of {_SUIT_NAME[suit]}"
    body = [
        f'<rect x="2" y="2" width="{CARD_W - 4}" height="{CARD_H - 4}" rx="14" fill="#fffdf8" stroke="#9e9e9e" '
        'stroke-width="2"/>',
        _corner(rank, suit),
        f'<g transform="rotate(180 {CARD_W / 2:g} {CARD_H / 2:g})">{_corner(rank, suit)}</g>',
    ]
    if rank == Rank.ACE:
        body.append(_pip(suit, 100, 140, 96))
    elif rank in _PIPS:
        body.extend(_pip(suit, x, y, 38, flip=y > 140) for x, y in _PIPS[Rank(rank)])
    else:
        body.append(_face(rank, suit))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="card-svg" data-card="{card_str(card)}" '
        f'viewBox="0 0 {CARD_W} {CARD_H}" role="img" aria-label="{title}"><title>{title}</title>{"".join(body)}</svg>'
    )


def _lattice() -> str:
    """Diamond lattice lines for the card back, as one path (no <pattern>: ids clash when inlined)."""
    d = []
    for k in range(-280, 200, 20):
        d.append(f"M{k + 16} 16L{k + 16 + 264} 280")
        d.append(f"M{k + 16 + 264} 16L{k + 16} 280")
    return " ".join(d)


def back_svg() -> str:
    """The back of a card (class ``card-svg card-back``)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="card-svg card-back" viewBox="0 0 {CARD_W} {CARD_H}" '
        'role="img" aria-label="face-down card"><title>face-down card</title>'
        f'<rect x="2" y="2" width="{CARD_W - 4}" height="{CARD_H - 4}" rx="14" fill="#fffdf8" stroke="#9e9e9e" '
        'stroke-width="2"/>'
        '<rect x="14" y="14" width="172" height="252" rx="9" fill="#23507f"/>'
        '<svg x="14" y="14" width="172" height="252" viewBox="14 14 172 252">'
        f'<path d="{_lattice()}" stroke="#5f8fc4" stroke-width="3" fill="none"/></svg>'
        '<rect x="14" y="14" width="172" height="252" rx="9" fill="none" stroke="#f2c14e" stroke-width="3"/>'
        '<circle cx="100" cy="140" r="30" fill="#23507f" stroke="#f2c14e" stroke-width="3"/>'
        '<text x="100" y="151" text-anchor="middle" font-size="30" '
        f'{_FONT} fill="#f2c14e">66</text></svg>'
    )


def all_cards() -> dict[str, str]:
    """Every card face by id ("0".."23") plus ``"back"``: what the page loads once."""
    out = {str(c): card_svg(c) for c in range(NUM_CARDS)}
    out["back"] = back_svg()
    return out

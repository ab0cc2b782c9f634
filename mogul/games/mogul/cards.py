"""Cards: shares with a company (background colour) and a border colour, and the crash card.

Card notation is ``company/border`` in lower-case colour names, e.g. ``"green/brown"`` is a
Frisco (green) share whose border lets the holder of the action right sell brown shares.
``"crash"`` is the crash card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

CRASH_NOTATION = "crash"


class Card(NamedTuple):
    """One share card: its company (background colour), border colour and "S" start mark."""

    company: str
    border: str
    starting: bool = False

    def __str__(self) -> str:
        return f"{self.company}/{self.border}"

    @property
    def is_crash(self) -> bool:
        """False for a share; True only for the crash card."""
        return False


class CrashCard(NamedTuple):
    """The crash card: revealing it ends the game at once."""

    def __str__(self) -> str:
        return CRASH_NOTATION

    @property
    def is_crash(self) -> bool:
        """Always True."""
        return True


CRASH = CrashCard()


def parse_card(text: str, companies: Iterable[str]) -> tuple[str, str] | CrashCard:
    """Read ``"company/border"`` (or ``"crash"``) into ``(company, border)`` or ``CRASH``.

    Raises ``ValueError`` naming the allowed colours when the text is not a card.
    """
    companies = tuple(companies)
    if not isinstance(text, str):
        raise ValueError(f"a card is written as 'company/border', got {text!r}")
    word = text.strip().lower()
    if word == CRASH_NOTATION:
        return CRASH
    parts = word.split("/")
    allowed = ", ".join(companies)
    if len(parts) != 2:
        raise ValueError(
            f"malformed card {text!r}: write 'company/border' (e.g. 'green/brown') or 'crash'; "
            f"colours are {allowed}"
        )
    company, border = parts
    for colour in (company, border):
        if colour not in companies:
            raise ValueError(f"unknown colour {colour!r} in card {text!r}; colours are {allowed}")
    return company, border


class Shares(Mapping[str, int]):
    """An immutable count of shares per company, in the edition's company order.

    Behaves like a read-only dict: ``shares["brown"]``, ``shares.items()``, ``sum(shares.values())``.
    """

    __slots__ = ("_companies", "_counts")

    def __init__(self, companies: tuple[str, ...], counts: Iterable[int] | None = None):
        values = tuple(counts) if counts is not None else (0,) * len(companies)
        if len(values) != len(companies):
            raise ValueError(f"need one count per company {companies}, got {values}")
        object.__setattr__(self, "_companies", companies)
        object.__setattr__(self, "_counts", values)

    @classmethod
    def of(cls, companies: tuple[str, ...], cards: Iterable[Card]) -> Shares:
        """Count the given cards by company."""
        counts = [0] * len(companies)
        for card in cards:
            counts[companies.index(card.company)] += 1
        return cls(companies, counts)

    def __getitem__(self, company: str) -> int:
        try:
            return self._counts[self._companies.index(company)]
        except ValueError:
            raise KeyError(company) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._companies)

    def __len__(self) -> int:
        return len(self._companies)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Shares):
            return self._companies == other._companies and self._counts == other._counts
        return Mapping.__eq__(self, other)

    def __hash__(self) -> int:
        return hash((self._companies, self._counts))

    def __setattr__(self, name: str, value: object) -> None:
        # States share their Shares objects: a bot writing one would rewrite history.
        raise AttributeError(
            f"Shares are read-only; use add() for a new count (tried to set {name!r})"
        )

    def __repr__(self) -> str:
        inside = ", ".join(
            f"{c}={n}" for c, n in zip(self._companies, self._counts, strict=True) if n
        )
        return f"Shares({inside})"

    @property
    def counts(self) -> tuple[int, ...]:
        """The counts in company order."""
        return self._counts

    @property
    def total(self) -> int:
        """All shares counted here."""
        return sum(self._counts)

    def add(self, company: str, count: int = 1) -> Shares:
        """A new count with ``count`` more (or fewer, if negative) shares of ``company``."""
        if company not in self._companies:
            raise KeyError(company)
        i = self._companies.index(company)
        value = self._counts[i] + count
        if value < 0:
            raise ValueError(f"cannot remove {-count} {company} shares from {self._counts[i]}")
        return Shares(self._companies, self._counts[:i] + (value,) + self._counts[i + 1 :])

    def __reduce__(self) -> tuple:
        return (Shares, (self._companies, self._counts))

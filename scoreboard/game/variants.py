"""Table variants as data: what each bet pays on this table.

A variant never changes the cards or the roads; it changes the pay table shown
beside them, the house edge, and which variant counters the board displays.

>>> VARIANTS["super6"].banker_pays
'1:1 (6 pays 1:2)'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Variant:
    """One table's rules of payment.  Odds are ``to one``: 8 means 8:1."""

    name: str
    title: str
    banker_commission: Fraction = Fraction(1, 20)
    super6: bool = False
    ez: bool = False
    tie_pays: int = 8
    pair_pays: int = 11
    dragon7_pays: int = 40
    panda8_pays: int = 25

    @property
    def banker_pays(self) -> str:
        if self.super6:
            return "1:1 (6 pays 1:2)"
        if self.ez:
            return "1:1 (Dragon 7 push)"
        if self.banker_commission:
            return f"{float(1 - self.banker_commission):g}:1"
        return "1:1"

    @property
    def counters(self) -> tuple[str, ...]:
        """Variant counters the board shows: ``banker_six``, ``dragon7``, ``panda8``."""
        if self.super6:
            return ("banker_six",)
        if self.ez:
            return ("dragon7", "panda8")
        return ()

    def pays(self) -> dict[str, str]:
        """The pay table as shown on the board and carried by the ``limits`` payload."""
        table = {
            "player": "1:1",
            "banker": self.banker_pays,
            "tie": f"{self.tie_pays}:1",
            "player_pair": f"{self.pair_pays}:1",
            "banker_pair": f"{self.pair_pays}:1",
        }
        if self.ez:
            table["dragon7"] = f"{self.dragon7_pays}:1"
            table["panda8"] = f"{self.panda8_pays}:1"
        return table

    def house_edges(self, p: dict[str, float]) -> dict[str, float]:
        """House edge per bet, from event probabilities keyed as ``scoreboard odds`` keys them.

        Each edge is minus the expected net win of one unit staked; Player and
        Banker bets push on a tie (and Banker on a Dragon 7 in EZ Baccarat).
        """
        banker_win = p["B"]
        if self.super6:
            banker_return = (banker_win - p["banker_six"]) + p["banker_six"] / 2
        elif self.ez:
            banker_return = banker_win - p["dragon7"]
        else:
            banker_return = banker_win * float(1 - self.banker_commission)

        def side_bet(event: str, pays: int) -> float:
            """A bet that wins ``pays`` to one when ``event`` happens and loses otherwise."""
            return (1 - p[event]) - pays * p[event]

        edges = {
            "player": p["B"] - p["P"],
            "banker": p["P"] - banker_return,
            "tie": side_bet("T", self.tie_pays),
            "player_pair": side_bet("player_pair", self.pair_pays),
            "banker_pair": side_bet("banker_pair", self.pair_pays),
        }
        if self.ez:
            edges["dragon7"] = side_bet("dragon7", self.dragon7_pays)
            edges["panda8"] = side_bet("panda8", self.panda8_pays)
        return edges

    def with_options(self, *, tie_pays: int | None = None, pair_pays: int | None = None) -> Variant:
        """The same variant with tie 8:1/9:1 or pairs 11:1/10:1 chosen."""
        return replace(
            self,
            tie_pays=self.tie_pays if tie_pays is None else tie_pays,
            pair_pays=self.pair_pays if pair_pays is None else pair_pays,
        )


VARIANTS: dict[str, Variant] = {
    "commission": Variant("commission", "Punto Banco"),
    "super6": Variant(
        "super6", "No Commission (Super 6)", banker_commission=Fraction(0), super6=True
    ),
    "ez": Variant("ez", "EZ Baccarat", banker_commission=Fraction(0), ez=True),
}

"""The lobby's words, in the theme's languages: the theme's labels, theirs and its own.

A theme names what a table's board shows (``live``, ``shuffling``, ``Min``,
the disclaimer...), and the lobby's own words too (``lobby_title``,
``lobby_page``, ``lobby_stale``... with English defaults; the shipped midnight
theme writes out the Chinese).  Every language the theme shows is said, each
once, joined.  ``{name}`` values are filled in by plain replacement: check-theme
has made sure each label holds exactly its own.

>>> from scoreboard.screen.theme.loading import load_theme
>>> LobbyWords(load_theme("midnight")).say("page", page="2", pages="5")
'Page 2 / 5 · 第 2 / 5 頁'
>>> LobbyWords(load_theme("classic")).state("final hand")
'FINAL HAND'
"""

from __future__ import annotations

from scoreboard.roads.good_roads import GoodRoad, good_road_name
from scoreboard.screen.theme.values import Theme, fill_in

__all__ = ["LOBBY_LABELS", "LobbyWords"]

#: The lobby's words (what the tiles and the page ask for) -> the theme's label holding them.
LOBBY_LABELS: dict[str, str] = {
    "title": "lobby_title",
    "page": "lobby_page",
    "stale": "lobby_stale",
    "stale_badge": "lobby_stale_badge",
    "waiting": "lobby_waiting",
    "waiting_badge": "lobby_waiting_badge",
    "no_tables": "lobby_no_tables",
    "lobby_offline": "lobby_offline",
    "s": "lobby_seconds",
    "min": "lobby_minutes",
    "h": "lobby_hours",
    "pit": "lobby_pit",
}

#: A tile's state (its value) -> the theme's label that says it.
STATE_LABELS = {
    "live": "live",
    "shuffling": "shuffling",
    "final hand": "cut_card_out",
    "offline": "offline",
}


class LobbyWords:
    """The words a lobby shows in ``theme``'s languages, each language once, joined."""

    def __init__(self, theme: Theme, sep: str = " · ") -> None:
        self.theme = theme
        self.languages = theme.languages
        self.sep = sep

    def _join(self, texts: tuple[str, ...] | list[str]) -> str:
        return self.sep.join(dict.fromkeys(texts))

    def own(self, key: str, lang: str) -> str:
        """The lobby's word ``key`` (see :data:`LOBBY_LABELS`) in language ``lang``."""
        return str(getattr(self.theme.labels[lang], LOBBY_LABELS[key]))

    def say(self, key: str, **values: str) -> str:
        """The lobby's word ``key``, with its ``{name}`` values filled in, in every language."""
        return self._join([fill_in(self.own(key, lang), **values) for lang in self.languages])

    def first(self, key: str, **values: str) -> str:
        """The lobby's word ``key`` in the theme's first language only (a tile's info line)."""
        return fill_in(self.own(key, self.languages[0]), **values)

    def theme_word(self, key: str) -> str:
        return self._join(self.theme.label(key))

    def state(self, state: str) -> str:
        """``live`` -> "LIVE" (the theme's label); stale and waiting are worded by the tile."""
        return self.theme_word(STATE_LABELS.get(state, "offline"))

    def age(self, age: tuple[int, str]) -> str:
        """``(4, "min")`` -> "No update for 4 min", in every language."""
        n, unit = age
        texts = []
        for lang in self.languages:
            amount = fill_in(self.own(unit, lang), n=str(n))
            texts.append(fill_in(self.own("stale", lang), age=amount))
        return self._join(texts)

    def good_road(self, good: GoodRoad) -> str:
        """ "Long Banker 長莊 7": the English and Chinese names, the theme's language first."""
        english = good_road_name(good.pattern, "en")
        main = self.languages[0]
        chinese = good_road_name(good.pattern, main if main == "zh-Hans" else "zh-Hant")
        names = [chinese, english] if main.startswith("zh") else [english, chinese]
        return f"{' '.join(names)} {good.length}"

"""The lobby's own words, in the theme's languages, beside the ones the theme already has.

A theme names what a table's board shows (``live``, ``shuffling``, ``Min``,
the disclaimer...); the lobby reuses those and adds a few of its own here,
English by default and Chinese where the theme shows ``zh``.  A language the
lobby has no words for falls back to English.  (A theme cannot rename these
yet: that needs new theme keys.)

>>> from scoreboard.theme import load_theme
>>> LobbyWords(load_theme("midnight")).say("page", page="2", pages="5")
'Page 2 / 5 · 第 2 / 5 頁'
>>> LobbyWords(load_theme("classic")).state("final hand")
'FINAL HAND'
"""

from __future__ import annotations

from scoreboard.core.good_roads import NAMES, GoodRoad
from scoreboard.theme import Theme

__all__ = ["LOBBY_WORDS", "LobbyWords"]

LOBBY_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Baccarat tables",
        "page": "Page {page} / {pages}",
        "stale": "No update for {age}",
        "stale_badge": "NO UPDATE",
        "waiting": "Waiting for the table",
        "waiting_badge": "WAITING",
        "no_tables": "Waiting for the tables",
        "lobby_offline": "NO FEED",
        "s": "{n} s",
        "min": "{n} min",
        "h": "{n} h",
    },
    "zh": {
        "title": "百家樂賭桌",
        "page": "第 {page} / {pages} 頁",
        "stale": "{age}未更新",
        "stale_badge": "未更新",
        "waiting": "等待開桌",
        "waiting_badge": "等待",
        "no_tables": "等待賭桌",
        "lobby_offline": "未連線",
        "s": "{n}秒",
        "min": "{n}分鐘",
        "h": "{n}小時",
    },
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
        return LOBBY_WORDS.get(lang, LOBBY_WORDS["en"])[key]

    def say(self, key: str, **values: str) -> str:
        """The lobby's word ``key``, with its ``{name}`` values filled in, in every language."""
        texts = []
        for lang in self.languages:
            text = self.own(key, lang)
            for name, value in values.items():
                text = text.replace("{" + name + "}", value)
            texts.append(text)
        return self._join(texts)

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
            amount = self.own(unit, lang).replace("{n}", str(n))
            texts.append(self.own("stale", lang).replace("{age}", amount))
        return self._join(texts)

    def good_road(self, good: GoodRoad) -> str:
        """ "Long Banker 長莊 7": the English and Chinese names, the theme's language first."""
        english, chinese = NAMES[good.pattern]
        names = [chinese, english] if self.languages[:1] == ("zh",) else [english, chinese]
        return f"{' '.join(names)} {good.length}"

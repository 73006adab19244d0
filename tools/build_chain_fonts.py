"""Build the fonts after the theme's in the font chain, from Debian's Noto packages.

The theme's font (the shipped Noto Sans CJK TC subset) draws Latin, Chinese,
digits and card suits; what it lacks is drawn by the next font of the chain
that has it (``scoreboard/screen/board/text.py``).  These are that chain, cut small:

- ``NotoSansCJK-{weight}-kana-hangul-subset.otf``: kana, the 2,350 Hangul
  syllables of KS X 1001 and Hangul jamo, and the JIS X 0208 kanji the TC subset
  lacks, from the Korean face of Noto Sans CJK (``fonts-noto-cjk``);
- ``NotoSans-{weight}-subset.ttf``: Latin, Latin Extended-A/B, Latin Extended
  Additional and combining marks (Vietnamese: ơ ư ạ ầ ố ...) and currency signs
  (₫ ₱ ₹ ...), from Noto Sans (``fonts-noto-core``): a word with a letter the
  theme's font lacks ("Người") is drawn whole by this one;
- ``NotoSansThai-{weight}-subset.ttf``: the Thai block, from Noto Sans Thai.

All SIL Open Font License 1.1 (``themes/fonts/OFL.txt``).  Build-time tool, run
with Debian's ``python3-fonttools``::

    /usr/bin/python3 tools/build_chain_fonts.py

then put the new SHA-256s in ``scoreboard/screen/theme/fonts.py`` (``SHIPPED_FONTS``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_font_subset import FONTS, ROOT, double_byte

CJK = Path("/usr/share/fonts/opentype/noto")
NOTO = Path("/usr/share/fonts/truetype/noto")
KR_FACE = "Noto Sans CJK KR"


def span(first: int, last: int) -> set[int]:
    return set(range(first, last + 1))


def kana_hangul() -> set[int]:
    """Kana, jamo, KS X 1001's Hangul and JIS X 0208's characters."""
    codes = span(0x3040, 0x30FF) | span(0x31F0, 0x31FF) | span(0x3130, 0x318F)
    codes |= span(0x1100, 0x11FF)
    codes |= double_byte("euc_kr", range(0xB0, 0xC9), [range(0xA1, 0xFF)])  # Hangul rows
    codes |= double_byte("euc_jp", range(0xA1, 0xFF), [range(0xA1, 0xFF)])
    return codes


def latin() -> set[int]:
    """Latin with every letter a Vietnamese word needs, so a whole word is drawn by one font."""
    codes = span(0x0020, 0x007E) | span(0x00A0, 0x00FF) | span(0x0100, 0x024F)
    codes |= span(0x0300, 0x036F) | span(0x1E00, 0x1EFF)
    return codes | span(0x20A0, 0x20CF)


def thai() -> set[int]:
    return span(0x0E00, 0x0E7F) | {0x25CC}


def subset(source: Path, index: int, unicodes: set[int], output: Path) -> None:
    from fontTools import subset as fts
    from fontTools.ttLib import TTFont

    options = fts.Options()
    options.layout_features = [f for f in options.layout_features if f not in {"vert", "vrt2"}]
    options.drop_tables += ["vhea", "vmtx", "VORG"]
    options.hinting = False
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = TTFont(str(source), fontNumber=index, lazy=False)
    cmap = font.getBestCmap()
    subsetter = fts.Subsetter(options)
    subsetter.populate(unicodes=sorted(c for c in unicodes if c in cmap))
    subsetter.subset(font)
    font.save(str(output))
    print(f"{output.relative_to(ROOT)}: {output.stat().st_size / 1e3:.0f} kB")


def main() -> int:
    from fontTools.ttLib import TTCollection, TTFont

    main_font = TTFont(str(FONTS / "NotoSansCJK-Regular-subset.otf"), lazy=True)
    have = set(main_font.getBestCmap())
    for weight in ("Regular", "Bold"):
        collection = CJK / f"NotoSansCJK-{weight}.ttc"
        faces = TTCollection(str(collection), lazy=True).fonts
        index = next(i for i, f in enumerate(faces) if f["name"].getDebugName(1) == KR_FACE)
        wanted = kana_hangul() - have
        subset(collection, index, wanted, FONTS / f"NotoSansCJK-{weight}-kana-hangul-subset.otf")
        subset(
            NOTO / f"NotoSans-{weight}.ttf",
            -1,
            latin(),  # whole: a Vietnamese word is drawn by one font
            FONTS / f"NotoSans-{weight}-subset.ttf",
        )
        subset(
            NOTO / f"NotoSansThai-{weight}.ttf",
            -1,
            thai(),
            FONTS / f"NotoSansThai-{weight}-subset.ttf",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

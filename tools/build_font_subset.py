"""Build the kiosk's font subsets from Debian's Noto Sans CJK collection.

Computes the code points (Latin, punctuation, currency, card suits, every
character of GB2312 and Big5, CJK punctuation, full-width forms, anything the
shipped themes use and anything listed in ``themes/fonts/subset-chars.txt``),
rewrites ``subset-chars.txt``, subsets the Traditional Chinese face (TC) of the
Regular and Bold collections and prints the sizes.

Build-time tool, not a project dependency: run it with a Python that has
fonttools (Debian ``python3-fonttools``)::

    /usr/bin/python3 tools/build_font_subset.py

Simplified characters are drawn with the TC face's glyphs (the TC face maps
every GB2312 character; only a few shapes differ from the SC face).
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "themes" / "fonts"
CHARS_FILE = FONTS / "subset-chars.txt"
SOURCE = Path("/usr/share/fonts/opentype/noto")
WEIGHTS = ("Regular", "Bold")
FACE = "Noto Sans CJK TC"  # the collection's Traditional Chinese face
CHARS_PER_LINE = 64
UNUSED_FEATURES = {"locl", "vert", "vrt2", "vkrn", "vpal", "vhal", "valt"}

# (first, last) code point ranges, inclusive.
RANGES = {
    "Basic Latin": (0x0020, 0x007E),
    "Latin-1 Supplement": (0x00A0, 0x00FF),
    "Latin Extended-A": (0x0100, 0x017F),
    "General Punctuation": (0x2000, 0x206F),
    "Currency Symbols": (0x20A0, 0x20CF),
    "Letterlike (№ ™ ℃)": (0x2100, 0x214F),
    "Arrows": (0x2190, 0x21FF),
    "Geometric Shapes": (0x25A0, 0x25FF),
    "Card suits": (0x2660, 0x2667),
    "CJK Symbols and Punctuation": (0x3000, 0x303F),
    "Halfwidth and Fullwidth Forms": (0xFF00, 0xFFEF),
}
# Single characters asked for by name, outside the ranges above.
EXTRA = "฿"  # Thai baht sign, U+0E3F


def double_byte(codec: str, leads: range, trails: list[range]) -> set[int]:
    """Every character a double-byte encoding maps, found by decoding each byte pair."""
    found = set()
    for lead in leads:
        for trail_range in trails:
            for trail in trail_range:
                try:
                    text = bytes((lead, trail)).decode(codec)
                except UnicodeDecodeError:
                    continue
                if len(text) == 1:
                    found.add(ord(text))
    return found


def gb2312() -> set[int]:
    """GB2312 rows 1-94 (symbols, level 1 and level 2 hanzi) as EUC-CN."""
    return double_byte("gb2312", range(0xA1, 0xFF), [range(0xA1, 0xFF)])


def big5() -> set[int]:
    """Big5: lead 0xA1-0xF9, trail 0x40-0x7E and 0xA1-0xFE."""
    return double_byte("big5", range(0xA1, 0xFA), [range(0x40, 0x7F), range(0xA1, 0xFF)])


def visible(code: int) -> bool:
    """Worth writing to subset-chars.txt: not a space, control or format character."""
    return unicodedata.category(chr(code))[0] not in "ZC"


def theme_chars() -> set[int]:
    """Every non-ASCII character in the shipped theme files."""
    found: set[int] = set()
    for path in sorted((ROOT / "themes").glob("*.yaml")):
        found |= {ord(c) for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E}
    return found


def listed_chars() -> set[int]:
    """Characters already in subset-chars.txt (hand additions survive a rebuild)."""
    if not CHARS_FILE.is_file():
        return set()
    return {ord(c) for c in CHARS_FILE.read_text(encoding="utf-8") if not c.isspace()}


def wanted() -> dict[str, set[int]]:
    groups = {name: set(range(first, last + 1)) for name, (first, last) in RANGES.items()}
    groups["Extra"] = {ord(c) for c in EXTRA}
    groups["GB2312"] = gb2312()
    groups["Big5"] = big5()
    groups["Themes"] = theme_chars()
    groups["subset-chars.txt"] = listed_chars()
    return groups


def face_index(collection: Path) -> int:
    from fontTools.ttLib import TTCollection

    for index, font in enumerate(TTCollection(str(collection), lazy=True).fonts):
        if font["name"].getDebugName(1) == FACE:
            return index
    raise SystemExit(f"{collection}: no face named {FACE!r}")


def subset(collection: Path, index: int, unicodes: set[int], output: Path) -> None:
    from fontTools import subset as fts
    from fontTools.ttLib import TTFont

    options = fts.Options()
    # fonttools' default features, less the ones that pull in thousands of
    # glyphs a horizontal, language-untagged kiosk never shows: locl (the JP, KR,
    # SC and HK shapes) and vertical writing.
    options.layout_features = [f for f in options.layout_features if f not in UNUSED_FEATURES]
    options.drop_tables += ["vhea", "vmtx", "VORG"]
    # No stem hints: 3.9 MB instead of 4.7 MB, and no visible difference at
    # kiosk sizes (FreeType renders these CFF outlines alike either way).
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True  # a missing character shows as a box, not a gap
    font = TTFont(str(collection), fontNumber=index, lazy=False)
    subsetter = fts.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    font.save(str(output))


def write_chars(codes: set[int]) -> int:
    shown = "".join(chr(c) for c in sorted(codes) if visible(c))
    lines = [shown[i : i + CHARS_PER_LINE] for i in range(0, len(shown), CHARS_PER_LINE)]
    CHARS_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(shown)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="folder of NotoSansCJK-*.ttc")
    parser.add_argument("--chars-only", action="store_true", help="write subset-chars.txt only")
    args = parser.parse_args(argv)
    try:
        from fontTools.ttLib import TTCollection
    except ImportError:
        print("fonttools is missing: use /usr/bin/python3 (python3-fonttools)", file=sys.stderr)
        return 2

    groups = wanted()
    requested = set().union(*groups.values())
    regular = args.source / "NotoSansCJK-Regular.ttc"
    index = face_index(regular)
    cmap = TTCollection(str(regular), lazy=True).fonts[index].getBestCmap()
    codes = {c for c in requested if c in cmap}
    for name, group in groups.items():
        have = len(group & cmap.keys())
        print(f"{name:32} {have:6} of {len(group):6} in the font")
    absent = sorted(c for c in requested - codes if visible(c))
    if absent:
        print(f"asked for but not in {FACE} ({len(absent)}): {''.join(chr(c) for c in absent)}")
    cjk = sum(1 for c in codes if unicodedata.name(chr(c), "").startswith("CJK"))
    print(f"total {len(codes)} code points, {cjk} CJK ideographs")
    visible_count = write_chars(codes)
    print(f"wrote {CHARS_FILE.relative_to(ROOT)}: {visible_count} visible characters")
    if args.chars_only:
        return 0
    for weight in WEIGHTS:
        collection = args.source / f"NotoSansCJK-{weight}.ttc"
        output = FONTS / f"NotoSansCJK-{weight}-subset.otf"
        subset(collection, face_index(collection), codes, output)
        print(f"{output.relative_to(ROOT)}: {output.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

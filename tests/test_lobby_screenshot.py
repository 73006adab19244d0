"""``scoreboard screenshot --lobby N``: the lobby's first page as a PNG, as a user makes one."""

from __future__ import annotations

from cli import scoreboard

pygame = __import__("pygame")  # one import block either way ruff reads `cli`


def colours(path) -> int:
    image = pygame.image.load(str(path))
    small = pygame.transform.scale(image, (96, 54))
    return len({small.get_at((x, y))[:3] for x in range(96) for y in range(54)})


def test_a_lobby_screenshot_is_the_screen_size_and_shows_tiles(tmp_path):
    for size, tables in (("1920x1080", 16), ("1080x1920", 60)):
        out = tmp_path / f"lobby-{tables}.png"
        done = scoreboard("screenshot", "-o", str(out), "--lobby", str(tables), "--size", size)
        assert done.returncode == 0, done.stderr
        image = pygame.image.load(str(out))
        assert "x".join(map(str, image.get_size())) == size
        assert colours(out) > 20  # tiles, marks and text, not a blank page


def test_a_rotated_lobby_screenshot_is_turned_for_the_monitor(tmp_path):
    out = tmp_path / "turned.png"
    done = scoreboard("screenshot", "-o", str(out), "--lobby", "8", "--rotate", "90")
    assert done.returncode == 0, done.stderr
    assert pygame.image.load(str(out)).get_size() == (1920, 1080)


def test_a_lobby_of_no_tables_or_with_a_shoe_is_refused_in_one_line(tmp_path):
    done = scoreboard("screenshot", "-o", str(tmp_path / "x.png"), "--lobby", "0")
    assert done.returncode == 2 and "--lobby" in done.stderr and "Traceback" not in done.stderr
    done = scoreboard("screenshot", "-o", str(tmp_path / "x.png"), "--lobby", "4", "--seed", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr

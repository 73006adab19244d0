"""The verdict of ``scoreboard bench`` as a pure function of hand-made figures.

Each kind of failure is named in the one line, with its figure and limit;
only the screen's size counts (the reference sizes are for information); a
figure that could not be measured is said, and neither passes nor fails.
"""

from __future__ import annotations

import dataclasses

from scoreboard.bench.frames import FrameFigures
from scoreboard.bench.idle import IdleFigure
from scoreboard.bench.memory import MemoryFigure
from scoreboard.bench.report import as_json, as_text
from scoreboard.bench.results import Latency, Results
from scoreboard.bench.stats import Spread
from scoreboard.bench.verdict import checks, verdict

SCREEN, FULL_HD, UHD = (1280, 720), (1920, 1080), (3840, 2160)


def ms(median: float, p99: float) -> Spread:
    return Spread(median, p99, 50, median)


def frames(size: tuple[int, int], coup: float = 5.0, animation: float = 2.0, full: float = 9.0):
    return FrameFigures(
        size, 0, ms(coup / 2, coup), ms(animation / 2, animation), ms(full / 2, full)
    )


def results(
    *,
    screen: tuple[int, int] = SCREEN,
    idle: float = 0.5,
    flip: float | None = 20.0,
    driver: str = "x11",
    **frame,
) -> Results:
    shown = [frames(screen, **frame)] + [
        frames(size, 30.0, 30.0, 40.0) for size in (FULL_HD, UHD) if size != screen
    ]
    latency = (
        Latency(ms(10.0, flip), ms(3.0, 5.0), 100, 100)
        if flip is not None
        else Latency.not_measured("mosquitto not installed")
    )
    return Results(
        screen=screen,
        road_append_us=Spread(9.0, 20.0, 1000),
        frames=tuple(shown),
        idle=IdleFigure(idle, 10.0),
        memory=MemoryFigure(200.0, (150.0, 180.0, 181.0, 181.5)),
        latency=latency,
        display={"video_driver": driver, "display_copy": driver != "dummy"},
    )


def line(figures: Results) -> str:
    return verdict(checks(figures)).line


def test_figures_within_every_limit_pass_though_the_reference_sizes_miss() -> None:
    judged = verdict(checks(results()))
    assert judged.passed is True
    assert judged.line == "PASS: ready for the floor"


def test_a_slow_full_frame_at_the_screens_size_fails_naming_figure_and_limit() -> None:
    figures = results(screen=UHD, full=23.1)
    judged = verdict(checks(figures))
    assert judged.passed is False
    assert judged.line == "FAIL: full frame p99 23.1 ms at 3840x2160 > 16.7 ms"


def test_a_slow_coup_update_fails() -> None:
    assert line(results(coup=17.0)) == "FAIL: per-coup update p99 17.0 ms at 1280x720 > 16.7 ms"


def test_a_slow_animation_frame_fails() -> None:
    assert (
        line(results(animation=20.5)) == "FAIL: animation frame p99 20.5 ms at 1280x720 > 16.7 ms"
    )


def test_a_busy_idle_loop_fails() -> None:
    assert line(results(idle=2.5)) == "FAIL: idle CPU 2.50 % > 2 %"


def test_a_slow_publish_to_flip_fails() -> None:
    assert line(results(flip=61.8)) == "FAIL: publish→flip p99 61.8 ms > 50 ms"


def test_coups_never_shown_fail_even_when_the_shown_ones_were_quick() -> None:
    base = results()
    figures = dataclasses.replace(
        base,
        latency=dataclasses.replace(base.latency, shown=97, failed="3 of 100 coups never shown"),
    )
    assert line(figures) == "FAIL: publish→flip p99 failed: 3 of 100 coups never shown"


def test_every_failed_figure_is_named_in_the_one_line() -> None:
    found = line(results(idle=3.0, full=30.0, flip=70.0))
    assert found.startswith("FAIL: ")
    assert found.count(";") == 2
    for part in (
        "full frame p99 30.0 ms at 1280x720",
        "idle CPU 3.00 %",
        "publish→flip p99 70.0 ms",
    ):
        assert part in found


def test_a_screen_size_the_display_cannot_open_fails() -> None:
    base = results(screen=UHD)
    figures = dataclasses.replace(
        base,
        frames=base.frames[1:],
        frames_failed={"3840x2160": "the display cannot show 3840x2160: no such mode"},
    )
    judged = verdict(checks(figures))
    assert judged.passed is False
    assert (
        judged.line
        == "FAIL: frames at 3840x2160 failed: the display cannot show 3840x2160: no such mode"
    )
    report = as_json(figures, checks(figures), judged)
    assert report["frame_full_ms"]["3840x2160"] is None
    assert report["frame_failed"] == {
        "3840x2160": "the display cannot show 3840x2160: no such mode"
    }


def test_a_figure_not_measured_is_said_and_neither_passes_nor_fails() -> None:
    figures = results(flip=None)
    judged = verdict(checks(figures))
    assert judged.passed is True
    assert (
        judged.line
        == "PASS as far as measured (not measured: publish→flip p99: mosquitto not installed)"
    )
    failing = verdict(checks(results(flip=None, idle=5.0)))
    assert failing.line == "FAIL: idle CPU 5.00 % > 2 %"


def test_the_json_says_null_and_why_never_a_number_for_what_was_not_measured() -> None:
    figures = results(flip=None)
    found = checks(figures)
    report = as_json(figures, found, verdict(found))
    assert report["publish_flip_ms"] is None
    assert report["publish_flip_skipped"] == "mosquitto not installed"
    latency = next(check for check in report["checks"] if check["name"] == "publish→flip p99")
    assert (latency["value"], latency["status"], latency["reason"]) == (
        None,
        "skipped",
        "mosquitto not installed",
    )
    assert set(report["frame_full_ms"]) == {"1280x720", "1920x1080", "3840x2160"}


def test_the_text_report_ends_with_the_verdict_and_shows_the_skip() -> None:
    figures = results(flip=None, idle=2.5, driver="dummy")
    found = checks(figures)
    text = as_text(figures, found, verdict(found))
    assert text.splitlines()[-1] == "FAIL: idle CPU 2.50 % > 2 %"
    assert "publish→flip (ms)     skipped: mosquitto not installed" in text
    assert "dummy driver: no real display copy" in text


def test_memory_growth_is_counted_after_the_caches_filled() -> None:
    memory = MemoryFigure(200.0, (150.0, 180.0, 181.0, 181.5))
    assert memory.settled_shoe == 2
    assert memory.growth_mib == 1.5
    assert memory.growth_per_shoe_kib == 768.0


def test_frames_that_never_reached_a_screen_are_never_ready_for_the_floor() -> None:
    judged = verdict(checks(results(driver="dummy")))
    assert judged.passed is True
    assert "ready for the floor" not in judged.line
    assert judged.line == (
        "PASS as far as measured (not measured: copy to the screen: "
        "no screen (dummy driver): run it on the box's own display)"
    )

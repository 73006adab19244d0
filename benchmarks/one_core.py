"""A benchmark of one core's work runs on one core, whatever else the box is doing."""

from __future__ import annotations

import os


def pin_to_one_core() -> str:
    """Pin this process to its first allowed core; the words to print beside the figures."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        return "pinned to one core"
    return "not pinned"

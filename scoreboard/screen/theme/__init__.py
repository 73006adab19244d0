"""Themes: YAML files checked into a frozen :class:`Theme`.

Public: ``loading`` (find, list and load a theme), ``values`` (the frozen values a
theme is made of), ``fonts`` and ``images`` (files tried in a child process before
the kiosk opens them).  Private: ``_checks`` and ``_fields`` (the validation, every
error collected) and ``_child_check`` (a file tried in a child process).
"""

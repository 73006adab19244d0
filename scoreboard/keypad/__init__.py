"""The dealer keypad: key presses to table events, debounced, journaled, published.

Public: ``feed`` (:class:`KeypadFeed`, the display's feed when the dealer enters
results) and ``publish`` (:class:`KeypadPublisher`: the keypad's table published as
a controller would).  Private: ``_debounce`` (one press is one press, however the
contact bounces) and ``_keys`` (which key does what).
"""

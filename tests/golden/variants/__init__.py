"""Golden records of the rule options and presets.

A package only so that pytest imports ``make_golden.py`` here as ``variants.make_golden``:
``tests/golden/make_golden.py`` already takes the plain name ``make_golden``.
"""

"""The bottom layer every folder may import: one-line input errors, atomic
writes, YAML load and validate, downloads, sizes. It imports no folder of
this repository (tests/test_imports.py checks the direction)."""

## src/config — see doc/ARCHITECTURE.md.

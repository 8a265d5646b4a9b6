## src/ui — see doc/ARCHITECTURE.md.

## src/sim — see doc/ARCHITECTURE.md.

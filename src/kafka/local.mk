## src/kafka — see doc/ARCHITECTURE.md.

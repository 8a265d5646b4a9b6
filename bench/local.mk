## bench — scale and cost benchmarks (`make bench`), not part of `make check`.

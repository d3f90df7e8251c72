"""Benchmarks of the MemoryLayer stack (latency, throughput, retrieval quality)."""

"""Side-by-side benchmark: our stack vs the reference memorylayer-server 0.2.0, same workload over HTTP.

.venv/bin/python -m bench.compare [--sizes 1000,10000] [--samples 200] [--seconds 10]
"""

"""Graph analysis of a workspace's association graph: small pure-Python algorithms over a bounded graph."""

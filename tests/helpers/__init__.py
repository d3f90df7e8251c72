"""Helpers the test files share (request headers, sessions, memories, thread jobs), written once."""

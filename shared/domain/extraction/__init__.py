"""Conversations in, durable memories out: extractors propose candidates, the writer decides."""

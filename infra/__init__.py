"""The MemoryLayer CDK app: one construct per concern, composed in :mod:`infra.stack`."""

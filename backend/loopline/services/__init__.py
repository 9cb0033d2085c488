"""Use cases. Services take a `Session` and schemas, may `flush()`, never `commit()`."""

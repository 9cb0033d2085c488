"""Request and response bodies. `XCreate`, `XUpdate` (all optional, applied with exclude_unset), `XRead`.

Lengths are metres in the API (stored as integer millimetres), speeds Gb/s, U positions from 1
at the bottom of the rack.
"""

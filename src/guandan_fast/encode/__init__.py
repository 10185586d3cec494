"""Encoders for learning agents: states, action features and the fixed action space
(:mod:`guandan_fast.encode.actions`)."""

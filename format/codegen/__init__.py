"""Generators that turn the API table into headers, schema and checks."""

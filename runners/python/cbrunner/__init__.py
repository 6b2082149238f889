"""The Python runner's skeleton (docs/adding-a-runner.md): one module per role.

protocol (framing, error kinds, hex), dispatch (request → library call), registry (what a
lib_*.py file provides, and finding them), timing (the timed batches), hello.
"""

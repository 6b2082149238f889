"""leak."""

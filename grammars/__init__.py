"""ctrs: grammars."""

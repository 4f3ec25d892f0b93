"""ctrs: emitters."""

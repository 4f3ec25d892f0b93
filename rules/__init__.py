"""ctrs: rules."""

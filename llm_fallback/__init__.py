"""ctrs: llm_fallback."""

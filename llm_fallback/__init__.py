"""LLM fallback for constructs without a rule, verified before accepted (``ctrs translate --llm``).

Off by default; nothing here is imported unless ``--llm`` is given. Only a construct that raised a
NO_RULE diagnostic (CTRS-E100) goes to the model, with its Python slice, its typed scope and short porting
rules; the answer (a fenced ```rust block of `let` statements) is vetted (answer.py), spliced into the
model at the construct (splice.py), built and proven by Tile IR against the reference for every
specialisation (verify.py); only an IR-equivalent answer is accepted (fallback.py). Answers are cached
content-addressed (client.py), so reruns are reproducible offline.
"""

"""What users run: the command line (cli), check, regen, capture / record of launches, reports, writing outputs.
"""

# ctrs test data written for this repo: a package whose kernel file uses a relative import.
